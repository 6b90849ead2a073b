"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { LineChart } from "@/components/charts/lazy-charts";
import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Select } from "@/components/ui/field";
import { MISSING, formatCompact, formatDate, formatFigure } from "@/lib/format";
import { fundamentalsQueries } from "@/lib/queries/fundamentals";
import {
  EARNING_RATIO_KEYS,
  OPERATION_RATIO_KEYS,
  VALUATION_RATIO_KEYS,
} from "@/lib/schemas/fundamentals-keys";
import type { OperationRatio, ValuationRatio } from "@/lib/schemas/fundamentals";
import { groupRatios, isNotMeaningful, ratioDefinition } from "@/lib/ratio-definitions";
import { RowTh, ScrollTable, Td, Th, Tr } from "@/components/ui/table";
import { GroupHeading, PeriodTable } from "./period-table";
import { isPeriodOfKind, PERIOD_KIND_LABELS, PeriodKindToggle, type PeriodKind } from "./period-kind";
import { QueryPanel } from "./query-panel";
import { RatioLabel } from "./ratio-label";
import { useNearViewport } from "./use-near-viewport";

/** A ratio as shown; a valuation multiple of zero or less reads "n/m" (not meaningful), as on the compare page. */
const fmt = (key: string, v: number | null | undefined) =>
  isNotMeaningful(v, ratioDefinition(key)) ? "n/m" : formatFigure(v, ratioDefinition(key).kind);
const monthLabel = (x: string) => formatDate(x).replace(/ \d+,/, "");

/** A ratio of a record: a known one, or one of the figures the service sent beyond them (`other`). */
function ratioOf(row: { other: Record<string, number> } | undefined, key: string): number | null {
  if (!row) return null;
  const known = (row as unknown as Record<string, unknown>)[key];
  return typeof known === "number" ? known : (row.other[key] ?? null);
}

/** Known keys that carry a value, then the service's further figures in the order it sent them. */
function presentKeys(rows: readonly { other: Record<string, number> }[], known: readonly string[]): string[] {
  const extra = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.other)) extra.add(k);
  return [...known.filter((k) => rows.some((r) => ratioOf(r, k) !== null)), ...extra];
}

/** The value a year (12 snapshots) before the latest, for a quick sense of direction. */
function yearAgo(rows: readonly ValuationRatio[]): ValuationRatio | undefined {
  return rows[12] ?? rows[rows.length - 1];
}

