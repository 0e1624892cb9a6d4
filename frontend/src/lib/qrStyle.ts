// A link's QR colours, error correction and logo switch, kept with the link on the server (the
// link's `qr`, docs/api.md#a-links-saved-qr-style) and drawn by its image route. Browsers once
// kept them in localStorage ("sl.qr.<workspace>.<link>"): such a style is moved to the server
// the first time its link's page is opened, then the entry is dropped.

export type QRLevel = "" | "L" | "M" | "Q" | "H";

/** What the QR card draws: colours as #rrggbb, the level ("" the server's default) and the logo. */
export interface QRStyle {
  fg: string;
  bg: string;
  ec: QRLevel;
  logo: boolean;
}

export const defaultQRStyle: QRStyle = { fg: "#000000", bg: "#ffffff", ec: "", logo: false };

const colour = /^#[0-9a-f]{6}$/i;

/** The storage key of a link's style in browsers that kept it there. */
export function qrStyleKey(workspace: number, link: number): string {
  return `sl.qr.${workspace}.${link}`;
}

/** A style read from the link or from storage: each field the default when missing or not one the API takes. */
export function toQRStyle(v: unknown): QRStyle {
  const o = (v && typeof v === "object" ? v : {}) as Partial<Record<keyof QRStyle, unknown>>;
  return {
    fg: typeof o.fg === "string" && colour.test(o.fg) ? o.fg.toLowerCase() : defaultQRStyle.fg,
    bg: typeof o.bg === "string" && colour.test(o.bg) ? o.bg.toLowerCase() : defaultQRStyle.bg,
    ec: typeof o.ec === "string" && ["", "L", "M", "Q", "H"].includes(o.ec) ? (o.ec as QRLevel) : "",
    logo: o.logo === true,
  };
}

/** A stored style read back (JSON text). */
export function parseQRStyle(text: string | null): QRStyle {
  try {
    return toQRStyle(text ? JSON.parse(text) : {});
  } catch {
    return { ...defaultQRStyle };
  }
}

/** Whether two styles draw the same code. */
export function sameQRStyle(a: QRStyle, b: QRStyle): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.ec === b.ec && a.logo === b.logo;
}

/** What a link's `qr` is set to for s: null for the default, which the server keeps as none. */
export function qrStyleBody(s: QRStyle): QRStyle | null {
  return sameQRStyle(s, defaultQRStyle) ? null : { ...s };
}

/** The image route's parameters for s. A logo always draws at level H (the server's rule): the level chosen is kept for without it. */
export function qrImageQuery(s: QRStyle): { fg: string; bg: string; ec?: Exclude<QRLevel, "">; logo?: "1" } {
  return { fg: s.fg.slice(1), bg: s.bg.slice(1), ...(s.ec !== "" && !s.logo ? { ec: s.ec } : {}), ...(s.logo ? { logo: "1" as const } : {}) };
}

/** The style this browser kept for the link before styles were kept on the server; null when none (or the default). */
export function legacyQRStyle(workspace: number, link: number): QRStyle | null {
  try {
    const text = localStorage.getItem(qrStyleKey(workspace, link));
    return text ? qrStyleBody(parseQRStyle(text)) : null;
  } catch {
    return null;
  }
}

/** Forgets the style this browser kept for the link. */
export function dropLegacyQRStyle(workspace: number, link: number): void {
  try {
    localStorage.removeItem(qrStyleKey(workspace, link));
  } catch {
    // Storage refused: nothing was kept there either.
  }
}

/**
 * What the QR card shows instead of its code: "noLogo" when the logo is asked for and the
 * workspace has none (the code is not requested: the server refuses it), "cannotDraw" when the
 * image failed otherwise (colours too alike to scan), "checking" while it is not known yet
 * whether the workspace has a logo, null when the code is shown.
 */
export function qrPreviewState(s: QRStyle, hasLogo: boolean | undefined, broken: boolean): "noLogo" | "cannotDraw" | "checking" | null {
  if (s.logo && hasLogo === false) return "noLogo";
  if (broken) return "cannotDraw";
  if (s.logo && hasLogo === undefined) return "checking";
  return null;
}
