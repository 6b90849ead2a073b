"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { insightsQueries } from "@/lib/queries/insights";
import type { Call } from "@/lib/schemas/calls";
import type { Insights, InsightsContext } from "@/lib/schemas/insights";
import { NO_INSIGHTS, useInsightsEngine } from "./use-insights-engine";

export interface CallInsightsState {
  insights: Insights;
  context: InsightsContext | null;
  /** The context request: figures show without consensus (and changes wait) until it answers. */
  isContextLoading: boolean;
  contextError: Error | null;
  isContextStale: boolean;
  refetchContext: () => void;
}

/**
 * The call's insights, recomputed in the browser from the transcript the stream keeps current, with the context
 * (consensus, the previous call) read once from `/api/calls/[callId]/insights`; until the engine's code has loaded,
 * that answer's own insights (the call up to when it was asked) are shown. The engine caches per sentence, so
 * each new sentence costs its own extraction and one lookup in the previous call.
 */
export function useCallInsights(
  call: Pick<Call, "callId" | "segments" | "participants" | "status">,
): CallInsightsState {
  const query = useQuery(insightsQueries.detail(call.callId));
  const context = query.data?.data.context ?? null;
  const engine = useInsightsEngine(context);
  const isComplete = call.status !== "live";
  const served = query.data?.data;
  const insights = useMemo(
    () =>
      engine
        ? engine.compute({ sentences: call.segments, participants: call.participants, isComplete })
        : served
          ? { figures: served.figures, changes: served.changes, qa: served.qa }
          : NO_INSIGHTS,
    [engine, served, call.segments, call.participants, isComplete],
  );
  return {
    insights,
    context,
    isContextLoading: query.isPending,
    contextError: query.error,
    isContextStale: query.data?.meta.stale ?? false,
    refetchContext: () => void query.refetch(),
  };
}
