/**
 * What the browser shows of alerts, without zod: the header's bell and toasts are on every page, and importing a
 * value from lib/schemas/alerts.ts would put zod (30 kB gzip) into every page's first-load JS (docs/day.md, Measured).
 */
import { callHref, callMomentHref } from "../call-links";
import type { Alert, AlertRule } from "../schemas/alerts";

/** What a rule is called: the user's name for it, else what it listens for. */
export function ruleLabel(
  rule: Pick<AlertRule, "name" | "kind" | "phrase" | "threshold"> & { name?: string | null },
): string {
  if (rule.name) return rule.name;
  switch (rule.kind) {
    case "keyword":
      return `“${rule.phrase ?? ""}”`;
    case "guidance":
      return "Guidance";
    case "sentiment":
      return rule.threshold === null
        ? "Sentiment"
        : `Sentiment ${rule.threshold >= 0 ? "≥" : "≤"} ${formatThreshold(rule.threshold)}`;
    case "call-live":
      return "Call live";
    case "results":
      return "Results";
  }
}

function formatThreshold(value: number): string {
  const fixed = Math.abs(value).toFixed(2);
  return value < 0 ? `−${fixed}` : fixed;
}

/** One line naming every rule an alert matched: "“tariff” + Guidance". */
export function alertRulesLine(alert: Pick<Alert, "rules">): string {
  return alert.rules.map((r) => r.label).join(" + ");
}

/** What the rules add to the sentence (a guidance figure against consensus, a sentiment crossing), one line. */
export function alertDetailsLine(alert: Pick<Alert, "rules">): string | null {
  const details = alert.rules.flatMap((r) => (r.detail ? [r.detail] : []));
  return details.length > 0 ? details.join(" · ") : null;
}

/**
 * Where an alert opens: the call room at the sentence (highlighted, audio cued at its start), at the call's start for
 * an alert about the call as a whole, or the company for a results alert.
 */
export function alertPath(alert: Pick<Alert, "callId" | "symbol" | "sequence" | "startMs">): string {
  if (alert.callId === null) return `/companies/${encodeURIComponent(alert.symbol)}`;
  if (alert.sequence === null) return callHref(alert.callId);
  return callMomentHref(alert.callId, { sequence: alert.sequence, startMs: alert.startMs ?? 0 });
}
