import "server-only";
import type { Logger } from "pino";
import type { Call, CallListItem } from "@/lib/schemas/calls";
import type { SearchQuery, SearchResult } from "@/lib/schemas/search";
import { AppError } from "../errors";
import type { LiveBus, LiveEvent } from "../live/bus";
import type { AdvisoryLease, Database, DatabaseHandle } from "../db/database";
import { SentenceClassifier } from "./classify";
import { searchArchive } from "./search";
import type { ImportedCall } from "./import/parse-file";
import { listImportedCalls, readImportedCall, type ImportedListQuery } from "./read-calls";
import { ArchiveStore, type ArchivableCall, type ArchiveCounts, type LiveSentence } from "./store";
import type { ClassifiedSentence } from "./classify";
import { isLaterStatus } from "@/lib/live/call-conversions";

/**
 * The archive indexer: one per deployment (a Postgres advisory lock elects it; the others serve search only).
 * On taking the lock it backfills every completed call the upstream lists (paged, bounded, skipping what is already
 * stored as complete, so a restart resumes instead of re-ingesting), catches up on the calls live right now from the
 * live bus's call states, then follows the bus: sentences are indexed as they are spoken (batched), and a call is
 * stored whole again when it completes and when it is enriched.
 */

export interface ArchiveSource {
  /** One page (0-based) of completed calls, newest first. */
  listCompleted(
    page: number,
    pageSize: number,
    signal?: AbortSignal,
  ): Promise<{ calls: { callId: string; status: ArchivableCall["status"] }[]; total: number }>;
  /** The call as the upstream has it now. */
  getCall(callId: string, signal?: AbortSignal): Promise<ArchivableCall | null>;
}

export interface ArchiveOptions {
  database: DatabaseHandle;
  log: Pick<Logger, "info" | "warn" | "error" | "debug">;
  source: ArchiveSource;
  live: Pick<LiveBus, "subscribe" | "calls" | "call">;
  /** Most completed calls one backfill reads (newest first). */
  maxBackfillCalls?: number;
  /** Calls fetched at once during the backfill. */
  concurrency?: number;
  /** How often an instance that is not the indexer tries to become it. */
  leaderRetryMs?: number;
  /** How long live sentences gather before one write. */
  flushMs?: number;
  /** Pause before the first retry of calls whose read failed during the backfill (then twice, three times that). */
  retryPauseMs?: number;
  /** How often the archive's size is recounted in the background (besides after this instance's own writes). */
  countEveryMs?: number;
}

/** Rounds of retries for calls whose read failed during a backfill, one call at a time, with a growing pause. */
const RETRY_ROUNDS = 3;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export type ArchiveState = "idle" | "follower" | "backfilling" | "live" | "error" | "stopped";

export interface ArchiveProgress {
  state: ArchiveState;
  driver: "pglite" | "postgres";
  isIndexer: boolean;
  backfill: {
    /** Completed calls the upstream listed (bounded by `maxBackfillCalls`); null until the first page. */
    total: number | null;
    done: number;
    stored: number;
    failed: number;
    startedAt: string | null;
    finishedAt: string | null;
  };
  live: { sentences: number; callsStored: number };
  archived: ArchiveCounts;
  lastError: string | null;
}

export interface Archive {
  start(): void;
  stop(): Promise<void>;
  /**
   * Where the indexer is, with the archive's size: from memory, never waiting on the database (health and metrics
   * read it on every request). The size is recounted in the background after this instance writes, and every
   * `countEveryMs` for what other instances or an import wrote.
   */
  progress(): ArchiveProgress;
  search(query: SearchQuery): Promise<SearchResult>;
  /**
   * Stores imported calls (`npm run import` through the running app): each once per id, replaced when its file
   * changed. The search index is compacted after every 20,000 imported sentences and once the imports pause.
   */
  importCalls(calls: readonly ImportedCall[]): Promise<{ callId: string; stored: boolean }[]>;
  /** An imported call with its transcript (server/archive/read-calls.ts); null when the archive has none. */
  importedCall(callId: string): Promise<Call | null>;
  /** Imported calls, newest first. */
  listImported(query: ImportedListQuery): Promise<{ items: CallListItem[]; total: number }>;
  /** Resolves when the running backfill (if any) has finished: tests and the benchmark wait on it. */
  backfilled(): Promise<void>;
}

