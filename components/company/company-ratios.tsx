"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { LineChart } from "@/components/charts/line-chart";
import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Select } from "@/components/ui/field";
import { MISSING, formatCompact, formatDate, formatFigure } from "@/lib/format";
import { fundamentalsQueries } from "@/lib/queries/fundamentals";
import {
  EARNING_RATIO_KEYS,
  OPERATION_PERIODS,
  OPERATION_RATIO_KEYS,
  VALUATION_RATIO_KEYS,
  type EarningReport,
  type OperationRatio,
  type ValuationRatio,
} from "@/lib/schemas/fundamentals";
import { ratioDefinition } from "@/lib/ratio-definitions";
import { QueryPanel } from "./query-panel";
import { RatioLabel } from "./ratio-label";

const TH =
  "sticky top-0 z-10 h-8 border-b border-line bg-surface px-2 text-2xs font-semibold whitespace-nowrap text-muted uppercase";
const TD = "h-[30px] border-b border-line px-2 whitespace-nowrap";

const fmt = (key: string, v: number | null | undefined) => formatFigure(v, ratioDefinition(key).kind);
const monthLabel = (x: string) => formatDate(x).replace(/ \d+,/, "");

/** The value a year (12 snapshots) before the latest, for a quick sense of direction. */
function yearAgo(rows: readonly ValuationRatio[]): ValuationRatio | undefined {
  return rows[12] ?? rows[rows.length - 1];
}

