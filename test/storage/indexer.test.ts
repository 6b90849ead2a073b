import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { searchQuerySchema } from "@/lib/schemas/search";
import { createArchive, type ArchiveSource } from "@/server/archive/indexer";
import type { ArchivableCall } from "@/server/archive/store";
import type { Database, DatabaseHandle } from "@/server/db/database";
import { MemoryBus } from "@/server/live/memory-bus";
import { drivers, quietLog } from "./drivers";
import { fixtureCall, fixtureId } from "./fixtures";
import { AppError } from "@/server/errors";

function handle(database: Database): DatabaseHandle {
  return { driver: database.driver, get: async () => database, close: async () => {} };
}

/** An upstream holding `count` completed calls, newest first, counting the full reads it serves. */
function fakeSource(count: number) {
  const calls = new Map<string, ArchivableCall>();
  for (let i = 0; i < count; i += 1) {
    const start = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString();
    calls.set(
      fixtureId(100 + i),
      fixtureCall({ callId: fixtureId(100 + i), symbol: i % 2 ? "NWSC" : "HLBR", startTime: start }),
    );
  }
  const ordered = [...calls.values()].reverse();
  const source: ArchiveSource & { reads: string[]; calls: Map<string, ArchivableCall> } = {
    reads: [],
    calls,
    async listCompleted(page, pageSize) {
      const slice = ordered.slice(page * pageSize, (page + 1) * pageSize);
      return { calls: slice.map((c) => ({ callId: c.callId, status: c.status })), total: ordered.length };
    },
    async getCall(callId) {
      source.reads.push(callId);
      return calls.get(callId) ?? null;
    },
  };
  return source;
}

