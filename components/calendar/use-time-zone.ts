"use client";

import { useSyncExternalStore } from "react";
import { localTimeZone } from "@/lib/format";

const noopSubscribe = () => () => {};

/** The reader's IANA zone; "UTC" while rendering on the server, where the reader's zone is unknown. */
export function useTimeZone(): string {
  return useSyncExternalStore(noopSubscribe, localTimeZone, () => "UTC");
}
