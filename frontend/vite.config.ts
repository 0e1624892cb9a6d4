import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// The app is served by the Go binary under /app (frontend/embed.go); the build goes to dist/,
// which frontend/embed.go embeds. dist/ is cleaned by scripts/clean-dist.mjs, not here, so that
// its tracked placeholder stays.
export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: false,
    assetsDir: "assets",
    chunkSizeWarningLimit: 700,
    // Read by scripts/first-page-size.mjs, which removes it.
    manifest: true,
  },
  server: {
    proxy: { "/api": "http://localhost:8080" },
  },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "scripts/**/*.test.mjs"],
    environment: "node",
    // A guard against hangs, not a speed check: on a loaded two-core machine generating the
    // API types from the OpenAPI document took more than Vitest's default 5 s.
    testTimeout: 60_000,
    // The test files share each worker's modules (React, Mantine, the API types) instead of
    // importing them again per file: 16 s → 5 s on two cores. No test leaves global state behind
    // (stubbed globals are restored; only src/i18n/messages.test.ts changes the language).
    isolate: false,
  },
});