export function ValuationSection({ symbol }: { symbol: string }) {
  const id = useId();
  const result = useQuery(fundamentalsQueries.kind("valuation-ratios", [symbol]));
  const [picked, setPicked] = useState<string>("peRatio");
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
          const keys = VALUATION_RATIO_KEYS.filter((k) => rows.some((r) => r[k] !== null));
          const history = [...rows]
            .reverse()
            .filter((r) => r.date)
            .map((r) => ({ x: r.date!, value: r[picked as keyof ValuationRatio] as number | null }));
          return (
            <div className="grid gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
              <div tabIndex={0} className="border-line max-h-[420px] overflow-auto rounded border">
                <table className="w-full border-collapse text-[13px] tabular-nums">
                  <caption className="sr-only">
                    Valuation ratios of {symbol}; select a row to chart its history
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col" className={cn(TH, "text-left")}>
                        Ratio
                      </th>
                      <th scope="col" className={cn(TH, "text-right")}>
                        {formatDate(latest.date)}
                      </th>
                      <th scope="col" className={cn(TH, "text-right")}>
                        {prior?.date ? formatDate(prior.date) : "Year ago"}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {keys.map((k) => (
                      <tr
                        key={k}
                        className={cn(
                          "hover:bg-surface",
                          picked === k && "bg-accent-soft hover:bg-accent-soft",
                        )}
                      >
                        <th scope="row" className={cn(TD, "text-left font-normal")}>
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
                        </th>
                        <td className={cn(TD, "text-right")}>{fmt(k, latest[k])}</td>
                        <td className={cn(TD, "text-muted text-right")}>{fmt(k, prior?.[k])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="min-w-0">
                <Field label="Ratio to chart" htmlFor={`${id}-ratio`} className="mb-2 w-56">
                  <Select id={`${id}-ratio`} value={picked} onChange={(e) => setPicked(e.target.value)}>
                    {keys.map((k) => (
                      <option key={k} value={k}>
                        {ratioDefinition(k).label}
                      </option>
                    ))}
                  </Select>
                </Field>
                <p className="text-2xs text-muted mb-1">
                  {ratioDefinition(picked).definition} Month-end values.
                </p>
                <LineChart
                  data={history}
                  series={[{ key: "value", label: ratioDefinition(picked).label, color: "var(--accent)" }]}
                  formatY={(v) => fmt(picked, v)}
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
  const result = useQuery(fundamentalsQueries.kind("operation-ratios", [symbol]));
  return (
    <Section title="Operation ratios by period" id="operation-ratios">
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
          const periods = [
            ...OPERATION_PERIODS.filter((p) => byPeriod.has(p)),
            ...[...byPeriod.keys()].filter((p) => !(OPERATION_PERIODS as readonly string[]).includes(p)),
          ];
          const keys = OPERATION_RATIO_KEYS.filter((k) => periods.some((p) => byPeriod.get(p)?.[k] !== null));
          return (
            <div tabIndex={0} className="border-line max-h-[420px] overflow-auto rounded border">
              <table className="w-full border-collapse text-[13px] tabular-nums">
                <caption className="sr-only">Operation ratios of {symbol} by reporting period</caption>
                <thead>
                  <tr>
                    <th scope="col" className={cn(TH, "text-left")}>
                      Ratio
                    </th>
                    {periods.map((p) => (
                      <th key={p} scope="col" className={cn(TH, "text-right")}>
                        {p}
                        <span className="block font-normal normal-case">
                          {formatDate(byPeriod.get(p)?.asOf)}
                        </span>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {keys.map((k) => (
                    <tr key={k} className="hover:bg-surface">
                      <th scope="row" className={cn(TD, "text-left font-normal")}>
                        <RatioLabel ratioKey={k} />
                      </th>
                      {periods.map((p) => (
                        <td key={p} className={cn(TD, "text-right")}>
                          {fmt(k, byPeriod.get(p)?.[k])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="sr-only">Latest report {latestAsOf}</p>
            </div>
          );
        }}
      </QueryPanel>
    </Section>
  );
}

export function EarningRatiosSection({ symbol }: { symbol: string }) {
  const result = useQuery(fundamentalsQueries.kind("earning-ratios", [symbol]));
  return (
    <Section title="Earning ratios" id="earning-ratios">
      <QueryPanel
        result={result}
        what="earning ratios"
        isEmpty={(d) => (d.data[0]?.earningRatios.length ?? 0) === 0}
      >
        {(d) => {
          const rows = d.data[0]!.earningRatios.slice(0, 12);
          return (
            <div tabIndex={0} className="border-line max-h-[360px] overflow-auto rounded border">
              <table className="w-full border-collapse text-[13px] tabular-nums">
                <caption className="sr-only">Earning ratios of {symbol}, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col" className={cn(TH, "text-left")}>
                      As of
                    </th>
                    <th scope="col" className={cn(TH, "text-left")}>
                      Period
                    </th>
                    {EARNING_RATIO_KEYS.map((k) => (
                      <th key={k} scope="col" className={cn(TH, "text-right normal-case")}>
                        <RatioLabel ratioKey={k} />
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r, i) => (
                    <tr key={`${r.asOf}-${r.period}-${i}`} className="hover:bg-surface">
                      <td className={TD}>{formatDate(r.asOf)}</td>
                      <td className={TD}>
                        {r.period ?? MISSING}{" "}
                        {r.reportType ? <span className="text-2xs text-muted">{r.reportType}</span> : null}
                      </td>
                      {EARNING_RATIO_KEYS.map((k) => (
                        <td key={k} className={cn(TD, "text-right")}>
                          {fmt(k, r[k])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
  const result = useQuery(fundamentalsQueries.kind("earning-reports", [symbol]));
  return (
    <Section title="Earning reports" id="earning-reports">
      <QueryPanel
        result={result}
        what="earning reports"
        isEmpty={(d) => (d.data[0]?.earningReports.length ?? 0) === 0}
        skeletonHeight={360}
      >
        {(d) => {
          const reports = d.data[0]!.earningReports;
          const quarterly = reports.filter((r) => r.period === "3M" && r.asOf);
          const chartRows = [...quarterly].reverse().map((r) => ({ x: r.asOf!, eps: r.dilutedEps }));
          return (
            <div className="grid gap-4 lg:grid-cols-2">
              <div className="min-w-0">
                <p className="text-2xs text-muted mb-1">Quarterly diluted EPS (3M reports)</p>
                {chartRows.length > 0 ? (
                  <LineChart
                    data={chartRows}
                    series={[{ key: "eps", label: "Diluted EPS", color: "var(--accent)" }]}
                    formatY={(v) => formatFigure(v, "eps")}
                    formatX={monthLabel}
                    height={260}
                    ariaLabel={`Quarterly diluted EPS history of ${symbol}`}
                  />
                ) : (
                  <p className="text-muted text-[13px]">No quarterly reports to chart.</p>
                )}
              </div>
              <ReportsTable reports={reports.slice(0, 16)} symbol={symbol} />
            </div>
          );
        }}
      </QueryPanel>
    </Section>
  );
}

function ReportsTable({ reports, symbol }: { reports: readonly EarningReport[]; symbol: string }) {
  return (
    <div tabIndex={0} className="border-line max-h-[300px] overflow-auto rounded border">
      <table className="w-full border-collapse text-[13px] tabular-nums">
        <caption className="sr-only">Earning reports of {symbol}, newest first</caption>
        <thead>
          <tr>
            <th scope="col" className={cn(TH, "text-left")}>
              As of
            </th>
            <th scope="col" className={cn(TH, "text-left")}>
              Period
            </th>
            {REPORT_COLUMNS.map((k) => (
              <th key={k} scope="col" className={cn(TH, "text-right normal-case")}>
                <RatioLabel ratioKey={k} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {reports.map((r, i) => (
            <tr key={`${r.asOf}-${r.period}-${i}`} className="hover:bg-surface">
              <td className={TD}>{formatDate(r.asOf)}</td>
              <td className={TD}>{r.period}</td>
              {REPORT_COLUMNS.map((k) => (
                <td key={k} className={cn(TD, "text-right")}>
                  {k === "dilutedAverageShares" ? formatCompact(r[k]) : fmt(k, r[k])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
