/**
 * Sentence → alert toast (issue 17): the time from the upstream sending a live sentence to the toast quoting it
 * appearing in Chromium, through the whole path (upstream WebSocket → live bus → the leader's rule evaluation
 * over every loaded rule → firing recorded in the database → the user's alert stream → EventSource → React), with
 * 1,000 users × 10 rules loaded (bench/lib/alert-rules.ts) beside the probe user's own.
 *
 * The app runs on its own PGlite folder, seeded before start (bench/lib/seed-alert-rules.ts); measuring waits for
 * the archive's first backfill to finish, so what is measured is a running deployment, not its first minutes. The
 * probe user (the local user: the bench configures no users) has keyword rules on words most sentences of a call
 * say, scoped to the calls started here; other users' rules fire on the same sentences and are recorded too.
 *
 * "Sent" is the frame's `created_time`, the embedded service's stamp in the tick it sends the frame, read by a second
 * WebSocket client of the service (lib/upstream-sentences.ts); "shown" is when a MutationObserver installed before the page's scripts sees a toast whose text holds the sentence.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./latency";
import { ROOT, startApp } from "./lib/app";
import { getJson, loadAverage, log, percentile, round, sleep, withTimeout } from "./lib/common";
import { watchUpstreamSentences } from "./lib/upstream-sentences";

const USERS = 1_000;
const RULES_PER_USER = 10;
/** Words nearly every sentence of a call says, so that most sentences of the watched calls are samples. */
const PROBE_PHRASES = ["we", "our", "quarter"];
const PROBE_WORDS = /\b(we|our|quarters?)\b/i;
const STAGGER_MS = 3_100;

/** A string, not a function: tsx would wrap a function's inner closures in a helper the page does not have. */
const TOAST_OBSERVER = `
  window.__benchToasts = [];
  new MutationObserver((mutations) => {
    for (const m of mutations)
      for (const node of m.addedNodes) {
        if (node.nodeType !== 1) continue;
        const toasts = node.matches('[data-testid="alert-toast"]')
          ? [node]
          : node.querySelectorAll('[data-testid="alert-toast"]');
        for (const toast of toasts) window.__benchToasts.push({ t: Date.now(), text: toast.textContent || "" });
      }
  }).observe(document, { subtree: true, childList: true });
`;

export interface AlertToastOptions {
  reuseBuild?: boolean;
  calls?: number;
  seconds?: number;
}

