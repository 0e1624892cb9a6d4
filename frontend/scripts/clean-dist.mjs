// Empties dist/ before a build, keeping its tracked placeholder (.keep), which lets the Go
// package that embeds dist/ compile on a clean clone before the app is built.
import { readdirSync, rmSync } from "node:fs";

const dist = new URL("../dist/", import.meta.url);
for (const name of readdirSync(dist)) {
  if (name !== ".keep") rmSync(new URL(name, dist), { recursive: true, force: true });
}
