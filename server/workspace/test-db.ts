import "server-only";
import { createDatabase, type Database } from "../db/database";

/** A fresh in-memory PGlite with every migration applied, for tests of the workspace's repositories. */
export function testDatabase(): Promise<Database> {
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  return createDatabase({ dataDir: "memory://", logger: quiet });
}
