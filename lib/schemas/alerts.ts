import { z } from "zod";

/**
 * Alert rules (`/api/alert-rules`) and the alerts they fire (`/api/alerts`), plus the SSE `alert` event.
 *
 * Scope: `tickers` and/or `watchlistId` narrow a rule; with neither it watches every call. `speakerRole` narrows a
 * keyword rule to the live diarization's labels: `operator` (the `OPERATOR` label) or `speaker` (anyone else);
 * live calls carry no names or roles before enrichment, so finer roles cannot be told apart while a call is live.
 */

import { alertRuleKinds } from "../alerts/rule-kinds";

export type AlertRuleKind = (typeof alertRuleKinds)[number];

export const speakerRoles = ["operator", "speaker"] as const;
export type SpeakerRole = (typeof speakerRoles)[number];

export const PHRASE_MAX = 200;
export const RULE_TICKERS_MAX = 200;
export const RULE_NAME_MAX = 80;

const SYMBOL = /^[A-Z][A-Z0-9.-]{0,9}$/;

const phraseSchema = z
  .string()
  .trim()
  .min(1, "phrase must not be empty")
  .max(PHRASE_MAX, `phrase must be at most ${PHRASE_MAX} characters`)
  .refine((s) => /[\p{L}\p{N}]/u.test(s), { message: "phrase must contain a letter or a digit" });

const tickerSchema = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => SYMBOL.test(s), { message: "tickers must be ticker symbols" });

const ruleTickersSchema = z
  .array(tickerSchema)
  .min(1, "tickers must list at least one symbol when given")
  .max(RULE_TICKERS_MAX, `tickers must list at most ${RULE_TICKERS_MAX} symbols`)
  .transform((list) => [...new Set(list)]);

/** The URL's syntax only; whether its host may be reached is the server's check (server/alerts/webhook-target.ts). */
const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000, "webhookUrl must be at most 2000 characters")
  .refine((s) => URL.canParse(s), { message: "webhookUrl must be an absolute URL" });

const ruleNameSchema = z
  .string()
  .trim()
  .min(1, "Give the rule a name, or leave the name out")
  .max(RULE_NAME_MAX, `A rule's name is at most ${RULE_NAME_MAX} characters`);

