// Pages as their own chunks that can be fetched ahead. React holds a page that suspended on its
// chunk for at least 300 ms after showing the fallback; a page whose chunk was fetched while
// the session was being checked renders at once instead (its loader answers synchronously).
import { lazy, type ComponentType, type LazyExoticComponent } from "react";

type AnyComponent = ComponentType<any>;

export interface Preloadable {
  preload: () => Promise<unknown>;
}

export function lazyPage<C extends AnyComponent>(load: () => Promise<{ default: C }>): LazyExoticComponent<C> & Preloadable {
  let loaded: { default: C } | undefined;
  let loading: Promise<{ default: C }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (m) => (loaded = m),
      (e: unknown) => {
        loading = undefined; // a failed fetch may be tried again
        throw e;
      },
    );
    return loading;
  };
  // A thenable that calls back at once: React's lazy then takes the module without suspending.
  const now = (m: { default: C }) => ({ then: (resolve: (m: { default: C }) => void) => resolve(m) }) as unknown as Promise<{ default: C }>;
  return Object.assign(lazy(() => (loaded ? now(loaded) : preload())), { preload });
}

/** Fetches ahead the page that path (under /app) opens, by the first pattern that matches. */
export function preloadFor(path: string, pages: [RegExp, Preloadable][]) {
  const page = pages.find(([re]) => re.test(path))?.[1];
  void page?.preload().catch(() => undefined);
}
