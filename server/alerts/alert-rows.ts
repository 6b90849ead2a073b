import "server-only";
import type {
  Alert,
  AlertMute,
  AlertMuteScope,
  AlertRule,
  AlertRuleKind,
  RuleMatch,
  SpeakerRole,
} from "@/lib/schemas/alerts";
import type { alertFirings, alertMutes, alertRules } from "../db/schema/workspace";
import type { ActiveMute } from "./mutes";

/** The alert tables' rows as the shapes the API answers with (server/alerts/store.ts reads and writes the rows). */

type RuleRow = typeof alertRules.$inferSelect;
type FiringRow = typeof alertFirings.$inferSelect;
type MuteRow = typeof alertMutes.$inferSelect;

export function toRule(row: RuleRow): AlertRule {
  return {
    id: String(row.id),
    name: row.name,
    paused: row.pausedAt !== null,
    kind: row.kind as AlertRuleKind,
    phrase: row.phrase,
    tickers: row.tickers,
    watchlistId: row.watchlistId === null ? null : String(row.watchlistId),
    speakerRole: row.speakerRole as SpeakerRole | null,
    threshold: row.threshold,
    webhookUrl: row.webhookUrl,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export function toAlert(row: FiringRow): Alert {
  const rules = row.matches as RuleMatch[];
  return {
    id: String(row.id),
    ruleId: rules[0]?.ruleId ?? String(row.ruleIds[0]),
    kind: row.kind as AlertRuleKind,
    rules,
    callId: row.callId,
    symbol: row.symbol,
    sequence: row.sequence < 0 ? null : row.sequence,
    startMs: row.startMs,
    text: row.text,
    firedAt: new Date(row.firedAt).toISOString(),
    read: row.readAt !== null,
  };
}

export function toMute(row: MuteRow): AlertMute {
  return {
    id: String(row.id),
    scope: row.scope as AlertMuteScope,
    callId: row.callId,
    symbol: row.symbol,
    expiresAt: new Date(row.expiresAt).toISOString(),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export function toActiveMute(row: MuteRow): ActiveMute {
  return {
    userId: row.userId,
    scope: row.scope as AlertMuteScope,
    callId: row.callId,
    symbol: row.symbol,
    expiresAtMs: Date.parse(row.expiresAt),
  };
}
