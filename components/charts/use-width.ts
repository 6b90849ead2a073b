"use client";

import { useLayoutEffect, useRef, useState } from "react";

/**
 * The element's content width, kept current with a ResizeObserver (0 until measured). The charts draw in pixels
 * so that text keeps its size at any width; the first measurement is taken before paint, so the chart never
 * appears at a wrong width.
 */
export function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    const observer = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box) setWidth(Math.floor(box.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
