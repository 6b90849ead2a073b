/**
 * Identifiers of calls, transcripts and the rest, derived by hashing so that the same call always carries the
 * same ids (a link shared yesterday still works after a restart, and rebuilt historical calls are identical).
 * Namespaces keep the kinds of call apart: a scheduled live run of a quarter is a different call from the
 * historical call of the same quarter.
 */
import { createHash } from "node:crypto";

const hex = (text: string) => createHash("sha256").update(text).digest("hex");

export const CALL_ID_PATTERN = /^[0-9a-f]{24}$/;

/** The completed call of a past calendar record. */
export function historicalCallId(symbol: string, period: string, year: number): string {
  return hex(`historical|${symbol}|${period}|${year}`).slice(0, 24);
}

/** A scheduled live call: the same slot of the same lane always gets the same id. */
export function scheduledCallId(symbol: string, period: string, year: number, startMs: number): string {
  return hex(`scheduled|${symbol}|${period}|${year}|${startMs}`).slice(0, 24);
}

/** A call started through the control API; `nonce` separates two starts in the same millisecond. */
export function controlCallId(symbol: string, startMs: number, nonce: number): string {
  return hex(`control|${symbol}|${startMs}|${nonce}`).slice(0, 24);
}

/** A UUID (version 4 layout) that is a pure function of its label. */
export function stableUuid(label: string): string {
  const h = hex(`uuid|${label}`);
  const variant = ((parseInt(h[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
