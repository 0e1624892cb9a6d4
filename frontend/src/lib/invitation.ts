// Invitation mail links: /app/invitations/{id}?token=… (older mails carry no token).

export interface InvitationLink {
  id: number;
  token?: string;
}

/** The invitation a path of the app (such as the page a person was going to) is the link of. */
export function invitationLink(path: string | undefined): InvitationLink | undefined {
  if (!path) return undefined;
  const u = new URL(path, "http://app.invalid");
  const m = /^\/invitations\/(\d+)$/.exec(u.pathname);
  if (!m) return undefined;
  const id = Number(m[1]);
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  return { id, token: u.searchParams.get("token") || undefined };
}
