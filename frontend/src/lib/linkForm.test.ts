import { describe, expect, it } from "vitest";
import type { Link } from "../api/client";
import { createBody, emptyLinkForm, fromLink, gatedRulesInUse, patchBody, validateLinkForm, type LinkFormState } from "./linkForm";

const form = (patch: Partial<LinkFormState>): LinkFormState => ({ ...emptyLinkForm(), url: "https://example.com/a", ...patch });

const link: Link = {
  id: 7, workspace_id: 1, domain: "sho.rt", code: "abc123", is_alias: false, short_url: "http://sho.rt/abc123",
  url: "https://example.com/a", title: "", redirect_status: 302, forward_query: false, status: "active",
  expires_at: null, created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z", has_password: true,
  max_visits: null, geo: null, device_targets: null, country_targets: null,
  variants: [{ url: "https://example.com/x", weight: 50 }, { url: "https://example.com/y", weight: 50 }],
  wechat_guide: false, form: null, og: null,
  moderation: { state: "pending", score: null, category: "", reason: "", reviewed_at: null },
};

describe("validateLinkForm", () => {
  it("accepts a plain link", () => {
    expect(validateLinkForm(form({}), false)).toEqual({});
  });

  it.each([
    ["url", form({ url: "" }), "urlRequired"],
    ["url", form({ url: "javascript:alert(1)" }), "urlScheme"],
    ["url", form({ url: "https://user:pw@example.com" }), "urlCredentials"],
    ["alias", form({ alias: "has space" }), "alias"],
    ["alias", form({ alias: "Admin" }), "aliasReserved"],
    ["password", form({ password: "abc" }), "linkPassword"],
    ["max_visits", form({ maxVisits: "0" }), "maxVisits"],
    ["max_visits", form({ maxVisits: "1.5" }), "maxVisits"],
    ["expires_at", form({ expiresAt: "2000-01-01T00:00" }), "future"],
    ["geo", form({ geoMode: "allow", geoCountries: "" }), "countriesRequired"],
    ["geo", form({ geoMode: "deny", geoCountries: "US, USA" }), "country"],
    ["variants", form({ variants: [{ url: "https://a.example", weight: "1" }] }), "variantsCount"],
    ["variants.1.weight", form({ variants: [{ url: "https://a.example", weight: "1" }, { url: "https://b.example", weight: "101" }] }), "weight"],
    ["variants.0.url", form({ variants: [{ url: "ftp://a.example", weight: "1" }, { url: "https://b.example", weight: "1" }] }), "urlScheme"],
    ["country_targets.1.country", form({ countryTargets: [{ country: "de", url: "https://a.example" }, { country: "DE", url: "https://b.example" }] }), "countryTwice"],
    ["form.0.name", form({ formFields: [{ name: "Phone", label: "Phone", type: "phone", required: true, options: "" }] }), "fieldName"],
    ["form.0.options", form({ formFields: [{ name: "size", label: "Size", type: "choice", required: true, options: "S\n" }] }), "options"],
    ["og.title", form({ og: { title: "", description: "about", image: "" } }), "ogTitle"],
  ])("refuses a bad %s", (field, state, key) => {
    expect(validateLinkForm(state, false)[field]?.key).toBe(key);
  });

  it("does not check the alias of a link being edited (it cannot change)", () => {
    expect(validateLinkForm(form({ alias: "admin" }), true)).toEqual({});
  });
});

describe("createBody", () => {
  it("sends the rules that are set and nothing else", () => {
    const body = createBody(
      form({
        alias: " promo ",
        password: "open sesame",
        variants: [{ url: "https://example.com/x", weight: "70" }, { url: "https://example.com/y", weight: "30" }],
        geoMode: "allow",
        geoCountries: "cn, us",
        countryTargets: [{ country: "de", url: "https://example.de" }],
      }),
    );
    expect(body).toEqual({
      url: "https://example.com/a",
      alias: "promo",
      password: "open sesame",
      geo: { allow: ["CN", "US"] },
      country_targets: { DE: "https://example.de" },
      variants: [{ url: "https://example.com/x", weight: 70 }, { url: "https://example.com/y", weight: 30 }],
    });
  });

  it("names a custom domain when one is picked, none for the default", () => {
    expect(createBody(form({ domain: "go.example.com" }))).toEqual({ url: "https://example.com/a", domain: "go.example.com" });
    expect(createBody(form({}))).not.toHaveProperty("domain");
  });
});

describe("patchBody", () => {
  it("is empty when nothing changed", () => {
    expect(patchBody(link, fromLink(link))).toEqual({});
  });

  it("carries what changed, null for a removed rule, and keeps the password unless asked", () => {
    const s = fromLink(link);
    s.variants = [];
    s.maxVisits = "10";
    s.title = "Spring sale";
    expect(patchBody(link, s)).toEqual({ variants: null, max_visits: 10, title: "Spring sale" });
    s.removePassword = true;
    expect(patchBody(link, s)).toMatchObject({ password: null });
    s.password = "new secret";
    expect(patchBody(link, s)).toMatchObject({ password: "new secret" });
  });
});

describe("plans and gates", () => {
  it("lists the gated rules a form turns on", () => {
    expect(gatedRulesInUse(form({ password: "1234", wechatGuide: true }))).toEqual(["password", "wechat_guide"]);
    expect(gatedRulesInUse(form({}))).toEqual([]);
  });
});
