// What the link form's live preview shows: the short link the form will make and the social
// card crawlers will show for it (its Open Graph title, description and image), from the
// form's fields as they are typed.

export interface PreviewInput {
  url: string;
  title: string;
  alias: string;
  /** The custom domain chosen, "" for the service's own. */
  domain: string;
  og: { title: string; description: string; image: string };
}

export interface Preview {
  /** The short link, with "…" for a code not made yet. */
  shortUrl: string;
  /** The card's title: the Open Graph title, else the link's title, else the destination's host. */
  title: string;
  description: string;
  /** The host the card's image comes from; "" without an image. The image is not loaded. */
  imageHost: string;
  /** The destination's host, as a card names its site. */
  site: string;
}

function host(u: string): string {
  const s = u.trim();
  if (!s) return "";
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`).hostname;
  } catch {
    return "";
  }
}

/**
 * The preview of a form: shortUrl is the existing link's when editing (existing), else the
 * chosen domain or ownHost with the alias typed.
 */
export function linkPreview(f: PreviewInput, ownHost: string, existing?: string): Preview {
  const site = host(f.url);
  const shortUrl = existing || `${f.domain || ownHost}/${f.alias.trim() || "…"}`;
  return {
    shortUrl,
    title: f.og.title.trim() || f.title.trim() || site,
    description: f.og.description.trim(),
    imageHost: host(f.og.image),
    site,
  };
}
