// Placeholder until the universe work lands: the routes of contract §3.
import type { RouteDef } from "../core/types";
import type { Universe } from "../universe/types";

export function fundamentalsRoutes(_universe: Universe): RouteDef[] {
  return [];
}
