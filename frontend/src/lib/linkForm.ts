// The link form's state, its checks (the server's, docs/api.md), and the bodies it sends: a create
// carries the rules that are set; an edit carries only what changed, null for a removed rule.
import type { Link, LinkInput, LinkPatch, PlanStatus, Schemas } from "../api/client";
import { withScheme } from "./url";
import { checkAlias, checkCountry, checkLinkPassword, checkURL as checkTyped, limits, parseCountries, type Problem } from "./validate";

// A URL is checked and sent as it is meant: "example.com/x" is https://example.com/x.
const checkURL = (s: string) => checkTyped(withScheme(s));

export type Feature = keyof PlanStatus["features"];
type FieldType = Schemas["FormField"]["type"];

export interface FormFieldState {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** Choice options, one a line. */
  options: string;
}

export interface LinkFormState {
  url: string;
  /** Host of the short URL on create: a verified custom domain, or "" for the default. */
  domain: string;
  alias: string;
  title: string;
  /** Tag names; names the workspace has no tag of make new tags. */
  tags: string[];
  redirectStatus: "301" | "302" | "307";
  forwardQuery: boolean;
  /** A datetime-local value in the browser's time zone, or "". */
  expiresAt: string;
  maxVisits: string;
  /** A new password; "" keeps the current one when editing. */
  password: string;
  removePassword: boolean;
  geoMode: "off" | "allow" | "deny";
  geoCountries: string;
  devices: { ios: string; android: string; desktop: string };
  countryTargets: { country: string; url: string }[];
  variants: { url: string; weight: string }[];
  wechatGuide: boolean;
  formFields: FormFieldState[];
  og: { title: string; description: string; image: string };
  utm: UTMState;
}

export interface UTMState {
  source: string;
  medium: string;
  campaign: string;
  term: string;
  content: string;
}

export const utmKeys = ["source", "medium", "campaign", "term", "content"] as const;

export const emptyUTM = (): UTMState => ({ source: "", medium: "", campaign: "", term: "", content: "" });

/** The UTM object a form state sends: the values set, trimmed; undefined when none is. */
export function utmOf(u: UTMState): Partial<UTMState> | undefined {
  const out: Partial<UTMState> = {};
  for (const k of utmKeys) if (u[k].trim()) out[k] = u[k].trim();
  return Object.keys(out).length ? out : undefined;
}

/**
 * The destination with the UTM parameters merged, as the server merges them: a parameter set
 * replaces the URL's own of that name in place, the others are appended in order; the other
 * parameters, their order and the fragment are kept.
 */
export function mergeUTM(url: string, u: Partial<UTMState> | undefined): string {
  if (!u || !Object.keys(u).length) return url;
  const hash = url.indexOf("#");
  const frag = hash >= 0 ? url.slice(hash) : "";
  const rest = hash >= 0 ? url.slice(0, hash) : url;
  const q = rest.indexOf("?");
  const base = q >= 0 ? rest.slice(0, q) : rest;
  const parts = q >= 0 ? rest.slice(q + 1).split("&").filter(Boolean) : [];
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, "+");
  const done = new Set<string>();
  const out: string[] = [];
  for (const p of parts) {
    let name = p.split("=")[0]!;
    try {
      name = decodeURIComponent(name);
    } catch {
      /* kept as written */
    }
    const key = name.startsWith("utm_") ? (name.slice(4) as keyof UTMState) : undefined;
    const v = key && u[key];
    if (!v) out.push(p);
    else if (!done.has(key)) {
      done.add(key);
      out.push(`utm_${key}=${enc(v)}`);
    }
  }
  for (const k of utmKeys) if (u[k] && !done.has(k)) out.push(`utm_${k}=${enc(u[k]!)}`);
  return base + (out.length ? "?" + out.join("&") : "") + frag;
}

/** The plan feature each gated rule needs (docs/rules-and-plans.md). */
export const ruleFeature = {
  password: "password",
  geo: "geo",
  country_targets: "geo",
  device_targets: "ab_test",
  variants: "ab_test",
  wechat_guide: "browser_guide",
  form: "form",
} as const satisfies Record<string, Feature>;

export type GatedRule = keyof typeof ruleFeature;

