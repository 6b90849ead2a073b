import "server-only";
import type { Logger } from "pino";
import { readServerEnv, type ServerEnv } from "../env";
import { getLogger } from "../log";
import { createMetrics, type Metrics } from "../metrics/registry";
import { InMemoryHub, type LiveHub } from "../live/hub";
import { maybeStartBenchHooks } from "../live/bench-hook";
import type { CallFetcher } from "../live/call-state";
import { createLive, type Live, type LiveOptions } from "../live/relay";
import { createStreamDoor } from "../live/stream-door";
import { createAnswerDoor } from "../http/answer-door";
import { AnswerStore } from "../http/answer-store";
import { chainDoors, type Door } from "../http/door";
import { createRedis, redisUrl } from "../scale/redis";
import { RedisResponseStore } from "../scale/redis-cache-store";
import { createScaleNode } from "../scale/scale-node";
import { readUsers } from "../auth/users";
import { CircuitBreaker } from "../security/circuit-breaker";
import { getSecurityConfig } from "../security/config";
import { createExposureGuard, exposureSettings, type ExposureGuard } from "../security/exposure-guard";
import { DEFAULT_BACKGROUND_RATE, DEFAULT_UPSTREAM_LIMIT, UpstreamBudget } from "../upstream/budget";
import { ResponseCache } from "../upstream/cache";
import { readCacheLimits } from "../upstream/cache-config";
import { fetchLiveCall, fetchMediaLinks, listCallsStartedSince } from "../upstream/calls";
import { createUpstreamClient, type Upstream } from "../upstream/client";
import { MediaProxy } from "../upstream/media";
import { createStorage } from "../archive/create-storage";
import type { Archive } from "../archive/indexer";
import type { DatabaseHandle } from "../db/database";
import { createRetention } from "../db/retention";
import { createWorkspace, type Workspace } from "../workspace/create-workspace";

/**
 * The composition root: builds the server's parts once, in order, each from what it uses (design.md §1). The
 * environment is read here and nowhere else on the way to an upstream request. Subsystems of later issues (database,
 * archive indexer, alert engine) are built here too.
 */

export interface Runtime {
  env: ServerEnv;
  log: Logger;
  breakers: { upstream: CircuitBreaker; media: CircuitBreaker };
  metrics: Metrics;
  /** The upstream REST client with the response cache in front of it. */
  upstream: Upstream;
  /** Spaces background reads of the upstream below its rate limit; `inBackground` puts work in that lane. */
  budget: UpstreamBudget;
  media: MediaProxy;
  /** The hub, the relay and (with REDIS_URL) this instance's part in the deployment. */
  live: Live;
  /**
   * Node-level requests the app answers before Next: the live stream (server/live/stream-door.ts) and fresh cached
   * answers of the market-data routes (server/http/answer-door.ts).
   */
  door: Door;
  /** The answer door's store, read by `/api/metrics`. */
  answers: AnswerStore;
  /** Who may reach the process without accounts; installed on every HTTP server by `start()`. */
  exposure: ExposureGuard;
  /** PGlite under CALLROOM_DATA_DIR, or the PostgreSQL server of DATABASE_URL; opened on first use, migrated. */
  database: DatabaseHandle;
  /** The transcript archive: indexer (one per deployment) and full-text search. */
  archive: Archive;
  /** Watchlists, alert rules and the alert engine (evaluates on the leader), notes, the calendar feed. */
  workspace: Workspace;
  /** Starts what runs in the background (the relay); called once by instrumentation.ts. */
  start(): void;
  stop(): Promise<void>;
}

export interface RuntimeOverrides {
  log?: Logger;
  hub?: LiveHub;
  fetch?: typeof fetch;
  breakers?: Partial<Runtime["breakers"]>;
  retryBudget?: { max: number; windowMs: number };
  cache?: ResponseCache;
  media?: (defaults: ConstructorParameters<typeof MediaProxy>[0]) => MediaProxy;
  fetcher?: CallFetcher;
  /** Socket and sequencing timings of the relay (tests shorten them). */
  relay?: LiveOptions["relay"];
  /** A workspace built by the test (its own database), instead of one over the runtime's. */
  workspace?: Workspace;
}

