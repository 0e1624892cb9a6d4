import { describe, expect, it } from "vitest";
import { defaultQRStyle, parseQRStyle, qrStyleKey } from "./qrStyle";

describe("a link's kept QR style", () => {
  it("reads back what was kept, one key per workspace and link", () => {
    expect(qrStyleKey(3, 42)).toBe("sl.qr.3.42");
    expect(parseQRStyle(JSON.stringify({ fg: "#1A2B3C", bg: "#ffffff", ec: "Q", logo: true }))).toEqual({ fg: "#1a2b3c", bg: "#ffffff", ec: "Q", logo: true });
  });

  it("takes the default for what is missing or not the API's", () => {
    expect(parseQRStyle(null)).toEqual(defaultQRStyle);
    expect(parseQRStyle("not json")).toEqual(defaultQRStyle);
    expect(parseQRStyle(JSON.stringify({ fg: "red", bg: "#12345", ec: "X", logo: "yes" }))).toEqual(defaultQRStyle);
    expect(parseQRStyle(JSON.stringify({ ec: "H" }))).toEqual({ ...defaultQRStyle, ec: "H" });
  });
});
