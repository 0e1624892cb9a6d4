// A link's QR colours, error correction and logo switch as its page last drew them, kept in the
// browser per workspace and link (localStorage "sl.qr.<workspace>.<link>"), so the page opens
// on the same code; a stored value the API would refuse is dropped for the default.

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

/** The storage key of a link's style. */
export function qrStyleKey(workspace: number, link: number): string {
  return `sl.qr.${workspace}.${link}`;
}

/** A stored style read back: each field the default when missing or not one the API takes. */
export function parseQRStyle(text: string | null): QRStyle {
  let v: Partial<Record<keyof QRStyle, unknown>> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === "object") v = parsed as typeof v;
  } catch {
    return { ...defaultQRStyle };
  }
  return {
    fg: typeof v.fg === "string" && colour.test(v.fg) ? v.fg.toLowerCase() : defaultQRStyle.fg,
    bg: typeof v.bg === "string" && colour.test(v.bg) ? v.bg.toLowerCase() : defaultQRStyle.bg,
    ec: typeof v.ec === "string" && ["", "L", "M", "Q", "H"].includes(v.ec) ? (v.ec as QRLevel) : "",
    logo: v.logo === true,
  };
}

/** The link's style kept in this browser, or the default. */
export function loadQRStyle(workspace: number, link: number): QRStyle {
  try {
    return parseQRStyle(localStorage.getItem(qrStyleKey(workspace, link)));
  } catch {
    return { ...defaultQRStyle };
  }
}

/** Keeps the link's style; the default is kept as no entry at all. */
export function saveQRStyle(workspace: number, link: number, s: QRStyle): void {
  try {
    const key = qrStyleKey(workspace, link);
    if (s.fg === defaultQRStyle.fg && s.bg === defaultQRStyle.bg && s.ec === "" && !s.logo) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(s));
  } catch {
    // Storage refused (private mode, full): the style lasts as long as the page.
  }
}
