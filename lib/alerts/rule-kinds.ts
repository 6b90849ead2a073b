/** The kinds of alert rule, zod-free for the rule form (docs/day.md, Measured); lib/schemas/alerts.ts validates them. */
export const alertRuleKinds = ["keyword", "call-live", "results", "sentiment", "guidance"] as const;
