import "server-only";
import { normalizeCallId } from "@/lib/schemas/live";
import {
  upstreamConnectedSchema,
  upstreamAudioSchema,
  upstreamListSchema,
  upstreamSubscribedSchema,
  upstreamErrorSchema,
  upstreamSentenceSchema,
} from "./wire";

/**
 * Frames of the upstream live stream (docs/upstream.md §6). The stream mixes JSON objects with plain-text acks
 * (`Subscribed to X`, `pong`), so every frame is parsed defensively: whatever does not match is reported as
 * `unknown` and dropped by the caller, never thrown.
 */

export interface SentenceFrame {
  callId: string;
  symbol: string;
  name: string | null;
  sequence: number;
  text: string;
  speaker: string;
  /** Absolute times (epoch ms) when the upstream gave parseable ones. */
  startAt: number | null;
  endAt: number | null;
  confidence: number | null;
  isLast: boolean;
}

export type UpstreamFrame =
  | { kind: "connected"; uid: string }
  | { kind: "ack"; action: "subscribed" | "unsubscribed"; ticker: string }
  | { kind: "pong" }
  | { kind: "audio"; callId: string; symbol: string }
  | {
      kind: "list";
      calls: { callId: string; symbol: string; name: string | null; startTime: string | null }[];
    }
  | { kind: "subscriptions"; tickers: string[] }
  | { kind: "error"; message: string }
  | { kind: "sentence"; sentence: SentenceFrame }
  | { kind: "unknown"; reason: string; sample: string };

const SAMPLE_CHARS = 200;

function unknown(reason: string, raw: string): UpstreamFrame {
  return { kind: "unknown", reason, sample: raw.slice(0, SAMPLE_CHARS) };
}

function parseTime(value: string | null | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
}

function normaliseCallId(id: string): string {
  return normalizeCallId(id);
}

/**
 * The documented service sends text frames (the acknowledgment, `pong`) as JSON strings (`"Subscribed to NWSC"`,
 * docs/upstream.md §8): such a frame reads as the text it quotes.
 */
function unquoteJsonString(text: string): string {
  if (!text.startsWith('"')) return text;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value.trim() : text;
  } catch {
    return text;
  }
}

export function parseFrame(raw: string): UpstreamFrame {
  const text = unquoteJsonString(raw.trim());
  if (text === "pong") return { kind: "pong" };
  const ack = /^(Subscribed to|Unsubscribed from)\s+(\S+)$/.exec(text);
  if (ack)
    return {
      kind: "ack",
      action: ack[1] === "Subscribed to" ? "subscribed" : "unsubscribed",
      ticker: ack[2]!,
    };
  if (!text.startsWith("{")) return unknown("not JSON and not a known text frame", text);

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return unknown("malformed JSON", text);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return unknown("not a JSON object", text);

  const action = (json as { action?: unknown }).action;
  switch (action) {
    case "audio": {
      const p = upstreamAudioSchema.safeParse(json);
      return p.success
        ? { kind: "audio", callId: normaliseCallId(p.data.call_id), symbol: p.data.symbol }
        : unknown("bad audio frame", text);
    }
    case "list": {
      const p = upstreamListSchema.safeParse(json);
      return p.success
        ? {
            kind: "list",
            calls: p.data.calls.map((c) => ({
              callId: normaliseCallId(c.call_id),
              symbol: c.symbol,
              name: c.name ?? null,
              startTime: c.start_time ?? null,
            })),
          }
        : unknown("bad list frame", text);
    }
    case "subscribed": {
      const p = upstreamSubscribedSchema.safeParse(json);
      return p.success
        ? { kind: "subscriptions", tickers: p.data.tickers }
        : unknown("bad subscribed frame", text);
    }
    case "error": {
      const p = upstreamErrorSchema.safeParse(json);
      return p.success ? { kind: "error", message: p.data.message } : unknown("bad error frame", text);
    }
    case undefined:
      break;
    default:
      return unknown(`unknown action`, text);
  }

  const connected = upstreamConnectedSchema.safeParse(json);
  if (connected.success) return { kind: "connected", uid: connected.data.uid };

  const s = upstreamSentenceSchema.safeParse(json);
  if (!s.success) return unknown("unrecognised object", text);
  const d = s.data;
  return {
    kind: "sentence",
    sentence: {
      callId: normaliseCallId(d.call_id),
      symbol: d.symbol,
      name: d.name ?? null,
      sequence: d.sequence,
      text: d.sentence,
      speaker: d.speaker ?? "UNKNOWN",
      startAt: parseTime(d.start_time),
      endAt: parseTime(d.end_time),
      confidence: d.confidence ?? null,
      isLast: d.status === "COMPLETE" || d.status === "COMPLETED",
    },
  };
}
