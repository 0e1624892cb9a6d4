// The keyboard's shortcuts of the signed-in pages (lib/shortcuts.ts) and the command palette
// they open, which loads on its first use.
import { lazy, Suspense, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { shortcutFor } from "../lib/shortcuts";

const CommandPalette = lazy(() => import("./CommandPalette"));

/** The page's search box: the links list's, or any page's that names one. */
const searchBox = '[data-shortcut="search"], [data-testid="links-search"]';

/** Focuses the search box once it is on the page, looking for it during a second. */
function focusSearch() {
  let tries = 0;
  const id = window.setInterval(() => {
    const box = document.querySelector<HTMLInputElement>(searchBox);
    if (box || ++tries > 20) {
      window.clearInterval(id);
      box?.focus();
    }
  }, 50);
}

export default function Shortcuts() {
  const navigate = useNavigate();
  const [palette, setPalette] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      const s = shortcutFor({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, target });
      if (!s) return;
      e.preventDefault();
      if (s === "palette") setPalette(true);
      else if (s === "create") void navigate("/links/new");
      else {
        if (!document.querySelector(searchBox)) void navigate("/links");
        focusSearch();
      }
    };
    document.addEventListener("keydown", onKey);
    // Says the keys are heard: they load after the page, and the web app's tests wait for this.
    document.documentElement.dataset.shortcuts = "on";
    return () => {
      document.removeEventListener("keydown", onKey);
      delete document.documentElement.dataset.shortcuts;
    };
  }, [navigate]);
  if (!palette) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette onClose={() => setPalette(false)} />
    </Suspense>
  );
}
