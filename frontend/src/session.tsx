// Who is signed in and which workspace they are working in. The workspace is kept in
// localStorage, so a reload or a deep link opens the one last used; a link may name one
// (?workspace=ID).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";
import { api, ApiError, csrfToken, endSessionCalls, onSessionExpired, unwrap, type User, type Workspace } from "./api/client";

const workspaceKey = "sl.workspace";

export function useMe() {
  return useQuery({
    queryKey: ["me"],
    queryFn: async () => {
      // Every session has the CSRF cookie (it lives as long as the refresh cookie): without
      // it nobody is signed in, and asking would only earn a 401.
      if (!csrfToken(document.cookie)) return null;
      try {
        return await unwrap(api.GET("/api/v1/me"));
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: 60_000,
  });
}

interface Session {
  user: User;
  workspaces: Workspace[];
  workspace: Workspace;
  selectWorkspace: (id: number) => void;
}

const SessionContext = createContext<Session | null>(null);

/** The signed-in session; only under SessionProvider with someone signed in. */
export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error("useSession outside a signed-in page");
  return s;
}

/** The current workspace's ID, the first part of every workspace-scoped query key. */
export function useWorkspaceId(): number {
  return useSession().workspace.id;
}

export function storedWorkspace(): number | undefined {
  const v = Number(localStorage.getItem(workspaceKey));
  return Number.isInteger(v) && v > 0 ? v : undefined;
}

/** Picks the workspace to show: the stored one when the user still has it, else the first. */
export function chooseWorkspace(workspaces: Workspace[], stored: number | undefined): Workspace | undefined {
  return workspaces.find((w) => w.id === stored) ?? workspaces[0];
}

/**
 * The workspace a link into the app names (?workspace=ID, as payment pages send people back
 * with), when the person is a member of it; it becomes the one kept.
 */
function linkedWorkspace(workspaces: Workspace[]): number | undefined {
  const v = Number(new URLSearchParams(window.location.search).get("workspace"));
  if (!workspaces.some((w) => w.id === v)) return storedWorkspace();
  localStorage.setItem(workspaceKey, String(v));
  return v;
}

export function SessionProvider({ user, workspaces, children }: { user: User; workspaces: Workspace[]; children: ReactNode }) {
  const [selected, setSelected] = useState(() => linkedWorkspace(workspaces));
  const workspace = chooseWorkspace(workspaces, selected);
  const selectWorkspace = useCallback((id: number) => {
    localStorage.setItem(workspaceKey, String(id));
    setSelected(id);
  }, []);
  const value = useMemo(
    () => (workspace ? { user, workspaces, workspace, selectWorkspace } : null),
    [user, workspaces, workspace, selectWorkspace],
  );
  if (!value) return null;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Sends the person to the login page when the session ends and cannot be renewed. */
export function useSessionExpiry() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(
    () =>
      onSessionExpired(() => {
        client.setQueryData(["me"], null);
        if (!location.pathname.startsWith("/login")) navigate("/login", { replace: true, state: { from: location.pathname } });
      }),
    [client, navigate, location],
  );
}

/**
 * Logging out: the page's calls under way are cancelled and no new one starts (each would be
 * answered 401 once the session has ended), the session ends on the server, everything cached
 * goes, the login page shows.
 */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      void client.cancelQueries();
      const resume = endSessionCalls();
      try {
        await unwrap(api.POST("/api/v1/auth/logout"));
      } finally {
        client.clear();
        client.setQueryData(["me"], null);
        navigate("/login", { replace: true });
        // The signed-in pages unmount in the render this navigation starts; calls resume after it.
        setTimeout(resume, 0);
      }
    },
  });
}
