-- Workspace rows are keyed by a stable user id (server/auth/users.ts, docs/workspace.md "Users"): a users-file line's
-- id, or `user:<name>` for a line written before ids existed. Rows written before held the bare name; they become
-- `user:<name>`, so their users keep them, while `local` (the open instance's owner) stays itself and a users-file
-- user named "local" no longer shares its rows.
UPDATE "watchlists" SET "user_id" = 'user:' || "user_id" WHERE "user_id" <> 'local' AND "user_id" NOT LIKE 'user:%';
--> statement-breakpoint
UPDATE "alert_rules" SET "user_id" = 'user:' || "user_id" WHERE "user_id" <> 'local' AND "user_id" NOT LIKE 'user:%';
--> statement-breakpoint
UPDATE "alert_firings" SET "user_id" = 'user:' || "user_id" WHERE "user_id" <> 'local' AND "user_id" NOT LIKE 'user:%';
--> statement-breakpoint
UPDATE "call_notes" SET "user_id" = 'user:' || "user_id" WHERE "user_id" <> 'local' AND "user_id" NOT LIKE 'user:%';
--> statement-breakpoint
UPDATE "push_subscriptions" SET "user_id" = 'user:' || "user_id" WHERE "user_id" <> 'local' AND "user_id" NOT LIKE 'user:%';
--> statement-breakpoint
UPDATE "feed_tokens" SET "user_id" = 'user:' || "user_id" WHERE "user_id" <> 'local' AND "user_id" NOT LIKE 'user:%';
