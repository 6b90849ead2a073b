import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * Ports are chosen at run time (the OS hands out a free one) and stored in the environment, so the workers
 * Playwright forks later read the same values when they load this file again.
 */
function freePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

process.env.E2E_PORT ??= freePort();
process.env.E2E_EMBEDDED_PORT ??= freePort();
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
process.env.E2E_EMBEDDED_URL = `http://127.0.0.1:${process.env.E2E_EMBEDDED_PORT}`;
// The server's database (PGlite) in a folder of its own: never the shared ./data of a developer's own server.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "callroom-e2e-db-"));

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--autoplay-policy=no-user-gesture-required",
];

const chromiumUse = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: chromiumArgs,
  },
};

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // One retry on CI: specs that play live HLS audio against a call spoken in real time on a loaded 2-core machine can
  // miss a timing window; a retry that passes is reported as flaky (and counted in the JSON report), never hidden.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      testIgnore: "**/analyst-day.spec.ts",
      use: chromiumUse,
    },
    {
      // The analyst's day walks the whole app as the one local user every spec shares: its watchlist would become
      // the "first watchlist" other specs follow into, and their calls and lists would show in its morning view. It
      // runs alone, after the others.
      name: "day",
      testMatch: "**/analyst-day.spec.ts",
      dependencies: ["chromium"],
      use: chromiumUse,
    },
  ],
  webServer: {
    command: "node scripts/launch.mjs start",
    url: `${baseURL}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    // The app's JSON request log would drown the test report; Next's own errors still come through stderr.
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: process.env.E2E_PORT,
      HOST: "127.0.0.1",
      EMBEDDED_PORT: process.env.E2E_EMBEDDED_PORT,
      // Short live calls keep the suite quick; specs start their own calls through the control API.
      EMBEDDED_CALL_MINUTES: process.env.EMBEDDED_CALL_MINUTES ?? "3",
      EMBEDDED_ENRICH_SECONDS: process.env.EMBEDDED_ENRICH_SECONDS ?? "3",
      UPSTREAM_BASE_URL: "",
      // The browser suite checks the app and the service together, and the app's "today" is the real clock
      // (docs/upstream.md §7): the service runs on it too, even when EMBEDDED_NOW is set for the Vitest suites.
      EMBEDDED_NOW: "",
      CALLROOM_DATA_DIR: process.env.E2E_DATA_DIR,
      // The alert specs' webhook receiver and push endpoint listen on loopback, which webhooks may not reach otherwise.
      CALLROOM_WEBHOOK_ALLOWLIST: "127.0.0.1",
      // Its push endpoint too: push subscriptions are otherwise accepted on the browsers' push services only.
      CALLROOM_PUSH_ALLOWLIST: "127.0.0.1",
      DATABASE_URL: "",
    },
  },
});
