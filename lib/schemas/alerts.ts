import { z } from "zod";
import { callHref, callMomentHref } from "../call-links";

/**
 * Alert rules (`/api/alert-rules`) and the alerts they fire (`/api/alerts`), plus the SSE `alert` event.
 *
 * Scope: `tickers` and/or `watchlistId` narrow a rule; with neither it watches every call. `speakerRole` narrows a
 * keyword rule to the live diarization's labels: `operator` (the `OPERATOR` label) or `speaker` (anyone else);
 * live calls carry no names or roles before enrichment, so finer roles cannot be told apart while a call is live.
 */

export const alertRuleKinds = ["keyword", "call-live", "results", "sentiment", "guidance"] as const;
export type AlertRuleKind = (typeof alertRuleKinds)[number];

export const speakerRoles = ["operator", "speaker"] as const;
export type SpeakerRole = (typeof speakerRoles)[number];

export const PHRASE_MAX = 200;
export const RULE_TICKERS_MAX = 200;

const SYMBOL = /^[A-Z][A-Z0-9.-]{0,9}$/;

const phraseSchema = z
  .string()
  .trim()
  .min(1, "phrase must not be empty")
  .max(PHRASE_MAX, `phrase must be at most ${PHRASE_MAX} characters`)
  .refine((s) => /[\p{L}\p{N}]/u.test(s), { message: "phrase must contain a letter or a digit" });

const ruleTickersSchema = z
  .array(
    z
      .string()
      .trim()
      .transform((s) => s.toUpperCase())
      .refine((s) => SYMBOL.test(s), { message: "tickers must be ticker symbols" }),
  )
  .min(1, "tickers must list at least one symbol when given")
  .max(RULE_TICKERS_MAX, `tickers must list at most ${RULE_TICKERS_MAX} symbols`)
  .transform((list) => [...new Set(list)]);

/** The URL's syntax only; whether its host may be reached is the server's check (server/alerts/webhook-target.ts). */
const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000, "webhookUrl must be at most 2000 characters")
  .refine((s) => URL.canParse(s), { message: "webhookUrl must be an absolute URL" });

/** Body of `POST /api/alert-rules`. */
export const alertRuleInputSchema = z
  .strictObject({
    kind: z.enum(alertRuleKinds, { message: `kind must be one of ${alertRuleKinds.join(", ")}` }),
    phrase: phraseSchema.optional(),
    tickers: ruleTickersSchema.optional(),
    watchlistId: z
      .string()
      .regex(/^\d{1,18}$/, "watchlistId must be a watchlist id")
      .optional(),
    speakerRole: z
      .enum(speakerRoles, { message: `speakerRole must be one of ${speakerRoles.join(", ")}` })
      .optional(),
    threshold: z
      .number()
      .min(-1, "threshold must be between -1 and 1")
      .max(1, "threshold must be between -1 and 1")
      .optional(),
    webhookUrl: webhookUrlSchema.optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.kind === "keyword" && rule.phrase === undefined)
      ctx.addIssue({ code: "custom", path: ["phrase"], message: "phrase is required for a keyword rule" });
    if (rule.kind !== "keyword" && rule.phrase !== undefined)
      ctx.addIssue({ code: "custom", path: ["phrase"], message: "phrase only applies to a keyword rule" });
    if (rule.kind === "sentiment" && rule.threshold === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["threshold"],
        message: "threshold is required for a sentiment rule",
      });
    if (rule.kind !== "sentiment" && rule.threshold !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["threshold"],
        message: "threshold only applies to a sentiment rule",
      });
    if (rule.speakerRole !== undefined && rule.kind !== "keyword" && rule.kind !== "guidance")
      ctx.addIssue({
        code: "custom",
        path: ["speakerRole"],
        message: "speakerRole only applies to keyword and guidance rules",
      });
  });
export type AlertRuleInput = z.infer<typeof alertRuleInputSchema>;

export const alertRuleSchema = z.object({
  id: z.string(),
  kind: z.enum(alertRuleKinds),
  phrase: z.string().nullable(),
  tickers: z.array(z.string()).nullable(),
  watchlistId: z.string().nullable(),
  speakerRole: z.enum(speakerRoles).nullable(),
  threshold: z.number().nullable(),
  webhookUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertRuleListSchema = z.object({ data: z.array(alertRuleSchema) });

/** One fired alert, as the inbox lists it and the SSE `alert` event carries it. */
export const alertSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  kind: z.enum(alertRuleKinds),
  /** `null` for a results alert, which belongs to a report, not a call. */
  callId: z.string().nullable(),
  symbol: z.string(),
  /** The sentence's sequence; `null` when the alert is about the call or a report as a whole. */
  sequence: z.number().int().nullable(),
  /** Where the sentence starts in the call's audio, for cueing it. */
  startMs: z.number().nullable(),
  text: z.string(),
  firedAt: z.string(),
  read: z.boolean(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertListSchema = z.object({
  data: z.array(alertSchema),
  unread: z.number().int().nonnegative(),
});
export type AlertList = z.infer<typeof alertListSchema>;

/**
 * `POST /api/alerts/read`: marks read every unread alert up to `upTo` (an alert id, inclusive); all without it.
 * Strict: a misspelt `upTo` must be refused, not read as "mark everything".
 */
export const markAlertsReadSchema = z
  .object({
    upTo: z
      .string()
      .regex(/^\d{1,15}$/, "upTo must be an alert id")
      .optional(),
  })
  .strict();
export type MarkAlertsRead = z.infer<typeof markAlertsReadSchema>;

export const markAlertsReadResultSchema = z.object({
  data: z.object({ marked: z.number().int().nonnegative() }),
  unread: z.number().int().nonnegative(),
});
export type MarkAlertsReadResult = z.infer<typeof markAlertsReadResultSchema>;

/**
 * Where an alert opens: the call room at the sentence (highlighted, audio cued at its start), at the call's start for
 * an alert about the call as a whole, or the company for a results alert.
 */
export function alertPath(alert: Pick<Alert, "callId" | "symbol" | "sequence" | "startMs">): string {
  if (alert.callId === null) return `/companies/${encodeURIComponent(alert.symbol)}`;
  if (alert.sequence === null) return callHref(alert.callId);
  return callMomentHref(alert.callId, { sequence: alert.sequence, startMs: alert.startMs ?? 0 });
}
