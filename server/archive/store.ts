import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Call } from "@/lib/schemas/calls";
import { queryRows, type Db } from "../db/database";
import { archiveCalls, archiveSegments, archiveState } from "../db/schema/archive";
import { classifySentences, type ClassifiedSentence } from "./classify";
import { isLaterStatus } from "@/lib/live/call-conversions";

/**
 * Writes of the transcript archive. A call is stored once per id; storing it again replaces it in one transaction
 * when it changed (live → completed → enriched brings speaker names, sentiment, summary), and is a no-op when it
 * did not, so a backfill that runs twice costs one read per call and nothing else.
 */

export type ArchivableCall = Omit<Call, "streamCursor">;
type Status = ArchivableCall["status"];

/** Markers of `ts_headline` (search.ts): removed from stored text so a transcript cannot forge a highlight. */
const MARKERS = /[\u0002\u0003]/g;

export function quarterOf(period: string | null, year: number | null): string | null {
  const m = /^Q([1-4])$/i.exec(period?.trim() ?? "");
  return m && year !== null ? `${year}-Q${m[1]}` : null;
}

export interface LiveSentence {
  callId: string;
  sequence: number;
  speaker: string;
  startMs: number;
  endMs: number;
  text: string;
  sentiment: number | null;
}

/** Where an imported call came from (`npm run import`): its file's digest, and the file's own sections. */
export interface ImportOrigin {
  contentHash: string;
  /** One per segment, in order: prepared remarks or Q&A as the file tells them. */
  sections: ("prepared" | "qa")[] | null;
}

export interface ArchiveCounts {
  calls: number;
  segments: number;
}

/** Rows per INSERT: well under Postgres's 65,535 bind parameters (13 columns a row). */
const INSERT_CHUNK = 500;

export class ArchiveStore {
  constructor(private readonly db: Db) {}

  /** Which of `callIds` are stored, with their status and sentence count. */
  async known(callIds: readonly string[]): Promise<Map<string, { status: Status; segmentCount: number }>> {
    if (callIds.length === 0) return new Map();
    const rows = await this.db
      .select({
        callId: archiveCalls.callId,
        status: archiveCalls.status,
        segmentCount: archiveCalls.segmentCount,
      })
      .from(archiveCalls)
      .where(inArray(archiveCalls.callId, [...callIds]));
    return new Map(rows.map((r) => [r.callId, { status: r.status as Status, segmentCount: r.segmentCount }]));
  }

  /**
   * Stores a call with its whole transcript. `unchanged` when the stored copy is as complete (same or later
   * status, as many sentences): a stale read never overwrites an enriched call. An imported call (`origin`) is
   * `unchanged` when its file's digest is the stored one, and replaced when the file changed.
   */
  async storeCall(call: ArchivableCall, origin?: ImportOrigin): Promise<"stored" | "unchanged"> {
    const prepared = prepareCall(call, origin);
    return this.db.transaction((tx) => writeCall(tx, prepared));
  }

  /**
   * Imported calls, in one transaction: each as `storeCall` would, their per-call word counts written once at the
   * end in one set-based statement instead of by the triggers statement by statement (which doubled the corpus
   * import's CPU time). The counts commit with the sentences or not at all, so an import that dies midway leaves
   * its last batch unwritten, never half-counted (docs/storage.md, "Imports count their words once a batch").
   */
  async storeCalls(
    calls: readonly { call: ArchivableCall; origin?: ImportOrigin }[],
  ): Promise<("stored" | "unchanged")[]> {
    if (calls.length === 0) return [];
    const prepared = calls.map(({ call, origin }) => prepareCall(call, origin));
    return this.db.transaction(async (tx) => {
      // Transaction-local (migration 0009): the triggers of archive_segments step aside until this commits.
      await tx.execute(sql`SELECT set_config('callroom.call_terms', 'deferred', true)`);
      const results: ("stored" | "unchanged")[] = [];
      for (const one of prepared) results.push(await writeCall(tx, one));
      const stored = [
        ...new Set(calls.filter((_, i) => results[i] === "stored").map((c) => c.call.callId.toLowerCase())),
      ];
      if (stored.length > 0) await recountCallTerms(tx, stored);
      return results;
    });
  }

  /** A live call's row, so its sentences can be indexed as they are spoken; never downgrades a stored call. */
  async startLiveCall(call: {
    callId: string;
    symbol: string;
    name: string;
    startTime: string;
  }): Promise<void> {
    await this.db
      .insert(archiveCalls)
      .values({
        callId: call.callId.toLowerCase(),
        symbol: call.symbol.toUpperCase(),
        name: call.name,
        title: `${call.name} conference call`,
        startTime: call.startTime,
        status: "live",
      })
      .onConflictDoNothing();
  }

