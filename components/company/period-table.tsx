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
 * all read this way.
 */
export function PeriodTable<K extends string>({
  caption,
  corner,
  columns,
  rowKeys,
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
      <tbody>
        {rowKeys.map((k) => (
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
    </ScrollTable>
  );
}
