"use client";

import { useRef } from "react";
import { useInView } from "@/components/ui/use-in-view";

/** About a phone screen ahead: a panel's data is on its way before the reader scrolls to it. */
const AHEAD = "900px 0px";

/**
 * A ref for a panel's box and whether the box has come within about a screen of the viewport (it stays true).
 *
 * Panels whose data is not in the page's HTML ask for it only then: the company page has eight data panels, most
 * of them below the fold on a phone, and fetching, parsing and rendering all of them while the first screen
 * hydrates kept a phone's main thread busy for seconds (docs/performance.md). A panel keeps its skeleton, at its
 * loading height, until then, so nothing below moves.
 */
export function useNearViewport<T extends Element>() {
  const ref = useRef<T>(null);
  const isNear = useInView(ref, AHEAD);
  return [ref, isNear] as const;
}
