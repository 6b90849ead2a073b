import "server-only";
import type { Logger } from "pino";
import type { Config } from "../config";
import { getLogger, registerSecret } from "../log";
import { createAuth, type Auth } from "../auth/session";
import { UsersFile } from "../auth/users";
import { installCollectors } from "../metrics/collectors";
import { createMetrics, type Metrics } from "../metrics/registry";
import { startBenchHooks } from "../live/bench-hook";
import type { LiveBus } from "../live/bus";
import { createLive, type Live, type LiveOptions } from "../live/create-live";
import type { LiveCallResult } from "../live/live-call";
import { MemoryBus } from "../live/memory-bus";
import type { CallFetcher } from "../live/sequencer";
import { createStreamDoor } from "../live/stream-door";
import { AnswerStore } from "../http/answer-store";
import { chainDoors, type Door } from "../http/door";
import { createMarketDoor, type MarketRoute } from "../http/market-door";
import { createRedis } from "../scale/redis";
import { RedisResponseStore } from "../scale/redis-cache-store";
import { createScaleNode } from "../scale/scale-node";
import { CircuitBreaker } from "../security/circuit-breaker";
import { createExposureGuard, exposureSettings, type ExposureGuard } from "../security/exposure-guard";
import { createGate, type Gate } from "../security/gate";
import { createLimits, type Limits } from "../security/limits";
import { createUserStreams, type UserStreams } from "../security/user-streams";
import { UpstreamBudget } from "../upstream/budget";
import { ResponseCache } from "../upstream/cache";
import { fetchLiveTranscript, fetchMediaLinks, listCallsStartedSince } from "../upstream/calls";
import { createUpstreamClient, type Upstream } from "../upstream/client";
import { MediaProxy } from "../upstream/media";
import { marketRoutes, type MarketRouteName } from "../upstream/market-routes";
import { getCallOrImported } from "../archive/call-lookup";
import { createStorage } from "../archive/create-storage";
import { SearchGate } from "../archive/search-gate";
import type { Archive } from "../archive/indexer";
import { installArchiveCollectors } from "../archive/observe";
import type { DatabaseHandle } from "../db/database";
import { createRetention } from "../db/retention";
import { createInsightsService, type InsightsService } from "../insights/service";
import { createCallInsightsSources } from "../insights/upstream-sources";
import { createWorkspace, type Workspace } from "../workspace/create-workspace";

/**
 * The composition root: builds the server's parts once, in order, each from what it uses, from the configuration
 * (server/config.ts, read once from the environment by server/runtime/index.ts). docs/architecture.md draws what it
 * builds; a part that needs another receives it here and never reaches for it.
 */

export interface Runtime {
  config: Config;
  log: Logger;
  breakers: { upstream: CircuitBreaker; media: CircuitBreaker };
  metrics: Metrics;
  /** Sessions over the users file (server/auth/session.ts). */
  auth: Auth;
  /** Per-client limits: `/api` requests, sign-ins, open live streams. */
  limits: Limits;
  /** Open streams by user, ended when their user is removed (server/security/user-streams.ts). */
  userStreams: UserStreams;
  /** The checks every request passes, at whichever door it enters (proxy.ts, the Node-level doors). */
  gate: Gate;
  /** The upstream REST client with the response cache in front of it. */
  upstream: Upstream;
  /** Spaces background reads of the upstream below its rate limit; `inBackground` puts work in that lane. */
  budget: UpstreamBudget;
  media: MediaProxy;
  /** The live bus: its events, the browsers' fan-out, the upstream consumer (server/live/create-live.ts). */
  live: Live;
  /**
   * A call wherever it lives (server/archive/call-lookup.ts): from REST merged with what the live bus published
   * since, or the archive's copy of an imported call. The call page, `/api/calls/[callId]`, notes and insights.
   */
  call(callId: string, options?: { signal?: AbortSignal }): Promise<LiveCallResult>;
  insights: InsightsService;
  /** Each user's archive searches, one at a time (server/archive/search-gate.ts). */
  searchGate: SearchGate;
  /**
   * Node-level requests the app answers before Next: the live stream (server/live/stream-door.ts) and the
   * market-data routes (server/http/market-door.ts).
   */
  door: Door;
  /** The market-data routes' stored answers. */
  answers: AnswerStore;
  /** The market-data routes (server/upstream/market-routes.ts): the market door serves them, and so does Next. */
  market: Record<MarketRouteName, MarketRoute>;
  /** Who may reach the process without accounts; installed on every HTTP server by `start()`. */
  exposure: ExposureGuard;
  /** PGlite under CALLROOM_DATA_DIR, or the PostgreSQL server of DATABASE_URL; opened on first use, migrated. */
  database: DatabaseHandle;
  /** The transcript archive: indexer (one per deployment) and full-text search. */
  archive: Archive;
  /** Watchlists, alert rules and the alert engine (evaluates on the leader), notes, the calendar feed. */
  workspace: Workspace;
  /** Starts what runs in the background (the live bus's consumer, the archive, the alert engine); once. */
  start(): void;
  stop(): Promise<void>;
}

