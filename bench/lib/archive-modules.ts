/**
 * The server modules the archive benchmarks drive (bench/search.ts, bench/library.ts), imported when their child
 * process runs: they import `server-only`, which resolves only under the react-server condition the child has.
 */
export async function archiveModules() {
  const [schemas, indexer, source, search, database, bus, breaker, cache, client, log, drizzle, postgres] =
    await Promise.all([
      import("../../lib/schemas/search"),
      import("../../server/archive/indexer"),
      import("../../server/archive/upstream-source"),
      import("../../server/archive/search"),
      import("../../server/db/database"),
      import("../../server/live/memory-bus"),
      import("../../server/security/circuit-breaker"),
      import("../../server/upstream/cache"),
      import("../../server/upstream/client"),
      import("../../server/log"),
      import("drizzle-orm"),
      import("../../test/storage/postgres-server"),
    ]);
  return {
    searchQuerySchema: schemas.searchQuerySchema,
    createArchive: indexer.createArchive,
    searchArchive: search.searchArchive,
    createDatabase: database.createDatabase,
    queryRows: database.queryRows,
    MemoryBus: bus.MemoryBus,
    sql: drizzle.sql,
    startTestPostgres: postgres.startTestPostgres,
    /** The logger at `level`, and the archive's source reading the embedded service at `baseUrl` (key `demo`). */
    archiveSource(baseUrl: string, level: string) {
      const logger = log.createLogger();
      logger.level = level;
      const upstream = {
        http: client.createUpstreamClient({
          config: { baseUrl, apiKey: "demo", timeoutMs: 60_000 },
          breaker: new breaker.CircuitBreaker(),
          log: logger,
        }),
        cache: new cache.ResponseCache(),
        log: logger,
      };
      return { log: logger, source: source.upstreamArchiveSource(upstream) };
    },
  };
}
