// Placeholder until the universe work lands: the route of contract §4.
import type { RouteDef } from "../core/types";
import type { Universe } from "../universe/types";

export function balanceSheetRoutes(_universe: Universe): RouteDef[] {
  return [];
}
