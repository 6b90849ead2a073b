import "server-only";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Config } from "../config";
import type { DatabaseHandle } from "../db/database";
import type { LiveBus } from "../live/bus";
import { PromiseMemo } from "../insights/memo";
import { createUpstreamInsightsSources } from "../insights/upstream-sources";
import { getUpstreamCall } from "../upstream/calls";
import { fetchEarningsRows } from "../upstream/calendars";
import { inBackground } from "../upstream/budget";
import type { Upstream } from "../upstream/client";
import { createMemoryBus, createRedisBus, type AlertBus } from "../alerts/bus";
import type { EarningsActuals } from "../alerts/evaluator";
import { createGuidanceDescriber } from "../alerts/guidance-detail";
import { ensureVapidKeys, PushSender, vapidKeysFrom } from "../alerts/push";
import { createPushWorkerPool } from "../alerts/push-worker-pool";
import { AlertService } from "../alerts/service";
import { AlertStore } from "../alerts/store";
import { WebhookSender } from "../alerts/webhook";
import { parseWebhookAllowlist, type WebhookAllowlist } from "../alerts/webhook-target";
import { FeedTokenRepository } from "./feeds";
import {
  createUserAccess,
  everyoneActive,
  ofActiveUsers,
  type UserAccess,
  type UserKeys,
} from "./user-access";
import { NotesRepository } from "./notes";
import { WatchlistCalendars } from "./watchlist-calendars";
import { WatchlistRepository } from "./watchlists";

/**
 * The workspace's parts (watchlists, alerts, notes, feeds) built from their collaborators, for the composition root
 * (server/runtime). Repositories open on first use of the database, so pages that do not need it never wait for it.
 *
 * Configuration (server/config.ts, `workspace`): `CALLROOM_WEBHOOK_ALLOWLIST` (hosts a webhook may reach although
 * private), `CALLROOM_PUSH_ALLOWLIST` (push endpoints beside the browsers' push services), `CALLROOM_PUBLIC_URL`
 * (absolute links in webhooks and the calendar feed; without it webhooks carry no link and the feed uses the
 * request's origin), `CALLROOM_ALERTS_CONTACT` (the VAPID contact), `CALLROOM_VAPID_PUBLIC_KEY` and
 * `CALLROOM_VAPID_PRIVATE_KEY` (the key pair, else generated and stored), `CALLROOM_NOTES_PER_USER`.
 */

export interface WorkspaceDeps {
  database: DatabaseHandle;
  live: LiveBus;
  /** True on the instance that holds the upstream socket (alone: always). */
  isLeader: () => boolean;
  upstream: Upstream | null;
  log: Logger;
  config: Config["workspace"];
  /** With REDIS_URL: two connections for the alert bus (publishing, listening). */
  redis?: { publisher: Redis; subscriber: Redis } | null;
  /** The users file's users; without it every user is active and nothing is revoked (tests). */
  users?: UserKeys;
}

export interface Repositories {
  watchlists: WatchlistRepository;
  alerts: AlertStore;
  notes: NotesRepository;
  feeds: FeedTokenRepository;
}

export interface Workspace {
  repositories(): Promise<Repositories>;
  bus: AlertBus;
  service: AlertService;
  allowlist: WebhookAllowlist;
  /** `CALLROOM_PUSH_ALLOWLIST`: push endpoints accepted beside the browsers' push services. */
  pushAllowlist: WebhookAllowlist;
  publicBaseUrl: string | null;
  /** The VAPID public key browsers subscribe with (generated and stored at first use). */
  pushPublicKey(): Promise<string>;
  /** Watchlist calendars and the calendar feed, merged per user and kept briefly (watchlist-calendars.ts). */
  calendars: WatchlistCalendars;
  /** Who may still act: a removed user's feed, push subscriptions and rules are revoked (user-access.ts). */
  users: UserAccess;
  /** Tells the engine (on whichever instance leads) that rules or watchlists changed. */
  rulesChanged(): void;
  start(): void;
  stop(): Promise<void>;
}

const RESULTS_CURSOR = "results-cursor";
const RESULTS_PAGE_SIZE = 1_000;
/** 50,000 changed records in one poll: far beyond a day's calendar; bounds a runaway answer. */
const RESULTS_MAX_PAGES = 50;

