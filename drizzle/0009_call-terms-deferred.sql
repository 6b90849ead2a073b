-- Hand-written (drizzle-kit knows no trigger): the per-call word counts' triggers step aside inside a transaction that
-- sets `callroom.call_terms` to `deferred` (set_config(…, true): that transaction only). An import does so and counts
-- the words of the calls it stored in one set-based statement before it commits (server/archive/store.ts,
-- storeCalls), so the counts are complete at every commit and nothing is left half-counted if it dies midway; every
-- other write keeps its statement trigger. docs/storage.md, "Imports count their words once a batch".
DROP TRIGGER "archive_segments_terms_insert" ON "archive_segments";
--> statement-breakpoint
DROP TRIGGER "archive_segments_terms_delete" ON "archive_segments";
--> statement-breakpoint
DROP TRIGGER "archive_segments_terms_update" ON "archive_segments";
--> statement-breakpoint
CREATE TRIGGER "archive_segments_terms_insert" AFTER INSERT ON "archive_segments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (current_setting('callroom.call_terms', true) IS DISTINCT FROM 'deferred')
  EXECUTE FUNCTION "archive_call_terms_add"();
--> statement-breakpoint
CREATE TRIGGER "archive_segments_terms_delete" AFTER DELETE ON "archive_segments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  WHEN (current_setting('callroom.call_terms', true) IS DISTINCT FROM 'deferred')
  EXECUTE FUNCTION "archive_call_terms_remove"();
--> statement-breakpoint
CREATE TRIGGER "archive_segments_terms_update" AFTER UPDATE ON "archive_segments"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (current_setting('callroom.call_terms', true) IS DISTINCT FROM 'deferred')
  EXECUTE FUNCTION "archive_call_terms_replace"();
