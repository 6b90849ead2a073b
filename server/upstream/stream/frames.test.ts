import { describe, expect, it } from "vitest";
import { parseFrame } from "./frames";

const sentence = {
  call_id: "65A1B2C3D4E5F60718293A4B",
  transcript_id: "3f0c8a52-3b76-4c37-9a51-2b5f2e9f3a10",
  call_title: "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call",
  symbol: "NWSC",
  exchange: "NASDAQ",
  name: "Northwind Semiconductor",
  sequence: 3,
  sentence: "Revenue was $4.2 billion.",
  speaker: "SPEAKER_1",
  start_time: "2026-10-20T21:00:12.500Z",
  end_time: "2026-10-20T21:00:15.000Z",
  words: [{ text: "Revenue", start: 0, end: 300, confidence: 0.98 }],
  confidence: 0.97,
  type: "LIVE",
  language: "en-US",
  status: "IN_PROGRESS",
  created_time: "2026-10-20T21:00:15.100Z",
};

describe("parseFrame", () => {
  it("reads the connection greeting", () => {
    expect(parseFrame(JSON.stringify({ message: "Connected to the server", uid: "u-1" }))).toEqual({
      kind: "connected",
      uid: "u-1",
    });
  });

  it("reads the plain-text acks and pong", () => {
    expect(parseFrame("Subscribed to *")).toEqual({ kind: "ack", action: "subscribed", ticker: "*" });
    expect(parseFrame("Unsubscribed from NWSC")).toEqual({
      kind: "ack",
      action: "unsubscribed",
      ticker: "NWSC",
    });
    expect(parseFrame("pong")).toEqual({ kind: "pong" });
    expect(parseFrame(" pong\n")).toEqual({ kind: "pong" });
  });

  it("reads a sentence, lower-casing the call id and parsing times", () => {
    const f = parseFrame(JSON.stringify(sentence));
    expect(f).toEqual({
      kind: "sentence",
      sentence: {
        callId: "65a1b2c3d4e5f60718293a4b",
        symbol: "NWSC",
        name: "Northwind Semiconductor",
        sequence: 3,
        text: "Revenue was $4.2 billion.",
        speaker: "SPEAKER_1",
        startAt: Date.parse("2026-10-20T21:00:12.500Z"),
        endAt: Date.parse("2026-10-20T21:00:15.000Z"),
        confidence: 0.97,
        isLast: false,
      },
    });
  });

  it("marks the COMPLETE sentence as the last one, in any case", () => {
    const f = parseFrame(JSON.stringify({ ...sentence, status: "complete" }));
    expect(f.kind === "sentence" && f.sentence.isLast).toBe(true);
  });

  it("tolerates a numeric string sequence and missing optional fields", () => {
    const { speaker: _s, start_time: _a, end_time: _b, confidence: _c, name: _n, ...rest } = sentence;
    const f = parseFrame(JSON.stringify({ ...rest, sequence: "7" }));
    expect(f).toMatchObject({
      kind: "sentence",
      sentence: { sequence: 7, speaker: "UNKNOWN", startAt: null, endAt: null, confidence: null, name: null },
    });
  });

  it("reads audio, list, subscribed and error frames", () => {
    expect(
      parseFrame(JSON.stringify({ action: "audio", symbol: "NWSC", call_id: "AB".repeat(12), hls_url: "x" })),
    ).toEqual({ kind: "audio", callId: "ab".repeat(12), symbol: "NWSC" });
    expect(
      parseFrame(
        JSON.stringify({
          action: "list",
          calls: [
            {
              call_id: "ab".repeat(12),
              symbol: "NWSC",
              name: "Northwind",
              start_time: "2026-10-20T21:00:00Z",
            },
          ],
        }),
      ),
    ).toEqual({
      kind: "list",
      calls: [
        { callId: "ab".repeat(12), symbol: "NWSC", name: "Northwind", startTime: "2026-10-20T21:00:00Z" },
      ],
    });
    expect(parseFrame(JSON.stringify({ action: "subscribed", tickers: ["*"] }))).toEqual({
      kind: "subscriptions",
      tickers: ["*"],
    });
    expect(parseFrame(JSON.stringify({ action: "error", message: "Unknown action" }))).toEqual({
      kind: "error",
      message: "Unknown action",
    });
  });

  it("reports garbage as unknown instead of throwing", () => {
    for (const raw of [
      "",
      "hello",
      "{not json",
      "[1,2,3]",
      "null",
      "42",
      JSON.stringify({ action: "teleport" }),
      JSON.stringify({ action: "audio" }),
      JSON.stringify({ ...sentence, sequence: -1 }),
      JSON.stringify({ ...sentence, sequence: "x" }),
      JSON.stringify({ call_id: "x" }),
    ]) {
      const f = parseFrame(raw);
      expect(f.kind, raw).toBe("unknown");
    }
  });

  it("truncates the sample of an unknown frame", () => {
    const f = parseFrame("x".repeat(10_000));
    expect(f.kind === "unknown" && f.sample.length).toBe(200);
  });
});
