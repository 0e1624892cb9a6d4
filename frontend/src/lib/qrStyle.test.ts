import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultQRStyle, dropLegacyQRStyle, legacyQRStyle, parseQRStyle, qrImageQuery, qrPreviewState, qrStyleBody, qrStyleKey, sameQRStyle, toQRStyle } from "./qrStyle";

describe("a link's QR style", () => {
  it("reads the link's qr, the default for what is missing or not the API's", () => {
    expect(toQRStyle({ fg: "#1A2B3C", bg: "#ffffff", ec: "Q", logo: true })).toEqual({ fg: "#1a2b3c", bg: "#ffffff", ec: "Q", logo: true });
    expect(toQRStyle(null)).toEqual(defaultQRStyle);
    expect(toQRStyle({ fg: "red", bg: "#12345", ec: "X", logo: "yes" })).toEqual(defaultQRStyle);
    expect(parseQRStyle("not json")).toEqual(defaultQRStyle);
    expect(parseQRStyle(JSON.stringify({ ec: "H" }))).toEqual({ ...defaultQRStyle, ec: "H" });
  });

  it("saves the default as no style, and compares styles field by field", () => {
    expect(qrStyleBody(defaultQRStyle)).toBeNull();
    expect(qrStyleBody({ ...defaultQRStyle, logo: true })).toEqual({ ...defaultQRStyle, logo: true });
    expect(sameQRStyle(toQRStyle({ fg: "#ABCDEF" }), { ...defaultQRStyle, fg: "#abcdef" })).toBe(true);
    expect(sameQRStyle(defaultQRStyle, { ...defaultQRStyle, ec: "M" })).toBe(false);
  });

  it("asks the image route for the style, the level left to the server with a logo", () => {
    expect(qrImageQuery({ fg: "#1a3c6e", bg: "#ffffff", ec: "Q", logo: false })).toEqual({ fg: "1a3c6e", bg: "ffffff", ec: "Q" });
    expect(qrImageQuery({ fg: "#1a3c6e", bg: "#ffffff", ec: "Q", logo: true })).toEqual({ fg: "1a3c6e", bg: "ffffff", logo: "1" });
    expect(qrImageQuery(defaultQRStyle)).toEqual({ fg: "000000", bg: "ffffff" });
  });

  describe("kept by this browser before", () => {
    // The tests run in Node: a storage of this browser's own, in memory.
    beforeEach(() => {
      const kept = new Map<string, string>();
      vi.stubGlobal("localStorage", {
        getItem: (k: string) => kept.get(k) ?? null,
        setItem: (k: string, v: string) => void kept.set(k, v),
        removeItem: (k: string) => void kept.delete(k),
      });
    });
    afterEach(() => vi.unstubAllGlobals());
    it("is found once per workspace and link, and dropped", () => {
      expect(qrStyleKey(3, 42)).toBe("sl.qr.3.42");
      localStorage.setItem("sl.qr.3.42", JSON.stringify({ fg: "#1A2B3C", bg: "#ffffff", ec: "Q", logo: true }));
      localStorage.setItem("sl.qr.3.43", JSON.stringify(defaultQRStyle));
      expect(legacyQRStyle(3, 42)).toEqual({ fg: "#1a2b3c", bg: "#ffffff", ec: "Q", logo: true });
      expect(legacyQRStyle(4, 42)).toBeNull();
      expect(legacyQRStyle(3, 43)).toBeNull();
      dropLegacyQRStyle(3, 42);
      expect(legacyQRStyle(3, 42)).toBeNull();
    });
  });
  describe("qrPreviewState", () => {
    const logo = { ...defaultQRStyle, logo: true };
    it("names the missing logo apart from a code that cannot be drawn", () => {
      expect(qrPreviewState(logo, false, false)).toBe("noLogo");
      expect(qrPreviewState(logo, false, true)).toBe("noLogo");
      expect(qrPreviewState(logo, true, true)).toBe("cannotDraw");
      expect(qrPreviewState(defaultQRStyle, false, true)).toBe("cannotDraw");
    });
    it("shows the code when it can be drawn, and waits to know about the logo", () => {
      expect(qrPreviewState(defaultQRStyle, undefined, false)).toBeNull();
      expect(qrPreviewState(defaultQRStyle, false, false)).toBeNull();
      expect(qrPreviewState(logo, true, false)).toBeNull();
      expect(qrPreviewState(logo, undefined, false)).toBe("checking");
    });
  });
});
