import { describe, expect, it } from "vitest";
import type { Link } from "../api/client";
import {
  createBody, emptyLinkForm, fromLink, gatedRulesInUse, mergeUTM, patchBody, sectionOf, sections, sectionsInUse, utmOf, validateLinkForm, type LinkFormState,
} from "./linkForm";

const form = (patch: Partial<LinkFormState>): LinkFormState => ({ ...emptyLinkForm(), url: "https://example.com/a", ...patch });

const link: Link = {
  id: 7, workspace_id: 1, domain: "sho.rt", code: "abc123", is_alias: false, short_url: "http://sho.rt/abc123",
  url: "https://example.com/a", title: "", redirect_status: 302, forward_query: false, status: "active",
  expires_at: null, archived: false, archived_at: null, created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z", has_password: true,
  max_visits: null, geo: null, device_targets: null, country_targets: null,
  variants: [{ url: "https://example.com/x", weight: 50 }, { url: "https://example.com/y", weight: 50 }],
  wechat_guide: false, form: null, og: null,
  moderation: { state: "pending", score: null, category: "", reason: "", reviewed_at: null }, tags: [],
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

describe("URLs typed without a scheme", () => {
  it("are checked and sent with https://; http:// stays", () => {
    const s = form({
      url: " example.com/page ",
      variants: [{ url: "a.example/x", weight: "50" }, { url: "http://b.example", weight: "50" }],
      devices: { ios: "apps.apple.com/app/1", android: "", desktop: "" },
      countryTargets: [{ country: "de", url: "example.de" }],
      og: { title: "Hi", description: "", image: "cdn.example.com/og.png" },
    });
    expect(validateLinkForm(s, false)).toEqual({});
    expect(createBody(s)).toMatchObject({
      url: "https://example.com/page",
      variants: [{ url: "https://a.example/x", weight: 50 }, { url: "http://b.example", weight: 50 }],
      device_targets: { ios: "https://apps.apple.com/app/1" },
      country_targets: { DE: "https://example.de" },
      og: { title: "Hi", image: "https://cdn.example.com/og.png" },
    });
  });

  it("are refused when they are no web address", () => {
    expect(validateLinkForm(form({ url: "mailto:someone@example.com" }), false).url?.key).toBe("urlScheme");
    expect(validateLinkForm(form({ url: "hello" }), false).url?.key).toBe("urlInvalid");
  });

  it("change nothing on an edit when the link already has the URL", () => {
    expect(patchBody(link, { ...fromLink(link), url: "example.com/a" })).toEqual({});
    expect(patchBody(link, { ...fromLink(link), url: "example.com/b" })).toEqual({ url: "https://example.com/b" });
  });
});

describe("sections", () => {
  it("hold every input but the main ones", () => {
    expect(sectionOf("url")).toBeUndefined();
    expect(sectionOf("alias")).toBeUndefined();
    expect(sectionOf("variants.1.weight")).toBe("ab");
    expect(sectionOf("device_targets.ios")).toBe("ab");
    expect(sectionOf("country_targets.0.url")).toBe("geo");
    expect(sectionOf("form.2.options")).toBe("form");
    expect(sectionOf("og.image")).toBe("og");
    expect(sectionOf("max_visits")).toBe("limits");
  });

  it("name each plan feature once", () => {
    const features = sections.map((x) => x.feature).filter(Boolean);
    expect(new Set(features).size).toBe(features.length);
  });

  it("are marked when their options are set", () => {
    expect(sectionsInUse(form({}))).toEqual([]);
    expect(sectionsInUse(form({ maxVisits: "5", geoMode: "deny", geoCountries: "US", redirectStatus: "301" }))).toEqual(["limits", "geo", "redirect"]);
    expect(sectionsInUse(fromLink(link), link.has_password)).toEqual(["password", "ab"]);
    expect(sectionsInUse({ ...fromLink(link), removePassword: true }, true)).toEqual(["ab"]);
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

  it("sends the tags only when they changed, [] to remove them all", () => {
    const tagged = { ...link, tags: ["Promo", "spring"] };
    const s = fromLink(tagged);
    expect(patchBody(tagged, s)).toEqual({});
    s.tags = ["Promo"];
    expect(patchBody(tagged, s)).toEqual({ tags: ["Promo"] });
    s.tags = [];
    expect(patchBody(tagged, s)).toEqual({ tags: [] });
    expect(createBody({ ...form({}), tags: ["a", "b"] })).toMatchObject({ tags: ["a", "b"] });
    expect(createBody(form({}))).not.toHaveProperty("tags");
  });
});

describe("plans and gates", () => {

  it("lists the gated rules a form turns on", () => {
    expect(gatedRulesInUse(form({ password: "1234", wechatGuide: true }))).toEqual(["password", "wechat_guide"]);
    expect(gatedRulesInUse(form({}))).toEqual([]);
  });
});

describe("mergeUTM", () => {
  it("merges as the server does", () => {
    expect(mergeUTM("https://a.example/", { source: "news", medium: "email" })).toBe("https://a.example/?utm_source=news&utm_medium=email");
    expect(mergeUTM("https://a.example/?utm_source=old&x=1", { source: "new" })).toBe("https://a.example/?utm_source=new&x=1");
    expect(mergeUTM("https://a.example/p?q=1#top", { term: "x y", content: "a&b" })).toBe("https://a.example/p?q=1&utm_term=x+y&utm_content=a%26b#top");
    expect(mergeUTM("https://a.example/?utm_medium=cpc", { source: "g" })).toBe("https://a.example/?utm_medium=cpc&utm_source=g");
    expect(mergeUTM("https://a.example/n", undefined)).toBe("https://a.example/n");
  });
  it("sends only the values set", () => {
    expect(utmOf({ source: " a ", medium: "", campaign: "", term: "", content: "" })).toEqual({ source: "a" });
    expect(utmOf({ source: "", medium: "", campaign: "", term: "", content: "" })).toBeUndefined();
  });
});
