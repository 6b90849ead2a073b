"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { cn } from "./cn";
import { useFixedRowsWindow } from "./use-fixed-rows-window";

export interface VirtualColumn<Row> {
  id: string;
  header: ReactNode;
  /** Fixed width in px: a virtualized table must not re-measure columns as rows come and go. */
  width: number;
  numeric?: boolean;
  cell: (row: Row) => ReactNode;
}

const ROW_HEIGHT = 30;
/** The sticky header row (h-8). */
const HEADER_HEIGHT = 32;

/**
 * A semantic <table> that renders only the rows in view (spacer rows keep the scroll height), with a sticky header
 * and fixed column widths. aria-rowcount / aria-rowindex tell assistive technology how many rows exist.
 */
export function VirtualTable<Row>({
  rows,
  columns,
  rowKey,
  rowData,
  caption,
  activeIndex = -1,
  onRowClick,
  className,
  testId,
  rowTestId,
}: {
  rows: readonly Row[];
  columns: readonly VirtualColumn<Row>[];
  rowKey: (row: Row) => string;
  /** A value for the row's `data-ticker`, for tests and tools that read the rows. */
  rowData?: (row: Row) => string;
  caption: string;
  activeIndex?: number;
  onRowClick?: (index: number) => void;
  className?: string;
  testId?: string;
  rowTestId?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { start, end, paddingTop, paddingBottom, scrollToIndex } = useFixedRowsWindow({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    headerHeight: HEADER_HEIGHT,
    overscan: 15,
    scrollRef,
  });

  useEffect(() => {
    if (activeIndex >= 0) scrollToIndex(activeIndex);
  }, [activeIndex, scrollToIndex]);

  const items = Array.from({ length: end - start }, (_, i) => ({ index: start + i }));
  const totalWidth = columns.reduce((sum, c) => sum + c.width, 0);

  return (
    <div
      ref={scrollRef}
      className={cn("border-line relative overflow-auto rounded border", className)}
      data-testid={testId}
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table
        className="border-collapse text-[13px] tabular-nums"
        style={{ width: totalWidth, tableLayout: "fixed", minWidth: "100%" }}
        aria-rowcount={rows.length + 1}
      >
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} style={{ width: c.width }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c) => (
              <th
                key={c.id}
                scope="col"
                className={cn(
                  "border-line bg-surface text-2xs text-muted sticky top-0 z-10 h-8 overflow-hidden border-b px-2 font-semibold tracking-wide text-ellipsis whitespace-nowrap uppercase",
                  c.numeric ? "text-right" : "text-left",
                )}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 ? (
            <tr aria-hidden style={{ height: paddingTop }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
          {items.map((item) => {
            const row = rows[item.index]!;
            const active = item.index === activeIndex;
            return (
              <tr
                key={rowKey(row)}
                aria-rowindex={item.index + 2}
                aria-selected={active || undefined}
                data-active={active || undefined}
                data-testid={rowTestId}
                data-ticker={rowData?.(row)}
                onClick={onRowClick ? () => onRowClick(item.index) : undefined}
                className={cn("hover:bg-surface h-[30px]", active && "bg-accent-soft hover:bg-accent-soft")}
              >
                {columns.map((c) => (
                  <td
                    key={c.id}
                    className={cn(
                      "border-line h-[30px] overflow-hidden border-b px-2 text-ellipsis whitespace-nowrap",
                      c.numeric && "text-right",
                    )}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {paddingBottom > 0 ? (
            <tr aria-hidden style={{ height: paddingBottom }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** The loading state in the table's final shape: same columns, same row height, so nothing shifts. */
export function VirtualTableSkeleton({
  columns,
  rows = 12,
  className,
  label = "Loading",
}: {
  columns: readonly { id: string; width: number; numeric?: boolean }[];
  rows?: number;
  className?: string;
  label?: string;
}) {
  const totalWidth = columns.reduce((sum, c) => sum + c.width, 0);
  return (
    <div
      className={cn("border-line overflow-hidden rounded border", className)}
      role="status"
      aria-label={label}
      aria-busy
    >
      <table
        className="border-collapse"
        style={{ width: totalWidth, tableLayout: "fixed", minWidth: "100%" }}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} style={{ width: c.width }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((c) => (
              <td key={c.id} className="border-line bg-surface h-8 border-b px-2">
                <span
                  aria-hidden
                  className={cn("bg-surface-2 block h-2 w-12 rounded", c.numeric && "ml-auto")}
                />
              </td>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.id} className="border-line h-[30px] border-b px-2">
                  <span
                    aria-hidden
                    className={cn(
                      "bg-surface-2 block h-2.5 animate-pulse rounded",
                      c.numeric ? "ml-auto w-10" : "w-3/4",
                    )}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
