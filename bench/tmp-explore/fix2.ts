import { PGlite } from "@electric-sql/pglite";
const pg = await PGlite.create("/tmp/imp-full");
console.log((await pg.query("select id, created_at from drizzle.__drizzle_migrations order by id")).rows);
await pg.query(
  "insert into drizzle.__drizzle_migrations (hash, created_at) values ('manual', 1795755442786)",
);
await pg.close();
