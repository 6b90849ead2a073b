import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/server/db/database";

/**
 * Rows where the per-call word counts (`archive_call_terms`) and a recount from the stored sentences disagree, and
 * the counts' size (docs/storage.md, "Search at library scale").
 */
export async function termDrift(database: Database): Promise<{ differences: number; rows: number }> {
  const [row] = await queryRows<{ differences: number; rows: number }>(
    database.db,
    sql`WITH truth AS (
          SELECT w.lexeme, s.call_id, count(*)::int AS hits
          FROM archive_segments s, unnest(tsvector_to_array(s.search)) AS w(lexeme) GROUP BY 1, 2
        )
        SELECT (SELECT count(*)::int FROM (
          (SELECT lexeme, call_id, hits FROM archive_call_terms EXCEPT SELECT * FROM truth)
          UNION ALL
          (SELECT * FROM truth EXCEPT SELECT lexeme, call_id, hits FROM archive_call_terms)
        ) d) AS differences, (SELECT count(*)::int FROM archive_call_terms) AS rows`,
  );
  return row!;
}
