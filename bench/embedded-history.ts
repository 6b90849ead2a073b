/**
 * The embedded service's year of calls (issue 15, item 7), measured on the service as the launcher starts it
 * (`node --max-old-space-size=512 --max-semi-space-size=8 --import tsx embedded/main.ts`, default settings,
 * so three calls are live meanwhile):
 * - start-up: spawn to the "listening on" line;
 * - the first full listing of completed calls (every page of 100, `info_only`), and a second one;
 * - building one historical call on demand: `GET /calls/{id}` (full transcript, summary, participants) for calls
 *   nobody asked for before, as the client sees it (HTTP on loopback included), median and worst;
 * - the process's resident memory afterwards (VmRSS of the service, from /proc, worker threads included), split into
 *   anonymous memory (heaps, WASM memory) and file-backed pages (mostly the node binary).
 * Usage: `node --import tsx bench/embedded-history.ts [calls]`; `npm run bench -- --only embeddedHistory`.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { EMBEDDED_ARGS } from "./lib/embedded-command";

const root = path.resolve(import.meta.dirname, "..");

export interface EmbeddedHistoryResult {
  startupMs: number;
  calls: number;
  firstListingMs: number;
  secondListingMs: number;
  callBuildMedianMs: number;
  callBuildMaxMs: number;
  callsBuilt: number;
  rssMb: number;
  rssAnonMb: number;
  rssFileMb: number;
  threads: number;
  loadAverage: number[];
  /** CPU time in this process (user + system), which a loaded machine inflates far less than wall time. */
  cpu: {
    universeMs: number;
    lengthsMsPerCall: number;
    digestMsPerCall: number;
    coldCallMsMedian: number;
    coldCallMsMax: number;
  };
}

/** The same work in this process, timed in CPU milliseconds. */
async function cpuFigures(): Promise<EmbeddedHistoryResult["cpu"]> {
  const { buildUniverse } = await import("../embedded/universe/index");
  const { CallStore } = await import("../embedded/live/call-store");
  const { createEnricher } = await import("../embedded/live/enrichment/index");
  const { DEFAULT_SEED } = await import("../embedded/config");
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let t = cpuMs();
  const universe = buildUniverse(DEFAULT_SEED);
  const universeMs = cpuMs() - t;
  const store = () =>
    new CallStore({
      universe,
      speech: () => Promise.reject(new Error("no speech in this measurement")),
      createTrack: () => {
        throw new Error("no audio in this measurement");
      },
      enricher: createEnricher(),
      now: () => Date.now(),
      enrichDelayMs: 20_000,
      historyCallSeconds: 600,
      audioCacheSize: 1,
    });
  const listing = store();
  t = cpuMs();
  const entries = listing.all(Date.now());
  const lengthsMsPerCall = (cpuMs() - t) / entries.length;
  t = cpuMs();
  for (const entry of entries.slice(0, 100)) listing.digestOf(entry);
  const digestMsPerCall = (cpuMs() - t) / 100;
  const times: number[] = [];
  for (const entry of entries.filter((_, i) => i % 20 === 0)) {
    const cold = store();
    const s = cpuMs();
    cold.transcriptOf(entry);
    cold.enrichmentOf(entry);
    times.push(cpuMs() - s);
  }
  times.sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    universeMs: Math.round(universeMs),
    lengthsMsPerCall: round(lengthsMsPerCall),
    digestMsPerCall: round(digestMsPerCall),
    coldCallMsMedian: round(times[Math.floor(times.length / 2)] ?? Number.NaN),
    coldCallMsMax: round(times[times.length - 1] ?? Number.NaN),
  };
}

const get = async (url: string) => {
  const response = await fetch(url, { headers: { authorization: "token demo" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
};

function memory(pid: number): Pick<EmbeddedHistoryResult, "rssMb" | "rssAnonMb" | "rssFileMb" | "threads"> {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  const mb = (kb: number) => Math.round(kb / 1024);
  return {
    rssMb: mb(field("VmRSS")),
    rssAnonMb: mb(field("RssAnon")),
    rssFileMb: mb(field("RssFile") + field("RssShmem")),
    threads: field("Threads"),
  };
}

export async function runEmbeddedHistoryBench(sampleCalls = 40): Promise<EmbeddedHistoryResult> {
  const started = performance.now();
  const child = spawn(process.execPath, EMBEDDED_ARGS, {
    cwd: root,
    env: { ...process.env, EMBEDDED_PORT: "0", EMBEDDED_HOST: "127.0.0.1", EMBEDDED_RATE_LIMIT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error("no 'listening on' line within 30 s")), 30_000);
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (!match?.[1]) return;
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ""));
      });
      child.once("error", reject);
    });
    const startupMs = performance.now() - started;
    const list = `${url}/api/v1/transcripts/calls?info_only=true&page_size=100&sort_by=start_time:asc`;

    const listAll = async () => {
      const t0 = performance.now();
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const body = await get(`${list}&page=${page}`);
        ids.push(...body.data.map((c: { call_id: string }) => c.call_id));
        if (page >= body.pagination.page_count) break;
      }
      return { ids, ms: performance.now() - t0 };
    };
    const first = await listAll();
    const second = await listAll();

    // Cold builds: the oldest calls, whose scripts and summaries the later pages of the listing pushed out of the
    // service's caches (it keeps the 400 most recent).
    const cold = first.ids.slice(0, Math.max(1, first.ids.length - 450));
    const step = Math.max(1, Math.floor(cold.length / sampleCalls));
    const sample = cold.filter((_, i) => i % step === 0).slice(0, sampleCalls);
    const times: number[] = [];
    for (const id of sample) {
      const t0 = performance.now();
      await get(`${url}/api/v1/transcripts/calls/${id}`);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return {
      startupMs: Math.round(startupMs),
      calls: first.ids.length,
      firstListingMs: Math.round(first.ms),
      secondListingMs: Math.round(second.ms),
      callBuildMedianMs: Math.round((times[Math.floor(times.length / 2)] ?? Number.NaN) * 10) / 10,
      callBuildMaxMs: Math.round((times[times.length - 1] ?? Number.NaN) * 10) / 10,
      callsBuilt: times.length,
      ...memory(child.pid as number),
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      cpu: await cpuFigures(),
    };
  } finally {
    child.kill("SIGTERM");
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runEmbeddedHistoryBench(Number(process.argv[2] ?? 40) || 40);
  console.log(JSON.stringify(result, null, 2));
}
