import "server-only";
import type { Logger } from "pino";
import { lazyDatabase, type DatabaseHandle } from "../db/database";
import type { LiveBus } from "../live/bus";
import type { Upstream } from "../upstream/client";
import { createArchive, type Archive } from "./indexer";
import { upstreamArchiveSource } from "./upstream-source";

/** The runtime's storage parts: the database (opened on first use) and the archive indexer over it. */
export function createStorage(deps: {
  database: { url: string | undefined; dataDir: string };
  log: Logger;
  live: LiveBus;
  upstream: Upstream;
}): { database: DatabaseHandle; archive: Archive } {
  const database = lazyDatabase({
    url: deps.database.url,
    dataDir: deps.database.dataDir,
    logger: deps.log,
  });
  const archive = createArchive({
    database,
    log: deps.log,
    source: upstreamArchiveSource(deps.upstream),
    live: deps.live,
  });
  return { database, archive };
}