async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const driver of drivers()) {
  describe(`archive indexer on ${driver.name}`, () => {
    beforeAll(() => driver.setup(), 60_000);
    afterAll(() => driver.teardown());

    it("backfills every listed call once, and a restart reads none of them again", async () => {
      const opened = await driver.open();
      const source = fakeSource(230);
      const archive = createArchive({
        database: handle(opened.database),
        log: quietLog,
        source,
        live: new MemoryBus(),
        flushMs: 10,
      });
      archive.start();
      // The moment finishedAt appears, the archive's size already counts every stored call.
      await until(async () => (await archive.progress()).backfill.finishedAt !== null);
      expect((await archive.progress()).archived.calls).toBe(230);
      await until(async () => (await archive.progress()).state === "live");
      await archive.backfilled();
      const progress = await archive.progress();
      expect(progress.isIndexer).toBe(true);
      expect(progress.backfill).toMatchObject({ total: 230, done: 230, stored: 230, failed: 0 });
      expect(source.reads).toHaveLength(230);
      await archive.stop();
      if (driver.name === "pglite") await opened.database.close();

      const again = await opened.again();
      const restarted = createArchive({
        database: handle(again),
        log: quietLog,
        source,
        live: new MemoryBus(),
      });
      source.reads = [];
      restarted.start();
      await until(async () => (await restarted.progress()).state === "live");
      expect(source.reads).toEqual([]);
      expect((await restarted.progress()).backfill).toMatchObject({ done: 230, stored: 0 });
      const found = await restarted.search(searchQuerySchema.parse({ q: "welcome", tickers: "NWSC" }));
      expect(found.totalCalls).toBe(115);
      await restarted.stop();
    }, 120_000);

    it("tries again the calls whose read was refused (rate limit), so none is left out until a restart", async () => {
      const { database } = await driver.open();
      const source = fakeSource(30);
      const read = source.getCall.bind(source);
      const refused = new Set<string>();
      source.getCall = async (callId, signal) => {
        // Every third call is refused on its first read, as a service over its rate limit answers.
        if (Number(callId.slice(-3)) % 3 === 0 && !refused.has(callId)) {
          refused.add(callId);
          throw new AppError(
            "upstream_rate_limited",
            "The market-data service is busy; please retry shortly.",
          );
        }
        return read(callId, signal);
      };
      const archive = createArchive({
        database: handle(database),
        log: quietLog,
        source,
        live: new MemoryBus(),
        retryPauseMs: 20,
      });
      archive.start();
      await until(async () => (await archive.progress()).state === "live");
      expect(refused.size).toBeGreaterThan(5);
      const progress = await archive.progress();
      expect(progress.backfill).toMatchObject({ total: 30, done: 30, failed: 0 });
      expect(progress.archived.calls).toBe(30);
      await archive.stop();
    }, 60_000);

    it("bounds the backfill to the newest calls", async () => {
      const { database } = await driver.open();
      const source = fakeSource(40);
      const archive = createArchive({
        database: handle(database),
        log: quietLog,
        source,
        live: new MemoryBus(),
        maxBackfillCalls: 25,
      });
      archive.start();
      await until(async () => (await archive.progress()).state === "live");
      expect(source.reads).toHaveLength(25);
      expect(source.reads).toContain(fixtureId(139));
      expect(source.reads).not.toContain(fixtureId(100));
      await archive.stop();
    }, 60_000);

    it("indexes live sentences as they are spoken, then stores the call whole when it completes", async () => {
      const { database } = await driver.open();
      const source = fakeSource(0);
      const bus = new MemoryBus();
      const archive = createArchive({
        database: handle(database),
        log: quietLog,
        source,
        live: bus,
        flushMs: 10,
      });
      archive.start();
      await until(async () => (await archive.progress()).state === "live");
      const callId = fixtureId(900);
      const startTime = "2026-11-24T12:00:00.000Z";
      bus.publish({
        event: "call.started",
        symbol: "ABCD",
        data: { callId, symbol: "ABCD", name: "Abcd Inc.", startTime },
      });
      const live = fixtureCall({
        callId,
        symbol: "ABCD",
        startTime,
        status: "live",
        question: "What about the zeppelin program?",
      });
      for (const s of live.segments) {
        bus.publish({
          event: "sentence",
          symbol: "ABCD",
          data: {
            callId,
            sequence: s.sequence,
            text: s.text,
            speaker: s.speaker,
            startMs: s.startMs,
            endMs: s.endMs,
            confidence: 0.9,
            sentiment: 0,
          },
        });
      }
      const search = () => archive.search(searchQuerySchema.parse({ q: "zeppelin" }));
      await until(async () => (await search()).totalHits === 1);
      const hit = (await search()).calls[0]!;
      expect(hit).toMatchObject({ callId, status: "live" });
      // Inferred live: the label first heard after the operator introduced a question is an analyst's, in Q&A.
      expect(hit.hits[0]).toMatchObject({
        speaker: "SPEAKER_3",
        role: "analyst",
        section: "qa",
        startMs: 24_000,
      });
      expect((await archive.progress()).live.sentences).toBe(live.segments.length);

      const enriched = fixtureCall({
        callId,
        symbol: "ABCD",
        startTime,
        question: "What about the zeppelin program?",
      });
      source.calls.set(callId, enriched);
      bus.publish({ event: "call.status", symbol: "ABCD", data: { callId, status: "enriched" } });
      await until(async () => (await search()).calls[0]?.status === "enriched");
      expect((await search()).calls[0]!.hits[0]).toMatchObject({
        speakerName: "Lucia Nakamura",
        role: "analyst",
      });
      await archive.stop();
    }, 60_000);

    it("lets one instance index while the others serve search", async () => {
      if (driver.name !== "postgres") return; // one process owns a PGlite folder: there is no second instance
      const opened = await driver.open();
      const second = await opened.again();
      const source = fakeSource(5);
      const a = createArchive({
        database: handle(opened.database),
        log: quietLog,
        source,
        live: new MemoryBus(),
        leaderRetryMs: 50,
      });
      const b = createArchive({
        database: handle(second),
        log: quietLog,
        source,
        live: new MemoryBus(),
        leaderRetryMs: 50,
      });
      a.start();
      await until(async () => (await a.progress()).state === "live");
      b.start();
      await until(async () => (await b.progress()).state === "follower");
      expect(source.reads).toHaveLength(5);
      expect((await b.search(searchQuerySchema.parse({ q: "welcome" }))).totalCalls).toBe(5);
      const onTakeover = vi.fn();
      await a.stop();
      await until(async () => (await b.progress()).isIndexer).then(onTakeover);
      expect(onTakeover).toHaveBeenCalled();
      await b.stop();
    }, 60_000);
  });
}
