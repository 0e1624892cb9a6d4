import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { generate, typesFile } from "../../scripts/api-types.mjs";

// The app's API types are generated from the server's OpenAPI document; when the document
// changes, `npm run api-types` must be run and its output committed.
it("src/api/schema.d.ts is generated from the current openapi.json", async () => {
  const want = (await generate()) as string;
  const got = readFileSync(typesFile as string, "utf8");
  expect(got === want, "src/api/schema.d.ts is out of date: run `npm --prefix frontend run api-types`").toBe(true);
});
