import { describe, expect, it, vi } from "vitest";
import { lazyPage, preloadFor } from "./lazyPage";

const Page = () => null;

describe("lazyPage", () => {
  it("fetches once, and only the page the path opens", async () => {
    const loadA = vi.fn(() => Promise.resolve({ default: Page }));
    const loadB = vi.fn(() => Promise.resolve({ default: Page }));
    const a = lazyPage(loadA);
    const b = lazyPage(loadB);
    preloadFor("/links", [
      [/^\/links\/\d+$/, b],
      [/^\/(links\/?)?$/, a],
    ]);
    await a.preload();
    await a.preload();
    expect(loadA).toHaveBeenCalledTimes(1);
    expect(loadB).not.toHaveBeenCalled();
  });

  it("tries again after a failed fetch", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValue({ default: Page });
    const p = lazyPage(load);
    await expect(p.preload()).rejects.toThrow("offline");
    await expect(p.preload()).resolves.toEqual({ default: Page });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