export async function runAlertToastBench(options: AlertToastOptions = {}) {
  const calls = options.calls ?? 4;
  const seconds = options.seconds ?? 120;
  const dataDir = mkdtempSync(join(tmpdir(), "callroom-bench-alerts-"));
  try {
    const seeded = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=react-server",
        "bench/lib/seed-alert-rules.ts",
        join(dataDir, "pglite"),
        String(USERS),
        String(RULES_PER_USER),
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    if (seeded.status !== 0) throw new Error(`seeding the alert rules failed: ${seeded.stderr}`);
    log(`alertToast: ${seeded.stdout.trim()}`);

    const app = await startApp({
      reuseBuild: options.reuseBuild,
      env: { CALLROOM_DATA_DIR: join(dataDir, "pglite") },
    });
    try {
      return await withTimeout(measure(app, calls, seconds), 10 * 60_000, "the alert-toast benchmark");
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function waitForArchive(url: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const health = await getJson<{ archive?: { backfill?: { finishedAt: string | null } } }>(
      `${url}/api/health`,
    ).catch(() => null);
    if (health?.archive?.backfill?.finishedAt) return Date.now() - started;
    if (Date.now() - started > 5 * 60_000)
      throw new Error("the archive's backfill did not finish in 5 minutes");
    await sleep(2_000);
  }
}

async function measure(app: Awaited<ReturnType<typeof startApp>>, calls: number, seconds: number) {
  const backfillWaitMs = await waitForArchive(app.url);
  log(`alertToast: archive backfill done (waited ${Math.round(backfillWaitMs / 1000)} s)`);

  const today = new Date().toISOString().slice(0, 10);
  const calendar = await getJson<{ data: { ticker: string }[] }>(
    `${app.url}/api/calendar/earnings?from=${today}&to=${today}&pageSize=200`,
  ).catch(() => ({ data: [] }));
  const fallback = await getJson<{ data: { ticker: string }[] }>(
    `${app.url}/api/calendar/earnings?pageSize=200`,
  );
  const symbols = [...new Set([...calendar.data, ...fallback.data].map((r) => r.ticker))].slice(-calls);
  if (symbols.length < calls) throw new Error("not enough symbols in the earnings calendar");

  for (const phrase of PROBE_PHRASES) {
    const response = await fetch(`${app.url}/api/alert-rules`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "keyword", phrase, tickers: symbols }),
    });
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`creating the probe rule failed: ${response.status} ${await response.text()}`);
  }

  const upstream = await watchUpstreamSentences(app.embeddedUrl);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const load = loadAverage();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript({ content: TOAST_OBSERVER });
    const page = await context.newPage();
    await page.goto(`${app.url}/alerts`, { waitUntil: "load" });
    await page.getByTestId("alerts-bell").waitFor({ timeout: 30_000 });
    // The alert stream is an EventSource opened by an effect: give it a moment to connect before the calls start.
    await sleep(2_000);

    const callIds: string[] = [];
    const symbolOf = new Map<string, string>();
    for (const [i, symbol] of symbols.entries()) {
      // Scripts of the same length say their set pieces at the same offsets: started together, the calls would speak
      // in lockstep, which evenings of real calls never do. A few seconds apart, their sentences interleave.
      if (i > 0) await sleep(STAGGER_MS);
      const { call_id } = await getJson<{ call_id: string }>(`${app.embeddedUrl}/__embedded/calls`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ symbol, durationSeconds: seconds + 30 }),
      });
      callIds.push(call_id);
      symbolOf.set(call_id, symbol);
    }
    const measureFrom = Date.now();
    log(`alertToast: watching ${callIds.join(", ")} (${symbols.join(", ")}) for ${seconds} s`);
    await sleep(seconds * 1000);

    const toasts = await page.evaluate(
      () => (window as unknown as { __benchToasts: { t: number; text: string }[] }).__benchToasts,
    );
    const samples: number[] = [];
    const missing: string[] = [];
    const order: string[] = [];
    const frames = upstream.sent.filter(
      (f) =>
        callIds.includes(f.callId) &&
        f.sentAt >= measureFrom &&
        // Leave out the last seconds' sentences: they may still be on their way.
        f.sentAt < measureFrom + (seconds - 3) * 1000 &&
        PROBE_WORDS.test(f.text),
    );
    // What the server recorded for the probe user: tells "never fired" from "fired but never shown".
    const inbox = await getJson<{ data: { callId: string | null; text: string; firedAt: string }[] }>(
      `${app.url}/api/alerts?limit=200`,
    ).catch(() => ({ data: [] }));
    for (const frame of frames) {
      // The toast names the company: calls say some set pieces word for word ("That concludes our prepared remarks.").
      const symbol = symbolOf.get(frame.callId)!;
      const shown = toasts.find(
        (r) => r.t >= frame.sentAt - 1 && r.text.startsWith(`${symbol} ·`) && r.text.includes(frame.text),
      );
      if (shown) {
        samples.push(shown.t - frame.sentAt);
        order.push(`${Math.round((frame.sentAt - measureFrom) / 1000)}s:${shown.t - frame.sentAt}`);
      } else {
        const any = toasts.find((r) => r.text.includes(frame.text));
        missing.push(
          `${symbol} +${Math.round((frame.sentAt - measureFrom) / 1000)}s ${frame.text.slice(0, 50)}${any ? ` (a toast at ${any.t - frame.sentAt} ms: ${any.text.slice(0, 30)})` : ""}${inbox.data.some((a) => a.callId === frame.callId && a.text === frame.text) ? " (in the inbox)" : " (not recorded)"}`,
        );
      }
    }
    for (const id of callIds)
      await fetch(`${app.embeddedUrl}/__embedded/calls/${id}/end`, { method: "POST" }).catch(() => undefined);
    if (samples.length === 0) {
      await page.screenshot({ path: "/tmp/callroom-bench-alert-toast.png" }).catch(() => undefined);
      throw new Error(
        `no alert toast seen (${frames.length} matching sentences sent, ${toasts.length} toasts; screenshot /tmp/callroom-bench-alert-toast.png)`,
      );
    }
    const result = {
      sentenceToToastP95Ms: round(percentile(samples, 95)),
      sentenceToToastP50Ms: round(percentile(samples, 50)),
      maxMs: round(Math.max(...samples)),
      samples: samples.length,
      missing: missing.length,
      /** How late the benchmark's own client received the frames: what stamping on receipt would have hidden. */
      receiveLagP95Ms: round(
        percentile(
          frames.map((f) => f.receivedAt - f.sentAt),
          95,
        ),
      ),
      rulesLoaded: USERS * RULES_PER_USER + PROBE_PHRASES.length,
      calls: callIds.length,
      seconds,
      target: 150,
      met: percentile(samples, 95) <= 150,
      loadAverage: load,
    };
    log(`alertToast: samples in sending order (seconds after start: ms) ${order.join(" ")}`);
    log(
      `alertToast: ${JSON.stringify(result)}${missing.length ? ` missing: ${JSON.stringify(missing.slice(0, 12))}` : ""}`,
    );
    return result;
  } finally {
    await browser.close();
    upstream.close();
  }
}