  /**
   * Live sentences in arrival order (duplicates from a replay are ignored). The call's row must exist
   * (`startLiveCall`); sentences of a call already stored complete are left alone.
   */
  async appendLiveSentences(sentences: readonly (LiveSentence & ClassifiedSentence)[]): Promise<number> {
    if (sentences.length === 0) return 0;
    const callIds = [...new Set(sentences.map((s) => s.callId.toLowerCase()))];
    return this.db.transaction(async (tx) => {
      const calls = await tx
        .select({
          callId: archiveCalls.callId,
          symbol: archiveCalls.symbol,
          startTime: archiveCalls.startTime,
          quarter: archiveCalls.quarter,
        })
        .from(archiveCalls)
        .where(and(inArray(archiveCalls.callId, callIds), eq(archiveCalls.status, "live")));
      const byId = new Map(calls.map((c) => [c.callId, c]));
      const rows = sentences.flatMap((s) => {
        const call = byId.get(s.callId.toLowerCase());
        if (!call) return [];
        return [
          toSegmentRow(call.callId, call, { ...s, speakerName: null }, { role: s.role, section: s.section }),
        ];
      });
      if (rows.length === 0) return 0;
      const inserted = await tx
        .insert(archiveSegments)
        .values(rows)
        .onConflictDoNothing()
        .returning({ callId: archiveSegments.callId });
      for (const callId of new Set(inserted.map((r) => r.callId))) {
        await tx
          .update(archiveCalls)
          .set({
            segmentCount: sql`(SELECT count(*)::int FROM ${archiveSegments} WHERE ${archiveSegments.callId} = ${callId})`,
            updatedAt: sql`now()`,
          })
          .where(eq(archiveCalls.callId, callId));
      }
      return inserted.length;
    });
  }

  /** The sentences stored so far of a live call (to resume classifying it after a restart). */
  async liveSentences(
    callId: string,
  ): Promise<{ speaker: string; speakerName: string | null; text: string }[]> {
    return this.db
      .select({
        speaker: archiveSegments.speaker,
        speakerName: archiveSegments.speakerName,
        text: archiveSegments.text,
      })
      .from(archiveSegments)
      .where(eq(archiveSegments.callId, callId.toLowerCase()))
      .orderBy(archiveSegments.sequence);
  }

  /** Calls stored as live: after a restart they may have completed while no one listened. */
  async liveCallIds(): Promise<string[]> {
    const rows = await this.db
      .select({ callId: archiveCalls.callId })
      .from(archiveCalls)
      .where(eq(archiveCalls.status, "live"));
    return rows.map((r) => r.callId);
  }

  /**
   * The archive's size from the calls' own sentence counts: one pass over the calls instead of a count of every
   * sentence (1.2 s on PGlite at library scale, 660,000 sentences).
   */
  async counts(): Promise<ArchiveCounts> {
    const [row] = await queryRows<{ calls: number; segments: number | string }>(
      this.db,
      sql`SELECT count(*)::int AS calls, coalesce(sum(${archiveCalls.segmentCount}), 0)::bigint AS segments FROM ${archiveCalls}`,
    );
    return { calls: Number(row?.calls ?? 0), segments: Number(row?.segments ?? 0) };
  }

  /**
   * Moves the search index's pending entries into the index proper and refreshes the planner's statistics. GIN
   * collects new entries in a pending list that every search scans linearly until (auto)vacuum merges it; PGlite
   * runs no autovacuum, and after a backfill the list held thousands of sentences, so the indexer calls this after a
   * backfill and every few hundred live sentences.
   *
   * `vacuum` (after a backfill or an import, not after live sentences): a whole VACUUM, which also clears the dead
   * rows that replaced calls leave and sets the visibility map, without which PGlite (no autovacuum) read every
   * call's row for a count. It holds PGlite's one connection for a few seconds at library scale; health and live
   * streams never wait on it (docs/storage.md).
   */
  async compactSearchIndex(options: { vacuum?: boolean } = {}): Promise<void> {
    if (options.vacuum) {
      await this.db.execute(sql`VACUUM (ANALYZE) archive_calls, archive_segments, archive_call_terms`);
      return;
    }
    await this.db.execute(sql`SELECT gin_clean_pending_list('archive_segments_search_idx'::regclass)`);
    await this.db.execute(sql`ANALYZE archive_calls`);
    await this.db.execute(sql`ANALYZE archive_segments`);
  }

  async readState<T>(key: string): Promise<T | null> {
    const [row] = await this.db
      .select({ value: archiveState.value })
      .from(archiveState)
      .where(eq(archiveState.key, key));
    return row ? (row.value as T) : null;
  }

  async writeState(key: string, value: unknown): Promise<void> {
    await this.db
      .insert(archiveState)
      .values({ key, value })
      .onConflictDoUpdate({ target: archiveState.key, set: { value, updatedAt: sql`now()` } });
  }
}

