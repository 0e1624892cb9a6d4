import { describe, expect, it } from "vitest";
import { chunks, parseCSV, rowsFromCSV, rowsFromLines } from "./bulk";

describe("CSV", () => {
  it("parses quotes, doubled quotes, commas and CRLF", () => {
    expect(parseCSV('url,title\r\nhttps://a.example,"Hello, ""world"""\r\n\r\nhttps://b.example,\n')).toEqual([
      ["url", "title"],
      ["https://a.example", 'Hello, "world"'],
      ["https://b.example", ""],
    ]);
  });

  it("maps columns by the header, Bitly's long_url included", () => {
    expect(rowsFromCSV("\uFEFFTitle,long_url,alias\nSale,https://a.example,sale\n,https://b.example,\n").rows).toEqual([
      { url: "https://a.example", alias: "sale", title: "Sale" },
      { url: "https://b.example" },
    ]);
    expect(rowsFromCSV("name,link\nx,y\n").error).toBe("url");
  });
});

describe("pasted lines", () => {
  it("take a URL, then an alias and a title", () => {
    expect(rowsFromLines("https://a.example\n\n  https://b.example, promo, Spring sale \nhttps://c.example\tc1")).toEqual([
      { url: "https://a.example" },
      { url: "https://b.example", alias: "promo", title: "Spring sale" },
      { url: "https://c.example", alias: "c1" },
    ]);
  });

  it("add https:// to a URL typed without a scheme, keep http:// and other schemes", () => {
    expect(rowsFromLines("example.com/page, promo\nhttp://b.example/x\nmailto:someone@example.com")).toEqual([
      { url: "https://example.com/page", alias: "promo" },
      { url: "http://b.example/x" },
      { url: "mailto:someone@example.com" },
    ]);
    expect(rowsFromCSV("url,alias\nwww.example.com/a,a1\n").rows).toEqual([{ url: "https://www.example.com/a", alias: "a1" }]);
  });
});

it("splits rows into calls of 1,000", () => {
  expect(chunks(Array.from({ length: 2500 }, (_, i) => i)).map((c) => c.length)).toEqual([1000, 1000, 500]);
});
