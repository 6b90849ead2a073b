"use client";

import { useSyncExternalStore } from "react";
import { localTimeZone } from "@/lib/format";

const noopSubscribe = () => () => {};

/**
 * The reader's IANA zone; "UTC" while rendering on the server, where the reader's zone is unknown.
 *
 * Every time shown in the reader's zone must come through this hook (or <LocalTime>): a component that formats
 * in the runtime's default zone renders the server's zone into the HTML and the browser's zone while hydrating,
 * and React throws the page's server HTML away over the mismatch. With the hook, hydration renders the server's
 * "UTC" and React re-renders in the reader's zone straight after.
 */
export function useTimeZone(): string {
  return useSyncExternalStore(noopSubscribe, localTimeZone, () => "UTC");
}
