ALTER TABLE "archive_segments" ADD COLUMN "quarter" text;--> statement-breakpoint
-- Hand-written (drizzle-kit does not move data): the sentences already stored get their call's quarter, which search
-- now reads from the sentence itself (server/archive/search.ts).
UPDATE "archive_segments" s SET "quarter" = c."quarter" FROM "archive_calls" c WHERE c."call_id" = s."call_id" AND c."quarter" IS NOT NULL;
