// Generates src/api/schema.d.ts, the API's types, from backend/httpapi/openapi.json. A test
// (src/api/schema.test.ts) fails when the committed file differs from what this produces.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

export const specFile = fileURLToPath(new URL("../../backend/httpapi/openapi.json", import.meta.url));
export const typesFile = fileURLToPath(new URL("../src/api/schema.d.ts", import.meta.url));

const header = "// Generated from backend/httpapi/openapi.json by `npm run api-types`; do not edit.\n\n";

/** The text of schema.d.ts for the OpenAPI document as it is now. */
// Fields with a default are optional in requests (defaultNonNullable: false): the server fills them.
export async function generate() {
  const spec = JSON.parse(readFileSync(specFile, "utf8"));
  return header + astToString(await openapiTS(spec, { defaultNonNullable: false }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Left alone when unchanged, so that make does not rebuild the app for nothing.
  const text = await generate();
  if (existsSync(typesFile) && readFileSync(typesFile, "utf8") === text) {
    console.log("unchanged", typesFile);
  } else {
    writeFileSync(typesFile, text);
    console.log("wrote", typesFile);
  }
}
