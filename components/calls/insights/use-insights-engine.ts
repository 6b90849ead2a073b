"use client";

import { useEffect, useMemo, useState } from "react";
import type { InsightsEngine } from "@/lib/insights/engine";
import type { Insights, InsightsContext } from "@/lib/schemas/insights";

type EngineModule = typeof import("@/lib/insights/engine");

/**
 * The insights engine (figure extraction, consensus, Q&A, changes and their vocabularies: about 34 kB gzip) is
 * loaded once the page is up, not with the first load of `/live` and the call room (docs/performance.md, First-load
 * JS). Until it is there, the server's insights stand in (`/api/calls/[callId]/insights` computes the same engine
 * over the call so far), and a tile simply shows its figures a moment later.
 */
let loaded: EngineModule | null = null;
let loading: Promise<EngineModule> | null = null;

function loadEngine(): Promise<EngineModule> {
  loading ??= import("@/lib/insights/engine").then((m) => (loaded = m));
  return loading;
}

/** An engine for this context, or null while its code loads. */
export function useInsightsEngine(context: InsightsContext | null): InsightsEngine | null {
  const [module, setModule] = useState<EngineModule | null>(loaded);
  useEffect(() => {
    if (module) return;
    let live = true;
    // A failed load leaves the server's insights in place; the next page view tries again.
    loadEngine().then(
      (m) => live && setModule(m),
      () => (loading = null),
    );
    return () => {
      live = false;
    };
  }, [module]);
  return useMemo(() => (module ? new module.InsightsEngine(context) : null), [module, context]);
}

export const NO_INSIGHTS: Insights = {
  figures: [],
  changes: [],
  qa: { qaStartSequence: null, turns: [], speakers: [] },
};
