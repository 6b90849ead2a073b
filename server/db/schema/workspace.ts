import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { tsvector } from "./column-types";

/**
 * The analyst's workspace: watchlists, alert rules and what they fired, deliveries, notes, push subscriptions, the
 * calendar feed's token and the VAPID keys. Rows belong to a user name (the signed-in user, or `local` when no users
 * are configured).
 *
 * - A firing is unique per (user, subject, sequence): one alert per sentence per user however many of the user's rules
 *   matched it (`rule_ids`, and in `matches` each rule's label, matched words and detail as they were when it fired,
 *   so the alert keeps saying why it fired after the rule is edited or deleted). `subject` is the call id (or
 *   `earnings:<record id>` for a results alert) and `sequence` the sentence's, `-1` when the alert is about the call
 *   or report as a whole. A plain `-1` rather than NULL, because Postgres treats NULLs as distinct in a unique index.
 * - Deleting a watchlist deletes the rules scoped to it: such a rule would otherwise silently widen to every call.
 *
 * No `server-only` here: drizzle-kit loads this file outside Next to generate migrations.
 */

const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow();

export const watchlists = pgTable(
  "watchlists",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").notNull(),
    name: text("name").notNull(),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("watchlists_user_idx").on(t.userId, t.position)],
);

export const watchlistItems = pgTable(
  "watchlist_items",
  {
    watchlistId: bigint("watchlist_id", { mode: "number" })
      .notNull()
      .references(() => watchlists.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    position: integer("position").notNull(),
    addedAt: timestamp("added_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.watchlistId, t.symbol] }),
    index("watchlist_items_symbol_idx").on(t.symbol),
  ],
);

export const alertRules = pgTable(
  "alert_rules",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").notNull(),
    /** keyword | call-live | results | sentiment | guidance */
    kind: text("kind").notNull(),
    phrase: text("phrase"),
    tickers: text("tickers").array(),
    watchlistId: bigint("watchlist_id", { mode: "number" }).references(() => watchlists.id, {
      onDelete: "cascade",
    }),
    /** operator | speaker */
    speakerRole: text("speaker_role"),
    threshold: real("threshold"),
    webhookUrl: text("webhook_url"),
    /** The user's own name for the rule (null: described by what it listens for). */
    name: text("name"),
    /** Set while the rule is paused: kept, evaluated by nothing. */
    pausedAt: timestamp("paused_at", { withTimezone: true, mode: "string" }),
    createdAt: createdAt(),
  },
  (t) => [index("alert_rules_user_idx").on(t.userId)],
);

export const alertFirings = pgTable(
  "alert_firings",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").notNull(),
    /** Every rule that matched, first rule first; no foreign key: an alert outlives its rules. */
    ruleIds: bigint("rule_ids", { mode: "number" }).array().notNull(),
    /** `RuleMatch[]` (lib/schemas/alerts.ts), in the order of `rule_ids`. */
    matches: jsonb("matches").notNull(),
    /** The first rule's kind. */
    kind: text("kind").notNull(),
    subject: text("subject").notNull(),
    callId: text("call_id"),
    symbol: text("symbol").notNull(),
    sequence: integer("sequence").notNull().default(-1),
    startMs: integer("start_ms"),
    text: text("text").notNull(),
    firedAt: timestamp("fired_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true, mode: "string" }),
  },
  (t) => [
    uniqueIndex("alert_firings_once_idx").on(t.userId, t.subject, t.sequence),
    index("alert_firings_inbox_idx").on(t.userId, t.firedAt),
    index("alert_firings_rules_idx").using("gin", t.ruleIds),
  ],
);

/**
 * What a user silenced: a call (`call_id`), or a company (`symbol`) until the end of its call in progress
 * (`call_id`, when there is one). `expires_at` bounds every mute, so one whose call's end was never seen still lapses.
 */
export const alertMutes = pgTable(
  "alert_mutes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").notNull(),
    /** call | company */
    scope: text("scope").notNull(),
    callId: text("call_id"),
    symbol: text("symbol"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "string" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("alert_mutes_user_idx").on(t.userId)],
);

export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    firingId: bigint("firing_id", { mode: "number" })
      .notNull()
      .references(() => alertFirings.id, { onDelete: "cascade" }),
    /** webhook | push */
    channel: text("channel").notNull(),
    /** Origin only: a webhook's path and query often hold its secret. */
    target: text("target").notNull(),
    attempt: integer("attempt").notNull(),
    ok: boolean("ok").notNull(),
    status: integer("status"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [index("alert_deliveries_firing_idx").on(t.firingId)],
);

export const callNotes = pgTable(
  "call_notes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").notNull(),
    callId: text("call_id").notNull(),
    text: text("text").notNull(),
    /** The moment of the call the note is pinned to, from its start. */
    atMs: integer("at_ms").notNull(),
    /** The highlighted sentence, if any, and its text as it was when highlighted. */
    sequence: integer("sequence"),
    quote: text("quote"),
    createdAt: createdAt(),
    search: tsvector("search")
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english'::regconfig, "text" || ' ' || coalesce("quote", ''))`),
  },
  (t) => [
    index("call_notes_user_call_idx").on(t.userId, t.callId, t.atMs),
    index("call_notes_search_idx").using("gin", t.search),
  ],
);

export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").notNull(),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_idx").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
  ],
);

/** The calendar feed's secret, per user: only its SHA-256 is kept, so a database dump does not open anyone's feed. */
export const feedTokens = pgTable("feed_tokens", {
  userId: text("user_id").primaryKey(),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: createdAt(),
});

/** Small server secrets generated at first start (the VAPID key pair), shared by every instance. */
export const workspaceSecrets = pgTable("workspace_secrets", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  createdAt: createdAt(),
});