/** A call and its sentences' roles and sections, worked out before its transaction opens (nothing waits on it). */
interface PreparedCall {
  call: ArchivableCall;
  origin: ImportOrigin | undefined;
  classes: ClassifiedSentence[];
}

function prepareCall(call: ArchivableCall, origin: ImportOrigin | undefined): PreparedCall {
  const classes = classifySentences(
    call.segments.map((s) => ({ speaker: s.speaker, speakerName: s.speakerName, text: s.text })),
    call.participants,
  );
  // The file says where Q&A starts; the classifier's guess from the operator's words is for live calls.
  if (origin?.sections) {
    origin.sections.forEach((section, i) => {
      if (classes[i]) classes[i] = { ...classes[i], section };
    });
  }
  return { call, origin, classes };
}

/** Writes one call in the caller's transaction (storeCall, storeCalls). */
async function writeCall(tx: Db, { call, origin, classes }: PreparedCall): Promise<"stored" | "unchanged"> {
  const callId = call.callId.toLowerCase();
  const [current] = await tx
    .select({
      status: archiveCalls.status,
      segmentCount: archiveCalls.segmentCount,
      contentHash: archiveCalls.contentHash,
    })
    .from(archiveCalls)
    .where(eq(archiveCalls.callId, callId))
    .for("update");
  if (origin && current?.contentHash === origin.contentHash) return "unchanged";
  if (
    !origin &&
    current &&
    !isLaterStatus(call.status, current.status as Status) &&
    current.segmentCount >= call.segments.length
  ) {
    return "unchanged";
  }
  const row = {
    callId,
    symbol: call.symbol.toUpperCase(),
    name: call.name,
    title: call.title,
    exchange: call.exchange,
    quarter: quarterOf(call.period, call.year),
    startTime: call.startTime,
    endTime: call.endTime,
    durationSeconds: call.durationSeconds === null ? null : Math.round(call.durationSeconds),
    status: call.status,
    summaryPoints: call.summary?.points ?? null,
    summarySentiment: call.summary?.sentiment ?? null,
    participants: call.participants.map((p) => ({
      name: p.name,
      role: p.role,
      organization: p.organization,
    })),
    segmentCount: call.segments.length,
    source: origin ? "import" : "upstream",
    contentHash: origin?.contentHash ?? null,
  };
  const { callId: _id, ...updatable } = row;
  await tx
    .insert(archiveCalls)
    .values(row)
    .onConflictDoUpdate({ target: archiveCalls.callId, set: { ...updatable, updatedAt: sql`now()` } });
  // A call not stored before has no sentences to delete (the sentences reference their call).
  if (current) await tx.delete(archiveSegments).where(eq(archiveSegments.callId, callId));
  const rows = call.segments.map((s, i) =>
    toSegmentRow(
      callId,
      { symbol: row.symbol, startTime: call.startTime, quarter: row.quarter },
      s,
      classes[i]!,
    ),
  );
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.insert(archiveSegments).values(rows.slice(i, i + INSERT_CHUNK));
  }
  return "stored";
}

/**
 * The word counts of `callIds` from their stored sentences, replacing whatever the table held for them: the calls'
 * sentences were written with the triggers deferred (storeCalls). The rows go in key order, so the index's pages
 * are visited once each rather than once per call.
 */
async function recountCallTerms(tx: Db, callIds: readonly string[]): Promise<void> {
  const ids = sql.join(
    callIds.map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(sql`DELETE FROM archive_call_terms WHERE call_id IN (${ids})`);
  await tx.execute(sql`
    INSERT INTO archive_call_terms (lexeme, call_id, hits)
    SELECT w.lexeme, s.call_id, count(*)::int
    FROM ${archiveSegments} s, unnest(tsvector_to_array(s.search)) AS w(lexeme)
    WHERE s.call_id IN (${ids})
    GROUP BY 1, 2
    ORDER BY 1, 2`);
}

function toSegmentRow(
  callId: string,
  call: { symbol: string; startTime: string; quarter: string | null },
  s: {
    sequence: number;
    speaker: string;
    speakerName: string | null;
    startMs: number;
    endMs: number;
    text: string;
    sentiment: number | null;
  },
  c: ClassifiedSentence,
) {
  return {
    callId,
    sequence: s.sequence,
    symbol: call.symbol,
    callStart: call.startTime,
    quarter: call.quarter,
    speaker: s.speaker,
    speakerName: s.speakerName,
    role: c.role,
    section: c.section,
    startMs: Math.round(s.startMs),
    endMs: Math.round(s.endMs),
    text: s.text.replace(MARKERS, ""),
    sentiment: s.sentiment,
  };
}
