import "server-only";
import type { Logger } from "pino";
import type { Call } from "@/lib/schemas/calls";
import type { CallInsights, Consensus, InsightsContext, PreviousCall } from "@/lib/schemas/insights";
import { computeInsights } from "@/lib/insights/engine";
import type { ConsensusSource, PreviousCallSource } from "./sources";

export interface InsightsServiceDeps {
  /** The call with its transcript so far (REST merged with the live bus). */
  getCall(
    callId: string,
    options: { signal?: AbortSignal },
  ): Promise<{ call: Call; fetchedAt: string; stale: boolean }>;
  previousCalls: PreviousCallSource;
  consensus: ConsensusSource;
  log: Pick<Logger, "warn">;
}

export interface InsightsResult {
  insights: CallInsights;
  fetchedAt: string;
  /** The transcript was stale, or the calendar or previous call could not be read (insights without them). */
  stale: boolean;
}

export interface InsightsService {
  getInsights(callId: string, options?: { signal?: AbortSignal }): Promise<InsightsResult>;
}

const NO_CONSENSUS: Consensus = { current: null, next: null };

/**
 * A call's insights, computed on request from the call as it stands: the transcript grows while the call is live,
 * so each read covers every sentence so far. Consensus and the previous call are context: when either cannot be
 * read, the insights come without it (and say stale) rather than failing.
 */
export function createInsightsService(deps: InsightsServiceDeps): InsightsService {
  return {
    async getInsights(callId, options = {}) {
      const { call, fetchedAt, stale } = await deps.getCall(callId, options);
      let degraded = false;
      const [consensus, previousCall] = await Promise.all([
        deps.consensus.forCall(call, options).catch((error: unknown): Consensus => {
          if (options.signal?.aborted) throw error;
          deps.log.warn({ err: error, callId }, "insights: consensus unavailable");
          degraded = true;
          return NO_CONSENSUS;
        }),
        deps.previousCalls.findPrevious(call, options).catch((error: unknown): PreviousCall | null => {
          if (options.signal?.aborted) throw error;
          deps.log.warn({ err: error, callId }, "insights: previous call unavailable");
          degraded = true;
          return null;
        }),
      ]);
      const context: InsightsContext = {
        consensus,
        previousCall,
        call: { period: call.period, year: call.year },
      };
      const insights = computeInsights(
        { sentences: call.segments, participants: call.participants, isComplete: call.status !== "live" },
        context,
      );
      const last = call.segments[call.segments.length - 1];
      return {
        insights: {
          callId: call.callId,
          symbol: call.symbol,
          throughSequence: last ? last.sequence : null,
          ...insights,
          context,
        },
        fetchedAt,
        stale: stale || degraded,
      };
    },
  };
}
