"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Select } from "@/components/ui/field";
import { formatDate, formatMoney } from "@/lib/format";
import { companyFilters } from "@/lib/queries/company";
import { fundamentalsQueries } from "@/lib/queries/fundamentals";
import { BALANCE_SHEET_NUMBER_KEYS, REPORT_TYPES } from "@/lib/schemas/fundamentals-keys";
import type { FinancialStatement } from "@/lib/schemas/fundamentals";
import { isLineItemTotal, lineItemLabel } from "@/lib/line-items";
import {
  isPeriodOfKind,
  PERIOD_KIND_LABELS,
  PERIOD_KIND_QUERY,
  PeriodKindToggle,
  type PeriodKind,
} from "./period-kind";
import { PeriodTable } from "./period-table";
import { QueryPanel } from "./query-panel";
import { useNearViewport } from "./use-near-viewport";

const STATEMENTS = [
  { key: "incomeStatement", label: "Income statement" },
  { key: "balanceSheet", label: "Balance sheet" },
  { key: "cashFlowStatement", label: "Cash flow" },
] as const;
type StatementKey = (typeof STATEMENTS)[number]["key"];

const REPORT_TYPE_LABELS: Record<string, string> = {
  A: "As reported",
  R: "Restated",
  P: "Preliminary",
  TTM: "Trailing 12 months",
};

/**
 * Financial statements: rows are line items, columns the most recent reports (newest left), quarterly or annual,
 * never both at once.
 */
export function FinancialStatementsSection({ symbol }: { symbol: string }) {
  const id = useId();
  const [kind, setKind] = useState<PeriodKind>(companyFilters.statements.kind);
  const period = PERIOD_KIND_QUERY[kind];
  const [reportType, setReportType] = useState<string>(companyFilters.statements.reportType);
  const [statement, setStatement] = useState<StatementKey>("incomeStatement");
  const [ref, isNear] = useNearViewport<HTMLElement>();
  const result = useQuery({
    ...fundamentalsQueries.kind("financials", [symbol], { period, reportType }),
    placeholderData: keepPreviousData,
    enabled: isNear,
  });
  return (
    <Section
      ref={ref}
      title="Financial statements"
      id="financials"
      actions={
        <>
          <div role="tablist" aria-label="Statement" className="border-line flex rounded border p-0.5">
            {STATEMENTS.map((s) => (
              <button
                key={s.key}
                type="button"
                role="tab"
                aria-selected={statement === s.key}
                onClick={() => setStatement(s.key)}
                className={cn(
                  "h-6 rounded px-2 text-[13px]",
                  statement === s.key ? "bg-surface-2 font-semibold" : "text-muted hover:text-fg",
                )}
              >
                {s.label}
              </button>
            ))}
          </div>
          <PeriodKindToggle value={kind} onChange={setKind} label="Statement periods" />
          <Field label="Report type" htmlFor={`${id}-type`}>
            <Select id={`${id}-type`} value={reportType} onChange={(e) => setReportType(e.target.value)}>
              {REPORT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {REPORT_TYPE_LABELS[t] ?? t}
                </option>
              ))}
            </Select>
          </Field>
        </>
      }
    >
      <QueryPanel
        result={result}
        what="financial statements"
        isEmpty={(d) => (d.data[0]?.financials.length ?? 0) === 0}
        emptyHint={`No ${PERIOD_KIND_LABELS[kind].toLowerCase()} statements of this report type: try the other period or report type.`}
        skeletonHeight={420}
      >
        {(d) => (
          <StatementTable
            statements={d.data[0]!.financials.filter((f) => isPeriodOfKind(f.period, kind)).slice(0, 8)}
            which={statement}
            symbol={symbol}
          />
        )}
      </QueryPanel>
    </Section>
  );
}

function StatementTable({
  statements,
  which,
  symbol,
}: {
  statements: readonly FinancialStatement[];
  which: StatementKey;
  symbol: string;
}) {
  return (
    <PeriodTable
      role="tabpanel"
      className="max-h-[460px]"
      caption={`${STATEMENTS.find((s) => s.key === which)?.label} of ${symbol}`}
      corner="Line item"
      columns={statements.map((s, i) => ({
        key: `${s.asOf}-${s.period}-${i}`,
        label: periodEndLabel(s.periodEndingDate ?? s.asOf),
        sub:
          s.period === "3M" ? "3 months" : s.period === "12M" || s.period === "1Y" ? "12 months" : s.period,
      }))}
      // Every line item any of the statements carries, in the service's order: the real service sends about a
      // hundred, and an analyst must see what it sent, under a readable name where one is known.
      rowKeys={[...new Set(statements.flatMap((s) => Object.keys(s[which])))]}
      rowLabel={(k) => <span title={`${k} (the service's name)`}>{lineItemLabel(k)}</span>}
      rowClassName={(k) => (isLineItemTotal(k) ? "font-semibold" : undefined)}
      cell={(k, i) => formatMoney(statements[i]?.[which][k], statements[i]?.currency ?? "USD")}
    />
  );
}

/** The v3 balance sheet (a different upstream product): fiscal periods as columns. */
export function BalanceSheetV3Section({ symbol }: { symbol: string }) {
  const [ref, isNear] = useNearViewport<HTMLElement>();
  const result = useQuery({ ...fundamentalsQueries.kind("balance-sheet", [symbol]), enabled: isNear });
  return (
    <Section ref={ref} title="Balance sheet by fiscal quarter" id="balance-sheet-v3">
      <QueryPanel
        result={result}
        what="balance sheet"
        isEmpty={(d) => (d.data[0]?.balanceSheet.length ?? 0) === 0}
        skeletonHeight={420}
      >
        {(d) => {
          const rows = d.data[0]!.balanceSheet.slice(0, 8);
          return (
            <PeriodTable
              className="max-h-[460px]"
              caption={`Balance sheet of ${symbol} by fiscal period`}
              corner="Line item"
              columns={rows.map((r, i) => ({
                key: String(i),
                label: `${r.fiscalPeriod} ${r.fiscalYear}`,
                sub: formatDate(r.reportDate),
              }))}
              rowKeys={BALANCE_SHEET_NUMBER_KEYS}
              rowLabel={(k) => (
                <span
                  title={`${k} (the service's name)`}
                  className={k.startsWith("total") ? "font-semibold" : undefined}
                >
                  {lineItemLabel(k)}
                </span>
              )}
              rowClassName={(k) => (k.startsWith("total") ? "font-semibold" : undefined)}
              cell={(k, i) => formatMoney(rows[i]?.[k], rows[i]?.currency ?? "USD")}
            />
          );
        }}
      </QueryPanel>
    </Section>
  );
}

/** "Sep 2026": the month a period ended, how statement columns are named. */
function periodEndLabel(date: string | null | undefined): string {
  const d = date ? /^(\d{4})-(\d{2})/.exec(date) : null;
  if (!d) return formatDate(date);
  return formatDate(`${d[1]}-${d[2]}-01`).replace(/ 1,/, "");
}