/** Body of `POST /api/alert-rules`. */
export const alertRuleInputSchema = z
  .strictObject({
    name: ruleNameSchema.optional(),
    paused: z.boolean().optional(),
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

/**
 * Body of `PATCH /api/alert-rules/{id}`: any field of a rule; `null` clears an optional one (`name`, `phrase`,
 * `tickers`, `watchlistId`, `speakerRole`, `threshold`, `webhookUrl`). The rule that results is checked as a new one
 * would be, so an edit cannot make a keyword rule without a phrase.
 */
export const alertRulePatchSchema = z.strictObject({
  name: ruleNameSchema.nullable().optional(),
  paused: z.boolean().optional(),
  kind: z.enum(alertRuleKinds, { message: `kind must be one of ${alertRuleKinds.join(", ")}` }).optional(),
  phrase: z.string().nullable().optional(),
  tickers: z.array(z.string()).nullable().optional(),
  watchlistId: z.string().nullable().optional(),
  speakerRole: z.string().nullable().optional(),
  threshold: z.number().nullable().optional(),
  webhookUrl: z.string().nullable().optional(),
});
export type AlertRulePatch = z.infer<typeof alertRulePatchSchema>;

export const alertRuleSchema = z.object({
  id: z.string(),
  /** The user's own name for the rule; null = described by what it listens for (`ruleLabel`). */
  name: z.string().nullable(),
  /** A paused rule is kept but fires nothing until resumed. */
  paused: z.boolean(),
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

/**
 * One rule's part in an alert: which rule, what it was called when it fired (kept when the rule is renamed or
 * deleted), the words of the sentence it matched, and what else it knows (a sentiment crossing, a guidance figure
 * against consensus).
 */
export const ruleMatchSchema = z.object({
  ruleId: z.string(),
  kind: z.enum(alertRuleKinds),
  label: z.string(),
  /** The sentence's own words that matched (as said: "tariffs" for the phrase "tariff"); empty for other kinds. */
  matched: z.array(z.string()),
  /** "guides revenue $4.1B, 1.6% below consensus $4.17B"; "sentiment −0.31 crossed −0.30"; null when nothing more. */
  detail: z.string().nullable(),
});
export type RuleMatch = z.infer<typeof ruleMatchSchema>;

/**
 * One fired alert, as the inbox lists it and the SSE `alert` event carries it: one per sentence (or call, or report)
 * per user, however many of the user's rules matched; `rules` names each. `ruleId` and `kind` are the first rule's.
 */
export const alertSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  kind: z.enum(alertRuleKinds),
  rules: z.array(ruleMatchSchema).min(1),
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

/** The inbox's filters (`GET /api/alerts`): one ticker, one rule, one call, unread only. */
export const alertListFilterSchema = z.object({
  ticker: tickerSchema.optional(),
  ruleId: z
    .string()
    .regex(/^\d{1,15}$/, "ruleId must be a rule id")
    .optional(),
  callId: z.string().trim().min(1).max(200, "callId is too long").optional(),
  unread: z
    .enum(["true", "false"], { message: "unread must be true or false" })
    .transform((v) => v === "true")
    .optional(),
});
export type AlertListFilter = z.infer<typeof alertListFilterSchema>;

const facetCount = { total: z.number().int().nonnegative(), unread: z.number().int().nonnegative() };

/** Every ticker and rule the user's alerts name, with counts: what the inbox's filters offer. */
export const alertFacetsSchema = z.object({
  symbols: z.array(z.object({ symbol: z.string(), ...facetCount })),
  rules: z.array(z.object({ ruleId: z.string(), ...facetCount })),
});
export type AlertFacets = z.infer<typeof alertFacetsSchema>;

export const alertListSchema = z.object({
  data: z.array(alertSchema),
  /** Every unread alert of the user, whatever the filters: the bell's number. */
  unread: z.number().int().nonnegative(),
  /** On the first page (no `before`). */
  facets: alertFacetsSchema.optional(),
});
export type AlertList = z.infer<typeof alertListSchema>;

/**
 * `POST /api/alerts/read`: marks read every unread alert up to `upTo` (an alert id, inclusive); all without it;
 * only one call's with `callId`.
 * Strict: a misspelt `upTo` must be refused, not read as "mark everything".
 */
export const markAlertsReadSchema = z
  .object({
    upTo: z
      .string()
      .regex(/^\d{1,15}$/, "upTo must be an alert id")
      .optional(),
    /** Only this call's alerts (the inbox's "mark this call read"). */
    callId: z.string().trim().min(1).max(200, "callId is too long").optional(),
  })
  .strict();
export type MarkAlertsRead = z.infer<typeof markAlertsReadSchema>;

export const markAlertsReadResultSchema = z.object({
  data: z.object({ marked: z.number().int().nonnegative() }),
  unread: z.number().int().nonnegative(),
});
export type MarkAlertsReadResult = z.infer<typeof markAlertsReadResultSchema>;

/** Mute the rest of a call, or a company until the end of its current call (`docs/workspace.md`, Triage). */
export const alertMuteScopes = ["call", "company"] as const;
export type AlertMuteScope = (typeof alertMuteScopes)[number];

export const alertMuteInputSchema = z.discriminatedUnion(
  "scope",
  [
    z.strictObject({
      scope: z.literal("call"),
      callId: z.string().trim().min(1, "callId is required").max(200, "callId is too long"),
      symbol: tickerSchema.optional(),
    }),
    z.strictObject({
      scope: z.literal("company"),
      symbol: tickerSchema,
      /** The company's call in progress: the mute ends with it. Without one it ends 12 hours from now. */
      callId: z.string().trim().min(1).max(200, "callId is too long").optional(),
    }),
  ],
  { message: "scope must be call or company" },
);
export type AlertMuteInput = z.infer<typeof alertMuteInputSchema>;

export const alertMuteSchema = z.object({
  id: z.string(),
  scope: z.enum(alertMuteScopes),
  callId: z.string().nullable(),
  symbol: z.string().nullable(),
  /** When a mute without a call to end with lapses; the call's end lifts the others. */
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type AlertMute = z.infer<typeof alertMuteSchema>;

export const alertMuteListSchema = z.object({ data: z.array(alertMuteSchema) });