export interface RuntimeOverrides {
  log?: Logger;
  bus?: LiveBus;
  fetch?: typeof fetch;
  breakers?: Partial<Runtime["breakers"]>;
  retryBudget?: { max: number; windowMs: number };
  cache?: ResponseCache;
  media?: (defaults: ConstructorParameters<typeof MediaProxy>[0]) => MediaProxy;
  fetcher?: CallFetcher;
  /** Socket and sequencing timings of the live bus's consumer (tests shorten them). */
  consumer?: LiveOptions["consumer"];
  /** A workspace built by the test (its own database), instead of one over the runtime's. */
  workspace?: Workspace;
}

export function createRuntime(config: Config, overrides: RuntimeOverrides = {}): Runtime {
  const log = overrides.log ?? getLogger();
  // Known from the moment they are read, so no later log line can carry them.
  for (const secret of config.secrets) registerSecret(secret);
  if (config.upstream.problem) {
    // A bad environment must not keep the dashboard from serving pages: every upstream call answers 503.
    log.error({ problem: config.upstream.problem }, "runtime: the market-data service is not configured");
  }
  const breakers = {
    upstream: overrides.breakers?.upstream ?? new CircuitBreaker(),
    // Separate from REST: audio trouble must not cut analysts off calendars (nor REST trouble off a call's audio).
    media: overrides.breakers?.media ?? new CircuitBreaker(),
  };
  const metrics = createMetrics();
  const redis = config.redisUrl;

  const { security } = config;
  const users = new UsersFile(security.usersFile, log);
  const auth = createAuth({ users, sessionSecret: security.sessionSecret, exposed: security.exposed });
  const limits = createLimits({
    rateLimit: security.rateLimit,
    ssePerClient: security.ssePerClient,
    store: redis ? createRedis(redis, "limits") : null,
    onRefused: metrics.countRateLimited,
  });
  const gate = createGate({
    auth,
    limits,
    security,
    publicUrl: config.server.publicUrl,
    log,
    onRateLimited: () => metrics.countRateLimited("api"),
  });

  const cache =
    overrides.cache ??
    new ResponseCache({
      ...config.cache,
      ...(redis ? { shared: new RedisResponseStore(createRedis(redis, "cache"), config.cache) } : {}),
    });
  const { baseUrl, apiKey, wsUrl, timeoutMs } = config.upstream;
  const upstreamConfig = baseUrl && apiKey ? { baseUrl, apiKey, timeoutMs } : null;
  // One budget for every background read of the upstream (backfill, feeds, refreshes): server/upstream/budget.ts.
  const budget = new UpstreamBudget({
    ratePerSecond: config.upstream.backgroundRatePerSecond,
    limitPerSecond: config.upstream.rateLimitPerSecond,
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

  // The live bus: in memory, or on the shared Redis Stream with leadership of the upstream socket.
  const onSubscriberError = (error: unknown) => log.warn({ err: error }, "live: subscriber failed");
  const scale = redis && !overrides.bus ? createScaleNode({ url: redis, log, onSubscriberError }) : null;
  const bus = overrides.bus ?? scale?.bus ?? new MemoryBus({ onSubscriberError });
  const fetcher: CallFetcher = overrides.fetcher ?? {
    fetchCall: (callId, signal) => fetchLiveTranscript(upstream, callId, signal),
    async listCallsStartedSince(fromIso, signal, page) {
      const calls = await listCallsStartedSince(upstream, fromIso, { signal, page });
      return calls.map((c) => ({ callId: c.callId, symbol: c.symbol }));
    },
  };
  const live = createLive({
    bus,
    leadership: scale,
    upstream: wsUrl && apiKey ? { wsBaseUrl: wsUrl, apiKey } : null,
    fetcher,
    log,
    onSubscriberError,
    consumer: overrides.consumer,
  });
  // The metrics are one of the bus's subscribers; a sentence's lag needs its call's start, not its sentences.
  bus.subscribe((event) => metrics.observeLiveEvent(event, () => bus.call(event.data.callId)?.startTime));
  if (config.benchHooks) startBenchHooks(live, config.benchHooks.port);

  const dev = config.server.dev;
  const answers = new AnswerStore();
  const market = marketRoutes(upstream);
  const exposure = createExposureGuard({
    log,
    ...exposureSettings(security, config.server.publicUrl, users),
  });
  let uninstallExposure: (() => void) | null = null;
  const { database, archive } = createStorage({ database: config.database, log, live: bus, upstream });
  const liveCallDeps = {
    upstream,
    bus,
    mp3Readiness: (callId: string) => media.mp3Readiness(callId),
  };
  const call: Runtime["call"] = (callId, options = {}) =>
    getCallOrImported(archive, liveCallDeps, callId, options);
  const insights = createInsightsService({
    getCall: call,
    ...createCallInsightsSources(upstream, archive),
    log,
  });
  const searchGate = new SearchGate();
  // Alert firings and delivery logs are pruned daily (docs/storage.md, "Growth under control").
  const retention = createRetention({
    database,
    log,
    firingsDays: config.retention.alertDays,
    deliveriesDays: config.retention.deliveryLogDays,
  });
  const workspace =
    overrides.workspace ??
    createWorkspace({
      database,
      live: bus,
      isLeader: () => (scale ? scale.role() === "leader" : true),
      upstream,
      log,
      config: config.workspace,
      redis: redis
        ? { publisher: createRedis(redis, "alerts-pub"), subscriber: createRedis(redis, "alerts-sub") }
        : null,
      users: { current: () => users.read() },
    });

  // Open streams held by user: a removed user's are ended within a couple of seconds (docs/workspace.md, Users).
  const userStreams = createUserStreams({
    isActive: (user) => workspace.users.isActive(user),
    onRevoked: (user, streams) => log.info({ user, streams }, "users: a removed user's open streams ended"),
  });
  const door = chainDoors(
    createStreamDoor({ browsers: live.browsers, gate, limits, streams: userStreams, log }),
    createMarketDoor({ routes: Object.values(market), store: answers, gate, log, dev, disabled: dev }),
  );

  installCollectors(metrics, {
    browserStreams: () => live.browsers.size(),
    streamState: () => live.streamState(),
    breaker: () => ({ state: breakers.upstream.state, rejections: breakers.upstream.stats().rejections }),
    cache: () => cache.stats(),
    answers: () => answers.stats(),
    sequenced: () => live.consumer()?.sequencer.stats() ?? null,
  });
  installArchiveCollectors(metrics.registry, archive);

  let started = false;
  return {
    config,
    log,
    breakers,
    metrics,
    auth,
    limits,
    userStreams,
    gate,
    upstream,
    budget,
    media,
    live,
    call,
    insights,
    searchGate,
    door,
    market,
    answers,
    exposure,
    database,
    archive,
    workspace,
    start() {
      if (started) return;
      started = true;
      uninstallExposure ??= exposure.install();
      try {
        live.start();
      } catch (error) {
        // A bad environment must not keep the dashboard from serving REST pages; health reports the stream closed.
        log.error({ err: error }, "live: the upstream consumer failed to start");
      }
      archive.start();
      workspace.start();
      retention.start();
    },
    async stop() {
      started = false;
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
