// The one typed client of the API. The web app signs in with cookies: an HttpOnly access
// cookie sent with every request, an HttpOnly refresh cookie scoped to /api/v1/auth, and a
// readable CSRF cookie whose value goes back in X-CSRF-Token on every request (double
// submit; the server checks it on unsafe methods and on refresh). When the access cookie has
// expired the API answers 401: the session is renewed once, quietly, and the call retried.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Link = Schemas["Link"];
export type LinkInput = Schemas["LinkInput"];
export type LinkPatch = Schemas["LinkPatch"];
export type Workspace = Schemas["Workspace"];
export type User = Schemas["User"];
export type Me = Schemas["Me"];
export type PlanStatus = Schemas["PlanStatus"];
export type LinkStats = Schemas["LinkStats"];
export type ErrorCode = Schemas["ErrorDetail"]["code"];

export const csrfCookie = "sl_csrf";
export const csrfHeader = "X-CSRF-Token";

/** The value of the CSRF cookie in a document.cookie string, or "". */
export function csrfToken(cookies: string): string {
  for (const part of cookies.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === csrfCookie) return decodeURIComponent(rest.join("="));
  }
  return "";
}

/** An error answer of the API, or a failure to reach it (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network",
    message: string,
    readonly requestId?: string,
    /** Finer than code and stable (the API's `reason`): what the app translates. */
    readonly reason: string = code,
    /** The input the error is about (the API's `field`), such as "alias". */
    readonly field?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Turns whatever a failed call gave into an ApiError. */
export function toApiError(status: number, body: unknown): ApiError {
  const detail = (body as { error?: { code?: string; message?: string; request_id?: string; reason?: string; field?: string } } | undefined)?.error;
  if (detail?.code && detail.message) {
    return new ApiError(status, detail.code as ErrorCode, detail.message, detail.request_id, detail.reason || detail.code, detail.field || undefined);
  }
  return new ApiError(status, status === 0 ? "network" : "internal", typeof body === "string" && body ? body : `HTTP ${status}`);
}

export interface SessionOptions {
  /** The fetch to call; the browser's by default. */
  fetch?: typeof fetch;
  /** The cookies visible to scripts; document.cookie by default. */
  cookies?: () => string;
  /** Called when the session could not be renewed: the person must sign in again. */
  onExpired?: () => void;
  /** Origin of the API; "" (the page's own) in the browser. */
  baseUrl?: string;
}

/** The session's fetch: what openapi-fetch calls, and the way to end the session's calls. */
export interface SessionFetch {
  (req: Request): Promise<Response>;
  /**
   * Logging out: every call under way is cancelled and new ones are refused (the auth calls,
   * the logout first, excepted) until the returned function is called, so that no page's call
   * reaches the server after its session ended and comes back 401.
   */
  ending(): () => void;
}

/**
 * A fetch that adds the CSRF header, renews an expired session once and retries. Renewals
 * are shared: a refresh token works once, so two calls failing at the same moment must not
 * both spend it (the server's grace period covers two tabs, not a burst of calls).
 */
export function sessionFetch(opts: SessionOptions = {}): SessionFetch {
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const cookies = opts.cookies ?? (() => document.cookie);
  const base = opts.baseUrl ?? "";
  let renewing: Promise<boolean> | null = null;
  // The session's calls carry this controller's signal; ending the session aborts it.
  let calls = new AbortController();
  let ended = 0;

  const withCsrf = (req: Request): Request => {
    const headers = new Headers(req.headers);
    const token = csrfToken(cookies());
    if (token) headers.set(csrfHeader, token);
    return new Request(req, { headers, credentials: "same-origin", signal: either(req.signal, calls.signal) });
  };
  const renew = (): Promise<boolean> => {
    renewing ??= doFetch(
      new Request(base + "/api/v1/auth/refresh", {
        method: "POST",
        credentials: "same-origin",
        headers: { [csrfHeader]: csrfToken(cookies()) },
        signal: calls.signal,
      }),
    )
      .then((r) => r.ok)
      .catch(() => false)
      .finally(() => {
        renewing = null;
      });
    return renewing;
  };

  const f = async (req: Request) => {
    const path = new URL(req.url, "http://x").pathname;
    const auth = path.startsWith("/api/v1/auth/");
    if (ended > 0 && !auth) throw new DOMException("the session is ending", "AbortError");
    const retry = req.clone();
    const res = await doFetch(withCsrf(req));
    if (res.status !== 401 || auth) return res;
    if (await renew()) {
      const again = await doFetch(withCsrf(retry));
      if (again.status !== 401) return again;
    }
    opts.onExpired?.();
    return res;
  };
  return Object.assign(f, {
    ending() {
      ended++;
      calls.abort(new DOMException("the session is ending", "AbortError"));
      calls = new AbortController();
      let done = false;
      return () => {
        if (!done) ended--;
        done = true;
      };
    },
  });
}

/** A signal aborted when either is (AbortSignal.any where the browser has it). */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([a, b]);
  return a.aborted ? a : b;
}

/** Listeners told when the session has ended and could not be renewed. */
const expiredListeners = new Set<() => void>();
export function onSessionExpired(f: () => void): () => void {
  expiredListeners.add(f);
  return () => expiredListeners.delete(f);
}

export function makeClient(opts: SessionOptions = {}, f: SessionFetch = sessionFetch(opts)) {
  return createClient<paths>({ baseUrl: opts.baseUrl ?? "", fetch: f });
}

const appFetch = sessionFetch({ onExpired: () => expiredListeners.forEach((f) => f()) });
export const api = makeClient({}, appFetch);

/** Logging out of the app: see SessionFetch.ending. */
export const endSessionCalls = (): (() => void) => appFetch.ending();

/** The data of a call, or its error thrown as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result;
  try {
    result = await call;
  } catch (e) {
    throw new ApiError(0, "network", e instanceof Error ? e.message : String(e));
  }
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.response.status, result.error);
  return result.data as T;
}
