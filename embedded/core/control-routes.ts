/**
 * Control API under `/__embedded/` (docs/upstream.md §7): no key, loopback peers only (enforced by the pipeline
 * for every route with `product: null`). Calls control (`POST calls`, `calls/:id/end`) belongs to the live service.
 */
import { badParameter } from "./api-error";
import { faultsBodySchema, type FaultState } from "./faults";
import type { RequestStats } from "./stats";
import type { RouteDef } from "./types";

export interface ControlDeps {
  faults: FaultState;
  stats: RequestStats;
  wsConnections: () => number;
  dropWebSockets: () => void;
}

export function controlRoutes(deps: ControlDeps): RouteDef[] {
  return [
    {
      method: "POST",
      pattern: "/__embedded/faults",
      product: null,
      handle(req) {
        const parsed = faultsBodySchema.safeParse(req.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const where = issue && issue.path.length > 0 ? issue.path.join(".") : "body";
          throw badParameter(`${where}: ${issue?.message ?? "invalid faults body"}`);
        }
        const active = deps.faults.set(parsed.data, req.now.getTime());
        return {
          body: { ok: true, faults: { ...active, expiresAt: new Date(active.expiresAtMs).toISOString() } },
        };
      },
    },
    {
      method: "DELETE",
      pattern: "/__embedded/faults",
      product: null,
      handle() {
        deps.faults.clear();
        return { body: { ok: true } };
      },
    },
    {
      method: "GET",
      pattern: "/__embedded/stats",
      product: null,
      handle() {
        return { body: { wsConnections: deps.wsConnections(), restRequests: deps.stats.snapshot() } };
      },
    },
    {
      method: "POST",
      pattern: "/__embedded/ws/drop",
      product: null,
      handle() {
        deps.dropWebSockets();
        return { body: { ok: true } };
      },
    },
  ];
}
