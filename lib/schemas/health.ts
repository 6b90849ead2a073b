import { z } from "zod";

/**
 * `GET /api/health` (shape fixed by design.md §3; not wrapped in the `{data, meta}` envelope). Always HTTP 200 while
 * our server runs: `status` says whether the market-data service is reachable. `stream` is "unknown" until the relay
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
});
export type Health = z.infer<typeof healthSchema>;
