import { z } from "zod";

/**
 * `GET /api/health` (shape fixed by docs/interfaces.md §4; not wrapped in the `{data, meta}` envelope). Always HTTP 200 while
 * our server runs: `status` says whether the market-data service is reachable. `stream` is "unknown" until the live bus
 * reports the WebSocket state.
 */
const streamStateSchema = z.enum(["ok", "connecting", "error", "unknown"]);

export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  upstream: z.object({
    mode: z.enum(["embedded", "remote"]),
    rest: z.enum(["ok", "error"]),
    /**
     * A single instance: the stream's state. Several instances on Redis (issue 7): `{ state, role }`, where the
     * leader's state is its upstream socket's and a follower's is whether it follows the shared event stream.
     */
    stream: z.union([
      streamStateSchema,
      z.object({ state: streamStateSchema, role: z.enum(["leader", "follower"]) }),
    ]),
  }),
  /**
   * Beyond docs/interfaces.md §4 (additive): the transcript archive, its size and the indexer's progress. `isIndexer`: this
   * instance runs the indexer (one per deployment); `backfill.total` is null until the first page of calls is read.
   */
  archive: z
    .object({
      state: z.enum(["idle", "follower", "backfilling", "live", "error", "stopped"]),
      driver: z.enum(["pglite", "postgres"]),
      isIndexer: z.boolean(),
      calls: z.number().int().nonnegative(),
      sentences: z.number().int().nonnegative(),
      backfill: z.object({
        done: z.number().int().nonnegative(),
        total: z.number().int().nonnegative().nullable(),
        failed: z.number().int().nonnegative(),
        finishedAt: z.string().nullable(),
      }),
    })
    .optional(),
});
export type Health = z.infer<typeof healthSchema>;
