import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

/** Compact data-table parts: 30 px rows, sticky header, numbers right-aligned with tabular figures. */
export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return <table className={cn("w-full border-collapse text-[13px]", className)} {...props} />;
}

export function Th({
  className,
  numeric,
  ...props
}: ThHTMLAttributes<HTMLTableCellElement> & { numeric?: boolean }) {
  return (
    <th
      scope="col"
      className={cn(
        "border-line bg-surface text-2xs text-muted sticky top-0 z-10 h-8 border-b px-2 font-semibold tracking-wide whitespace-nowrap uppercase",
        numeric ? "text-right" : "text-left",
        className,
      )}
      {...props}
    />
  );
}

export function Td({
  className,
  numeric,
  ...props
}: TdHTMLAttributes<HTMLTableCellElement> & { numeric?: boolean }) {
  return (
    <td
      className={cn(
        "border-line h-[30px] border-b px-2 whitespace-nowrap",
        numeric && "text-right tabular-nums",
        className,
      )}
      {...props}
    />
  );
}

export function Tr({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return (
    <tr
      className={cn(
        "hover:bg-surface data-[active=true]:bg-accent-soft focus-visible:bg-accent-soft",
        className,
      )}
      {...props}
    />
  );
}

/** A row header cell (the label column of a line-item table). */
export function RowTh({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="row"
      className={cn("border-line h-[30px] border-b px-2 text-left font-normal whitespace-nowrap", className)}
      {...props}
    />
  );
}

/**
 * A table in its own scroll box (sticky header inside it), focusable so keyboard users can scroll it, with a
 * caption for screen readers only: the frame of the panels' tables.
 */
export function ScrollTable({
  caption,
  className,
  role,
  children,
}: {
  caption: ReactNode;
  className?: string;
  role?: string;
  children: ReactNode;
}) {
  return (
    <div tabIndex={0} role={role} className={cn("border-line overflow-auto rounded border", className)}>
      <Table className="tabular-nums">
        <caption className="sr-only">{caption}</caption>
        {children}
      </Table>
    </div>
  );
}
