import { z } from "zod";

/**
 * `GET /api/health` (shape fixed by design.md §3; not wrapped in the `{data, meta}` envelope). Always HTTP 200 while
 * our server runs: `status` says whether the market-data service is reachable. `stream` is "unknown" until the relay
 * reports the WebSocket state.
 */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  upstream: z.object({
    mode: z.enum(["embedded", "remote"]),
    rest: z.enum(["ok", "error"]),
    stream: z.enum(["ok", "connecting", "error", "unknown"]),
  }),
});
export type Health = z.infer<typeof healthSchema>;