export function createRuntime(
  source: Record<string, string | undefined> = process.env,
  overrides: RuntimeOverrides = {},
): Runtime {
  const log = overrides.log ?? getLogger();
  let env: ServerEnv;
  try {
    env = readServerEnv(source);
  } catch (error) {
    // A bad environment must not keep the dashboard from serving pages: every upstream call answers 503.
    log.error({ err: error }, "runtime: invalid environment; the market-data service is not configured");
    env = {
      upstreamBaseUrl: undefined,
      upstreamWsUrl: undefined,
      upstreamApiKey: undefined,
      upstreamMode: "remote",
      upstreamTimeoutMs: 8000,
      databaseUrl: undefined,
      dataDir: "./data/pglite",
      backgroundRatePerSecond: DEFAULT_BACKGROUND_RATE,
      upstreamRateLimitPerSecond: DEFAULT_UPSTREAM_LIMIT,
      alertRetentionDays: 180,
      deliveryLogRetentionDays: 30,
    };
  }
  const breakers = {
    upstream: overrides.breakers?.upstream ?? new CircuitBreaker(),
    // Separate from REST: audio trouble must not cut analysts off calendars (nor REST trouble off a call's audio).
    media: overrides.breakers?.media ?? new CircuitBreaker(),
  };
  const metrics = createMetrics();

  const redis = redisUrl(source);
  const cacheLimits = readCacheLimits(source);
  const cache =
    overrides.cache ??
    new ResponseCache({
      ...cacheLimits,
      ...(redis ? { shared: new RedisResponseStore(createRedis(redis, "cache"), cacheLimits) } : {}),
    });
  const upstreamConfig =
    env.upstreamBaseUrl && env.upstreamApiKey
      ? { baseUrl: env.upstreamBaseUrl, apiKey: env.upstreamApiKey, timeoutMs: env.upstreamTimeoutMs }
      : null;
  // One budget for every background read of the upstream (backfill, feeds, refreshes): server/upstream/budget.ts.
  const budget = new UpstreamBudget({
    ratePerSecond: env.backgroundRatePerSecond,
    limitPerSecond: env.upstreamRateLimitPerSecond,
  });
  const http = createUpstreamClient({
    config: upstreamConfig,
    breaker: breakers.upstream,
    log,
    observe: metrics.observeUpstreamCall,
    retryBudget: overrides.retryBudget,
    budget,
    onRateLimited: metrics.countUpstreamRateLimited,
  });
  const upstream: Upstream = { http, cache, log };

  const mediaOptions = {
    fetchLinks: (callId: string, signal?: AbortSignal) =>
      fetchMediaLinks(upstream, callId, signal, upstreamConfig?.baseUrl),
    allowedOrigin: () => {
      if (!upstreamConfig) throw upstreamNotConfiguredForMedia();
      return new URL(upstreamConfig.baseUrl).origin;
    },
    breaker: breakers.media,
    ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
  };
  const media = overrides.media ? overrides.media(mediaOptions) : new MediaProxy(mediaOptions);

  const onSubscriberError = (error: unknown) => log.warn({ err: error }, "relay: subscriber failed");
  const scale = redis && !overrides.hub ? createScaleNode({ url: redis, log, onSubscriberError }) : null;
  const hub = maybeStartBenchHooks(overrides.hub ?? scale?.hub ?? new InMemoryHub({ onSubscriberError }));
  const fetcher: CallFetcher = overrides.fetcher ?? {
    async fetchCall(callId, signal) {
      const call = await fetchLiveCall(upstream, callId, signal);
      if (!call) return null;
      const { symbol, name, startTime, status, segments } = call;
      return { callId: call.callId, symbol, name, startTime, status, segments };
    },
    async listCallsStartedSince(fromIso, signal, page) {
      const calls = await listCallsStartedSince(upstream, fromIso, { signal, page });
      return calls.map((c) => ({ callId: c.callId, symbol: c.symbol }));
    },
  };
  const live = createLive({
    hub,
    scale,
    upstream:
      env.upstreamWsUrl && env.upstreamApiKey
        ? { wsBaseUrl: env.upstreamWsUrl, apiKey: env.upstreamApiKey }
        : null,
    fetcher,
    log,
    relay: overrides.relay,
  });
  const dev = source.NODE_ENV === "development";
  const answers = new AnswerStore();
  const door = chainDoors(
    createStreamDoor({ hub, log, metrics }),
    createAnswerDoor({ store: answers, log, metrics, dev, disabled: dev }),
  );
  const exposure = createExposureGuard({ log, ...exposureSettings() });
  let uninstallExposure: (() => void) | null = null;
  const { database, archive } = createStorage({ config: env, log, hub, upstream });
  // Alert firings and delivery logs are pruned daily (docs/storage.md, "Growth under control").
  const retention = createRetention({
    database,
    log,
    firingsDays: env.alertRetentionDays,
    deliveriesDays: env.deliveryLogRetentionDays,
  });
  const workspace =
    overrides.workspace ??
    createWorkspace({
      database,
      hub,
      isLeader: () => (scale ? scale.role() === "leader" : true),
      upstream,
      log,
      env: source,
      redis: redis
        ? { publisher: createRedis(redis, "alerts-pub"), subscriber: createRedis(redis, "alerts-sub") }
        : null,
      users: { current: () => readUsers(getSecurityConfig().usersFile) },
    });

  return {
    env,
    log,
    breakers,
    metrics,
    upstream,
    budget,
    media,
    live,
    door,
    answers,
    exposure,
    database,
    archive,
    workspace,
    start() {
      uninstallExposure ??= exposure.install();
      try {
        live.start();
      } catch (error) {
        // A bad environment must not keep the dashboard from serving REST pages; health reports the stream closed.
        log.error({ err: error }, "relay: failed to start");
      }
      archive.start();
      workspace.start();
      retention.start();
    },
    async stop() {
      uninstallExposure?.();
      uninstallExposure = null;
      live.stop();
      retention.stop();
      // The database is closed whatever the rest does, and in time: SIGTERM must end the process within 5 s with
      // PGlite's files written out (scripts/serve.mjs). Deliveries in flight are cut by the workspace's stop; a part
      // that still hangs past the grace is logged and left behind.
      const parts = Promise.allSettled([archive.stop(), workspace.stop()]);
      const graceful = await Promise.race([
        parts.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref()),
      ]);
      if (!graceful)
        log.warn({ graceMs: STOP_GRACE_MS }, "runtime: stopping took too long; closing the database");
      await database.close();
      await scale?.stop();
    },
  };
}

/** How long the archive and the workspace get to stop before the database is closed under them. */
const STOP_GRACE_MS = 2_500;

function upstreamNotConfiguredForMedia(): Error {
  return new Error("media: the market-data service is not configured");
}
