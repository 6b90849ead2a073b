import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A door answers some requests at the Node level, ahead of Next (the custom server, scripts/serve.mjs, offers it
 * every request). It returns true when it took the request, and then answers it whole; false leaves the request,
 * untouched, to Next.
 */
export type Door = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The first door that takes the request answers it. */
export function chainDoors(...doors: Door[]): Door {
  return (req, res) => {
    for (const door of doors) if (door(req, res)) return true;
    return false;
  };
}
