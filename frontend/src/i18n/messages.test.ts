import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import i18n, { pickLanguage, setLanguage } from ".";
import { en } from "./en";
import { zhCN } from "./zh-CN";

type Tree = { [k: string]: string | Tree };

function flatten(t: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(t)) {
    if (typeof v === "string") out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) && !name.endsWith(".test.ts") ? [p] : [];
  });
}

describe("translations", () => {
  const english = flatten(en as Tree);
  const chinese = flatten(zhCN as Tree);

  it("Chinese uses the same placeholders as English", () => {
    for (const [key, text] of english) expect([key, placeholders(chinese.get(key) ?? "")]).toEqual([key, placeholders(text)]);
  });

  it("leaves no English sentence or label untranslated in Chinese", () => {
    // Names, codes and formats read the same in both languages.
    const same = new Set(["webhooks", "tiktok", "facebook", "instagram", "line", "snapchat", "recoveryFile", "protocolOidc", "protocolSaml", "title", "webhook", "status", "android", "shortlink", "bitly", "shlink"]);
    const english: string[] = [];
    for (const [key, text] of chinese) {
      const bare = text.replace(/{{\w+}}/g, "");
      if (/[A-Za-z]{4,}/.test(bare) && !/[\u4e00-\u9fff]/.test(bare) && !same.has(key.split(".").pop()!)) english.push(`${key}: ${text}`);
    }
    expect(english).toEqual([]);
  });

  it("every key the pages use exists", () => {
    const root = new URL("..", import.meta.url).pathname;
    const missing: string[] = [];
    for (const file of sources(root)) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bt\("([a-zA-Z]+\.[a-zA-Z.]+)"/g)) {
        const key = m[1]!;
        if (!english.has(key) && !english.has(key + "_other")) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names every action the audit log records (backend/audit/audit.go), in both languages", () => {
    const source = readFileSync(new URL("../../../backend/audit/audit.go", import.meta.url), "utf8");
    const actions = [...source.matchAll(/\bAction = "([a-z_.]+)"/g)].map((m) => m[1]!);
    expect(actions.length).toBeGreaterThan(40);
    const unnamed = actions.filter((a) => !english.has(`audit.actions.${a}`) || !chinese.has(`audit.actions.${a}`));
    expect(unnamed).toEqual([]);
  });

  it("loads the Chinese texts when Chinese is picked, not before", async () => {
    expect(i18n.hasResourceBundle("zh-CN", "translation")).toBe(false);
    await setLanguage("zh-TW");
    expect(i18n.language).toBe("zh-CN");
    expect(i18n.hasResourceBundle("zh-CN", "translation")).toBe(true);
    await setLanguage("en");
    expect(i18n.language).toBe("en");
  });

  it("translates a reason that starts with a digit (a quoted key)", async () => {
    await setLanguage("zh-CN");
    await setLanguage("en");
    expect(english.get("errors.2fa_required")).toBeTruthy();
    expect(chinese.get("errors.2fa_required")).toBeTruthy();
    expect(i18n.exists("errors.2fa_required")).toBe(true);
    expect(i18n.getFixedT("zh-CN")("errors.2fa_required")).toBe(zhCN.errors["2fa_required"]);
    expect(i18n.getFixedT("en")("errors.2fa_required")).toBe(en.errors["2fa_required"]);
  });

  it("picks Simplified Chinese for any zh browser language", () => {
    expect(pickLanguage("zh")).toBe("zh-CN");
    expect(pickLanguage("zh-TW")).toBe("zh-CN");
    expect(pickLanguage("en-GB")).toBe("en");
    expect(pickLanguage("de")).toBe("en");
    expect(pickLanguage(undefined)).toBe("en");
  });
});
