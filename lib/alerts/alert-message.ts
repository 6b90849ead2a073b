import type { Alert, RuleMatch } from "@/lib/schemas/alerts";
import { alertRuleKinds } from "./rule-kinds";

/*
 * The browser's reader of `/api/alerts/stream`'s `alert` events, written without zod: loading lib/schemas/alerts.ts
 * (and zod with it) after every page's load was a long task of its own on every page, whether an alert came or not
 * (docs/performance.md). Same rules as its `alertSchema`; alert-message.test.ts checks both agree on valid and
 * malformed alerts. Unknown extra fields are dropped, as zod's object schemas do.
 */

type Json = Record<string, unknown>;

const KINDS: readonly string[] = alertRuleKinds;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isKind = (v: unknown): v is Alert["kind"] => isString(v) && KINDS.includes(v);

function ruleMatch(v: unknown): RuleMatch | null {
  if (!isObject(v)) return null;
  const { ruleId, kind, label, matched, detail } = v;
  if (!isString(ruleId) || !isKind(kind) || !isString(label)) return null;
  if (!Array.isArray(matched) || !matched.every(isString)) return null;
  if (detail !== null && !isString(detail)) return null;
  return { ruleId, kind, label, matched: [...matched], detail };
}

/** One alert as the stream sends it (JSON text); `null` when it is not one. */
export function parseAlertMessage(data: string): Alert | null {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(v)) return null;
  const { id, ruleId, kind, rules, callId, symbol, sequence, startMs, text, firedAt, read } = v;
  if (!isString(id) || !isString(ruleId) || !isKind(kind)) return null;
  if (!Array.isArray(rules) || rules.length === 0) return null;
  const matches = rules.map(ruleMatch);
  if (matches.some((m) => m === null)) return null;
  if (callId !== null && !isString(callId)) return null;
  if (!isString(symbol) || !isString(text) || !isString(firedAt) || typeof read !== "boolean") return null;
  if (sequence !== null && !(isNumber(sequence) && Number.isInteger(sequence))) return null;
  if (startMs !== null && !isNumber(startMs)) return null;
  return {
    id,
    ruleId,
    kind,
    rules: matches as RuleMatch[],
    callId,
    symbol,
    sequence,
    startMs,
    text,
    firedAt,
    read,
  };
}
