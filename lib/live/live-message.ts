import type {
  CallStartedEvent,
  CallStatusEvent,
  LiveEventName,
  LiveMessage,
  ResetEvent,
  SentenceEvent,
} from "@/lib/schemas/live";

/*
 * The browser's reader of `/api/stream` messages, written without zod: lib/schemas/live.ts (the live bus's side of
 * the contract, full zod) would put zod into the first load of every live page. Same rules as its
 * `liveMessageSchema`; live-message.test.ts checks both agree on valid and malformed messages. Unknown extra
 * fields are dropped, as zod's object schemas do, so the cache only ever holds the contract's fields.
 */

export const LIVE_EVENT_NAMES = [
  "call.started",
  "sentence",
  "call.status",
  "reset",
] as const satisfies readonly LiveEventName[];

const CALL_STATUSES: readonly string[] = [
  "live",
  "completed",
  "enriched",
] satisfies CallStatusEvent["status"][];
const RESET_REASONS: readonly string[] = [
  "cursor_too_old",
  "unknown_cursor",
] satisfies ResetEvent["reason"][];

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

function callStarted(d: Json): CallStartedEvent | null {
  const { callId, symbol, name, startTime } = d;
  return isString(callId) && isString(symbol) && isString(name) && isString(startTime)
    ? { callId, symbol, name, startTime }
    : null;
}

function sentence(d: Json): SentenceEvent | null {
  const { callId, sequence, text, speaker, startMs, endMs, confidence, sentiment } = d;
  if (!isString(callId) || !isString(text) || !isString(speaker)) return null;
  if (!isNumber(sequence) || !Number.isInteger(sequence) || sequence < 0) return null;
  if (!isNumber(startMs) || !isNumber(endMs)) return null;
  if (confidence !== null && !isNumber(confidence)) return null;
  if (sentiment !== undefined && sentiment !== null && !(isNumber(sentiment) && Math.abs(sentiment) <= 1)) {
    return null;
  }
  const event: SentenceEvent = { callId, sequence, text, speaker, startMs, endMs, confidence };
  if (sentiment !== undefined) event.sentiment = sentiment;
  return event;
}

function callStatus(d: Json): CallStatusEvent | null {
  const { callId, status } = d;
  return isString(callId) && isString(status) && CALL_STATUSES.includes(status)
    ? { callId, status: status as CallStatusEvent["status"] }
    : null;
}

function reset(d: Json): ResetEvent | null {
  const { reason } = d;
  return isString(reason) && RESET_REASONS.includes(reason)
    ? { reason: reason as ResetEvent["reason"] }
    : null;
}

/** Parses one SSE message's `event` name and `data` text; `null` when it is not one of ours. */
export function parseLiveMessage(event: string, id: string, data: string): LiveMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(json)) return null;
  switch (event) {
    case "call.started": {
      const parsed = callStarted(json);
      return parsed && { event, id, data: parsed };
    }
    case "sentence": {
      const parsed = sentence(json);
      return parsed && { event, id, data: parsed };
    }
    case "call.status": {
      const parsed = callStatus(json);
      return parsed && { event, id, data: parsed };
    }
    case "reset": {
      const parsed = reset(json);
      return parsed && { event, id, data: parsed };
    }
    default:
      return null;
  }
}
