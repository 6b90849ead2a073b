import "server-only";
import { fetchLiveCall, listCalls } from "../upstream/calls";
import type { Upstream } from "../upstream/client";
import type { ArchiveSource } from "./indexer";

/** The archive's view of the market-data service: the completed-calls list (paged) and one call, read fresh. */
export function upstreamArchiveSource(upstream: Upstream): ArchiveSource {
  return {
    async listCompleted(page, pageSize, signal) {
      const result = await listCalls(upstream, { status: "completed", page, pageSize }, { signal });
      return {
        calls: result.items.map((c) => ({ callId: c.callId, status: c.status })),
        total: result.total,
      };
    },
    getCall: (callId, signal) => fetchLiveCall(upstream, callId, signal),
  };
}
