#!/usr/bin/env node
// `npm test`: every check CI runs — lint, types, a production build, unit + integration tests (Vitest), the
// Playwright suite.
// Every step runs even when an earlier one fails, so one run reports everything; the exit code is non-zero if any
// step failed. The last line is `N passed, N failed` (tests of both runners, plus lint, typecheck and build as one each).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const reports = join(root, "test-results", "summary");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const node = process.execPath;
const bin = (pkg, path) => join(root, "node_modules", pkg, path);
let passed = 0;
let failed = 0;
const failures = [];

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

/** One named check made of commands run in order; it passes when all of them do. */
function step(name, ...commands) {
  if (commands.every(([command, args]) => run(name, command, args))) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

function ensureChromium() {
  if (existsSync(chromium)) return true;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("Chromium is missing; installing Debian's chromium with apt-get");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
    if (existsSync(chromium)) return true;
  }
  console.error(
    `Chromium not found at ${chromium}. Install it with: sudo apt-get update && sudo apt-get install -y chromium` +
      " (or set CHROMIUM_PATH). Never `npx playwright install`: it cannot download here.",
  );
  return false;
}

/** Adds a JSON report's counts to the totals; a runner that crashed before writing one counts as one failure. */
function count(name, file, read) {
  if (!existsSync(file)) {
    failed += 1;
    failures.push(`${name} (no report)`);
    return;
  }
  const { ok, bad } = read(JSON.parse(readFileSync(file, "utf8")));
  passed += ok;
  failed += bad;
  if (bad > 0) failures.push(`${name}: ${bad} failed`);
}

step("lint", [node, [bin("eslint", "bin/eslint.js"), "--max-warnings=0", "."]]);
step(
  "typecheck",
  [node, [bin("next", "dist/bin/next"), "typegen"]],
  [node, [bin("typescript", "bin/tsc"), "--noEmit", "-p", "."]],
  [node, [bin("typescript", "bin/tsc"), "--noEmit", "-p", "embedded"]],
);

// One production build up front: the multi-instance Vitest test and the Playwright suite both reuse it (each checks
// that its BUILD_ID is newer than the sources) instead of building again.
step("build", [node, [bin("next", "dist/bin/next"), "build"]]);

const vitestReport = join(reports, "vitest.json");
const vitestOk = run("unit and integration tests (vitest)", node, [
  bin("vitest", "vitest.mjs"),
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
// Failed suites are counted through their tests; a file that could not even load has no test, hence the `success`.
count("vitest", vitestReport, (r) => ({
  ok: r.numPassedTests,
  bad: r.numFailedTests > 0 || r.success ? r.numFailedTests : 1,
}));
if (!vitestOk && !failures.some((f) => f.startsWith("vitest"))) {
  failed += 1;
  failures.push("vitest (runner error)");
}

if (ensureChromium()) {
  const playwrightReport = join(reports, "playwright.json");
  const e2eOk = run("end-to-end tests (playwright)", node, [bin("@playwright/test", "cli.js"), "test"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
  });
  count("playwright", playwrightReport, (r) => ({
    ok: r.stats.expected + (r.stats.flaky ?? 0),
    bad: r.stats.unexpected,
  }));
  if (!e2eOk && !failures.some((f) => f.startsWith("playwright"))) {
    failed += 1;
    failures.push("playwright (runner error)");
  }
} else {
  failed += 1;
  failures.push("playwright (no chromium)");
}

console.log("");
if (failures.length) console.log(`Failed: ${failures.join("; ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
