import { describe, expect, it } from "vitest";
import { liveEventNames, parseLiveMessage as parseWithZod } from "@/lib/schemas/live";
import { LIVE_EVENT_NAMES, parseLiveMessage } from "./live-message";

const CALL = "aaaaaaaaaaaaaaaaaaaaaaaa";
const sentence = {
  callId: CALL,
  sequence: 3,
  text: "Revenue grew.",
  speaker: "SPEAKER_1",
  startMs: 1000,
  endMs: 1900,
  confidence: 0.9,
};

/** [event, data] pairs, valid and malformed, that both parsers must judge alike. */
const CASES: [string, unknown][] = [
  ["call.started", { callId: CALL, symbol: "ACME", name: "Acme", startTime: "2025-01-01T00:00:00Z" }],
  ["call.started", { callId: CALL, symbol: "ACME", startTime: "2025-01-01T00:00:00Z" }],
  ["call.started", { callId: CALL, symbol: "ACME", name: "Acme", startTime: "x", extra: 1 }],
  ["sentence", sentence],
  ["sentence", { ...sentence, sentiment: 0.4 }],
  ["sentence", { ...sentence, sentiment: null }],
  ["sentence", { ...sentence, sentiment: 1.5 }],
  ["sentence", { ...sentence, sequence: -1 }],
  ["sentence", { ...sentence, sequence: 1.5 }],
  ["sentence", { ...sentence, confidence: null }],
  ["sentence", { ...sentence, confidence: undefined }],
  ["sentence", { ...sentence, text: 7 }],
  ["sentence", { ...sentence, endMs: "9" }],
  ["call.status", { callId: CALL, status: "completed" }],
  ["call.status", { callId: CALL, status: "exploded" }],
  ["reset", { reason: "cursor_too_old" }],
  ["reset", { reason: "bored" }],
  ["reset", []],
  ["unknown", { reason: "cursor_too_old" }],
  ["sentence", null],
  ["sentence", "text"],
];

describe("parseLiveMessage (browser, without zod)", () => {
  it("knows the same event names as the contract", () => {
    expect([...LIVE_EVENT_NAMES].sort()).toEqual([...liveEventNames].sort());
  });

  it.each(CASES)("judges %s %j as the zod schema does", (event, data) => {
    const text = JSON.stringify(data) ?? "";
    expect(parseLiveMessage(event, "c1", text)).toEqual(parseWithZod(event, "c1", text));
  });

  it("refuses text that is not JSON", () => {
    expect(parseLiveMessage("sentence", "c1", "{")).toBeNull();
  });
});
