import "server-only";
import type { Archive } from "../archive/indexer";
import { isImportedCallId } from "../archive/read-calls";
import type { Upstream } from "../upstream/client";
import { getUpstreamCall, listCalls } from "../upstream/calls";
import { listEarnings } from "../upstream/calendars";
import {
  createCalendarConsensusSource,
  createUpstreamPreviousCallSource,
  type ConsensusSource,
  type PreviousCallSource,
} from "./sources";

/** Four quarters back is more than "the previous call" needs, and one page of the upstream's listing. */
const PREVIOUS_LOOKBACK = 8;

/** The insights' context sources over the upstream REST client (until the archive serves previous calls). */
export function createUpstreamInsightsSources(upstream: Upstream): {
  previousCalls: PreviousCallSource;
  consensus: ConsensusSource;
} {
  return {
    previousCalls: createUpstreamPreviousCallSource({
      async listCompletedCalls(symbol, to, { signal }) {
        const page = await listCalls(
          upstream,
          { status: "completed", tickers: [symbol], to, page: 0, pageSize: PREVIOUS_LOOKBACK },
          { signal },
        );
        return page.items;
      },
      async getCall(callId, { signal }) {
        const cached = await getUpstreamCall(upstream, callId, { signal });
        return cached.value ? { ...cached.value, streamCursor: null } : null;
      },
    }),
    consensus: createCalendarConsensusSource({
      async listEarnings(symbol, from, to, { signal }) {
        const page = await listEarnings(
          upstream,
          { tickers: [symbol], from, to, page: 0, pageSize: 20, sort: "date:asc" },
          { signal },
        );
        return page.value;
      },
    }),
  };
}

/**
 * The insights' context for any call: the upstream's for its calls; for an imported call, its previous call is the
 * company's previous imported one and its consensus is unknown (the calendar does not cover it), so no figure is
 * compared with one (docs/storage.md, "Imported calls").
 */
export function createCallInsightsSources(
  upstream: Upstream,
  archive: Pick<Archive, "listImported" | "importedCall">,
): { previousCalls: PreviousCallSource; consensus: ConsensusSource } {
  const fromUpstream = createUpstreamInsightsSources(upstream);
  const imported = createUpstreamPreviousCallSource({
    async listCompletedCalls(symbol, to) {
      const page = await archive.listImported({
        tickers: [symbol],
        to,
        page: 0,
        pageSize: PREVIOUS_LOOKBACK,
      });
      return page.items;
    },
    getCall: (callId) => archive.importedCall(callId),
  });
  return {
    previousCalls: {
      findPrevious: (call, options) =>
        (isImportedCallId(call.callId) ? imported : fromUpstream.previousCalls).findPrevious(call, options),
    },
    consensus: {
      forCall: (call, options) =>
        isImportedCallId(call.callId)
          ? Promise.resolve({ current: null, next: null })
          : fromUpstream.consensus.forCall(call, options),
    },
  };
}
