import { describe, expect, it } from "vitest";
import { paletteMatches, shortcutFor, typingIn, type KeyPress } from "./shortcuts";

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key, ctrlKey: false, metaKey: false, altKey: false, target: { tagName: "BODY" }, ...more,
});

describe("shortcutFor", () => {
  it("maps the shortcuts", () => {
    expect(shortcutFor(press("/"))).toBe("search");
    expect(shortcutFor(press("c"))).toBe("create");
    expect(shortcutFor(press("k", { ctrlKey: true }))).toBe("palette");
    expect(shortcutFor(press("K", { metaKey: true }))).toBe("palette");
  });
  it("leaves other keys and modified ones alone", () => {
    expect(shortcutFor(press("k"))).toBeNull();
    expect(shortcutFor(press("C"))).toBeNull();
    expect(shortcutFor(press("c", { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press("/", { altKey: true }))).toBeNull();
    expect(shortcutFor(press("k", { ctrlKey: true, altKey: true }))).toBeNull();
  });
  it("does nothing while typing", () => {
    for (const target of [{ tagName: "INPUT" }, { tagName: "textarea" }, { tagName: "SELECT" }, { tagName: "DIV", isContentEditable: true }]) {
      expect(typingIn(target)).toBe(true);
      expect(shortcutFor(press("/", { target }))).toBeNull();
      expect(shortcutFor(press("c", { target }))).toBeNull();
      expect(shortcutFor(press("k", { ctrlKey: true, target }))).toBeNull();
    }
    expect(typingIn(null)).toBe(false);
    expect(shortcutFor(press("c", { target: null }))).toBe("create");
  });
});

describe("paletteMatches", () => {
  const items = [
    { id: "links", label: "Links", to: "/links" },
    { id: "new", label: "Create a link", to: "/links/new" },
    { id: "tags", label: "Tags", to: "/tags" },
  ];
  it("matches every word in any case", () => {
    expect(paletteMatches(items, "").map((i) => i.id)).toEqual(["links", "new", "tags"]);
    expect(paletteMatches(items, "LINK").map((i) => i.id)).toEqual(["links", "new"]);
    expect(paletteMatches(items, "create link").map((i) => i.id)).toEqual(["new"]);
    expect(paletteMatches(items, "tags x")).toEqual([]);
  });
});
