// Making a workspace from its name: the name's checks, the call, and the session's list
// refreshed before onCreated is told its ID. The workspace switcher's dialog and the page of a
// person without a workspace both use it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Workspace } from "../api/client";
import { checkWorkspaceName } from "../lib/validate";
import { notifyDone } from "./notify";
import { fieldError } from "./states";

export function useNewWorkspace(onCreated: (ws: Workspace) => void) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string>();
  const create = useMutation({
    mutationFn: (n: string) => unwrap(api.POST("/api/v1/workspaces", { body: { name: n } })),
    onSuccess: async (ws) => {
      await client.invalidateQueries({ queryKey: ["me"] });
      setName("");
      notifyDone(t("workspace.created", { name: ws.name }));
      onCreated(ws);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = checkWorkspaceName(name);
    setProblem(p ? t(`validation.${p.key}`, p.values) : undefined);
    if (!p) create.mutate(name.trim());
  };
  /** The name field's error: the app's check, else the server's about the name. */
  const nameError = problem ?? fieldError(create.error, "name");
  return { name, setName, nameError, create, submit };
}
