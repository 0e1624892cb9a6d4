// A page's query as the address holds it now. React Router's setSearchParams hands its updater
// the query its hook read at the component's last render: two updates from two components (a
// range chosen, then a country picked before the second re-rendered) would write the first's
// change away. Updaters start from the address instead.
import { useSearchParams } from "react-router";

/** The address's query at this moment. */
export function currentSearch(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

/** The query as the last render read it, and a setter whose change starts from the address's
 * query at the moment it runs. */
export function useLiveSearchParams(): [URLSearchParams, (change: (p: URLSearchParams) => URLSearchParams, replace?: boolean) => void] {
  const [params, setParams] = useSearchParams();
  return [params, (change, replace) => setParams(() => change(currentSearch()), replace ? { replace: true } : undefined)];
}
