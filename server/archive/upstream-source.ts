import "server-only";
import { fetchLiveCall, listCalls } from "../upstream/calls";
import { inBackground } from "../upstream/budget";
import type { Upstream } from "../upstream/client";
import type { ArchiveSource } from "./indexer";

/**
 * The archive's view of the market-data service: the completed-calls list (paged) and one call, read fresh. Every
 * read is in the background lane (server/upstream/budget.ts): the backfill never spends what users need.
 */
export function upstreamArchiveSource(upstream: Upstream): ArchiveSource {
  return {
    async listCompleted(page, pageSize, signal) {
      const result = await inBackground(() =>
        listCalls(upstream, { status: "completed", page, pageSize }, { signal }),
      );
      return {
        calls: result.items.map((c) => ({ callId: c.callId, status: c.status })),
        total: result.total,
      };
    },
    getCall: (callId, signal) => inBackground(() => fetchLiveCall(upstream, callId, signal)),
  };
}
