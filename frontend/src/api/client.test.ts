import { describe, expect, it, vi } from "vitest";
import { ApiError, csrfToken, makeClient, sessionFetch, toApiError, unwrap } from "./client";

const base = "http://app.test";

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

describe("csrfToken", () => {
  it("reads the sl_csrf cookie among others", () => {
    expect(csrfToken("a=1; sl_csrf=abc%3D; b=2")).toBe("abc=");
    expect(csrfToken("sl_csrf=x")).toBe("x");
    expect(csrfToken("sl_csrfx=1; other=2")).toBe("");
    expect(csrfToken("")).toBe("");
  });
});

describe("sessionFetch", () => {
  it("sends the CSRF cookie's value in X-CSRF-Token", async () => {
    const seen: Request[] = [];
    const f = sessionFetch({ baseUrl: base, cookies: () => "sl_csrf=tok", fetch: async (r) => (seen.push(r as Request), json(200, {})) });
    await f(new Request(base + "/api/v1/workspaces/1/links", { method: "POST", body: "{}" }));
    expect(seen[0]!.headers.get("X-CSRF-Token")).toBe("tok");
  });

  it("renews an expired session once and retries the call with its body", async () => {
    const calls: string[] = [];
    let renewed = false;
    const f = sessionFetch({
      baseUrl: base,
      cookies: () => (renewed ? "sl_csrf=new" : "sl_csrf=old"),
      fetch: async (input) => {
        const r = input as Request;
        const path = new URL(r.url).pathname;
        calls.push(`${r.method} ${path} ${r.headers.get("X-CSRF-Token")} ${r.body ? await r.text() : ""}`.trim());
        if (path === "/api/v1/auth/refresh") {
          renewed = true;
          return json(200, {});
        }
        return renewed ? json(201, { id: 1 }) : json(401, { error: { code: "unauthorized", message: "expired" } });
      },
    });
    const res = await f(new Request(base + "/api/v1/workspaces/1/links", { method: "POST", body: '{"url":"https://a.example"}' }));
    expect(res.status).toBe(201);
    expect(calls).toEqual([
      'POST /api/v1/workspaces/1/links old {"url":"https://a.example"}',
      "POST /api/v1/auth/refresh old",
      'POST /api/v1/workspaces/1/links new {"url":"https://a.example"}',
    ]);
  });

  it("shares one renewal between calls that fail together", async () => {
    let refreshes = 0;
    let renewed = false;
    const f = sessionFetch({
      baseUrl: base,
      cookies: () => "",
      fetch: async (input) => {
        const path = new URL((input as Request).url).pathname;
        if (path === "/api/v1/auth/refresh") {
          refreshes++;
          await new Promise((r) => setTimeout(r, 10));
          renewed = true;
          return json(200, {});
        }
        return renewed ? json(200, {}) : json(401, {});
      },
    });
    const answers = await Promise.all([1, 2, 3].map((i) => f(new Request(`${base}/api/v1/workspaces/${i}`))));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(refreshes).toBe(1);
  });

  it("tells when the session cannot be renewed, and never renews for the auth calls", async () => {
    const expired = vi.fn();
    const paths: string[] = [];
    const f = sessionFetch({
      baseUrl: base,
      cookies: () => "",
      onExpired: expired,
      fetch: async (input) => {
        paths.push(new URL((input as Request).url).pathname);
        return json(401, { error: { code: "unauthorized", message: "no" } });
      },
    });
    expect((await f(new Request(base + "/api/v1/me"))).status).toBe(401);
    expect(paths).toEqual(["/api/v1/me", "/api/v1/auth/refresh"]);
    expect(expired).toHaveBeenCalledTimes(1);
    paths.length = 0;
    expect((await f(new Request(base + "/api/v1/auth/login", { method: "POST", body: "{}" }))).status).toBe(401);
    expect(paths).toEqual(["/api/v1/auth/login"]);
  });
});

describe("ending the session's calls", () => {
  it("cancels the calls under way, refuses new ones but the auth calls, and resumes", async () => {
    const sent: string[] = [];
    const f = sessionFetch({
      baseUrl: base,
      cookies: () => "sl_csrf=tok",
      fetch: (input) => {
        const r = input as Request;
        sent.push(new URL(r.url).pathname);
        if (r.url.endsWith("/slow")) {
          return new Promise((_, reject) => r.signal.addEventListener("abort", () => reject(r.signal.reason)));
        }
        return Promise.resolve(json(200, {}));
      },
    });
    const underWay = f(new Request(base + "/api/v1/workspaces/1/slow"));
    const resume = f.ending();
    await expect(underWay).rejects.toMatchObject({ name: "AbortError" });
    await expect(f(new Request(base + "/api/v1/workspaces/1/links"))).rejects.toMatchObject({ name: "AbortError" });
    expect((await f(new Request(base + "/api/v1/auth/logout", { method: "POST" }))).status).toBe(200);
    resume();
    resume(); // twice is once
    expect((await f(new Request(base + "/api/v1/workspaces/1/links"))).status).toBe(200);
    expect(sent).toEqual(["/api/v1/workspaces/1/slow", "/api/v1/auth/logout", "/api/v1/workspaces/1/links"]);
  });
});

describe("the typed client", () => {
  it("gives the server's error code and message", async () => {
    const client = makeClient({
      baseUrl: base,
      cookies: () => "",
      fetch: async () => json(403, { error: { code: "plan_required", message: "password needs the trial, personal or enterprise plan" } }),
    });
    const err = await unwrap(client.POST("/api/v1/workspaces/{workspace}/links", { params: { path: { workspace: 1 } }, body: { url: "https://a.example", password: "secret" } })).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, code: "plan_required", message: "password needs the trial, personal or enterprise plan" });
  });

  it("reports an unreachable server as a network error", async () => {
    const client = makeClient({ baseUrl: base, cookies: () => "", fetch: async () => Promise.reject(new TypeError("Failed to fetch")) });
    await expect(unwrap(client.GET("/api/v1/me"))).rejects.toMatchObject({ status: 0, code: "network" });
  });

  it("keeps the request ID of a 5xx answer", () => {
    expect(toApiError(500, { error: { code: "internal", message: "internal error", request_id: "abc" } })).toMatchObject({ requestId: "abc" });
    expect(toApiError(502, "Bad Gateway")).toMatchObject({ code: "internal", message: "Bad Gateway" });
  });
});