export function emptyLinkForm(): LinkFormState {
  return {
    url: "",
    domain: "",
    alias: "",
    title: "",
    tags: [],
    redirectStatus: "302",
    forwardQuery: false,
    expiresAt: "",
    maxVisits: "",
    password: "",
    removePassword: false,
    geoMode: "off",
    geoCountries: "",
    devices: { ios: "", android: "", desktop: "" },
    countryTargets: [],
    variants: [],
    wechatGuide: false,
    formFields: [],
    og: { title: "", description: "", image: "" },
    utm: emptyUTM(),
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An RFC 3339 time as a datetime-local value in the browser's zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLink(l: Link): LinkFormState {
  const geo = l.geo;
  return {
    url: l.url,
    domain: l.domain,
    alias: l.is_alias ? l.code : "",
    title: l.title,
    tags: l.tags ?? [],
    redirectStatus: String(l.redirect_status) as LinkFormState["redirectStatus"],
    forwardQuery: l.forward_query,
    expiresAt: toLocalInput(l.expires_at),
    maxVisits: l.max_visits == null ? "" : String(l.max_visits),
    password: "",
    removePassword: false,
    geoMode: geo?.allow ? "allow" : geo?.deny ? "deny" : "off",
    geoCountries: (geo?.allow ?? geo?.deny ?? []).join(", "),
    devices: { ios: l.device_targets?.ios ?? "", android: l.device_targets?.android ?? "", desktop: l.device_targets?.desktop ?? "" },
    countryTargets: Object.entries(l.country_targets ?? {}).map(([country, url]) => ({ country, url })),
    variants: (l.variants ?? []).map((v) => ({ url: v.url, weight: String(v.weight) })),
    wechatGuide: l.wechat_guide,
    formFields: (l.form?.fields ?? []).map((f) => ({
      name: f.name,
      label: f.label,
      type: f.type,
      required: !!f.required,
      options: (f.options ?? []).join("\n"),
    })),
    og: { title: l.og?.title ?? "", description: l.og?.description ?? "", image: l.og?.image ?? "" },
    utm: { ...emptyUTM(), ...(l.utm ?? {}) },
  };
}

/** The rule values a form state stands for: null where a rule is off. */
export function rulesOf(s: LinkFormState) {
  const countries = parseCountries(s.geoCountries);
  const devices = Object.fromEntries(Object.entries(s.devices).filter(([, u]) => u.trim()).map(([d, u]) => [d, withScheme(u)]));
  const lines = (t: string) => t.split("\n").map((o) => o.trim()).filter(Boolean);
  return {
    expires_at: s.expiresAt ? new Date(s.expiresAt).toISOString() : null,
    max_visits: s.maxVisits.trim() ? Number(s.maxVisits) : null,
    geo: s.geoMode === "off" ? null : { [s.geoMode]: countries },
    device_targets: Object.keys(devices).length ? devices : null,
    country_targets: s.countryTargets.length
      ? Object.fromEntries(s.countryTargets.map((t) => [t.country.trim().toUpperCase(), withScheme(t.url)]))
      : null,
    variants: s.variants.length ? s.variants.map((v) => ({ url: withScheme(v.url), weight: Number(v.weight) })) : null,
    wechat_guide: s.wechatGuide,
    form: s.formFields.length
      ? {
          fields: s.formFields.map((f) => ({
            name: f.name.trim(),
            label: f.label.trim(),
            type: f.type,
            required: f.required,
            ...(f.type === "choice" ? { options: lines(f.options) } : {}),
          })),
        }
      : null,
    og: s.og.title.trim() || s.og.description.trim() || s.og.image.trim()
      ? {
          title: s.og.title.trim(),
          ...(s.og.description.trim() ? { description: s.og.description.trim() } : {}),
          ...(s.og.image.trim() ? { image: withScheme(s.og.image) } : {}),
        }
      : null,
  };
}

/**
 * The folded sections of the link form below its main fields (destination, domain, alias,
 * title), in order, with the plan feature each needs (none: every plan has it). A feature is in
 * one section only, so a locked one is named once.
 */
export const sections = [
  { id: "limits", feature: undefined },
  { id: "password", feature: "password" },
  { id: "ab", feature: "ab_test" },
  { id: "geo", feature: "geo" },
  { id: "wechat", feature: "browser_guide" },
  { id: "form", feature: "form" },
  { id: "og", feature: undefined },
  { id: "utm", feature: undefined },
  { id: "redirect", feature: undefined },
] as const satisfies readonly { id: string; feature: Feature | undefined }[];

export type SectionId = (typeof sections)[number]["id"];

const sectionFields: Record<string, SectionId> = {
  expires_at: "limits",
  max_visits: "limits",
  password: "password",
  variants: "ab",
  device_targets: "ab",
  geo: "geo",
  country_targets: "geo",
  wechat_guide: "wechat",
  form: "form",
  og: "og",
  redirect_status: "redirect",
  forward_query: "redirect",
  utm: "utm",
};

/** The section holding an input ("variants.0.url" → "ab"); undefined for the main fields. */
export function sectionOf(field: string): SectionId | undefined {
  return sectionFields[field.split(".")[0]!];
}

/** The sections whose options a form state sets, to mark them when folded. */
export function sectionsInUse(s: LinkFormState, hasPassword = false): SectionId[] {
  const r = rulesOf(s);
  const on: Record<SectionId, boolean> = {
    limits: !!(r.expires_at || r.max_visits != null),
    password: !!s.password || (hasPassword && !s.removePassword),
    ab: !!(r.variants || r.device_targets),
    geo: !!(r.geo || r.country_targets),
    wechat: r.wechat_guide,
    form: !!r.form,
    og: !!r.og,
    utm: !!utmOf(s.utm),
    redirect: s.redirectStatus !== "302" || s.forwardQuery,
  };
  return sections.map((x) => x.id).filter((id) => on[id]);
}

/** The gated rules a form state turns on. */
export function gatedRulesInUse(s: LinkFormState): GatedRule[] {
  const r = rulesOf(s);
  const used: GatedRule[] = [];
  if (s.password) used.push("password");
  if (r.geo) used.push("geo");
  if (r.country_targets) used.push("country_targets");
  if (r.device_targets) used.push("device_targets");
  if (r.variants) used.push("variants");
  if (r.wechat_guide) used.push("wechat_guide");
  if (r.form) used.push("form");
  return used;
}

export type LinkFormErrors = Partial<Record<string, Problem>>;

/** The form's problems by field name (the server's field names, e.g. "variants.0.url"). */
export function validateLinkForm(s: LinkFormState, editing: boolean): LinkFormErrors {
  const e: LinkFormErrors = {};
  const put = (field: string, p: Problem | undefined) => {
    if (p && !e[field]) e[field] = p;
  };
  put("url", checkURL(s.url));
  if (!editing && s.alias) put("alias", checkAlias(s.alias));
  if ([...s.title].length > limits.titleLength) put("title", { key: "titleLong", values: { max: limits.titleLength } });
  if (s.expiresAt) {
    const t = new Date(s.expiresAt).getTime();
    if (Number.isNaN(t) || t <= Date.now()) put("expires_at", { key: "future" });
  }
  if (s.maxVisits.trim() && !/^[1-9][0-9]*$/.test(s.maxVisits.trim())) put("max_visits", { key: "maxVisits" });
  if (s.password) put("password", checkLinkPassword(s.password));
  if (s.geoMode !== "off") {
    const cs = parseCountries(s.geoCountries);
    if (cs.length === 0) put("geo", { key: "countriesRequired" });
    if (cs.length > limits.countriesMax) put("geo", { key: "countriesMany", values: { max: limits.countriesMax } });
    for (const c of cs) put("geo", checkCountry(c));
  }
  for (const [d, u] of Object.entries(s.devices)) if (u.trim()) put(`device_targets.${d}`, checkURL(u));
  const seen = new Set<string>();
  s.countryTargets.forEach((t, i) => {
    const c = t.country.trim().toUpperCase();
    put(`country_targets.${i}.country`, checkCountry(c));
    if (seen.has(c)) put(`country_targets.${i}.country`, { key: "countryTwice", values: { code: c } });
    seen.add(c);
    put(`country_targets.${i}.url`, checkURL(t.url));
  });
  if (s.variants.length && (s.variants.length < limits.variantsMin || s.variants.length > limits.variantsMax)) {
    put("variants", { key: "variantsCount", values: { min: limits.variantsMin, max: limits.variantsMax } });
  }
  s.variants.forEach((v, i) => {
    put(`variants.${i}.url`, checkURL(v.url));
    const w = Number(v.weight);
    if (!/^[0-9]+$/.test(v.weight.trim()) || w < limits.weightMin || w > limits.weightMax) {
      put(`variants.${i}.weight`, { key: "weight", values: { min: limits.weightMin, max: limits.weightMax } });
    }
  });
  if (s.formFields.length > limits.formFieldsMax) put("form", { key: "formFields", values: { max: limits.formFieldsMax } });
  const names = new Set<string>();
  s.formFields.forEach((f, i) => {
    const name = f.name.trim();
    if (!/^[a-z][a-z0-9_]{0,31}$/.test(name)) put(`form.${i}.name`, { key: "fieldName" });
    else if (names.has(name)) put(`form.${i}.name`, { key: "fieldNameTwice", values: { name } });
    names.add(name);
    const label = [...f.label.trim()].length;
    if (label < 1 || label > limits.labelLength) put(`form.${i}.label`, { key: "label", values: { max: limits.labelLength } });
    if (f.type === "choice") {
      const opts = f.options.split("\n").map((o) => o.trim()).filter(Boolean);
      if (opts.length < limits.formOptionsMin || opts.length > limits.formOptionsMax) {
        put(`form.${i}.options`, { key: "options", values: { min: limits.formOptionsMin, max: limits.formOptionsMax } });
      }
    }
  });
  const og = rulesOf(s).og;
  if (og) {
    const n = [...og.title].length;
    if (n < 1 || n > limits.ogTitleLength) put("og.title", { key: "ogTitle", values: { max: limits.ogTitleLength } });
    if ([...(og.description ?? "")].length > limits.ogDescriptionLength) {
      put("og.description", { key: "ogDescription", values: { max: limits.ogDescriptionLength } });
    }
    if (og.image) put("og.image", checkURL(og.image));
  }
  return e;
}

/** The body that creates the link: the rules that are set, nothing else. */
export function createBody(s: LinkFormState): LinkInput {
  const r = rulesOf(s);
  const body: LinkInput = { url: withScheme(s.url) };
  if (s.domain) body.domain = s.domain;
  if (s.alias.trim()) body.alias = s.alias.trim();
  if (s.title.trim()) body.title = s.title.trim();
  if (s.tags.length > 0) body.tags = s.tags;
  if (s.redirectStatus !== "302") body.redirect_status = Number(s.redirectStatus) as 301 | 307;
  if (s.forwardQuery) body.forward_query = true;
  if (r.expires_at) body.expires_at = r.expires_at;
  if (s.password) body.password = s.password;
  if (r.max_visits != null) body.max_visits = r.max_visits;
  if (r.geo) body.geo = r.geo;
  if (r.device_targets) body.device_targets = r.device_targets;
  if (r.country_targets) body.country_targets = r.country_targets;
  if (r.variants) body.variants = r.variants;
  if (r.wechat_guide) body.wechat_guide = true;
  if (r.form) body.form = r.form;
  if (r.og) body.og = r.og;
  const utm = utmOf(s.utm);
  if (utm) body.utm = utm;
  return body;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The body of an edit: only the fields whose value changed; null removes a rule. */
export function patchBody(original: Link, s: LinkFormState): LinkPatch {
  const before = rulesOf(fromLink(original));
  const after = rulesOf(s);
  const body: LinkPatch = {};
  if (withScheme(s.url) !== original.url) body.url = withScheme(s.url);
  if (s.title.trim() !== original.title) body.title = s.title.trim();
  if (!same(original.tags ?? [], s.tags)) body.tags = s.tags;
  if (Number(s.redirectStatus) !== original.redirect_status) body.redirect_status = Number(s.redirectStatus) as 301 | 302 | 307;
  if (s.forwardQuery !== original.forward_query) body.forward_query = s.forwardQuery;
  if (s.password) body.password = s.password;
  else if (s.removePassword && original.has_password) body.password = null;
  // expires_at is compared at the form's precision (minutes), so an untouched value stays.
  if (s.expiresAt !== toLocalInput(original.expires_at)) body.expires_at = after.expires_at;
  for (const k of ["max_visits", "geo", "device_targets", "country_targets", "variants", "form", "og"] as const) {
    if (!same(before[k], after[k])) (body as Record<string, unknown>)[k] = after[k];
  }
  if (before.wechat_guide !== after.wechat_guide) body.wechat_guide = after.wechat_guide;
  const utm = utmOf(s.utm);
  if (!same(utm, utmOf({ ...emptyUTM(), ...(original.utm ?? {}) }))) body.utm = utm ?? null;
  return body;
}