export function createWorkspace(deps: WorkspaceDeps): Workspace {
  const { log } = deps;
  const allowlist = parseWebhookAllowlist(deps.config.webhookAllowlist);
  const pushAllowlist = parseWebhookAllowlist(deps.config.pushAllowlist);
  const { publicBaseUrl, alertsContact: contact } = deps.config;

  let repos: Promise<Repositories> | null = null;
  const repositories = () =>
    (repos ??= deps.database.get().then(
      ({ db }) => ({
        watchlists: new WatchlistRepository(db),
        alerts: new AlertStore(db),
        notes: new NotesRepository(db, deps.config.notesPerUser),
        feeds: new FeedTokenRepository(db),
      }),
      (error: unknown) => {
        repos = null;
        throw error;
      },
    ));

  const bus = deps.redis
    ? createRedisBus(deps.redis.publisher, deps.redis.subscriber, (error) =>
        log.warn({ err: error }, "alerts: bus error"),
      )
    : createMemoryBus();

  const webhooks = new WebhookSender({
    allowlist,
    log: { record: async (attempt) => (await repositories()).alerts.deliveryLog.record(attempt) },
  });

  const pushWorkers = createPushWorkerPool();
  let push: Promise<PushSender> | null = null;
  const pushSender = () =>
    (push ??= Promise.resolve()
      .then(() => {
        // The configured pair (its private key is one of the config's secrets, never logged), else the stored one.
        const configured = vapidKeysFrom(deps.config.vapid);
        return configured ?? repositories().then(({ alerts }) => ensureVapidKeys(alerts));
      })
      .then(
        (keys) =>
          new PushSender({
            keys,
            subject: contact,
            allowlist: pushAllowlist,
            encrypt: pushWorkers.encrypt,
            log: { record: async (attempt) => (await repositories()).alerts.deliveryLog.record(attempt) },
            onGone: async (id) => (await repositories()).alerts.deletePushSubscription(id),
          }),
        (error: unknown) => {
          push = null;
          log.error({ err: error }, "alerts: Web Push is unavailable");
          throw error;
        },
      ));

  const users = deps.users
    ? createUserAccess({
        users: deps.users,
        db: async () => (await deps.database.get()).db,
        rulesChanged: () => bus.publish({ type: "rules-changed" }),
        log,
      })
    : everyoneActive;

  const upstream = deps.upstream;
  const service = new AlertService({
    describeGuidance: upstream ? guidanceDescriber(upstream) : undefined,
    live: deps.live,
    isLeader: deps.isLeader,
    bus,
    webhooks,
    push: () => pushSender().catch(() => null),
    pushSubscriptionsOf: async (userIds) =>
      (await repositories()).alerts.pushSubscriptionsOfUsers(userIds.filter((u) => users.isActive(u))),
    source: {
      async loadRules() {
        const { alerts, watchlists } = await repositories();
        const compiled = await alerts.compiledRules(await watchlists.tickersById());
        // A removed user's rules are disabled: kept, with their history, but never evaluated.
        const rules = ofActiveUsers(users, compiled.rules, (r) => r.userId);
        const kept = new Set(rules.map((r) => r.id));
        return { rules, webhooks: new Map([...compiled.webhooks].filter(([id]) => kept.has(id))) };
      },
      loadMutes: async () => (await repositories()).alerts.activeMutes(),
      endMutesOf: async (callId) => (await repositories()).alerts.endMutesOf(callId),
      recordFirings: async (candidates) => (await repositories()).alerts.recordFirings(candidates),
      loadResultsCursor: async () => {
        const value = await (await repositories()).alerts.getState(RESULTS_CURSOR);
        return typeof value === "number" ? value : null;
      },
      saveResultsCursor: async (seconds) => (await repositories()).alerts.setState(RESULTS_CURSOR, seconds),
    },
    earningsUpdatedSince: upstream
      ? async (since): Promise<EarningsActuals[]> => {
          // A periodic poll nobody waits for: the background lane (server/upstream/budget.ts). Every page: after a
          // while without a leader, more than one page of records may have changed.
          const rows: Awaited<ReturnType<typeof fetchEarningsRows>> = [];
          for (let page = 0; page < RESULTS_MAX_PAGES; page++) {
            const batch = await inBackground(() =>
              fetchEarningsRows(upstream, {
                "parameters[updated]": since,
                pagesize: RESULTS_PAGE_SIZE,
                page,
              }),
            );
            rows.push(...batch);
            if (batch.length < RESULTS_PAGE_SIZE) break;
          }
          return rows.map((r) => ({
            id: r.id,
            symbol: r.ticker,
            name: r.name,
            period: r.period,
            periodYear: r.periodYear,
            eps: r.eps,
            epsEst: r.epsEst,
            revenue: r.revenue,
            revenueEst: r.revenueEst,
          }));
        }
      : null,
    log,
    publicBaseUrl,
    // Rules reload when something a rule uses changes (the bus says so); this is only the safety net for a message
    // lost while Redis reconnected.
    reloadMs: 5 * 60_000,
  });

  return {
    repositories,
    bus,
    service,
    allowlist,
    pushAllowlist,
    publicBaseUrl,
    users,
    calendars: new WatchlistCalendars(),
    pushPublicKey: async () => (await pushSender()).publicKey,
    rulesChanged() {
      bus.publish({ type: "rules-changed" });
    },
    start() {
      users.start();
      service.start();
    },
    async stop() {
      users.stop();
      await service.stop();
      await pushWorkers.close();
      await bus.close();
    },
  };
}

/** A call's date and quarter do not change while it is live; an hour bounds memory, not freshness. */
const CALL_REF_TTL_MS = 60 * 60_000;

/** Guidance alerts against the insights' consensus (the same calendar records the call room compares with). */
function guidanceDescriber(upstream: Upstream) {
  const { consensus } = createUpstreamInsightsSources(upstream);
  const refs = new PromiseMemo<Awaited<ReturnType<typeof getUpstreamCall>>["value"]>(CALL_REF_TTL_MS);
  return createGuidanceDescriber({
    async consensusFor(callId) {
      const call = await refs.get(callId, async () => (await getUpstreamCall(upstream, callId)).value);
      return call ? consensus.forCall(call) : null;
    },
  });
}
