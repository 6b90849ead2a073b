import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database";
import { testDatabase } from "./test-db";

/**
 * Migration 0002 (drizzle/0002_user-keys.sql): rows written when they were keyed by the user's name move to the
 * key such a user's line now has (`user:<name>`, server/auth/users.ts), `local` (the open instance) stays, and
 * running it again changes nothing.
 */

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
}, 60_000);
afterAll(() => database?.close());

const rows = async (sql: string) =>
  ((await database.db.execute(sql as never)) as unknown as { rows: Record<string, unknown>[] }).rows;

describe("the user-keys migration", () => {
  it("keys every table's legacy rows by user:<name>, keeps local, and is idempotent", async () => {
    await rows(`INSERT INTO watchlists (user_id, name) VALUES ('alice', 'A'), ('local', 'L')`);
    await rows(`INSERT INTO alert_rules (user_id, kind, phrase) VALUES ('alice', 'keyword', 'x')`);
    await rows(`INSERT INTO call_notes (user_id, call_id, text, at_ms) VALUES ('alice', 'c', 't', 0)`);
    await rows(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ('alice', 'https://e/1', 'p', 'a')`,
    );
    await rows(`INSERT INTO feed_tokens (user_id, token_hash) VALUES ('alice', 'h1'), ('local', 'h2')`);
    const migration = readFileSync(join(process.cwd(), "drizzle/0002_user-keys.sql"), "utf8");
    for (let run = 0; run < 2; run++)
      for (const statement of migration.split("--> statement-breakpoint")) await rows(statement);
    expect(await rows(`SELECT user_id FROM watchlists ORDER BY name`)).toEqual([
      { user_id: "user:alice" },
      { user_id: "local" },
    ]);
    for (const table of ["alert_rules", "call_notes", "push_subscriptions"])
      expect(await rows(`SELECT DISTINCT user_id FROM ${table}`), table).toEqual([{ user_id: "user:alice" }]);
    expect(await rows(`SELECT user_id FROM feed_tokens ORDER BY token_hash`)).toEqual([
      { user_id: "user:alice" },
      { user_id: "local" },
    ]);
  });
});
