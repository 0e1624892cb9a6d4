import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { useWorkspaceId } from "../session";

/** The workspace's tags: the links list's filter and chips, the link form's suggestions. */
export function useTags(enabled = true) {
  const ws = useWorkspaceId();
  return useQuery({
    queryKey: [ws, "tags"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/tags", { params: { path: { workspace: ws } } })),
    enabled,
  });
}
