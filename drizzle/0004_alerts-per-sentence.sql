CREATE TABLE "alert_mutes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_mutes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"scope" text NOT NULL,
	"call_id" text,
	"symbol" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_firings" DROP CONSTRAINT "alert_firings_rule_id_alert_rules_id_fk";
--> statement-breakpoint
DROP INDEX "alert_firings_once_idx";--> statement-breakpoint
ALTER TABLE "alert_firings" ADD COLUMN "rule_ids" bigint[];--> statement-breakpoint
ALTER TABLE "alert_firings" ADD COLUMN "matches" jsonb;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express data moves): the alerts already fired, one row per rule, become one per
-- sentence per user before the new unique index is built. Each row first names its own rule; rows of the same
-- (user, subject, sequence) then merge into the oldest, which names every rule, keeps their deliveries and stays
-- unread if any of them was.
UPDATE "alert_firings" f SET
  "rule_ids" = ARRAY[f."rule_id"],
  "matches" = jsonb_build_array(jsonb_build_object(
    'ruleId', f."rule_id"::text,
    'kind', f."kind",
    'label', CASE f."kind"
      WHEN 'keyword' THEN '“' || coalesce((SELECT r."phrase" FROM "alert_rules" r WHERE r."id" = f."rule_id"), '') || '”'
      WHEN 'guidance' THEN 'Guidance'
      WHEN 'sentiment' THEN 'Sentiment'
      WHEN 'call-live' THEN 'Call live'
      ELSE 'Results' END,
    'matched', '[]'::jsonb,
    'detail', NULL));--> statement-breakpoint
UPDATE "alert_firings" f SET
  "rule_ids" = g."ids",
  "matches" = g."all_matches",
  "read_at" = CASE WHEN g."all_read" THEN f."read_at" ELSE NULL END
FROM (
  SELECT min("id") AS "keep", array_agg("rule_id" ORDER BY "id") AS "ids",
    jsonb_agg("matches"->0 ORDER BY "id") AS "all_matches", bool_and("read_at" IS NOT NULL) AS "all_read"
  FROM "alert_firings" GROUP BY "user_id", "subject", "sequence" HAVING count(*) > 1
) g WHERE f."id" = g."keep";--> statement-breakpoint
UPDATE "alert_deliveries" d SET "firing_id" = k."keep"
FROM (
  SELECT "id", min("id") OVER (PARTITION BY "user_id", "subject", "sequence") AS "keep" FROM "alert_firings"
) k WHERE d."firing_id" = k."id" AND k."id" <> k."keep";--> statement-breakpoint
DELETE FROM "alert_firings" f USING (
  SELECT "id", min("id") OVER (PARTITION BY "user_id", "subject", "sequence") AS "keep" FROM "alert_firings"
) k WHERE f."id" = k."id" AND k."id" <> k."keep";--> statement-breakpoint
ALTER TABLE "alert_firings" ALTER COLUMN "rule_ids" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_firings" ALTER COLUMN "matches" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "alert_mutes_user_idx" ON "alert_mutes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "alert_firings_rules_idx" ON "alert_firings" USING gin ("rule_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_firings_once_idx" ON "alert_firings" USING btree ("user_id","subject","sequence");--> statement-breakpoint
ALTER TABLE "alert_firings" DROP COLUMN "rule_id";
