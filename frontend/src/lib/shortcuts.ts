// The keyboard's shortcuts of the signed-in pages: "/" focuses the page's search, "c" opens a
// new link's form, Ctrl+K (⌘K on a Mac) opens the command palette. None while the person is
// typing in a field: there the keys are the text's.

export type Shortcut = "search" | "create" | "palette";

/** The parts of a keydown event a shortcut depends on. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The element the key went to. */
  target: { tagName?: string; isContentEditable?: boolean } | null;
}

/** Whether an element takes typed text: inputs, text areas, selects and editable content. */
export function typingIn(target: KeyPress["target"]): boolean {
  if (!target) return false;
  const tag = (target.tagName ?? "").toUpperCase();
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !!target.isContentEditable;
}

/** The shortcut a key press asks for, or null. */
export function shortcutFor(e: KeyPress): Shortcut | null {
  if (typingIn(e.target)) return null;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") return "palette";
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === "/") return "search";
  if (e.key === "c") return "create";
  return null;
}

/** An entry of the command palette: a page to open or an action. */
export interface PaletteItem {
  id: string;
  label: string;
  /** Where it goes, under /app. */
  to: string;
}

/** The items whose label holds every word of q, in any case, in their order. */
export function paletteMatches(items: PaletteItem[], q: string): PaletteItem[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((it) => words.every((w) => it.label.toLowerCase().includes(w)));
}
