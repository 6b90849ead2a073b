"use client";

import { useEffect, useRef, useState } from "react";

/**
 * The element's content width, kept current with a ResizeObserver (0 until measured). The charts draw in pixels
 * so that text keeps its size at any width; until the first measurement (0) they draw nothing, in a box that
 * already has the chart's height, so the chart never appears at a wrong width and nothing moves.
 *
 * Measured by the observer alone, not read at once in a layout effect: that forced a layout of the page inside
 * React's commit while the page hydrated; the observer's first notification comes after the browser's own layout.
 */
export function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box) setWidth(Math.floor(box.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
