/**
 * Writes the generated part of docs/performance.md (between the `bench:results` markers) from bench/results.json;
 * the hand-written findings around it are kept.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./app";

const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" ? (v as Json) : {});
const fmt = (v: unknown): string =>
  typeof v === "number"
    ? v.toLocaleString("en-US", { maximumFractionDigits: 2 })
    : v === undefined
      ? "—"
      : String(v);
const verdict = (met: unknown) => (met === true ? "met" : met === false ? "**missed**" : "—");
const load = (v: unknown) => (Array.isArray(v) ? v.join(" / ") : "—");

function section(results: Json): string {
  const lines: string[] = [];
  const machine = obj(results.machine);
  lines.push(
    `Last run: ${fmt(machine.recordedAt)} · Node ${fmt(machine.node)} · ${fmt(machine.cpus)} CPUs (shared).`,
    "",
  );
  lines.push(
    "| benchmark | figure | value | target | verdict | load avg (1/5/15 min) |",
    "|---|---|---|---|---|---|",
  );
  const row = (bench: string, figure: string, value: unknown, target: string, met: unknown, la: unknown) =>
    lines.push(`| ${bench} | ${figure} | ${fmt(value)} | ${target} | ${verdict(met)} | ${load(la)} |`);
  const err = (bench: string, r: Json) => {
    if (r.error) lines.push(`| ${bench} | error | ${String(r.error).replace(/\|/g, "/")} | | | |`);
    return Boolean(r.error);
  };

  const relay = obj(results.relay);
  if (!err("relay", relay) && relay.clients !== undefined) {
    const met = obj(relay.met);
    row(
      "relay",
      "SSE clients",
      relay.clients,
      "≥ 10,000",
      Number(relay.clients) >= 10_000,
      relay.loadAverage,
    );
    row("relay", "deliveries/s (app)", relay.deliveriesPerSec, "", undefined, obj(relay.app).loadAverage);
    row(
      "relay",
      "deliveries/s (bare node:http)",
      relay.baselineDeliveriesPerSec,
      "",
      undefined,
      obj(relay.baseline).loadAverage,
    );
    row("relay", "ratio app / bare (wall clock)", relay.ratio, "≥ 0.66", undefined, relay.loadAverage);
    row(
      "relay",
      "server CPU % during publishing (app / bare)",
      `${fmt(obj(relay.app).serverCpuPercent)} / ${fmt(obj(relay.baseline).serverCpuPercent)}`,
      "",
      undefined,
      relay.loadAverage,
    );
    row(
      "relay",
      "deliveries per server CPU-second (app / bare)",
      `${fmt(relay.deliveriesPerServerCpuSec)} / ${fmt(relay.baselineDeliveriesPerServerCpuSec)}`,
      "",
      undefined,
      relay.loadAverage,
    );
    row(
      "relay",
      "ratio app / bare per server CPU-second",
      relay.ratioPerServerCpu,
      "≥ 0.66",
      met.ratio,
      relay.loadAverage,
    );
    row(
      "relay",
      "publish → receipt p50 / p99 ms (app)",
      `${fmt(relay.p50Ms)} / ${fmt(relay.p99Ms)}`,
      "",
      undefined,
      relay.loadAverage,
    );
    row(
      "relay",
      "publish → receipt p50 / p99 ms (bare)",
      `${fmt(relay.baselineP50Ms)} / ${fmt(relay.baselineP99Ms)}`,
      "",
      undefined,
      obj(relay.baseline).loadAverage,
    );
    row(
      "relay",
      "RSS per client kB (app)",
      relay.rssPerClientKb,
      "≤ 20",
      met.rssPerClientKb,
      relay.loadAverage,
    );
    row(
      "relay",
      "RSS per client kB (bare)",
      relay.baselineRssPerClientKb,
      "",
      undefined,
      obj(relay.baseline).loadAverage,
    );
  }
  const co = obj(results.coalescing);
  if (!err("coalescing", co) && co.concurrent !== undefined) {
    row(
      "coalescing",
      `upstream calls for ${fmt(co.concurrent)} identical cold requests`,
      co.upstreamCalls,
      "1",
      co.upstreamCalls === 1,
      co.loadAverage,
    );
  }
  const proxy = obj(results.proxy);
  if (!err("proxy", proxy) && proxy.cached !== undefined) {
    for (const kind of ["cached", "uncached"] as const) {
      const r = obj(proxy[kind]);
      row(
        "proxy",
        `${kind} requests/s (p50 / p99 ms)`,
        `${fmt(r.requestsPerSec)} (${fmt(r.p50Ms)} / ${fmt(r.p99Ms)})`,
        "",
        undefined,
        r.loadAverage,
      );
    }
  }
  const ca = obj(results.cachedAnswers);
  if (!err("cachedAnswers", ca) && ca.ratio !== undefined) {
    const [app, bare] = [obj(ca.app), obj(ca.bare)];
    row(
      "cachedAnswers",
      "app / bare requests/s",
      `${fmt(app.requestsPerSec)} / ${fmt(bare.requestsPerSec)}`,
      "",
      undefined,
      app.loadAverage,
    );
    row("cachedAnswers", "ratio app / bare (wall clock)", ca.ratio, "≥ 0.25", ca.met, ca.loadAverage);
    row("cachedAnswers", "ratio per server CPU second", ca.ratioPerServerCpu, "", undefined, ca.loadAverage);
  }
  const lat = obj(results.latency);
  if (!err("latency", lat) && lat.sentenceToDomP95Ms !== undefined) {
    row(
      "latency",
      `sentence → DOM p95 ms (p50 ${fmt(lat.sentenceToDomP50Ms)}, n = ${fmt(lat.samples)})`,
      lat.sentenceToDomP95Ms,
      "≤ 150",
      Number(lat.sentenceToDomP95Ms) <= 150,
      lat.loadAverage,
    );
  }
  const matching = obj(results.alertMatching);
  if (!err("alertMatching", matching) && matching.matching !== undefined) {
    const m = obj(matching.matching);
    const path = obj(matching.serverPath);
    row(
      "alertMatching",
      `sentences/s on one core, ${fmt(m.rules)} rules (${fmt(m.candidatesPerSentence)} firings per sentence)`,
      m.sentencesPerSec,
      "≥ 10,000",
      m.met,
      matching.loadAverage,
    );
    row(
      "alertMatching",
      `phrase index / every-rule baseline sentences/s (${fmt(m.phraseIndexPerSec)} / ${fmt(m.phraseBaselinePerSec)})`,
      m.ratioIndexOverBaseline,
      "",
      undefined,
      matching.loadAverage,
    );
    row(
      "alertMatching",
      `hub publish → user's alert bus p95 ms, PGlite (p50 ${fmt(path.p50Ms)}, n = ${fmt(path.samples)})`,
      path.p95Ms,
      "",
      undefined,
      matching.loadAverage,
    );
  }
  const toast = obj(results.alertToast);
  if (!err("alertToast", toast) && toast.sentenceToToastP95Ms !== undefined) {
    row(
      "alertToast",
      `sentence → alert toast p95 ms, ${fmt(toast.rulesLoaded)} rules (p50 ${fmt(toast.sentenceToToastP50Ms)}, n = ${fmt(toast.samples)}, missing ${fmt(toast.missing)})`,
      toast.sentenceToToastP95Ms,
      "≤ 150",
      Number(toast.sentenceToToastP95Ms) <= 150,
      toast.loadAverage,
    );
  }
  const library = obj(results.library);
  if (library.skipped) lines.push(`| library | skipped | ${String(library.skipped)} | | | |`);
  else if (!err("library", library) && library.pglite !== undefined) {
    for (const [driver, importTarget, searchTarget] of [
      ["pglite", 240, 50],
      ["postgres", 180, 25],
    ] as const) {
      const d = obj(library[driver]);
      if (err(`library (${driver})`, d)) continue;
      row(
        `library (${driver})`,
        `corpus import s (${fmt(d.importedCalls)} calls; CPU ${fmt(Number(d.importCpuMs) / 1000)} s)`,
        Number(d.importWallMs) / 1000,
        `≤ ${importTarget}`,
        Number(d.importWallMs) / 1000 <= importTarget,
        library.loadAverage,
      );
      row(
        `library (${driver})`,
        `search p95 ms, ${fmt(d.sentences)} sentences (p50 ${fmt(d.searchP50Ms)}, p99 ${fmt(d.searchP99Ms)}; CPU time p95 ${fmt(d.searchCpuP95Ms)})`,
        d.searchP95Ms,
        `≤ ${searchTarget}`,
        Number(d.searchP95Ms) <= searchTarget,
        library.loadAverage,
      );
      if (d.concurrentP95Ms !== undefined) {
        row(
          `library (${driver})`,
          "search p95 ms, 4 clients at once",
          d.concurrentP95Ms,
          "≤ 150",
          Number(d.concurrentP95Ms) <= 150,
          library.loadAverage,
        );
      }
      row(
        `library (${driver})`,
        "common word p50 ms (information)",
        d.commonWordP50Ms,
        "",
        undefined,
        library.loadAverage,
      );
      row(
        `library (${driver})`,
        `phrases that found their call (of ${fmt(d.phrasesTried)})`,
        d.phrasesFound,
        "all",
        d.phrasesFound === d.phrasesTried,
        library.loadAverage,
      );
      row(
        `library (${driver})`,
        "facets unlike their filter",
        d.facetMismatches,
        "0",
        d.facetMismatches === 0,
        library.loadAverage,
      );
    }
    row(
      "library",
      `queries answered differently by the drivers (archives of ${fmt(obj(library.pglite).calls)} and ${fmt(obj(library.postgres).calls)} calls)`,
      library.driverMismatches,
      "0",
      library.driverMismatches === 0,
      library.loadAverage,
    );
  }
  const sim = obj(results.scaleSim);
  if (!err("scaleSim", sim) && sim.sentences !== undefined) {
    row(
      "scaleSim (PostgreSQL)",
      `search p95 ms, ${fmt(sim.sentences)} synthetic sentences (p50 ${fmt(sim.searchP50Ms)}, p99 ${fmt(sim.searchP99Ms)})`,
      sim.searchP95Ms,
      "(docs/scale.md)",
      undefined,
      sim.loadAverage,
    );
    row(
      "scaleSim (PostgreSQL)",
      `bytes a sentence (table ${fmt(sim.tableMB)} MB, search index ${fmt(sim.searchIndexMB)} MB)`,
      sim.bytesPerSentence,
      "",
      undefined,
      sim.loadAverage,
    );
  }
  const loop = obj(results.eventLoop);
  if (!err("eventLoop", loop) && loop.busy !== undefined) {
    const busy = obj(loop.busy);
    const quiet = obj(loop.baseline);
    row(
      "eventLoop",
      `/api/health p95 ms while 3 clients search (baseline ${fmt(quiet.healthP95Ms)})`,
      busy.healthP95Ms,
      "≤ 100",
      Number(busy.healthP95Ms) <= 100,
      loop.loadAverage,
    );
    row(
      "eventLoop",
      `/api/health max ms while 3 clients search (baseline ${fmt(quiet.healthMaxMs)})`,
      busy.healthMaxMs,
      "≤ 500",
      Number(busy.healthMaxMs) <= 500,
      loop.loadAverage,
    );
    row(
      "eventLoop",
      `SSE events while 3 clients search (baseline ${fmt(quiet.sseEvents)}), longest gap ${fmt(busy.sseMaxGapMs)} ms`,
      busy.sseEvents,
      "> 0",
      Number(busy.sseEvents) > 0,
      loop.loadAverage,
    );
  }
  const fresh = obj(results.freshStart);
  if (!err("freshStart", fresh) && fresh.calls !== undefined) {
    row(
      "freshStart",
      `backfill s, first 200 of /api/health → finishedAt (${fmt(fresh.calls)} calls of ${fmt(fresh.total)}, failed ${fmt(fresh.failed)})`,
      fresh.backfillSeconds,
      "≤ 60, failed 0",
      fresh.backfillSeconds !== null && Number(fresh.backfillSeconds) <= 60 && fresh.failed === 0,
      fresh.loadAverage,
    );
    const by = obj(fresh.embeddedByStatus);
    const app429 = Object.values(obj(fresh.appRateLimited)).reduce<number>((a, b) => a + Number(b), 0);
    row(
      "freshStart",
      `429 answers of the embedded service (answers by status: ${Object.entries(by)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(", ")}; 429s the app counted: ${fmt(app429)})`,
      Number(by["429"] ?? 0),
      "0",
      Number(by["429"] ?? 0) === 0,
      fresh.loadAverage,
    );
  }
  const hostile = obj(results.hostileUsers);
  if (!err("hostileUsers", hostile) && hostile.push !== undefined) {
    const push = obj(hostile.push);
    const trickle = obj(hostile.webhookTrickle);
    const burst = obj(hostile.webhookBurst);
    const quiet = `quiet ${fmt(hostile.healthP95QuietMs)} ms`;
    row(
      "hostileUsers",
      `push subscriptions kept of ${fmt(push.subscriptionsTried)} tried`,
      push.subscriptionsAccepted,
      "≤ 20",
      Number(push.subscriptionsAccepted) <= 20,
      push.loadAverage,
    );
    row("hostileUsers", 'pushes/s, one rule on "the"', push.pushesPerSecond, "", undefined, push.loadAverage);
    row(
      "hostileUsers",
      `/api/health p95 ms under the push attack (${quiet}; ratio ${fmt(push.healthP95Ratio)})`,
      push.healthP95UnderAttackMs,
      "",
      undefined,
      push.loadAverage,
    );
    row(
      "hostileUsers",
      `sockets open to a trickling webhook target after 2 min, ${fmt(trickle.rules)} rules (peak ${fmt(trickle.peakOpenSockets)})`,
      trickle.openSocketsAfter2Min,
      "≤ 10",
      Number(trickle.openSocketsAfter2Min) <= 10,
      trickle.loadAverage,
    );
    row(
      "hostileUsers",
      "sockets open 5 s after deleting those rules",
      trickle.openSockets5sAfterDeletingTheRules,
      "0",
      Number(trickle.openSockets5sAfterDeletingTheRules) === 0,
      trickle.loadAverage,
    );
    row(
      "hostileUsers",
      `/api/health p95 ms under the trickle (${quiet}; ratio ${fmt(trickle.healthP95Ratio)})`,
      trickle.healthP95UnderAttackMs,
      "",
      undefined,
      trickle.loadAverage,
    );
    row(
      "hostileUsers",
      `webhook POSTs in 40 s, ${fmt(burst.rules)} rules on "the" to one URL`,
      burst.postsIn40s,
      "",
      undefined,
      burst.loadAverage,
    );
  }
  const lighthouse = (
    bench: string,
    runs: Json,
    target: string,
    meets: (score: number) => boolean | null,
  ) => {
    if (err(bench, runs)) return;
    for (const [page, r] of Object.entries(obj(runs.pages))) {
      const p = obj(r);
      const score = p.score === undefined ? undefined : Number(p.score);
      row(
        bench,
        Array.isArray(p.runs) && p.runs.length > 1
          ? `performance ${page} (median of ${p.runs.join(" / ")})`
          : `performance ${page}`,
        p.score ?? p.error,
        target,
        score === undefined ? undefined : meets(score),
        p.loadAverage,
      );
    }
  };
  lighthouse("lighthouse", obj(results.lighthouse), "≥ 95", (score) => score >= 95);
  lighthouse("lighthouse (desktop)", obj(results.lighthouseDesktop), "(information)", () => null);
  const bundles = obj(results.bundles);
  if (!err("bundles", bundles)) {
    for (const [route, r] of Object.entries(obj(bundles.routes))) {
      const b = obj(r);
      row(
        "bundles",
        `first-load JS ${route} (kB gzip)`,
        b.firstLoadKbGzip,
        "≤ 180",
        Number(b.firstLoadKbGzip) <= 180,
        bundles.loadAverage,
      );
    }
  }
  return lines.join("\n");
}

/** Formatted with the project's Prettier settings, so `npm run format:check` stays green after a bench run. */
export async function writePerformanceDoc(results: Json): Promise<void> {
  const path = join(ROOT, "docs/performance.md");
  const existing = existsSync(path) ? readFileSync(path, "utf8") : `# Performance\n\n${START}\n${END}\n`;
  const at = existing.indexOf(START);
  const end = existing.indexOf(END);
  const generated = `${START}\n<!-- generated by npm run bench from bench/results.json; edit outside the markers -->\n\n${section(results)}\n\n${END}`;
  const next =
    at >= 0 && end > at
      ? existing.slice(0, at) + generated + existing.slice(end + END.length)
      : `${existing}\n${generated}\n`;
  const prettier = await import("prettier");
  const options = (await prettier.resolveConfig(path)) ?? {};
  writeFileSync(path, await prettier.format(next, { ...options, filepath: path }));
}
