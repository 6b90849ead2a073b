import { customType } from "drizzle-orm/pg-core";

/**
 * Column types Drizzle has no builder for, shared by every schema file. No `server-only` here: drizzle-kit loads
 * this folder outside Next to generate migrations.
 */

/** A Postgres `tsvector` (full-text search), written by generated columns only. */
export const tsvector = customType<{ data: string }>({
  dataType: () => "tsvector",
});
