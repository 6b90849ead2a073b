"use client";

import { useState } from "react";
import { isTypingTarget, useHotkeys } from "./use-hotkeys";

/**
 * `j` / `k` move an active row through a table; Enter opens it. The active index is clamped to the row count, so a
 * refresh that shortens the list never leaves it pointing past the end.
 */
export function useRowNavigation(
  count: number,
  {
    onOpen,
    onMove,
    enabled = true,
  }: { onOpen?: (index: number) => void; onMove?: (index: number) => void; enabled?: boolean } = {},
) {
  const [active, setActive] = useState(-1);
  const clamped = count === 0 ? -1 : Math.min(active, count - 1);

  useHotkeys((event) => {
    if (event.metaKey || event.ctrlKey || event.altKey || isTypingTarget(event.target)) return;
    if (event.key === "j" || event.key === "k") {
      if (count === 0) return;
      event.preventDefault();
      const next = event.key === "j" ? Math.min(count - 1, clamped + 1) : Math.max(0, clamped - 1);
      setActive(next);
      onMove?.(next);
    } else if (event.key === "Enter" && clamped >= 0 && onOpen) {
      const target = event.target as HTMLElement | null;
      // Enter on a focused link or button keeps its own meaning.
      if (target && target !== document.body && target.closest("a,button")) return;
      event.preventDefault();
      onOpen(clamped);
    }
  }, enabled);

  return { activeIndex: clamped, setActiveIndex: setActive };
}
