"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { InsightsEngine } from "@/lib/insights/engine";
import { insightsQueries } from "@/lib/queries/insights";
import type { Call } from "@/lib/schemas/calls";
import type { Insights, InsightsContext } from "@/lib/schemas/insights";

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
 * (consensus, the previous call) read once from `/api/calls/[callId]/insights`. The engine caches per sentence, so
 * each new sentence costs its own extraction and one lookup in the previous call.
 */
export function useCallInsights(
  call: Pick<Call, "callId" | "segments" | "participants" | "status">,
): CallInsightsState {
  const query = useQuery(insightsQueries.detail(call.callId));
  const context = query.data?.data.context ?? null;
  const engine = useMemo(() => new InsightsEngine(context), [context]);
  const isComplete = call.status !== "live";
  const insights = useMemo(
    () => engine.compute({ sentences: call.segments, participants: call.participants, isComplete }),
    [engine, call.segments, call.participants, isComplete],
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
