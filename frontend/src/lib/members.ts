// How the Members page speaks of the plan's member places.

/** How full the plan's member places are: calm below 80 % (and always on small plans below
 * the limit, where one more member is a fifth or more), near above, full at the limit. */
export function memberLevel(used: number, limit: number | null | undefined): "calm" | "near" | "full" {
  if (limit == null) return "calm";
  if (used >= limit) return "full";
  return limit >= 5 && used >= limit * 0.8 ? "near" : "calm";
}

/** Whether one more invitation would pass the plan: invitations still valid (waiting) take a
 * place each, as the API counts them; expired ones take none. */
export function invitesFull(members: number, waiting: number, limit: number | null | undefined): boolean {
  return limit != null && members + waiting >= limit;
}

/** Days left before an invitation expires at expiresAt, counting a day begun (7 when just
 * sent); 0 within the last day, "expired" once the server says so or the time has passed. */
export function invitationDaysLeft(expiresAt: string, expired: boolean, now: number = Date.now()): number | "expired" {
  const left = Date.parse(expiresAt) - now;
  if (expired || !(left > 0)) return "expired";
  return left < 86_400_000 ? 0 : Math.ceil(left / 86_400_000);
}
