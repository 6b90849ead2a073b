/* eslint-disable @typescript-eslint/no-explicit-any -- untyped JSON bodies are what these tests inspect, field by field */
// The live stream over a real WebSocket: every rule of docs/upstream.md §6, plus lifecycle and REST agreement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "../harness";
import {
  connect,
  getJson,
  handshakeStatus,
  isJson,
  isSentenceOf,
  sleep,
  someTickers,
  startCall,
  until,
  type Frame,
} from "./helpers";

let embedded: TestEmbedded;
let tickers: string[];

beforeAll(async () => {
  embedded = await startTestEmbedded({
    EMBEDDED_LIVE_CALLS: "0",
    EMBEDDED_ENRICH_SECONDS: "1",
    EMBEDDED_API_KEYS: "demo:all,k2:all,k3:all,k4:transcripts,demo-calendars:calendars+fundamentals",
  });
  tickers = await someTickers(embedded.url, 8);
});

afterAll(() => embedded.close());

const json = (f: Frame) => (isJson(f) ? f.value : null);

describe("handshake", () => {
  it("answers 401 for an unknown key and 403 for a key without transcripts", async () => {
    expect(await handshakeStatus(embedded.wsUrl, "nope")).toBe(401);
    expect(await handshakeStatus(embedded.wsUrl, "demo-calendars")).toBe(403);
  });

  it("answers 429 when the key already holds a connection, and frees the key on close", async () => {
    const first = await connect(embedded.wsUrl, "k4");
    expect(await handshakeStatus(embedded.wsUrl, "k4")).toBe(429);
    first.close();
    await first.closed;
    await until(async () => (await handshakeStatus(embedded.wsUrl, "k4")) === 101, 5000);
  });

  it("opens with {message, uid}", async () => {
    // The previous test's probe socket may still be closing on the server side: retry briefly.
    const client = await until(() => connect(embedded.wsUrl, "k4").catch(() => null), 5000, 100);
    const open = await client.waitFor(isJson);
    expect(json(open)).toEqual({
      message: "Connected to the server",
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    client.close();
    await client.closed;
  });
});

describe("actions", () => {
  it("handles ping, echo, subscribed, unsubscribe, malformed JSON and unknown actions without closing", async () => {
    const client = await connect(embedded.wsUrl, "k3");
    await client.waitFor(isJson);
    client.send({ action: "ping" });
    await client.waitFor((f) => f.kind === "text" && f.text === "pong");
    client.send({ action: "echo", message: "hello there" });
    await client.waitFor((f) => f.text === "hello there");
    client.send("{not json");
    const malformed = await client.waitFor((f) => json(f)?.action === "error");
    expect(json(malformed)).toEqual({ action: "error", message: expect.any(String) });
    client.send({ action: "dance" });
    await client.waitFor((f) => json(f)?.action === "error" && String(json(f)?.message).includes("dance"));
    client.send({ action: "subscribe", ticker: "nwsc" });
    await client.waitFor((f) => f.kind === "text" && f.text === "Subscribed to NWSC");
    client.send({ action: "subscribed" });
    const subscribed = await client.waitFor((f) => json(f)?.action === "subscribed");
    expect(json(subscribed)).toEqual({ action: "subscribed", tickers: ["NWSC"] });
    client.send({ action: "unsubscribe", ticker: "NWSC" });
    await client.waitFor((f) => f.text === "Unsubscribed from NWSC");
    client.send({ action: "ping" });
    await client.waitFor(
      (f) => f.text === "pong" && client.frames.filter((x) => x.text === "pong").length === 2,
    );
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.close();
    await client.closed;
  });
});

describe("a live call on the stream", () => {
  it("sends the audio event first, then every sentence in order, COMPLETE on the last; REST agrees", async () => {
    const symbol = tickers[0] as string;
    const client = await connect(embedded.wsUrl, "demo");
    await client.waitFor(isJson);
    client.send({ action: "subscribe", ticker: symbol });
    await client.waitFor((f) => f.text === `Subscribed to ${symbol}`);
    const callId = await startCall(embedded.url, symbol, 20);

    // STARTED before the first sentence.
    const early = await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}`);
    expect(early.body.status).toBe("STARTED");
    expect(early.body.end_time).toBeNull();

    const last = await client.waitFor(
      (f) => isSentenceOf(callId)(f) && json(f)?.status === "COMPLETE",
      60_000,
    );
    const mine = client.frames.filter((f) => json(f)?.call_id === callId);
    const audio = json(mine[0] as Frame);
    expect(audio).toEqual({ action: "audio", symbol, call_id: callId, hls_url: expect.any(String) });
    const hls = new URL(String(audio?.hls_url));
    expect(hls.origin).toBe(embedded.url);
    expect(hls.pathname).toBe(`/api/v1/transcripts/calls/${callId}/hls`);
    expect([...hls.searchParams.keys()].sort()).toEqual(["Key-Pair-Id", "Policy", "Signature"]);

    const sentences = mine.slice(1).map((f) => json(f) as Record<string, any>);
    expect(sentences.length).toBeGreaterThanOrEqual(3);
    expect(sentences.map((s) => s.sequence)).toEqual(sentences.map((_, i) => i));
    expect(sentences.slice(0, -1).every((s) => s.status === "IN_PROGRESS")).toBe(true);
    expect(json(last)?.sequence).toBe(sentences.length - 1);
    const first = sentences[0] as Record<string, any>;
    expect(Object.keys(first).sort()).toEqual(
      [
        "call_id",
        "transcript_id",
        "call_title",
        "symbol",
        "exchange",
        "name",
        "sequence",
        "sentence",
        "speaker",
        "start_time",
        "end_time",
        "words",
        "confidence",
        "type",
        "language",
        "status",
        "created_time",
      ].sort(),
    );
    expect(first.type).toBe("LIVE");
    expect(first.language).toBe("en-US");
    expect(first.speaker).toBe("OPERATOR");
    expect(first.call_title).toMatch(
      new RegExp(`^(Q[1-4]|FY|H[12]) \\d{4} .+ \\(${symbol}\\) Earnings Conference Call$`),
    );
    for (const s of sentences) {
      expect(s.speaker).toMatch(/^(OPERATOR|SPEAKER_\d+)$/);
      expect(Date.parse(s.end_time)).toBeGreaterThan(Date.parse(s.start_time));
      const span = Date.parse(s.end_time) - Date.parse(s.start_time);
      expect(s.words.length).toBeGreaterThan(0);
      expect(s.words[0].start).toBe(0);
      for (const w of s.words) {
        expect(w).toEqual({
          text: expect.any(String),
          start: expect.any(Number),
          end: expect.any(Number),
          confidence: expect.any(Number),
        });
        expect(w.end).toBeGreaterThanOrEqual(w.start);
        expect(w.end).toBeLessThanOrEqual(span + 1);
      }
      // Sent only once its audio exists: never before the sentence's end on the call clock.
      expect(Date.parse(s.created_time)).toBeGreaterThanOrEqual(Date.parse(s.end_time) - 5);
    }

    const done = await until(async () => {
      const r = await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}`);
      return r.body.status === "COMPLETED" ? r.body : null;
    }, 10_000);
    expect(done.end_time).not.toBeNull();
    const liveTranscript = done.transcripts.find((t: any) => t.type === "LIVE");
    expect(liveTranscript.segments.map((s: any) => s.text)).toEqual(sentences.map((s) => s.sentence));
    expect(liveTranscript.segments.map((s: any) => s.segment_id)).toEqual(sentences.map((s) => s.sequence));
    expect(liveTranscript.segments.every((s: any) => s.sentiment === null)).toBe(true);
    expect(liveTranscript.transcript_id).toBe(first.transcript_id);

    // Enrichment: NON_LIVE holds exactly the streamed sentences, with names and sentiment.
    const enriched = await until(async () => {
      const r = await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}`);
      return r.body.summary ? r.body : null;
    }, 10_000);
    expect(enriched.status).toBe("COMPLETED");
    const final = enriched.transcripts.find((t: any) => t.type === "NON_LIVE");
    expect(final.segments.map((s: any) => [s.segment_id, s.text, s.start_ms, s.end_ms])).toEqual(
      liveTranscript.segments.map((s: any) => [s.segment_id, s.text, s.start_ms, s.end_ms]),
    );
    expect(
      final.segments.every((s: any) => typeof s.sentiment === "number" && !/^SPEAKER_/.test(s.speaker)),
    ).toBe(true);
    expect(enriched.participants.length).toBeGreaterThan(0);
    client.close();
    await client.closed;
  }, 90_000);

  it("a subscription made mid-call gets the audio event first and no replay; list shows the call", async () => {
    const symbol = tickers[1] as string;
    const callId = await startCall(embedded.url, symbol, 30);
    await until(async () => {
      const r = await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}`);
      return r.body.transcripts[0].segments.length >= 1;
    }, 30_000);
    const client = await connect(embedded.wsUrl, "k2");
    await client.waitFor(isJson);
    client.send({ action: "list" });
    const list = await client.waitFor((f) => json(f)?.action === "list");
    expect((json(list)?.calls as any[]).find((c) => c.call_id === callId)).toEqual({
      call_id: callId,
      symbol,
      name: expect.any(String),
      start_time: expect.any(String),
    });
    client.send({ action: "subscribe", ticker: "*" });
    const ack = await client.waitFor((f) => f.text === "Subscribed to *");
    const ackIndex = client.frames.indexOf(ack);
    const next = await client.waitFor((f) => json(f)?.call_id === callId, 5000, ackIndex + 1);
    expect(json(next)?.action).toBe("audio");
    const sentence = await client.waitFor(isSentenceOf(callId), 30_000);
    expect(Number(json(sentence)?.sequence)).toBeGreaterThan(0);
    await fetch(`${embedded.url}/__embedded/calls/${callId}/end`, { method: "POST" });
    await client.waitFor((f) => isSentenceOf(callId)(f) && json(f)?.status === "COMPLETE", 30_000);
    client.close();
    await client.closed;
  }, 90_000);

  it("sends nothing while wsSilent is on, yet the LIVE transcript keeps growing", async () => {
    const symbol = tickers[2] as string;
    const client = await connect(embedded.wsUrl, "k3");
    await client.waitFor(isJson);
    client.send({ action: "subscribe", ticker: symbol });
    await client.waitFor((f) => f.text === `Subscribed to ${symbol}`);
    const callId = await startCall(embedded.url, symbol, 120);
    await client.waitFor(isSentenceOf(callId), 30_000);
    await embedded.setFaults({ wsSilent: true, durationSeconds: 15 });
    try {
      const before = client.frames.length;
      const restBefore = (await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}`)).body
        .transcripts[0].segments.length;
      client.send({ action: "ping" });
      await sleep(12_000);
      expect(client.frames.length).toBe(before);
      const restAfter = (await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}`)).body
        .transcripts[0].segments.length;
      expect(restAfter).toBeGreaterThan(restBefore);
    } finally {
      await embedded.clearFaults();
    }
    await fetch(`${embedded.url}/__embedded/calls/${callId}/end`, { method: "POST" });
    client.close();
    await client.closed;
  }, 60_000);

  it("dropWebSockets closes every socket and the key can reconnect at once", async () => {
    const client = await connect(embedded.wsUrl, "k2");
    await client.waitFor(isJson);
    expect((await embedded.stats()).wsConnections).toBeGreaterThanOrEqual(1);
    await embedded.dropWebSockets();
    await client.closed;
    const again = await connect(embedded.wsUrl, "k2");
    await again.waitFor(isJson);
    again.close();
    await again.closed;
  });
});

describe("liveness", () => {
  let fast: TestEmbedded;
  beforeAll(async () => {
    fast = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0", EMBEDDED_WS_PING_SECONDS: "1" });
  });
  afterAll(() => fast.close());

  it("pings clients and terminates one that stops answering, keeping one that answers", async () => {
    let pings = 0;
    const silent = await connect(fast.wsUrl, "demo", { autoPong: false });
    const closed = await Promise.race([silent.closed.then(() => "closed"), sleep(8000).then(() => "open")]);
    expect(closed).toBe("closed");
    const healthy = await connect(fast.wsUrl, "demo");
    healthy.ws.on("ping", () => pings++);
    await sleep(4500);
    expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
    expect(pings).toBeGreaterThanOrEqual(3);
    healthy.close();
    await healthy.closed;
  }, 30_000);
});
