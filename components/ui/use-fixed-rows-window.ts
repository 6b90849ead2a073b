"use client";

import { useCallback, useEffect, useState, type RefObject } from "react";

/**
 * Which rows of a scroller with rows of one fixed height are in view (plus `overscan` either side), and a way to
 * bring a row into view. Written for VirtualTable instead of using @tanstack/react-virtual (≈ 10 kB gzip in the
 * first load of both calendars): with a fixed row height the window is plain arithmetic, no measuring.
 *
 * `headerHeight` is the sticky header above the first row, inside the scroller. Until the scroller is measured the
 * window assumes `initialHeight`, the same on the server and in the browser, so the first rows are in the HTML.
 */
export function useFixedRowsWindow({
  count,
  rowHeight,
  headerHeight,
  overscan,
  scrollRef,
  initialHeight = 600,
}: {
  count: number;
  rowHeight: number;
  headerHeight: number;
  overscan: number;
  scrollRef: RefObject<HTMLElement | null>;
  initialHeight?: number;
}) {
  const [view, setView] = useState({ top: 0, height: initialHeight });

  // Not a layout effect reading the scroller at once: during hydration that forced a layout of the whole page
  // inside React's commit and, when the height differed from `initialHeight`, a synchronous re-render of the rows in
  // the same task. The ResizeObserver's first notification comes after the browser's own layout, with the size
  // already computed, and its update renders in a task of its own.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const read = () =>
      setView((previous) =>
        previous.top === element.scrollTop && previous.height === element.clientHeight
          ? previous
          : { top: element.scrollTop, height: element.clientHeight },
      );
    element.addEventListener("scroll", read, { passive: true });
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => {
      element.removeEventListener("scroll", read);
      observer.disconnect();
    };
  }, [scrollRef]);

  const first = Math.max(0, Math.floor((view.top - headerHeight) / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((view.top + view.height - headerHeight) / rowHeight) + overscan);
  const start = Math.min(first, end);

  /** Scrolls as little as needed to show row `index` whole, below the sticky header. */
  const scrollToIndex = useCallback(
    (index: number) => {
      const element = scrollRef.current;
      if (!element || index < 0 || index >= count) return;
      const rowTop = headerHeight + index * rowHeight;
      const rowBottom = rowTop + rowHeight;
      if (rowTop - headerHeight < element.scrollTop) element.scrollTop = rowTop - headerHeight;
      else if (rowBottom > element.scrollTop + element.clientHeight) {
        element.scrollTop = rowBottom - element.clientHeight;
      }
    },
    [count, headerHeight, rowHeight, scrollRef],
  );

  return {
    start,
    end,
    paddingTop: start * rowHeight,
    paddingBottom: (count - end) * rowHeight,
    scrollToIndex,
  };
}
