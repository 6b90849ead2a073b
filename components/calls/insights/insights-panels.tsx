"use client";

import { ErrorState } from "@/components/ui/panel-state";
import { ChangesPanel } from "./changes-panel";
import { FiguresPanel } from "./figures-panel";
import { QaPanel } from "./qa-panel";
import type { CallInsightsState } from "./use-call-insights";

/** The call room's insight panels: figures against consensus, changes since last quarter, the Q&A. */
export function InsightsPanels({
  state,
  isLive,
  onSeek,
}: {
  state: CallInsightsState;
  isLive: boolean;
  onSeek: (sequence: number) => void;
}) {
  const { insights, context, isContextLoading, contextError } = state;
  return (
    <>
      <FiguresPanel
        figures={insights.figures}
        isLive={isLive}
        isContextLoading={isContextLoading}
        onSeek={onSeek}
      />
      {contextError ? (
        <ErrorState
          className="py-3"
          title="Could not load consensus and the previous call"
          message="Figures are shown without consensus; changes need the previous call."
          onRetry={state.refetchContext}
        />
      ) : null}
      <ChangesPanel
        changes={insights.changes}
        previousCall={context?.previousCall ?? null}
        isContextLoading={isContextLoading}
        isLive={isLive}
        onSeek={onSeek}
      />
      <QaPanel qa={insights.qa} isLive={isLive} onSeek={onSeek} />
    </>
  );
}
