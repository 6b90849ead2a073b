"use client";

import { useState, type KeyboardEvent, type PointerEvent } from "react";

/**
 * Which category of a chart is under the reader's cursor, and the handlers that move it: the pointer (hover and
 * touch), the arrow keys (starting from the first category, or the last with `startAtEnd`, where a time series'
 * latest value is what one looks at first), Escape and blur to clear it. Spread `handlers` on the focusable `<svg>`.
 */
export function useChartCursor(
  count: number,
  indexAt: (clientX: number, box: DOMRect) => number | null,
  { startAtEnd = false }: { startAtEnd?: boolean } = {},
) {
  const [active, setActive] = useState<number | null>(null);
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) =>
    setActive(indexAt(event.clientX, event.currentTarget.getBoundingClientRect()));
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (count === 0) return;
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      const delta = event.key === "ArrowRight" ? 1 : -1;
      const start = startAtEnd ? count - 1 : 0;
      setActive((i) => Math.min(count - 1, Math.max(0, i === null ? start : i + delta)));
    } else if (event.key === "Escape") setActive(null);
  };
  const clear = () => setActive(null);
  return {
    active,
    handlers: {
      tabIndex: 0,
      onPointerMove,
      onPointerDown: onPointerMove,
      onPointerLeave: clear,
      onKeyDown,
      onBlur: clear,
    },
  };
}
