/**
 * The live bus end to end over real sockets: embedded service → one upstream WebSocket → consumer → sequencer → bus
 * → browsers' fan-out → the `/api/stream` route's SSE body (and `/api/calls/[callId]`), while the upstream socket is
 * dropped again and again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[callId]/route";
import { GET as streamRoute } from "@/app/api/stream/route";
import type { Call } from "@/lib/schemas/calls";
import type { SentenceEvent } from "@/lib/schemas/live";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { getRuntime, type Runtime } from "@/server/runtime";
import { refreshRuntime } from "@/test/support/upstream-env";
import type { Consumer } from "@/server/live/consumer";
import { readSse, type SseMessage, type SseReader } from "@/test/support/sse-client";

/** The embedded call's script is sized to this; its speech usually ends somewhat earlier. */
const CALL_SECONDS = 90;
const DROP_EVERY_MS = 3_000;
const DROPS = 10;

let embedded: TestEmbedded;
let consumer: Consumer;
let runtime: Runtime;
const savedEnv = { ...process.env };

async function waitUntil(
  test: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function openStream(query: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const response = await streamRoute(new Request(`http://app.test/api/stream?${query}`, { headers }));
  expect(response.status).toBe(200);
  return readSse(response);
}

const sentencesOf = (messages: SseMessage[], callId: string) =>
  messages
    .filter((m) => m.event === "sentence" && (m.data as SentenceEvent).callId === callId)
    .map((m) => m.data as SentenceEvent);

const statusOf = (callId: string, status: string) => (m: SseMessage) =>
  m.event === "call.status" &&
  (m.data as { callId: string }).callId === callId &&
  (m.data as { status: string }).status === status;

beforeAll(async () => {
  embedded = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0", EMBEDDED_ENRICH_SECONDS: "2" });
  process.env.UPSTREAM_BASE_URL = embedded.url;
  process.env.UPSTREAM_WS_URL = embedded.wsUrl;
  process.env.UPSTREAM_API_KEY = embedded.key;
  runtime = refreshRuntime({
    consumer: {
      // Reconnects slow enough that sentences are spoken while the socket is down, so REST must fill the gaps.
      socket: {
        backoff: { baseMs: 1_500, capMs: 2_500 },
        stableMs: 5_000,
        pingIntervalMs: 1_000,
        livenessTimeoutMs: 5_000,
      },
      sequencer: {
        syncBackoff: { baseMs: 100, capMs: 1_000 },
        enrichPoll: { firstMs: 500, factor: 1.2, capMs: 2_000, maxAttempts: 60 },
      },
    },
  });
  consumer = runtime.live.start()!;
  await waitUntil(() => consumer.state() === "open", 10_000, "the upstream socket to open");
  // One consumer per process: a second start (dev reload, another entry) is a no-op.
  expect(getRuntime().live.start()).toBe(consumer);
});

afterAll(async () => {
  await runtime.stop();
  await embedded?.close();
  process.env = savedEnv;
  refreshRuntime();
});

async function pickSymbol(): Promise<string> {
  const res = await fetch(`${embedded.url}/api/v2.1/calendar/earnings?pagesize=5`, {
    headers: { authorization: `token ${embedded.key}` },
  });
  const body = (await res.json()) as { earnings: { ticker: string }[] };
  return body.earnings[0]!.ticker;
}

async function startCall(symbol: string, durationSeconds: number): Promise<string> {
  const res = await fetch(`${embedded.url}/__embedded/calls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ symbol, durationSeconds }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { call_id: string }).call_id.toLowerCase();
}

/** How many sentences the service has said on the call so far (its live transcript over REST). */
async function spokenSoFar(callId: string): Promise<number> {
  const res = await fetch(`${embedded.url}/api/v1/transcripts/calls/${callId}`, {
    headers: { authorization: `token ${embedded.key}` },
  });
  const body = (await res.json()) as { transcripts?: { type: string; segments: unknown[] }[] };
  const live = body.transcripts?.find((t) => t.type === "LIVE") ?? body.transcripts?.[0];
  return live?.segments.length ?? 0;
}

/** The call's final transcript, once REST reports it completed (shortly after the socket's last sentence). */
async function finalTranscript(callId: string): Promise<{ sequence: number; text: string }[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${embedded.url}/api/v1/transcripts/calls/${callId}`, {
      headers: { authorization: `token ${embedded.key}` },
    });
    const body = (await res.json()) as {
      status: string;
      transcripts: { type: string; segments: { segment_id: number; text: string }[] }[];
    };
    if (body.status.toUpperCase() === "COMPLETED") {
      const live = body.transcripts.find((t) => t.type === "LIVE") ?? body.transcripts[0]!;
      return live.segments.map((s) => ({ sequence: s.segment_id, text: s.text }));
    }
    if (Date.now() > deadline) throw new Error(`call still ${body.status} over REST`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("the live bus over the embedded service", () => {
  it("delivers a whole call exactly once, in order, while the upstream socket is dropped ten times", async () => {
    const symbol = await pickSymbol();
    const all = await openStream("tickers=*");
    const bySymbol = await openStream(`tickers=${symbol}`);
    const callId = await startCall(symbol, CALL_SECONDS);
    const byCall = await openStream(`calls=${callId}`);
    const opensBefore = consumer.socket.openCount;

    // A resuming client: reads a little, goes away, comes back with Last-Event-ID.
    const resumed: SentenceEvent[] = [];
    const resumer = (async () => {
      const first = await openStream(`calls=${callId}`);
      await first.waitFor((_m, msgs) => sentencesOf(msgs, callId).length >= 3, 60_000);
      const lastId = first.lastEventId()!;
      await first.close();
      resumed.push(...sentencesOf(first.messages, callId));
      await new Promise((r) => setTimeout(r, 4_000));
      const second = await openStream(`calls=${callId}`, { "last-event-id": lastId });
      await second.waitFor(statusOf(callId, "completed"), 120_000);
      resumed.push(...sentencesOf(second.messages, callId));
      await second.close();
    })();

    // Drop the upstream socket ten times across the call.
    await all.waitFor((m) => m.event === "call.started", 30_000);
    let midCallChecked = false;
    for (let i = 0; i < DROPS; i += 1) {
      await new Promise((r) => setTimeout(r, DROP_EVERY_MS));
      // Each drop closes an open socket: on a loaded machine a reconnect can outlast DROP_EVERY_MS, and a drop
      // while the socket is still reconnecting drops nothing (9 reopens for 10 drops, once, in a run on 2028-02-29).
      await waitUntil(() => consumer.state() === "open", 15_000, "the socket to reopen before the next drop");
      await embedded.dropWebSockets();
      if (i === 1) {
        // One long outage on our side too, lasting until sentences are certainly spoken while nobody listens: at
        // least 6 s, and on until the service has said two more (a script can pause longer than that, and the date
        // picks the script; CI on 2026-11-27 once had none said in a fixed 6 s and so nothing for REST to fill).
        consumer.socket.stop();
        const spoken = await spokenSoFar(callId);
        await new Promise((r) => setTimeout(r, 6_000));
        await waitUntil(
          async () => (await spokenSoFar(callId)) >= spoken + 2,
          30_000,
          "two sentences spoken while the socket is down",
        );
        consumer.socket.start();
      }
      if (i === 4) {
        // Mid-call, the call page shows every sentence so far, contiguous from 0, plus the cursor to follow.
        const res = await getCallRoute(new Request(`http://app.test/api/calls/${callId}`), {
          params: Promise.resolve({ callId }),
        });
        expect(res.status).toBe(200);
        const { data } = (await res.json()) as { data: Call };
        expect(data.status).toBe("live");
        expect(data.segments.map((s) => s.sequence)).toEqual(data.segments.map((_, k) => k));
        expect(data.streamCursor).toMatch(/^\d+-\d+$/);
        expect(JSON.stringify(data)).not.toMatch(/Signature|Policy|127\.0\.0\.1/);
        midCallChecked = true;
      }
    }
    expect(midCallChecked).toBe(true);

    await all.waitFor(statusOf(callId, "completed"), 120_000);
    await resumer;
    const expected = await finalTranscript(callId);
    expect(expected.length).toBeGreaterThan(3);

    const got = sentencesOf(all.messages, callId);
    expect(got.map((s) => s.sequence)).toEqual(expected.map((s) => s.sequence));
    expect(got.map((s) => s.text)).toEqual(expected.map((s) => s.text));
    expect(sentencesOf(bySymbol.messages, callId).map((s) => s.sequence)).toEqual(
      expected.map((s) => s.sequence),
    );
    await byCall.waitFor(statusOf(callId, "completed"), 10_000);
    expect(sentencesOf(byCall.messages, callId).map((s) => s.sequence)).toEqual(
      expected.map((s) => s.sequence),
    );
    expect(resumed.map((s) => s.sequence)).toEqual(expected.map((s) => s.sequence));

    // Envelope: call.started first, with its data; every message has a cursor id, strictly increasing.
    const mine = all.messages.filter((m) => (m.data as { callId?: string }).callId === callId);
    expect(mine[0]).toMatchObject({ event: "call.started", data: { callId, symbol } });
    const ids = all.messages.map((m) => Number(m.id!.split("-")[1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);

    // Some sentences were said while the socket was down and came from REST; none was given up on.
    const stats = consumer.sequencer.stats();
    expect(stats.fromRest).toBeGreaterThan(0);
    expect(stats.fromSocket).toBeGreaterThan(0);
    expect(stats.skipped).toBe(0);

    // Reconnected after every drop, and never more than the key's one connection.
    await waitUntil(() => consumer.state() === "open", 10_000, "the socket to reopen");
    expect(consumer.socket.openCount - opensBefore).toBeGreaterThanOrEqual(DROPS);
    expect((await embedded.stats()).wsConnections).toBe(1);

    // Enrichment follows.
    await all.waitFor(statusOf(callId, "enriched"), 60_000);
    const res = await getCallRoute(new Request(`http://app.test/api/calls/${callId}`), {
      params: Promise.resolve({ callId }),
    });
    const { data } = (await res.json()) as { data: Call };
    expect(data.status).toBe("enriched");
    expect(data.segments.map((s) => s.sequence)).toEqual(expected.map((s) => s.sequence));
    expect(data.streamCursor).not.toBeNull();

    await Promise.all([all.close(), bySymbol.close(), byCall.close()]);
  }, 240_000);

  it("answers reset to a cursor the buffer no longer holds, and 400 to bad queries", async () => {
    const seqOf = (cursor: string | null | undefined) => Number(cursor?.split("-")[1]);
    const headBefore = runtime.live.bus.headCursor();
    const stale = await openStream("tickers=*", { "last-event-id": "1-1" });
    const reset = await stale.waitFor((m) => m.event === "reset", 5_000);
    expect(reset.data).toEqual({ reason: "unknown_cursor" });
    // The reset names the head at the moment it was written: live calls keep streaming meanwhile, so it lies
    // between the head before the request and the head now, in the bus's own epoch.
    const headAfter = runtime.live.bus.headCursor();
    expect(reset.id?.split("-")[0]).toBe(headAfter?.split("-")[0]);
    expect(seqOf(reset.id)).toBeGreaterThanOrEqual(seqOf(headBefore));
    expect(seqOf(reset.id)).toBeLessThanOrEqual(seqOf(headAfter));
    await stale.close();

    for (const q of [
      "",
      "tickers=",
      "calls=not%20an%20id",
      "tickers=A,B&calls=bad.id",
      "tickers=" + "A,".repeat(60),
    ]) {
      const res = await streamRoute(new Request(`http://app.test/api/stream?${q}`));
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_parameter");
    }
    const ok = await streamRoute(new Request("http://app.test/api/stream?tickers=*"));
    expect(ok.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(ok.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(ok.headers.get("x-accel-buffering")).toBe("no");
    const r = readSse(ok);
    await r.close();
  });
});
