import { useMemo } from "react";
import { matchedParts } from "@/lib/alerts/matched-parts";
import type { Alert } from "@/lib/schemas/alerts";

/** The alert's sentence with the words its rules matched marked; text only, never parsed as HTML. */
export function AlertQuote({ alert }: { alert: Pick<Alert, "text" | "rules"> }) {
  const parts = useMemo(() => matchedParts(alert), [alert]);
  return (
    <>
      {parts.map((part, i) =>
        part.isMatch ? (
          <mark key={i} data-testid="alert-match" className="bg-warn-soft text-fg rounded-sm font-semibold">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** Each rule an alert matched, as a small tag: "“tariff”", "Guidance". */
export function AlertRuleTags({ alert, className }: { alert: Pick<Alert, "rules">; className?: string }) {
  return (
    <span className={className} data-testid="alert-rules">
      {alert.rules.map((rule, i) => (
        <span key={`${rule.ruleId}-${i}`} data-rule-id={rule.ruleId}>
          {i > 0 ? <span className="text-muted"> + </span> : null}
          <span className="text-fg font-medium">{rule.label}</span>
        </span>
      ))}
    </span>
  );
}
