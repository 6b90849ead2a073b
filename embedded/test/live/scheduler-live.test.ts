/* eslint-disable @typescript-eslint/no-explicit-any -- untyped JSON bodies are what these tests inspect, field by field */
// The scheduler running for real (speech, clock, REST, WebSocket): three short staggered calls kept live, one
// completing, replaced on another company, enriched after EMBEDDED_ENRICH_SECONDS, every call announced on `*`
// before its first sentence. Calls last 2 minutes (EMBEDDED_CALL_MINUTES accepts fractions, down to 0.1), so the
// lanes' first calls end 120, 80 and 40 seconds after start-up (a call lasts the duration it is asked for).
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUIET_NOW, startTestEmbedded, type TestEmbedded } from "../harness";
import { connect, getJson, isJson, sleep, type RecordingClient } from "./helpers";

const LANES = 3;
const ENRICH_SECONDS = 3;

interface Sample {
  at: number;
  rest: { call_id: string; symbol: string; status: string; start_time: string }[];
  wsList: { call_id: string; symbol: string }[];
}

let embedded: TestEmbedded;
let client: RecordingClient;
const samples: Sample[] = [];
/** Call id → symbol, of every call seen live. */
const seen = new Map<string, string>();
let firstCompleted: { call_id: string; symbol: string; seenAt: number; othersLive: string[] } | null = null;
let replacement: { call_id: string; symbol: string } | null = null;
let loopDelayP99Ms = 0;

async function sample(): Promise<Sample> {
  const listed = client.frames.length;
  client.send({ action: "list" });
  const [{ body }, frame] = await Promise.all([
    getJson(`${embedded.url}/api/v1/transcripts/calls?status=IN_PROGRESS&info_only=true&page_size=100`),
    client.waitFor((f) => isJson(f) && f.value.action === "list", 10_000, listed),
  ]);
  return {
    at: Date.now(),
    rest: body.data,
    wsList: (frame as any).value.calls,
  };
}

beforeAll(async () => {
  embedded = await startTestEmbedded({
    EMBEDDED_LIVE_CALLS: String(LANES),
    EMBEDDED_CALL_MINUTES: "2",
    EMBEDDED_ENRICH_SECONDS: String(ENRICH_SECONDS),
    // Exactly the lanes' calls live: on a quiet Sunday no release call joins them.
    EMBEDDED_NOW: QUIET_NOW,
  });
  client = await connect(embedded.wsUrl, embedded.key);
  client.send({ action: "subscribe", ticker: "*" });
  await client.waitFor((f) => f.text === "Subscribed to *");

  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // Observe until a call has completed, its replacement has spoken, and the completed call is enriched.
  const deadline = Date.now() + 110_000;
  let enrichedSeen = false;
  while (Date.now() < deadline) {
    const s = await sample();
    samples.push(s);
    for (const c of s.rest) seen.set(c.call_id, c.symbol);
    if (!firstCompleted) {
      const previous = samples.at(-2);
      const gone = previous?.rest.find((c) => !s.rest.some((x) => x.call_id === c.call_id));
      if (gone) {
        firstCompleted = {
          call_id: gone.call_id,
          symbol: gone.symbol,
          seenAt: s.at,
          othersLive: s.rest
            .filter((c) => previous?.rest.some((p) => p.call_id === c.call_id))
            .map((c) => c.call_id),
        };
        const fresh = s.rest.find((c) => !previous?.rest.some((p) => p.call_id === c.call_id));
        if (fresh) replacement = { call_id: fresh.call_id, symbol: fresh.symbol };
      }
    }
    if (firstCompleted && !enrichedSeen) {
      const { body } = await getJson(`${embedded.url}/api/v1/transcripts/calls/${firstCompleted.call_id}`);
      enrichedSeen = body.summary !== null;
    }
    const replacementSpoke =
      replacement !== null &&
      client.frames.some(
        (f) => isJson(f) && f.value.call_id === replacement?.call_id && "sequence" in f.value,
      );
    if (enrichedSeen && replacementSpoke && Date.now() - (firstCompleted?.seenAt ?? 0) > 10_000) break;
    await sleep(1000);
  }
  histogram.disable();
  loopDelayP99Ms = histogram.percentile(99) / 1e6;
}, 150_000);

afterAll(async () => {
  client?.close();
  await embedded?.close();
});

