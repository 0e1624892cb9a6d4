// Prints how much JavaScript the first page loads, gzipped: the entry chunk and its static
// imports (budget 250 kB), plus the heaviest page chunk the router may load first (budget
// 400 kB). Fails above either.
// Reads Vite's manifest and removes it: it is not to be served.
import { readFileSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";

const entryBudget = 250 * 1000;
const budget = 400 * 1000;
const dist = new URL("../dist/", import.meta.url);
const manifestDir = new URL(".vite/", dist);
const manifest = JSON.parse(readFileSync(new URL("manifest.json", manifestDir), "utf8"));
rmSync(manifestDir, { recursive: true, force: true });

const gz = new Map();
function gzipped(file) {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length);
  return gz.get(file);
}
// closure is the JS files a chunk loads before it runs: itself and its static imports.
function closure(key, into = new Set()) {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, into);
  return into;
}
const sum = (files) => [...files].reduce((n, f) => n + gzipped(f), 0);
const kB = (n) => (n / 1000).toFixed(1) + " kB";

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const first = closure(entry);
let heaviest = { name: "(none)", files: new Set(first) };
for (const [key, chunk] of Object.entries(manifest)) {
  if (!chunk.isDynamicEntry || !chunk.src?.includes("/pages/")) continue;
  const files = closure(key, new Set(first));
  if (sum(files) > sum(heaviest.files)) heaviest = { name: chunk.src, files };
}
const total = sum(heaviest.files);
console.log(`first page JavaScript, gzipped: entry ${kB(sum(first))} (budget ${kB(entryBudget)}); with the heaviest page (${heaviest.name}) ${kB(total)} (budget ${kB(budget)})`);
if (sum(first) > entryBudget || total > budget) {
  console.error("first page JavaScript is over budget");
  process.exit(1);
}
