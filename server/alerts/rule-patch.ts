import "server-only";
import {
  alertRuleInputSchema,
  type AlertRule,
  type AlertRuleInput,
  type AlertRulePatch,
} from "@/lib/schemas/alerts";
import { parseParams } from "../http/parse-query";

/** A stored rule as the input that would create it, so an edit is checked like a new rule. */
function asInput(rule: AlertRule): Record<string, unknown> {
  const input: Record<string, unknown> = { kind: rule.kind };
  if (rule.name !== null) input.name = rule.name;
  if (rule.phrase !== null) input.phrase = rule.phrase;
  if (rule.tickers !== null && rule.tickers.length > 0) input.tickers = rule.tickers;
  if (rule.watchlistId !== null) input.watchlistId = rule.watchlistId;
  if (rule.speakerRole !== null) input.speakerRole = rule.speakerRole;
  if (rule.threshold !== null) input.threshold = rule.threshold;
  if (rule.webhookUrl !== null) input.webhookUrl = rule.webhookUrl;
  return input;
}

/** A rule after a patch: `null` clears a field, an absent field stays as it was; checked as a new rule would be. */
export function patchedRule(rule: AlertRule, patch: AlertRulePatch): AlertRuleInput {
  const merged = asInput(rule);
  for (const [key, value] of Object.entries(patch)) {
    if (key === "paused" || value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  // A new kind takes nothing that only applied to the old one.
  if (patch.kind !== undefined && patch.kind !== rule.kind) {
    if (patch.phrase === undefined) delete merged.phrase;
    if (patch.threshold === undefined) delete merged.threshold;
    if (patch.speakerRole === undefined && patch.kind !== "keyword" && patch.kind !== "guidance")
      delete merged.speakerRole;
  }
  return parseParams(merged, alertRuleInputSchema);
}