describe("scheduled live calls", () => {
  it(`keeps ${LANES} calls live at any moment (REST status=IN_PROGRESS and the WebSocket list agree)`, () => {
    // Lanes start two seconds apart and need the speech engine first: judge from the first full sample on.
    const firstFull = samples.findIndex((s) => s.rest.length === LANES);
    expect(firstFull).toBeGreaterThanOrEqual(0);
    const window = samples.slice(firstFull);
    expect(window.length).toBeGreaterThan(20);
    for (const s of window) {
      expect(s.rest).toHaveLength(LANES);
      expect(s.wsList).toHaveLength(LANES);
      expect(new Set(s.rest.map((c) => c.symbol)).size).toBe(LANES);
    }
    // The two views name the same calls (a call may complete between the two requests of one sample).
    const agree = window.filter(
      (s) =>
        [...s.rest.map((c) => c.call_id)].sort().join() === [...s.wsList.map((c) => c.call_id)].sort().join(),
    );
    expect(agree.length).toBeGreaterThanOrEqual(window.length - 2);
  });

  it("staggers the calls: distinct start times, and one call ends while the others run on", async () => {
    const firstFull = samples.find((s) => s.rest.length === LANES);
    expect(new Set(firstFull?.rest.map((c) => c.start_time)).size).toBe(LANES);
    expect(firstCompleted).not.toBeNull();
    // The other original calls were still live more than ten seconds after the first one ended.
    expect(firstCompleted?.othersLive).toHaveLength(LANES - 1);
    const later = samples.filter((s) => s.at >= (firstCompleted?.seenAt ?? 0) + 10_000);
    expect(later.length).toBeGreaterThan(0);
    for (const id of firstCompleted?.othersLive ?? []) {
      expect(later[0]?.rest.some((c) => c.call_id === id)).toBe(true);
    }
    const { body } = await getJson(`${embedded.url}/api/v1/transcripts/calls/${firstCompleted?.call_id}`);
    expect(body.status).toBe("COMPLETED");
    expect(body.end_time).not.toBeNull();
  });

  it("replaces a completed call at once with a call on another company", () => {
    expect(replacement).not.toBeNull();
    expect(replacement?.symbol).not.toBe(firstCompleted?.symbol);
    const completedAt = samples.findIndex((s) => s.at === firstCompleted?.seenAt);
    const before = samples[completedAt - 1];
    expect(before?.rest.some((c) => c.symbol === replacement?.symbol)).toBe(false);
  });

  it(`enriches a completed call ${ENRICH_SECONDS} s after its end`, async () => {
    const { body } = await getJson(`${embedded.url}/api/v1/transcripts/calls/${firstCompleted?.call_id}`);
    expect(body.status).toBe("COMPLETED");
    expect(body.summary).not.toBeNull();
    expect(body.participants.length).toBeGreaterThan(0);
    expect(body.transcripts.some((t: any) => t.type === "NON_LIVE")).toBe(true);
    const delay = Date.parse(body.summary.created_at) - Date.parse(body.end_time);
    expect(delay).toBeGreaterThanOrEqual(ENRICH_SECONDS * 1000 - 100);
    expect(delay).toBeLessThan(ENRICH_SECONDS * 1000 + 15_000);
    const summary = await getJson(`${embedded.url}/api/v1/transcripts/summaries/${firstCompleted?.call_id}`);
    expect(summary.status).toBe(200);
  });

  it("announces every call on `*` with an audio event before its first sentence", () => {
    const frames = client.frames.filter(isJson).map((f) => f.value);
    const withSentences = new Set(frames.filter((v) => "sequence" in v).map((v) => v.call_id as string));
    expect(withSentences.has(replacement?.call_id ?? "")).toBe(true);
    expect(withSentences.size).toBeGreaterThanOrEqual(LANES + 1);
    for (const callId of withSentences) {
      const audio = frames.findIndex((v) => v.action === "audio" && v.call_id === callId);
      const firstSentence = frames.findIndex((v) => v.call_id === callId && "sequence" in v);
      expect(audio, callId).toBeGreaterThanOrEqual(0);
      expect(audio, callId).toBeLessThan(firstSentence);
      expect(frames.filter((v) => v.action === "audio" && v.call_id === callId)).toHaveLength(1);
      expect(frames[audio]).toMatchObject({
        symbol: seen.get(callId),
        hls_url: expect.stringContaining(callId),
      });
      const sequences = frames.filter((v) => v.call_id === callId && "sequence" in v).map((v) => v.sequence);
      expect(sequences).toEqual(sequences.map((_, i) => i));
    }
  });

  it("reports the event-loop delay while three calls run (informational bound)", () => {
    console.info(`[scheduler-live] event-loop delay p99 ${loopDelayP99Ms.toFixed(1)} ms`);
    // The test process hosts the service: REST and WebSocket answers wait on this loop. A loaded shared CI box adds
    // its own scheduling noise, so the bound here is loose; the measured figure is what the report quotes.
    expect(loopDelayP99Ms).toBeLessThan(1000);
  });
});
