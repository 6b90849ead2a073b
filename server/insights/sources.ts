import "server-only";
import type { Call, CallListItem } from "@/lib/schemas/calls";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { ConsensusRecord, Consensus, PreviousCall } from "@/lib/schemas/insights";
import { PromiseMemo } from "./memo";

/** The call an insight lookup is about: enough to find its company's previous call and calendar records. */
export type CallRef = Pick<Call, "callId" | "symbol" | "startTime" | "period" | "year">;

/**
 * The company's previous call before a given one. Implemented here over the upstream's REST listing; an
 * archive-backed implementation (server/archive) can replace it without touching the insights.
 */
export interface PreviousCallSource {
  findPrevious(call: CallRef, options?: { signal?: AbortSignal }): Promise<PreviousCall | null>;
}

/** The earnings calendar's record of the call's quarter and of the next one. */
export interface ConsensusSource {
  forCall(call: CallRef, options?: { signal?: AbortSignal }): Promise<Consensus>;
}

export interface UpstreamPreviousCallDeps {
  /** Completed calls of one company that started at or before `to`, newest first. */
  listCompletedCalls(symbol: string, to: string, options: { signal?: AbortSignal }): Promise<CallListItem[]>;
  getCall(callId: string, options: { signal?: AbortSignal }): Promise<Call | null>;
}

/** A previous call does not change once over: an hour per call id bounds memory, not freshness. */
const PREVIOUS_TTL_MS = 60 * 60_000;
/** Consensus moves rarely during a call; ten minutes keeps the calendar off the hot path. */
const CONSENSUS_TTL_MS = 10 * 60_000;

export function createUpstreamPreviousCallSource(deps: UpstreamPreviousCallDeps): PreviousCallSource {
  const memo = new PromiseMemo<PreviousCall | null>(PREVIOUS_TTL_MS);
  return {
    findPrevious(call, options = {}) {
      return memo.get(call.callId, async () => {
        const startMs = Date.parse(call.startTime);
        const listed = await deps.listCompletedCalls(call.symbol, call.startTime, options);
        // A call of the same fiscal quarter (a re-run, a replay) is not "last quarter".
        const sameQuarter = (c: CallListItem) =>
          call.period !== null && call.year !== null && c.period === call.period && c.year === call.year;
        const before = listed
          .filter(
            (c) =>
              c.callId !== call.callId &&
              c.symbol === call.symbol &&
              Date.parse(c.startTime) < startMs &&
              !sameQuarter(c),
          )
          .sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime))[0];
        if (!before) return null;
        const full = await deps.getCall(before.callId, options);
        if (!full) return null;
        return {
          callId: full.callId,
          title: full.title,
          startTime: full.startTime,
          period: full.period,
          year: full.year,
          segments: full.segments.map((s) => ({
            sequence: s.sequence,
            speaker: s.speakerName ?? s.speaker,
            startMs: s.startMs,
            text: s.text,
          })),
        };
      });
    },
  };
}

export interface CalendarConsensusDeps {
  /** Earnings rows of one company between two dates (YYYY-MM-DD, inclusive). */
  listEarnings(
    symbol: string,
    from: string,
    to: string,
    options: { signal?: AbortSignal },
  ): Promise<EarningsRow[]>;
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function toRecord(row: EarningsRow): ConsensusRecord {
  return {
    period: row.period,
    periodYear: row.periodYear,
    date: row.date,
    epsType: row.epsType,
    epsEst: row.epsEst,
    eps: row.eps,
    epsSurprisePercent: row.epsSurprisePercent,
    revenueEst: row.revenueEst,
    revenue: row.revenue,
    revenueSurprisePercent: row.revenueSurprisePercent,
  };
}

/**
 * The call's quarter is the calendar record of the same period and year, else the one reported within three days
 * of the call; the next quarter is the first record after it.
 */
export function pickConsensus(call: CallRef, rows: readonly EarningsRow[]): Consensus {
  const sorted = [...rows].sort((a, b) => a.date.localeCompare(b.date));
  const startMs = Date.parse(call.startTime);
  let current =
    call.period && call.year !== null
      ? sorted.find((r) => r.period === call.period && r.periodYear === call.year)
      : undefined;
  if (!current) {
    let best: { row: EarningsRow; distance: number } | null = null;
    for (const row of sorted) {
      const distance = Math.abs(Date.parse(`${row.date}T12:00:00Z`) - startMs);
      if (distance <= 3 * DAY_MS && (!best || distance < best.distance)) best = { row, distance };
    }
    current = best?.row;
  }
  const next = current ? sorted.find((r) => r.date > current.date) : undefined;
  return { current: current ? toRecord(current) : null, next: next ? toRecord(next) : null };
}

export function createCalendarConsensusSource(deps: CalendarConsensusDeps): ConsensusSource {
  const memo = new PromiseMemo<Consensus>(CONSENSUS_TTL_MS);
  return {
    forCall(call, options = {}) {
      return memo.get(call.callId, async () => {
        const startMs = Date.parse(call.startTime);
        const rows = await deps.listEarnings(
          call.symbol,
          isoDay(startMs - 45 * DAY_MS),
          isoDay(startMs + 150 * DAY_MS),
          options,
        );
        return pickConsensus(call, rows);
      });
    },
  };
}
