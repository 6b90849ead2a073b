import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next*/**",
    "node_modules/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "bench/results/**",
  ]),
  {
    // Browser-reachable code must never pull in server modules (the API key lives there).
    files: ["components/**", "lib/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server/*", "**/server/*"],
              message: "components/ and lib/ must not import server/.",
            },
          ],
        },
      ],
    },
  },
  {
    // The embedded market-data service is the other side of the wire: a program of its own that must not agree with
    // the app's mistakes by sharing its code. It may use common/ (the sentiment lexicon, Eastern time) and nothing else.
    files: ["embedded/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/*", "!@/common/*", "**/app/*", "**/components/*", "**/lib/*", "**/server/*"],
              message: "embedded/ imports nothing of the app; share code through common/.",
            },
          ],
        },
      ],
    },
  },
  {
    // common/ is shared by the app and the embedded service, so it depends on neither.
    files: ["common/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/*",
                "!@/common/*",
                "**/app/*",
                "**/components/*",
                "**/lib/*",
                "**/server/*",
                "**/embedded/*",
              ],
              message: "common/ depends on neither the app nor the embedded service.",
            },
          ],
        },
      ],
    },
  },
  {
    // The market-data service's wire shapes stay inside server/upstream/: everything else gets our shapes from each
    // resource's fetch and transform modules (docs/architecture.md "Layers"). components/, lib/, embedded/ and
    // common/ import no server/ module at all (above).
    files: ["**/*.{ts,tsx,mts,mjs,js}"],
    ignores: ["server/upstream/**", "components/**", "lib/**", "embedded/**", "common/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/upstream/**/wire", "**/upstream/**/wire.ts", "./wire", "../wire"],
              message: "Wire shapes are private to server/upstream/: import its fetch or transform modules.",
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
]);
