"use client";

import { Button } from "@/components/ui/button";

/** The upstream reports no total: pages are "rows a–b", and Next is offered while the last page was full. */
export function CalendarPager({
  page,
  pageSize,
  rowCount,
  hasMore,
  onPage,
}: {
  page: number;
  pageSize: number;
  rowCount: number;
  hasMore: boolean;
  onPage: (page: number) => void;
}) {
  const first = page * pageSize + 1;
  const last = page * pageSize + rowCount;
  return (
    <nav aria-label="Pages" className="flex items-center gap-2 text-[13px]">
      <Button onClick={() => onPage(page - 1)} disabled={page === 0}>
        ← Previous
      </Button>
      <span className="text-muted tabular-nums" aria-live="polite">
        {rowCount > 0
          ? `Rows ${first.toLocaleString("en-US")}–${last.toLocaleString("en-US")}`
          : `Page ${page + 1}`}
      </span>
      <Button onClick={() => onPage(page + 1)} disabled={!hasMore}>
        Next →
      </Button>
    </nav>
  );
}
