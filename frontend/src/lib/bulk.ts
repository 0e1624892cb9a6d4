// Rows for batch creation, from pasted lines or a CSV file. Pasted lines hold a URL, and
// optionally an alias and a title after it, separated by commas or tabs. A CSV file has a
// header naming its columns: url (required), alias, title, expires_at, password. A URL typed
// without a scheme ("example.com/page") gets https://, as in the link form.
import type { LinkInput } from "../api/client";
import { withScheme } from "./url";

export const batchSize = 1000; // the API's most links per call

/** Splits CSV text into records of fields (RFC 4180: quotes, doubled quotes, CRLF). */
export function parseCSV(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ""));
}

const columns = ["url", "alias", "title", "expires_at", "password"] as const;

/** Rows of a CSV file with a header; an error names what is wrong with the header. */
export function rowsFromCSV(text: string): { rows: LinkInput[]; error?: string } {
  const [header, ...records] = parseCSV(text.replace(/^\uFEFF/, ""));
  if (!header) return { rows: [] };
  const names = header.map((h) => h.trim().toLowerCase());
  // Bitly and Shlink exports call the destination long_url and longUrl.
  const at = (name: string) => names.findIndex((n) => n === name || (name === "url" && (n === "long_url" || n === "longurl")));
  if (at("url") < 0) return { rows: [], error: "url" };
  const rows = records.map((r) => {
    const row: LinkInput = { url: withScheme(r[at("url")] ?? "") };
    for (const c of columns) {
      const i = at(c);
      const v = i >= 0 ? (r[i] ?? "").trim() : "";
      if (c !== "url" && v) (row as unknown as Record<string, string>)[c] = v;
    }
    return row;
  });
  return { rows };
}

/** Rows of pasted lines: "url", "url alias" or "url, alias, title". */
export function rowsFromLines(text: string): LinkInput[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [url = "", alias = "", ...title] = l.split(/\s*[,\t]\s*|\s+(?=\S)/).map((f) => f.trim());
      const row: LinkInput = { url: withScheme(url) };
      if (alias) row.alias = alias;
      if (title.length) row.title = title.join(" ");
      return row;
    });
}

/** Splits rows into calls of at most batchSize. */
export function chunks<T>(rows: T[], size = batchSize): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