/** Any constant unlikely to collide with another application's advisory locks on a shared server. */
const INDEXER_LOCK_KEY = 727_160_002;
const PAGE_SIZE = 100;
/** Live sentences between two compactions of the search index (store.ts `compactSearchIndex`). */
const COMPACT_EVERY_SENTENCES = 500;
/** Imported sentences between two compactions, and the pause after the last import that compacts what is left. */
const IMPORT_COMPACT_EVERY_SENTENCES = 20_000;
const IMPORT_COMPACT_AFTER_MS = 2_000;
/** Imported calls stored in one transaction through the app (about 4,500 sentences of the corpus). */
const IMPORT_CALLS_PER_TRANSACTION = 10;

export function createArchive(options: ArchiveOptions): Archive {
  const log = options.log;
  const maxCalls = options.maxBackfillCalls ?? 5_000;
  const concurrency = options.concurrency ?? 6;
  const leaderRetryMs = options.leaderRetryMs ?? 15_000;
  const retryPauseMs = options.retryPauseMs ?? 2_000;
  const flushMs = options.flushMs ?? 250;
  const countEveryMs = options.countEveryMs ?? 30_000;

  const progress: ArchiveProgress = {
    state: "idle",
    driver: options.database.driver,
    isIndexer: false,
    backfill: { total: null, done: 0, stored: 0, failed: 0, startedAt: null, finishedAt: null },
    live: { sentences: 0, callsStored: 0 },
    archived: { calls: 0, segments: 0 },
    lastError: null,
  };

  let running = false;
  let lease: AdvisoryLease | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let unsubscribe: (() => void) | null = null;
  let abort = new AbortController();
  let backfillDone: Promise<void> = Promise.resolve();
  let store: ArchiveStore | null = null;
  const classifiers = new Map<string, SentenceClassifier>();
  let pending: (LiveSentence & ClassifiedSentence)[] = [];
  let sinceCompaction = 0;
  /** Live writes in order, one at a time (sentences of a call before its completion). */
  let liveChain: Promise<unknown> = Promise.resolve();

  const fail = (error: unknown, what: string) => {
    progress.lastError = `${what}: ${error instanceof Error ? error.message : String(error)}`;
    log.warn({ err: error }, `archive: ${what} failed`);
  };

  let importedSinceCompaction = 0;
  let importedSinceVacuum = false;
  let importCompactTimer: ReturnType<typeof setTimeout> | null = null;
  let counting: Promise<void> | null = null;
  let countTimer: ReturnType<typeof setTimeout> | null = null;
  let countInterval: ReturnType<typeof setInterval> | null = null;

  /** Recounts the archive (one at a time: a call while one runs waits for it and then counts again). */
  async function refreshCounts(): Promise<void> {
    const s = store;
    if (!s) return;
    while (counting) await counting.catch(() => {});
    counting = s.counts().then((counts) => void (progress.archived = counts));
    try {
      await counting;
    } finally {
      counting = null;
    }
  }

  /** A recount soon after a write: several writes close together cost one. */
  function countSoon(): void {
    if (countTimer || !running) return;
    countTimer = setTimeout(() => {
      countTimer = null;
      refreshCounts().catch((error: unknown) => log.debug({ err: error }, "archive: recount failed"));
    }, 1_000);
    countTimer.unref?.();
  }

  async function tryLead(): Promise<void> {
    retryTimer = null;
    if (!running) return;
    let database: Database;
    try {
      database = await options.database.get();
      lease = await database.tryAdvisoryLock(INDEXER_LOCK_KEY);
    } catch (error) {
      progress.state = "error";
      fail(error, "opening the database");
      scheduleRetry();
      return;
    }
    if (!running) {
      await lease?.release();
      lease = null;
      return;
    }
    store = new ArchiveStore(database.db);
    await refreshCounts().catch(() => {});
    countInterval ??= setInterval(countSoon, countEveryMs);
    countInterval.unref?.();
    if (!lease) {
      progress.state = "follower";
      scheduleRetry();
      return;
    }
    progress.isIndexer = true;
    log.info({ driver: database.driver }, "archive: this instance indexes the archive");
    const held = lease;
    void held.lost.then(() => {
      if (lease !== held || !running) return;
      log.warn("archive: lost the indexer lock (database connection dropped); retrying");
      stepDown();
      scheduleRetry();
    });
    followLive(store);
    backfillDone = runBackfill(store, abort.signal);
  }

  function scheduleRetry(): void {
    if (!running || retryTimer) return;
    retryTimer = setTimeout(() => void tryLead(), leaderRetryMs);
    retryTimer.unref?.();
  }

  function stepDown(): void {
    abort.abort();
    abort = new AbortController();
    unsubscribe?.();
    unsubscribe = null;
    lease = null;
    progress.isIndexer = false;
    progress.state = running ? "follower" : "stopped";
    classifiers.clear();
    pending = [];
  }

  /* ---------------------------------------------------------------- backfill */

  async function runBackfill(s: ArchiveStore, signal: AbortSignal): Promise<void> {
    progress.state = "backfilling";
    const started = Date.now();
    progress.backfill = {
      total: null,
      done: 0,
      stored: 0,
      failed: 0,
      startedAt: new Date().toISOString(),
      finishedAt: null,
    };
    let lastLog = 0;
    const report = (force = false) => {
      const { done, total, stored, failed } = progress.backfill;
      if (!force && Date.now() - lastLog < 2_000) return;
      lastLog = Date.now();
      const pct = total ? Math.floor((done / total) * 100) : 0;
      log.info(
        { done, total, stored, failed },
        `archive: backfill ${done}/${total ?? "?"} calls (${pct}%), ${stored} new or updated, ${failed} failed`,
      );
    };
    const retry: string[] = [];
    /** Stores one call; false when its read failed (counted as failed only on the last try). */
    const backfillOne = async (callId: string, lastTry = false): Promise<boolean> => {
      try {
        const call = await options.source.getCall(callId, signal);
        if (call && (await s.storeCall(call)) === "stored") {
          progress.backfill.stored += 1;
          countSoon();
        }
        return true;
      } catch (error) {
        if (signal.aborted) return true;
        if (lastTry) {
          progress.backfill.failed += 1;
          fail(error, `backfilling call ${callId}`);
        }
        return false;
      }
    };
    try {
      await resumeStaleLiveCalls(s, signal);
      for (let page = 0; page * PAGE_SIZE < maxCalls && !signal.aborted; page += 1) {
        const { calls, total } = await options.source.listCompleted(page, PAGE_SIZE, signal);
        progress.backfill.total = Math.min(total, maxCalls);
        const bounded = calls.slice(0, Math.max(0, maxCalls - page * PAGE_SIZE));
        if (bounded.length === 0) break;
        const known = await s.known(bounded.map((c) => c.callId));
        const needed = bounded.filter((c) => {
          const k = known.get(c.callId);
          return !k || isLaterStatus(c.status, k.status);
        });
        progress.backfill.done += bounded.length - needed.length;
        await mapConcurrent(needed, concurrency, async (c) => {
          if (signal.aborted) return;
          if (await backfillOne(c.callId)) progress.backfill.done += 1;
          else retry.push(c.callId);
          report();
        });
        if (calls.length < PAGE_SIZE) break;
      }
      // A read refused on the way (the service's rate limit, a passing 5xx) is tried again, one call at a time and
      // after a pause, instead of leaving the call out of the archive until the next restart.
      for (let round = 1; round <= RETRY_ROUNDS && retry.length > 0 && !signal.aborted; round += 1) {
        await sleep(retryPauseMs * round, signal);
        const again = retry.splice(0);
        await mapConcurrent(again, 1, async (callId) => {
          if (signal.aborted) return;
          const last = round === RETRY_ROUNDS;
          if (await backfillOne(callId, last)) progress.backfill.done += 1;
          else if (!last) retry.push(callId);
          else progress.backfill.done += 1;
          report();
        });
      }
      if (signal.aborted) return;
      // Counted before finishedAt appears: whoever reads /api/health at that moment sees every stored call (the
      // background recount would lag a second or more behind it).
      await refreshCounts();
      progress.backfill.finishedAt = new Date().toISOString();
      progress.backfill.total = progress.backfill.done;
      await s.writeState("backfill", {
        finishedAt: progress.backfill.finishedAt,
        calls: progress.backfill.done,
      });
      if (progress.backfill.stored > 0) await s.compactSearchIndex({ vacuum: true });
      report(true);
      log.info(
        { ms: Date.now() - started, calls: progress.archived.calls, sentences: progress.archived.segments },
        `archive: backfill finished in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      progress.state = "live";
    } catch (error) {
      if (signal.aborted) return;
      progress.state = "error";
      fail(error, "backfill");
      // The lock stays ours; the next attempt resumes (stored calls are skipped).
      setTimeout(() => {
        if (running && lease && !signal.aborted) backfillDone = runBackfill(s, signal);
      }, leaderRetryMs).unref?.();
    }
  }

  /** Calls stored as live whose end nobody saw (the server was down): store them as the upstream has them now. */
  async function resumeStaleLiveCalls(s: ArchiveStore, signal: AbortSignal): Promise<void> {
    const liveNow = new Set(
      options.live
        .calls()
        .filter((c) => c.status === "live")
        .map((c) => c.callId),
    );
    for (const callId of await s.liveCallIds()) {
      if (liveNow.has(callId) || signal.aborted) continue;
      try {
        const call = await options.source.getCall(callId, signal);
        if (call && call.status !== "live") await s.storeCall(call);
      } catch (error) {
        fail(error, `refreshing call ${callId}`);
      }
    }
  }

  /* ---------------------------------------------------------------- live */

  function followLive(s: ArchiveStore): void {
    // Calls already live: what was said before this instance started indexing comes from the live bus.
    for (const snap of options.live.calls()) {
      if (snap.status !== "live") continue;
      enqueue(async () => {
        await s.startLiveCall(snap);
        const classifier = await classifierFor(s, snap.callId);
        const known = await s.known([snap.callId]);
        const skip = known.get(snap.callId)?.segmentCount ?? 0;
        for (const sentence of snap.sentences.slice(skip)) {
          pending.push({
            ...sentence,
            sentiment: sentence.sentiment ?? null,
            ...classifier.next({ ...sentence, speakerName: null }),
          });
        }
        await flush(s);
      });
    }
    unsubscribe = options.live.subscribe((event) => onEvent(s, event));
  }

  function enqueue(task: () => Promise<unknown>): void {
    liveChain = liveChain.then(task).catch((error: unknown) => fail(error, "live indexing"));
  }

  async function classifierFor(s: ArchiveStore, callId: string): Promise<SentenceClassifier> {
    let classifier = classifiers.get(callId);
    if (!classifier) {
      classifier = new SentenceClassifier();
      // After a restart mid-call, replay what is stored so roles and the Q&A switch carry on correctly.
      for (const prior of await s.liveSentences(callId)) classifier.next(prior);
      classifiers.set(callId, classifier);
    }
    return classifier;
  }

  function onEvent(s: ArchiveStore, event: LiveEvent): void {
    if (event.event === "call.started") {
      const data = event.data;
      enqueue(() => s.startLiveCall(data));
    } else if (event.event === "sentence") {
      const data = event.data;
      enqueue(async () => {
        if (!classifiers.has(data.callId)) {
          const call = options.live.call(data.callId);
          if (call) await s.startLiveCall(call);
        }
        const classifier = await classifierFor(s, data.callId);
        pending.push({
          callId: data.callId,
          sequence: data.sequence,
          speaker: data.speaker,
          startMs: data.startMs,
          endMs: data.endMs,
          text: data.text,
          sentiment: data.sentiment ?? null,
          ...classifier.next({ speaker: data.speaker, speakerName: null, text: data.text }),
        });
        scheduleFlush(s);
      });
    } else if (event.event === "call.status" && event.data.status !== "live") {
      const callId = event.data.callId;
      enqueue(async () => {
        await flush(s);
        const call = await options.source.getCall(callId, abort.signal);
        if (call && (await s.storeCall(call)) === "stored") {
          progress.live.callsStored += 1;
          countSoon();
        }
        if (call?.status === "enriched") classifiers.delete(callId);
      });
    }
  }

  function scheduleFlush(s: ArchiveStore): void {
    if (flushTimer) return;
    flushTimer = setTimeout(() => {
      flushTimer = null;
      enqueue(() => flush(s));
    }, flushMs);
    flushTimer.unref?.();
  }

  async function flush(s: ArchiveStore): Promise<void> {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    const added = await s.appendLiveSentences(batch);
    progress.live.sentences += added;
    if (added > 0) countSoon();
    sinceCompaction += added;
    if (sinceCompaction >= COMPACT_EVERY_SENTENCES) {
      sinceCompaction = 0;
      await s.compactSearchIndex();
    }
  }

  async function openForReading(): Promise<Database> {
    try {
      return await options.database.get();
    } catch (error) {
      throw new AppError("archive_unavailable", "The transcript archive is not available right now.", {
        cause: error,
      });
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      void tryLead();
    },
    async stop() {
      running = false;
      if (retryTimer) clearTimeout(retryTimer);
      if (flushTimer) clearTimeout(flushTimer);
      if (countTimer) clearTimeout(countTimer);
      if (countInterval) clearInterval(countInterval);
      retryTimer = flushTimer = countTimer = countInterval = null;
      const held = lease;
      stepDown();
      await liveChain.catch(() => {});
      await backfillDone.catch(() => {});
      await held?.release().catch(() => {});
      progress.state = "stopped";
    },
    progress: () => structuredClone(progress),
    async search(query) {
      return searchArchive((await openForReading()).db, query);
    },
    async importedCall(callId) {
      return readImportedCall((await openForReading()).db, callId);
    },
    async listImported(query) {
      return listImportedCalls((await openForReading()).db, query);
    },
    backfilled: () => backfillDone,
    async importCalls(calls) {
      const database = await options.database.get();
      const s = new ArchiveStore(database.db);
      const results: { callId: string; stored: boolean }[] = [];
      // A few calls a transaction, their word counts written at its end (store.ts, storeCalls): a live sentence or
      // a search waits at most for one group, about a second at library scale.
      for (let i = 0; i < calls.length; i += IMPORT_CALLS_PER_TRANSACTION) {
        const group = calls.slice(i, i + IMPORT_CALLS_PER_TRANSACTION);
        const outcome = await s.storeCalls(group);
        group.forEach(({ call }, j) => {
          const stored = outcome[j] === "stored";
          results.push({ callId: call.callId.toLowerCase(), stored });
          if (stored) {
            importedSinceCompaction += call.segments.length;
            importedSinceVacuum = true;
          }
        });
      }
      if (results.some((r) => r.stored)) countSoon();
      if (importedSinceCompaction >= IMPORT_COMPACT_EVERY_SENTENCES) {
        importedSinceCompaction = 0;
        await s.compactSearchIndex();
      }
      if (importCompactTimer) clearTimeout(importCompactTimer);
      importCompactTimer = setTimeout(() => {
        importCompactTimer = null;
        if (!importedSinceVacuum) return;
        importedSinceVacuum = false;
        importedSinceCompaction = 0;
        s.compactSearchIndex({ vacuum: true }).catch((error: unknown) =>
          fail(error, "compacting after an import"),
        );
      }, IMPORT_COMPACT_AFTER_MS);
      importCompactTimer.unref?.();
      return results;
    },
  };
}

async function mapConcurrent<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await fn(item);
    }
  });
  await Promise.all(workers);
}
