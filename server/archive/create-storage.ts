import "server-only";
import type { Logger } from "pino";
import { lazyDatabase, type DatabaseHandle } from "../db/database";
import type { LiveHub } from "../live/hub";
import type { Upstream } from "../upstream/client";
import { createArchive, type Archive } from "./indexer";
import { upstreamArchiveSource } from "./upstream-source";

/** The runtime's storage parts: the database (opened on first use) and the archive indexer over it. */
export function createStorage(deps: {
  config: { databaseUrl: string | undefined; dataDir: string };
  log: Logger;
  hub: LiveHub;
  upstream: Upstream;
}): { database: DatabaseHandle; archive: Archive } {
  const database = lazyDatabase({
    url: deps.config.databaseUrl,
    dataDir: deps.config.dataDir,
    logger: deps.log,
  });
  const archive = createArchive({
    database,
    log: deps.log,
    source: upstreamArchiveSource(deps.upstream),
    hub: deps.hub,
  });
  return { database, archive };
}
