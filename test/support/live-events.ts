import type { LivePayload } from "@/server/live/bus";

/** Live-bus payloads for tests: a call announced, and its sentence `sequence`. */

export function started(callId: string, symbol: string): LivePayload {
  return {
    event: "call.started",
    symbol,
    data: { callId, symbol, name: `${symbol} Inc`, startTime: "2026-01-01T00:00:00.000Z" },
  };
}

export function sentence(callId: string, symbol: string, sequence: number): LivePayload {
  return {
    event: "sentence",
    symbol,
    data: {
      callId,
      sequence,
      text: `s${sequence}`,
      speaker: "OPERATOR",
      startMs: sequence,
      endMs: sequence + 1,
      confidence: 1,
    },
  };
}
