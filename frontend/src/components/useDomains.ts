import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { useWorkspaceId } from "../session";

/** The workspace's custom domains: the Domains page, the links list's filter, the link form. */
export function useDomains(enabled = true) {
  const ws = useWorkspaceId();
  return useQuery({
    queryKey: [ws, "domains"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/domains", { params: { path: { workspace: ws } } })),
    enabled,
  });
}
