import type { ReactNode } from "react";
import { RowTh, ScrollTable, Td, Th, Tr } from "@/components/ui/table";

export interface PeriodColumn {
  key: string;
  label: ReactNode;
  /** A second, quieter header line (the report date). */
  sub?: ReactNode;
}

/**
 * Line items down, reporting periods across (newest left): statements, the v3 balance sheet and operation ratios
 * all read this way. With `groups`, the rows come under group headings (profitability, growth, …) instead.
 */
export function PeriodTable<K extends string>({
  caption,
  corner,
  columns,
  rowKeys,
  groups,
  rowLabel,
  cell,
  rowClassName,
  className,
  role,
}: {
  caption: ReactNode;
  corner: string;
  columns: readonly PeriodColumn[];
  rowKeys: readonly K[];
  groups?: readonly { id: string; label: string; keys: readonly K[] }[];
  rowLabel: (key: K) => ReactNode;
  cell: (key: K, columnIndex: number) => ReactNode;
  rowClassName?: (key: K) => string | undefined;
  className?: string;
  role?: string;
}) {
  return (
    <ScrollTable caption={caption} className={className} role={role}>
      <thead>
        <tr>
          <Th>{corner}</Th>
          {columns.map((c) => (
            <Th key={c.key} numeric>
              {c.label}
              {c.sub !== undefined ? <span className="block font-normal normal-case">{c.sub}</span> : null}
            </Th>
          ))}
        </tr>
      </thead>
      {(groups ?? [{ id: "all", label: null, keys: rowKeys }]).map((group) => (
        <tbody key={group.id}>
          {group.label ? <GroupHeading label={group.label} span={columns.length + 1} /> : null}
          {group.keys.map((k) => (
            <Tr key={k} className={rowClassName?.(k)}>
              <RowTh>{rowLabel(k)}</RowTh>
              {columns.map((c, i) => (
                <Td key={c.key} numeric>
                  {cell(k, i)}
                </Td>
              ))}
            </Tr>
          ))}
        </tbody>
      ))}
    </ScrollTable>
  );
}

/** A group's heading row inside a table (a `rowgroup` header), quiet and uppercase like the column headers. */
export function GroupHeading({ label, span }: { label: ReactNode; span: number }) {
  return (
    <tr>
      <th
        scope="rowgroup"
        colSpan={span}
        className="border-line bg-surface/60 text-2xs text-muted h-7 border-b px-2 text-left font-semibold tracking-wide uppercase"
      >
        {label}
      </th>
    </tr>
  );
}
