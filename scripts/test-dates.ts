/**
 * `npm run test:dates`: the suites that read the embedded service's clock, run once per date of the demo's year
 * (embedded/test/year-dates.ts) with `EMBEDDED_NOW` set to it, one date after another; a line per date, pass or the
 * tests that failed, then `N of M dates passed` (issue 29: the suite passes on any day of the year, not only today).
 *
 *   npm run test:dates                                     # every date, every date-sensitive suite
 *   npm run test:dates -- --quick                          # without the real-time ones (REAL_TIME_SUITES)
 *   npm run test:dates -- --date 2028-02-29T15:00:00Z      # one date (repeat --date for more)
 *   npm run test:dates -- embedded/rest                     # other Vitest files or folders
 *   npm run test:dates -- --workers 6                       # Vitest workers per date (the real-time suites mostly
 *                                                           # wait on the clock: more workers than cores pays)
 *
 * What `EMBEDDED_NOW` shifts, and why the app's own "today" stays on the real clock: docs/upstream.md §7; which tests
 * read which clock: docs/embedded-history.md, "Every test on any date".
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { YEAR_DATES } from "../embedded/test/year-dates";

/**
 * Every Vitest file whose answer depends on the service's "now": each starts the service through the test harness (or
 * builds the universe at `testClock()`) without pinning `EMBEDDED_NOW` itself. Files that pin it (QUIET_NOW, the
 * fingerprint's and the universe tests' fixed instants, history-year's own dates) hold on any date by construction,
 * and so do the ones that never read the service's clock.
 */
const QUICK_SUITES = [
  "embedded/test/contract-calendars.test.ts",
  "embedded/test/contract-core.test.ts",
  "embedded/rest/fundamentals.test.ts",
  "embedded/rest/balance-sheet.test.ts",
  "embedded/test/live/history.test.ts",
  "embedded/test/live/transcripts-rest.test.ts",
  "test/upstream/embedded.integration.test.ts",
  "test/upstream/fundamentals.integration.test.ts",
  "server/insights/demo-calls.test.ts",
  "test/upstream/dialects.test.ts",
];
/**
 * The ones that play calls in real time (a minute or more of wall time each: live calls, speech, replay). On another
 * date they differ in which report a live call speaks to, which history-year.test.ts checks in process for every
 * company on every date; `--quick` leaves them out.
 */
const REAL_TIME_SUITES = [
  "embedded/test/clock.test.ts",
  "embedded/test/live/history-audio.test.ts",
  "embedded/test/live/stream-protocol.test.ts",
  "embedded/test/live/replay.test.ts",
  "test/upstream/media.integration.test.ts",
  "test/upstream/media-mp3-ready.integration.test.ts",
  "test/live/live-bus.test.ts",
];

interface VitestReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));

function parseArgs(argv: string[]): { dates: string[]; files: string[]; workers: number | null } {
  const dates: string[] = [];
  const files: string[] = [];
  let quick = false;
  let workers: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--date") {
      const value = argv[++i];
      if (!value) throw new Error("--date needs an instant, e.g. --date 2028-02-29T15:00:00Z");
      dates.push(value);
    } else if (arg.startsWith("--date=")) dates.push(arg.slice("--date=".length));
    else if (arg === "--quick") quick = true;
    else if (arg === "--workers") {
      workers = Number(argv[++i]);
      if (!Number.isInteger(workers) || workers < 1)
        throw new Error("--workers needs a whole number, e.g. --workers 6");
    } else files.push(arg);
  }
  return {
    dates: dates.length > 0 ? dates : [...YEAR_DATES],
    files: files.length > 0 ? files : quick ? QUICK_SUITES : [...QUICK_SUITES, ...REAL_TIME_SUITES],
    workers,
  };
}

/**
 * The failures of one run, one line each: `file > test: the first line of its error` (so a timeout under load reads
 * apart from a wrong answer on the date), or the file's own error when it failed to load.
 */
function failuresOf(report: VitestReport): string[] {
  const lines: string[] = [];
  for (const file of report.testResults) {
    const name = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = file.assertionResults.filter((t) => t.status === "failed");
    for (const test of failed) {
      const why = (test.failureMessages?.[0] ?? "").split("\n")[0]!.slice(0, 200);
      lines.push(`${name} > ${test.fullName}${why ? `: ${why}` : ""}`);
    }
    if (failed.length === 0 && file.status === "failed")
      lines.push(`${name}: ${(file.message ?? "failed").split("\n")[0]}`);
  }
  return lines;
}

function runDate(
  date: string,
  files: string[],
  folder: string,
  workers: number | null,
): { ok: boolean; line: string; failures: string[] } {
  const output = join(folder, `${date.replace(/[:.]/g, "-")}.json`);
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      ...files,
      "--reporter=json",
      `--outputFile=${output}`,
      ...(workers === null ? [] : [`--maxWorkers=${workers}`]),
    ],
    { cwd: root, env: { ...process.env, EMBEDDED_NOW: date }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  let report: VitestReport;
  try {
    report = JSON.parse(readFileSync(output, "utf8")) as VitestReport;
  } catch {
    const why = (result.stderr || result.stdout || `exit ${result.status}`).trim().split("\n").slice(-5);
    return { ok: false, line: `${date}  FAIL  no report (${seconds} s)`, failures: why };
  }
  const failures = failuresOf(report);
  const ok = result.status === 0 && failures.length === 0 && report.numFailedTests === 0;
  const counts = `${report.numPassedTests} of ${report.numTotalTests} tests passed, ${report.testResults.length} files`;
  return { ok, line: `${date}  ${ok ? "pass" : "FAIL"}  ${counts} (${seconds} s)`, failures };
}

function main(): void {
  const { dates, files, workers } = parseArgs(process.argv.slice(2));
  const folder = mkdtempSync(join(tmpdir(), "callroom-test-dates-"));
  console.log(`${files.length} Vitest paths on ${dates.length} dates (EMBEDDED_NOW), one date at a time`);
  let passed = 0;
  try {
    for (const date of dates) {
      const { ok, line, failures } = runDate(date, files, folder, workers);
      console.log(line);
      for (const failure of failures) console.log(`    ${failure}`);
      if (ok) passed++;
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(`${passed} of ${dates.length} dates passed`);
  process.exitCode = passed === dates.length ? 0 : 1;
}

main();
