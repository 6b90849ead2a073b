import { defineConfig } from "drizzle-kit";

/**
 * One schema (a file per subsystem under server/db/schema/), SQL migrations in drizzle/, applied at start by both
 * drivers (server/db/migrate.ts). After changing a schema file: `npx drizzle-kit generate --name <what-changed>`,
 * then commit the new drizzle/*.sql and drizzle/meta/ together with the schema change. See server/db/README.md.
 */
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema/*.ts",
  out: "./drizzle",
});
