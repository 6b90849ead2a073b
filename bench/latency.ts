/**
 * Sentence → DOM: the time from the embedded service sending a live sentence to its text appearing in the call
 * room's DOM in Chromium, through the whole path (upstream WebSocket → live bus → SSE → browser → React).
 *
 * "Sent" is the frame's `created_time`, the embedded service's stamp in the tick it sends the frame, read by a second
 * WebSocket client of the service (lib/upstream-sentences.ts). "In the DOM" is when a MutationObserver installed before the page's own
 * scripts first sees an element or text node whose text contains the sentence. Both clocks are the machine's.
 *
 * `calls` calls are started through the control API and each is watched in its own page for `seconds`.
 */
import { chromium } from "playwright-core";
import type { RunningApp } from "./lib/app";
import { getJson, loadAverage, log, percentile, round, sleep, withTimeout } from "./lib/common";
import { watchUpstreamSentences } from "./lib/upstream-sentences";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Runs in the page before its scripts: remembers when each piece of text first appeared. A string, not a function:
 * tsx would wrap a function's inner closures in a `__name` helper the page does not have.
 */
const OBSERVER_SCRIPT = `
  window.__benchTexts = [];
  const record = (node) => {
    const text = node.textContent;
    if (text && text.length > 8) window.__benchTexts.push({ t: Date.now(), text: text.slice(0, 4000) });
  };
  new MutationObserver((mutations) => {
    for (const m of mutations) {
      if (m.type === "characterData") record(m.target);
      for (const node of m.addedNodes) record(node);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

export async function runLatencyBench(app: RunningApp, options = { calls: 2, seconds: 75 }) {
  return withTimeout(
    (async () => {
      const load = loadAverage();
      const page0 = await getJson<{ data: { ticker: string }[] }>(
        `${app.url}/api/calendar/earnings?pageSize=50`,
      );
      const symbols = [...new Set(page0.data.map((r) => r.ticker))].slice(0, options.calls);
      if (symbols.length < options.calls) throw new Error("not enough symbols in the earnings calendar");

      const upstream = await watchUpstreamSentences(app.embeddedUrl);
      const sent = upstream.sent;

      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      try {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        await context.addInitScript({ content: OBSERVER_SCRIPT });
        const callIds: string[] = [];
        const pages = [];
        for (const symbol of symbols) {
          const { call_id } = await getJson<{ call_id: string }>(`${app.embeddedUrl}/__embedded/calls`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ symbol, durationSeconds: options.seconds + 30 }),
          });
          callIds.push(call_id);
          const page = await context.newPage();
          // The live bus learns of the call from the stream; the page may open before the REST detail has it.
          for (let attempt = 0; attempt < 20; attempt++) {
            const response = await page.goto(`${app.url}/calls/${call_id}`, { waitUntil: "load" });
            if (response?.ok()) break;
            await sleep(1_000);
          }
          await page.getByTestId("call-room").waitFor({ timeout: 30_000 });
          pages.push(page);
        }
        const measureFrom = Date.now();
        log(`latency: watching ${callIds.join(", ")} for ${options.seconds} s`);
        await sleep(options.seconds * 1000);

        const samples: number[] = [];
        const missing: string[] = [];
        for (const [i, page] of pages.entries()) {
          const texts = await page.evaluate(
            () => (window as unknown as { __benchTexts: { t: number; text: string }[] }).__benchTexts,
          );
          const frames = sent.filter((s) => s.callId === callIds[i] && s.sentAt >= measureFrom);
          // Leave out sentences sent in the last seconds: they may still be on their way.
          for (const frame of frames.filter((f) => f.sentAt < measureFrom + (options.seconds - 3) * 1000)) {
            const seen = texts.find((r) => r.t >= frame.sentAt - 1 && r.text.includes(frame.text));
            if (seen) samples.push(seen.t - frame.sentAt);
            else missing.push(frame.text.slice(0, 60));
          }
        }
        for (const id of callIds) {
          await fetch(`${app.embeddedUrl}/__embedded/calls/${id}/end`, { method: "POST" }).catch(
            () => undefined,
          );
        }
        if (samples.length === 0) {
          await pages[0]?.screenshot({ path: "/tmp/callroom-bench-latency.png" }).catch(() => undefined);
          throw new Error(
            `no sentence reached the DOM (${sent.length} frames sent, ${missing.length} missing, e.g. ${JSON.stringify(missing.slice(0, 2))}; screenshot /tmp/callroom-bench-latency.png)`,
          );
        }
        const result = {
          sentenceToDomP95Ms: round(percentile(samples, 95)),
          sentenceToDomP50Ms: round(percentile(samples, 50)),
          maxMs: round(Math.max(...samples)),
          samples: samples.length,
          missing: missing.length,
          calls: callIds.length,
          seconds: options.seconds,
          target: 150,
          met: percentile(samples, 95) <= 150,
          loadAverage: load,
        };
        log(
          `latency: ${JSON.stringify(result)}${missing.length ? ` missing: ${JSON.stringify(missing.slice(0, 3))}` : ""}`,
        );
        return result;
      } finally {
        await browser.close();
        upstream.close();
      }
    })(),
    5 * 60_000,
    "the latency benchmark",
  );
}