export function ValuationSection({ symbol }: { symbol: string }) {
  const id = useId();
  const result = useQuery(fundamentalsQueries.kind("valuation-ratios", [symbol]));
  const [wanted, setPicked] = useState<string>("peRatio");
  return (
    <Section title="Valuation ratios" id="valuation">
      <QueryPanel
        result={result}
        what="valuation ratios"
        isEmpty={(d) => (d.data[0]?.valuationRatios.length ?? 0) === 0}
        skeletonHeight={420}
      >
        {(d) => {
          const rows = d.data[0]!.valuationRatios;
          const latest = rows[0]!;
          const prior = yearAgo(rows);
          const keys = presentKeys(rows, VALUATION_RATIO_KEYS);
          // The ratio asked for, or (when this company has none of it, P/E without earnings) the first one shown.
          const picked = keys.includes(wanted) ? wanted : (groupRatios(keys)[0]?.keys[0] ?? wanted);
          const history = [...rows]
            .reverse()
            .filter((r) => r.date)
            .map((r) => ({ x: r.date!, value: ratioOf(r, picked) }));
          return (
            <div className="grid gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
              <ScrollTable
                className="max-h-[420px]"
                caption={`Valuation ratios of ${symbol}; select a row to chart its history`}
              >
                <thead>
                  <tr>
                    <Th>Ratio</Th>
                    <Th numeric>{formatDate(latest.date)}</Th>
                    <Th numeric>{prior?.date ? formatDate(prior.date) : "Year ago"}</Th>
                  </tr>
                </thead>
                {groupRatios(keys).map((group) => (
                  <tbody key={group.id}>
                    <GroupHeading label={group.label} span={3} />
                    {group.keys.map((k) => (
                      <Tr key={k} className={cn(picked === k && "bg-accent-soft hover:bg-accent-soft")}>
                        <RowTh>
                          <span className="flex items-center justify-between gap-2">
                            <RatioLabel ratioKey={k} />
                            <button
                              type="button"
                              className="text-2xs text-accent rounded px-1 hover:underline"
                              aria-pressed={picked === k}
                              aria-label={`Chart ${ratioDefinition(k).label}`}
                              onClick={() => setPicked(k)}
                            >
                              Chart
                            </button>
                          </span>
                        </RowTh>
                        <Td numeric>{fmt(k, ratioOf(latest, k))}</Td>
                        <Td numeric className="text-muted">
                          {fmt(k, ratioOf(prior, k))}
                        </Td>
                      </Tr>
                    ))}
                  </tbody>
                ))}
              </ScrollTable>
              <div className="min-w-0">
                <Field label="Ratio to chart" htmlFor={`${id}-ratio`} className="mb-2 w-56">
                  <Select id={`${id}-ratio`} value={picked} onChange={(e) => setPicked(e.target.value)}>
                    {groupRatios(keys).map((group) => (
                      <optgroup key={group.id} label={group.label}>
                        {group.keys.map((k) => (
                          <option key={k} value={k}>
                            {ratioDefinition(k).label}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </Select>
                </Field>
                <p className="text-2xs text-muted mb-1">
                  {ratioDefinition(picked).definition} Month-end values.
                </p>
                <LineChart
                  data={history}
                  series={[{ key: "value", label: ratioDefinition(picked).label, color: "var(--accent)" }]}
                  formatY={(v) => formatFigure(v, ratioDefinition(picked).kind)}
                  formatX={monthLabel}
                  height={300}
                  ariaLabel={`${ratioDefinition(picked).label} of ${symbol}, month-end history`}
                />
              </div>
            </div>
          );
        }}
      </QueryPanel>
    </Section>
  );
}

export function OperationRatiosSection({ symbol }: { symbol: string }) {
  const [ref, isNear] = useNearViewport<HTMLElement>();
  const result = useQuery({ ...fundamentalsQueries.kind("operation-ratios", [symbol]), enabled: isNear });
  return (
    <Section ref={ref} title="Operation ratios" id="operation-ratios">
      <QueryPanel
        result={result}
        what="operation ratios"
        isEmpty={(d) => (d.data[0]?.operationRatios.length ?? 0) === 0}
        skeletonHeight={360}
      >
        {(d) => {
          const all = d.data[0]!.operationRatios;
          const latestAsOf = all.reduce((m, r) => ((r.asOf ?? "") > m ? (r.asOf ?? "") : m), "");
          // The newest report of each period, in the canonical period order.
          const byPeriod = new Map<string, OperationRatio>();
          for (const r of all) if (!byPeriod.has(r.period)) byPeriod.set(r.period, r);
          // The latest quarter and the latest fiscal year, side by side: the 6- and 9-month year-to-date figures
          // the service also sends are not comparable with either, so they are left out.
          const periods = (["3M", "1Y", "12M"] as const).filter((p) => byPeriod.has(p));
          const keys = presentKeys(
            periods.map((p) => byPeriod.get(p)!),
            OPERATION_RATIO_KEYS,
          );
          return (
            <>
              <PeriodTable
                className="max-h-[420px]"
                caption={`Operation ratios of ${symbol} by reporting period`}
                corner="Ratio"
                columns={periods.map((p) => ({
                  key: p,
                  label: p === "3M" ? "Latest quarter" : "Latest fiscal year",
                  sub: formatDate(byPeriod.get(p)?.asOf),
                }))}
                rowKeys={keys}
                groups={groupRatios(keys)}
                rowLabel={(k) => <RatioLabel ratioKey={k} />}
                cell={(k, i) => fmt(k, ratioOf(byPeriod.get(periods[i] ?? ""), k))}
              />
              <p className="sr-only">Latest report {latestAsOf}</p>
            </>
          );
        }}
      </QueryPanel>
    </Section>
  );
}

export function EarningRatiosSection({ symbol }: { symbol: string }) {
  const [ref, isNear] = useNearViewport<HTMLElement>();
  const [kind, setKind] = useState<PeriodKind>("quarterly");
  const result = useQuery({ ...fundamentalsQueries.kind("earning-ratios", [symbol]), enabled: isNear });
  return (
    <Section
      ref={ref}
      title="Earning ratios"
      id="earning-ratios"
      actions={<PeriodKindToggle value={kind} onChange={setKind} label="Earning ratio periods" />}
    >
      <QueryPanel
        result={result}
        what="earning ratios"
        isEmpty={(d) => (d.data[0]?.earningRatios.length ?? 0) === 0}
      >
        {(d) => {
          const rows = d.data[0]!.earningRatios.filter((r) => isPeriodOfKind(r.period, kind)).slice(0, 12);
          return (
            <HistoryTable
              rows={rows}
              columns={presentKeys(rows, EARNING_RATIO_KEYS)}
              value={(r, k) => fmt(k, ratioOf(r, k))}
              caption={`Earning ratios of ${symbol}, newest first`}
              className="max-h-[360px]"
            />
          );
        }}
      </QueryPanel>
    </Section>
  );
}

const REPORT_COLUMNS = [
  "dilutedEps",
  "basicEps",
  "dilutedContinuousOperations",
  "dividendPerShare",
  "dilutedAverageShares",
] as const;

export function EarningReportsSection({ symbol }: { symbol: string }) {
  const [ref, isNear] = useNearViewport<HTMLElement>();
  const [kind, setKind] = useState<PeriodKind>("quarterly");
  const result = useQuery({ ...fundamentalsQueries.kind("earning-reports", [symbol]), enabled: isNear });
  return (
    <Section
      ref={ref}
      title="Earning reports"
      id="earning-reports"
      actions={<PeriodKindToggle value={kind} onChange={setKind} label="Earning report periods" />}
    >
      <QueryPanel
        result={result}
        what="earning reports"
        isEmpty={(d) => (d.data[0]?.earningReports.length ?? 0) === 0}
        skeletonHeight={360}
      >
        {(d) => {
          const reports = d.data[0]!.earningReports.filter((r) => isPeriodOfKind(r.period, kind));
          const chartRows = reports
            .filter((r) => r.asOf)
            .reverse()
            .map((r) => ({ x: r.asOf!, eps: r.dilutedEps }));
          return (
            <div className="grid gap-4 lg:grid-cols-2">
              <div className="min-w-0">
                <p className="text-2xs text-muted mb-1">{PERIOD_KIND_LABELS[kind]} diluted EPS</p>
                {chartRows.length > 0 ? (
                  <LineChart
                    data={chartRows}
                    series={[{ key: "eps", label: "Diluted EPS", color: "var(--accent)" }]}
                    formatY={(v) => formatFigure(v, "eps")}
                    formatX={monthLabel}
                    height={260}
                    ariaLabel={`${PERIOD_KIND_LABELS[kind]} diluted EPS history of ${symbol}`}
                  />
                ) : (
                  <p className="text-muted text-[13px]">
                    No {PERIOD_KIND_LABELS[kind].toLowerCase()} reports to chart.
                  </p>
                )}
              </div>
              <HistoryTable
                rows={reports.slice(0, 16)}
                columns={REPORT_COLUMNS}
                value={(r, k) => (k === "dilutedAverageShares" ? formatCompact(r[k]) : fmt(k, r[k]))}
                caption={`Earning reports of ${symbol}, newest first`}
                className="max-h-[300px]"
              />
            </div>
          );
        }}
      </QueryPanel>
    </Section>
  );
}

/** Reports or ratios over time, newest first: as-of date and period, then one column per figure. */
function HistoryTable<
  R extends { asOf: string | null; period: string | null; reportType?: string | null },
  K extends string,
>({
  rows,
  columns,
  value,
  caption,
  className,
}: {
  rows: readonly R[];
  columns: readonly K[];
  value: (row: R, key: K) => string;
  caption: string;
  className?: string;
}) {
  return (
    <ScrollTable caption={caption} className={className}>
      <thead>
        <tr>
          <Th>As of</Th>
          <Th>Period</Th>
          {columns.map((k) => (
            <Th key={k} numeric className="normal-case">
              <RatioLabel ratioKey={k} />
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <Tr key={`${r.asOf}-${r.period}-${i}`}>
            <Td>{formatDate(r.asOf)}</Td>
            <Td>
              {r.period ?? MISSING}{" "}
              {r.reportType ? <span className="text-2xs text-muted">{r.reportType}</span> : null}
            </Td>
            {columns.map((k) => (
              <Td key={k} numeric>
                {value(r, k)}
              </Td>
            ))}
          </Tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
