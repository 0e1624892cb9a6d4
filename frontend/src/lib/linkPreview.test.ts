import { describe, expect, it } from "vitest";
import { linkPreview } from "./linkPreview";

const base = { url: "", title: "", alias: "", domain: "", og: { title: "", description: "", image: "" } };

describe("linkPreview", () => {
  it("shows the short link being made", () => {
    expect(linkPreview(base, "sho.rt").shortUrl).toBe("sho.rt/…");
    expect(linkPreview({ ...base, alias: " sale " }, "sho.rt").shortUrl).toBe("sho.rt/sale");
    expect(linkPreview({ ...base, alias: "sale", domain: "go.brand.com" }, "sho.rt").shortUrl).toBe("go.brand.com/sale");
    expect(linkPreview({ ...base, alias: "x" }, "sho.rt", "http://sho.rt/Ab12").shortUrl).toBe("http://sho.rt/Ab12");
  });
  it("builds the card from Open Graph, then the title, then the host", () => {
    const url = "example.com/page";
    expect(linkPreview({ ...base, url }, "h").title).toBe("example.com");
    expect(linkPreview({ ...base, url, title: "Launch" }, "h").title).toBe("Launch");
    const p = linkPreview({ ...base, url, title: "Launch", og: { title: "Sale", description: " Half off ", image: "https://img.example/a.png" } }, "h");
    expect(p).toEqual({ shortUrl: "h/…", title: "Sale", description: "Half off", imageHost: "img.example", site: "example.com" });
  });
  it("tolerates what is not a URL yet", () => {
    expect(linkPreview({ ...base, url: "http://", og: { ...base.og, image: "::" } }, "h")).toMatchObject({ site: "", imageHost: "" });
  });
});
