// A link's short URL as text that wraps only after its host's slash, never inside the code: a
// code cut in two reads as two codes (docs/web-app.md).
import { shortLabel } from "../lib/domains";

export function ShortLabel({ link }: { link: Parameters<typeof shortLabel>[0] }) {
  const label = shortLabel(link);
  const cut = label.lastIndexOf("/") + 1;
  return (
    <>
      {label.slice(0, cut)}
      <wbr />
      <span className="nowrap">{label.slice(cut)}</span>
    </>
  );
}
