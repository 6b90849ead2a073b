/**
 * Scale-out end to end (issue 7): a real redis-server, the embedded service, and two real `next start` instances
 * sharing one upstream connection and one event log. Proves: one upstream socket for the deployment; SSE clients on
 * both instances get every sentence of a call once and in order; a browser resumes on the other instance with
 * `Last-Event-ID`; killing the leader mid-call loses nothing for the survivor's clients, which takes over in < 10 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentenceEvent } from "@/lib/schemas/live";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { readSse, type SseMessage, type SseReader } from "@/test/support/sse-client";
import { ensureBuild, startNext, type NextInstance } from "./next-instances";
import { startTestRedis, type TestRedis } from "./redis-server";

let redis: TestRedis;
let embedded: TestEmbedded;
let distDir: string;
let a: NextInstance;
let b: NextInstance;
const readers: SseReader[] = [];

type Health = { upstream: { stream: { state: string; role: "leader" | "follower" } | string } };

async function role(instance: NextInstance): Promise<string | null> {
  try {
    const body = (await (await fetch(`${instance.url}/api/health`)).json()) as Health;
    return typeof body.upstream.stream === "string" ? null : body.upstream.stream.role;
  } catch {
    return null;
  }
}

async function waitUntil(test: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function open(instance: NextInstance, headers: Record<string, string> = {}): Promise<SseReader> {
  const res = await fetch(`${instance.url}/api/stream?tickers=*`, { headers });
  expect(res.status).toBe(200);
  const reader = readSse(res);
  readers.push(reader);
  return reader;
}

const sentencesOf = (messages: SseMessage[], callId: string) =>
  messages
    .filter((m) => m.event === "sentence" && (m.data as SentenceEvent).callId === callId)
    .map((m) => m.data as SentenceEvent);

const completed = (callId: string) => (m: SseMessage) =>
  m.event === "call.status" &&
  (m.data as { callId: string }).callId === callId &&
  (m.data as { status: string }).status === "completed";

async function startCall(symbol: string, durationSeconds: number): Promise<string> {
  const res = await fetch(`${embedded.url}/__embedded/calls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ symbol, durationSeconds }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { call_id: string }).call_id.toLowerCase();
}

async function symbols(): Promise<string[]> {
  const res = await fetch(`${embedded.url}/api/v2.1/calendar/earnings?pagesize=5`, {
    headers: { authorization: `token ${embedded.key}` },
  });
  return ((await res.json()) as { earnings: { ticker: string }[] }).earnings.map((e) => e.ticker);
}

async function finalTranscript(callId: string): Promise<{ sequence: number; text: string }[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${embedded.url}/api/v1/transcripts/calls/${callId}`, {
      headers: { authorization: `token ${embedded.key}` },
    });
    const body = (await res.json()) as {
      status: string;
      transcripts: { type: string; segments: { segment_id: number; text: string }[] }[];
    };
    if (body.status.toUpperCase() !== "LIVE") {
      const live = body.transcripts.find((t) => t.type === "LIVE") ?? body.transcripts[0]!;
      return live.segments.map((s) => ({ sequence: s.segment_id, text: s.text }));
    }
    if (Date.now() > deadline) throw new Error(`call still ${body.status} over REST`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const plain = (list: SentenceEvent[]) => list.map((s) => ({ sequence: s.sequence, text: s.text }));

beforeAll(async () => {
  distDir = ensureBuild();
  [redis, embedded] = await Promise.all([
    startTestRedis(),
    startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0", EMBEDDED_ENRICH_SECONDS: "2" }),
  ]);
  const env = {
    REDIS_URL: redis.url,
    UPSTREAM_BASE_URL: embedded.url,
    UPSTREAM_WS_URL: embedded.wsUrl,
    UPSTREAM_API_KEY: embedded.key,
    UPSTREAM_MODE: "remote",
    CALLROOM_USERS_FILE: "./test/scale/no-such-users-file",
    CALLROOM_RATE_LIMIT: "0",
    CALLROOM_SSE_PER_CLIENT: "100",
    LOG_LEVEL: "warn",
  };
  a = await startNext(distDir, env);
  await waitUntil(async () => (await role(a)) === "leader", 20_000, "the first instance to lead");
  b = await startNext(distDir, env);
  await waitUntil(async () => (await role(b)) === "follower", 20_000, "the second instance to follow");
}, 600_000);

afterAll(async () => {
  await Promise.all(readers.map((r) => r.close()));
  await Promise.all([a?.kill(), b?.kill()]);
  await embedded?.close();
  await redis?.stop();
});

describe("two instances on one Redis", () => {
  it("hold one upstream connection; clients on both get every sentence once, in order, and resume across instances", async () => {
    // Stays one while both run (the follower never connects).
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await embedded.stats()).wsConnections).toBe(1);
    expect(await role(a)).toBe("leader");
    expect(await role(b)).toBe("follower");

    const onA = await open(a);
    const onB = await open(b);
    const roaming = await open(a);
    const [symbol] = await symbols();
    const callId = await startCall(symbol!, 35);

    // A browser reads a few sentences on A, loses it, and comes back through the load balancer on B.
    await roaming.waitFor((_m, all) => sentencesOf(all, callId).length >= 2, 60_000);
    await roaming.close();
    const beforeMove = sentencesOf(roaming.messages, callId);
    const resumed = await open(b, { "last-event-id": roaming.lastEventId()! });

    await Promise.all([onA, onB, resumed].map((r) => r.waitFor(completed(callId), 90_000)));
    const expected = await finalTranscript(callId);
    // Sentences were said after the move, so the resumed stream had to deliver some.
    expect(expected.length).toBeGreaterThan(beforeMove.length);
    expect(plain(sentencesOf(onA.messages, callId))).toEqual(expected);
    expect(plain(sentencesOf(onB.messages, callId))).toEqual(expected);
    expect(plain([...beforeMove, ...sentencesOf(resumed.messages, callId)])).toEqual(expected);
    expect(resumed.messages.some((m) => m.event === "reset")).toBe(false);
    // Same cursors everywhere: the stream id.
    const idsA = onA.messages.filter((m) => m.event === "sentence").map((m) => m.id);
    const idsB = onB.messages.filter((m) => m.event === "sentence").map((m) => m.id);
    expect(idsB).toEqual(idsA);
    expect((await embedded.stats()).wsConnections).toBe(1);
  }, 150_000);

  it("loses nothing when the leader dies mid-call: the survivor takes over within 10 s and fills the gap", async () => {
    const survivorClient = await open(b);
    const doomedClient = await open(a);
    const [, symbol] = await symbols();
    const callId = await startCall(symbol!, 40);
    await survivorClient.waitFor((_m, all) => sentencesOf(all, callId).length >= 4, 60_000);

    await a.kill("SIGKILL");
    const killedAt = Date.now();
    await waitUntil(async () => (await role(b)) === "leader", 10_000, "the survivor to take over");
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(10_000);

    // The killed instance's browser reconnects to the survivor with its Last-Event-ID.
    const reconnected = await open(b, { "last-event-id": doomedClient.lastEventId()! });

    await Promise.all([survivorClient, reconnected].map((r) => r.waitFor(completed(callId), 120_000)));
    const expected = await finalTranscript(callId);
    expect(plain(sentencesOf(survivorClient.messages, callId))).toEqual(expected);
    expect(
      plain([...sentencesOf(doomedClient.messages, callId), ...sentencesOf(reconnected.messages, callId)]),
    ).toEqual(expected);
    await waitUntil(
      async () => (await embedded.stats()).wsConnections === 1,
      5_000,
      "one upstream connection",
    );
  }, 180_000);
});
