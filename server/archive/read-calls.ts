import "server-only";
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Call, CallListItem } from "@/lib/schemas/calls";
import type { Db } from "../db/database";
import { archiveCalls, archiveSegments } from "../db/schema/archive";

/**
 * Calls read back from the archive, in our API's shapes: the calls imported with `npm run import` exist nowhere
 * else, so `/api/calls/{id}`, `/api/calls?source=imported`, the call room and the insights read them here
 * (docs/storage.md, "Imported calls").
 */

/** Imported calls' ids start with `imp-`: a route knows where to read them without a lookup. */
export { IMPORTED_ID_PREFIX, isImportedCall as isImportedCallId } from "@/lib/imported-calls";

const listColumns = {
  callId: archiveCalls.callId,
  title: archiveCalls.title,
  symbol: archiveCalls.symbol,
  name: archiveCalls.name,
  exchange: archiveCalls.exchange,
  quarter: archiveCalls.quarter,
  startTime: archiveCalls.startTime,
  endTime: archiveCalls.endTime,
  durationSeconds: archiveCalls.durationSeconds,
  status: archiveCalls.status,
};

type ListRow = { [K in keyof typeof listColumns]: (typeof listColumns)[K]["_"]["data"] } & {
  endTime: string | null;
  durationSeconds: number | null;
  exchange: string | null;
  quarter: string | null;
};

/** "2021-Q1" → period "Q1", year 2021. */
function periodOf(quarter: string | null): { period: string | null; year: number | null } {
  const m = /^(\d{4})-(Q[1-4])$/.exec(quarter ?? "");
  return m ? { period: m[2]!, year: Number(m[1]) } : { period: null, year: null };
}

function iso(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function toListItem(row: ListRow): CallListItem {
  return {
    callId: row.callId,
    title: row.title,
    headline: null,
    symbol: row.symbol,
    name: row.name,
    exchange: row.exchange,
    ...periodOf(row.quarter),
    startTime: new Date(row.startTime).toISOString(),
    endTime: iso(row.endTime),
    durationSeconds: row.durationSeconds,
    status: row.status as CallListItem["status"],
  };
}

/** One imported call with its transcript, as `GET /api/calls/{id}` answers; null when the archive has none. */
export async function readImportedCall(db: Db, callId: string): Promise<Call | null> {
  const [row] = await db
    .select({ ...listColumns, participants: archiveCalls.participants, source: archiveCalls.source })
    .from(archiveCalls)
    .where(eq(archiveCalls.callId, callId.toLowerCase()));
  if (!row || row.source !== "import") return null;
  const segments = await db
    .select({
      sequence: archiveSegments.sequence,
      speaker: archiveSegments.speaker,
      speakerName: archiveSegments.speakerName,
      startMs: archiveSegments.startMs,
      endMs: archiveSegments.endMs,
      text: archiveSegments.text,
      sentiment: archiveSegments.sentiment,
    })
    .from(archiveSegments)
    .where(eq(archiveSegments.callId, row.callId))
    .orderBy(asc(archiveSegments.sequence));
  return {
    ...toListItem(row as ListRow),
    segments: segments.map((s) => ({
      ...s,
      confidence: null,
      sentimentSource: s.sentiment === null ? null : ("live" as const),
    })),
    summary: null,
    participants: row.participants.map((p) => ({ ...p, mentions: null, isHumanVerified: false })),
    hasAudio: false,
    hasMp3: false,
    hasPdf: false,
    streamCursor: null,
  };
}

export interface ImportedListQuery {
  tickers?: string[];
  /** On the call's start, inclusive (a date or an ISO date-time). */
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** Imported calls, newest first (then by id): `/api/calls?source=imported`. */
export async function listImportedCalls(
  db: Db,
  query: ImportedListQuery,
): Promise<{ items: CallListItem[]; total: number }> {
  const where: SQL[] = [eq(archiveCalls.source, "import")];
  if (query.tickers?.length) where.push(inArray(archiveCalls.symbol, query.tickers));
  if (query.from) where.push(gte(archiveCalls.startTime, query.from));
  if (query.to) {
    // A bare date is the whole day, as in every other list of ours.
    where.push(
      /^\d{4}-\d{2}-\d{2}$/.test(query.to)
        ? sql`${archiveCalls.startTime} < (${query.to}::date + 1)`
        : lte(archiveCalls.startTime, query.to),
    );
  }
  const condition = and(...where);
  const [rows, [count]] = await Promise.all([
    db
      .select(listColumns)
      .from(archiveCalls)
      .where(condition)
      .orderBy(desc(archiveCalls.startTime), asc(archiveCalls.callId))
      .limit(query.pageSize)
      .offset(query.page * query.pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(archiveCalls)
      .where(condition),
  ]);
  return { items: rows.map((r) => toListItem(r as ListRow)), total: Number(count?.n ?? 0) };
}
