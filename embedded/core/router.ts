/**
 * Route table of the embedded service: literal segments and `:name` parameters, matched segment by segment.
 * A path that matches no route with that method answers Kong's 404 body, as the real service's gateway does
 * (docs/upstream.md §1); a matching path with another method is treated the same way because the gateway
 * matches on method and path together.
 */
import type { RouteDef } from "./types";

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: RouteDef;
  segments: readonly string[];
}

const splitPath = (path: string): string[] => path.split("/").filter((segment) => segment !== "");

export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RouteDef[]) {
    this.compiled = routes.map((route) => ({ route, segments: splitPath(route.pattern) }));
    const seen = new Set<string>();
    for (const { route } of this.compiled) {
      const signature = `${route.method} ${route.pattern}`;
      if (seen.has(signature)) throw new Error(`duplicate embedded route: ${signature}`);
      seen.add(signature);
    }
  }

  /**
   * Literal segments win over parameters at the same depth (e.g. `/calls/:id` vs `/calls/search`), so the order
   * routes were registered in does not matter.
   */
  match(method: string, path: string): RouteMatch | null {
    const segments = splitPath(path);
    let best: { match: RouteMatch; literals: number } | null = null;
    for (const { route, segments: pattern } of this.compiled) {
      if (route.method !== method || pattern.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let literals = 0;
      let ok = true;
      for (let i = 0; i < pattern.length; i++) {
        const expected = pattern[i] as string;
        const actual = segments[i] as string;
        if (expected.startsWith(":")) {
          params[expected.slice(1)] = actual;
        } else if (expected === actual) {
          literals++;
        } else {
          ok = false;
          break;
        }
      }
      if (ok && (best === null || literals > best.literals)) best = { match: { route, params }, literals };
    }
    return best?.match ?? null;
  }
}
