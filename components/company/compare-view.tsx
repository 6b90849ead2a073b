"use client";

import { useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { useQueryState } from "nuqs";
import { useId, useState } from "react";
import { BarChart } from "@/components/charts/lazy-charts";
import { TickerSearch } from "@/components/shell/ticker-search";
import { Button } from "@/components/ui/button";
import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Select } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/panel-state";
import { formatFigure, formatMoney } from "@/lib/format";
import { fundamentalsQueries } from "@/lib/queries/fundamentals";
import { bestAndWorst, ratioDefinition, type RatioDefinition } from "@/lib/ratio-definitions";
import type { AllFundamentalsItem } from "@/lib/schemas/fundamentals";
import { MAX_COMPARE, MIN_COMPARE, cleanCompareSymbols, compareSymbolsParser } from "./compare-params";
import { QueryPanel } from "./query-panel";
import { RatioLabel } from "./ratio-label";

type Getter = (item: AllFundamentalsItem) => number | null | undefined;

/** The operation ratios of the longest period available (1Y when present): the least seasonal view. */
function annualOps(item: AllFundamentalsItem) {
  return item.operationRatios.find((r) => r.period === "1Y") ?? item.operationRatios[0];
}

const MARKET_CAP: RatioDefinition = {
  label: "Market cap",
  definition: "Share price × shares outstanding.",
  kind: "money",
  higherIsBetter: null,
};

const KEY_RATIOS: readonly { key: string; get: Getter; def?: RatioDefinition }[] = [
  { key: "marketCap", get: (i) => i.shareClass?.marketCap, def: MARKET_CAP },
  { key: "peRatio", get: (i) => i.valuationRatios?.peRatio },
  { key: "forwardPeRatio", get: (i) => i.valuationRatios?.forwardPeRatio },
  { key: "psRatio", get: (i) => i.valuationRatios?.psRatio },
  { key: "pbRatio", get: (i) => i.valuationRatios?.pbRatio },
  { key: "evToEbitda", get: (i) => i.valuationRatios?.evToEbitda },
  { key: "fcfYield", get: (i) => i.valuationRatios?.fcfYield },
  { key: "dividendYield", get: (i) => i.valuationRatios?.dividendYield },
  { key: "grossMargin", get: (i) => annualOps(i)?.grossMargin },
  { key: "operationMargin", get: (i) => annualOps(i)?.operationMargin },
  { key: "netMargin", get: (i) => annualOps(i)?.netMargin },
  { key: "roe", get: (i) => annualOps(i)?.roe },
  { key: "roa", get: (i) => annualOps(i)?.roa },
  { key: "debtToEquity", get: (i) => annualOps(i)?.debtToEquity },
  { key: "currentRatio", get: (i) => annualOps(i)?.currentRatio },
  { key: "cashConversionCycle", get: (i) => annualOps(i)?.cashConversionCycle },
  { key: "dilutedEpsGrowth", get: (i) => i.earningRatios?.dilutedEpsGrowth },
  { key: "beta", get: (i) => i.alphaBeta[0]?.beta },
];

const defOf = (r: (typeof KEY_RATIOS)[number]) => r.def ?? ratioDefinition(r.key);

export function CompareView() {
  const id = useId();
  const [rawSymbols, setSymbols] = useQueryState("symbols", compareSymbolsParser);
  const symbols = cleanCompareSymbols(rawSymbols);
  const [chartKey, setChartKey] = useState("peRatio");
  const result = useQuery({ ...fundamentalsQueries.kind("all", symbols), enabled: symbols.length >= 1 });

  const add = (ticker: string) => {
    if (symbols.length >= MAX_COMPARE || symbols.includes(ticker)) return;
    void setSymbols([...symbols, ticker]);
  };
  const remove = (ticker: string) => void setSymbols(symbols.filter((s) => s !== ticker));

  return (
    <div className="flex flex-col gap-4">
      <div
        className="flex flex-wrap items-center gap-2"
        aria-label="Companies in the comparison"
        role="group"
      >
        {symbols.map((s) => (
          <span
            key={s}
            className="border-line bg-surface inline-flex h-7 items-center gap-1 rounded border pl-2 text-[13px]"
          >
            <IntentLink
              href={`/companies/${encodeURIComponent(s)}`}
              className="text-accent font-mono font-semibold hover:underline"
            >
              {s}
            </IntentLink>
            <Button
              variant="ghost"
              size="icon"
              className="h-6"
              aria-label={`Remove ${s}`}
              onClick={() => remove(s)}
            >
              ×
            </Button>
          </span>
        ))}
        {symbols.length < MAX_COMPARE ? (
          <TickerSearch
            className="w-56"
            label="Add a company to compare"
            placeholder="Add ticker…"
            exclude={symbols}
            transcriptSearch={false}
            onSelect={(m) => add(m.ticker)}
          />
        ) : (
          <span className="text-2xs text-muted">At most {MAX_COMPARE} companies.</span>
        )}
      </div>
      {symbols.length < MIN_COMPARE ? (
        <EmptyState
          className="border-line rounded border"
          title={`Add ${MIN_COMPARE - symbols.length} more ${symbols.length === 1 ? "company" : "companies"} to compare.`}
          hint="Use the search above; up to ten companies fit side by side."
        />
      ) : (
        <QueryPanel
          result={result}
          what="fundamentals"
          isEmpty={(d) => d.data.length === 0}
          skeletonHeight={480}
        >
          {(d) => {
            // Keep the user's order; the API answers in its own.
            const items = symbols
              .map((s) => d.data.find((i) => i.symbol.toUpperCase() === s))
              .filter((i): i is AllFundamentalsItem => Boolean(i));
            const missing = symbols.filter((s) => !d.data.some((i) => i.symbol.toUpperCase() === s));
            const chartRatio = KEY_RATIOS.find((r) => r.key === chartKey) ?? KEY_RATIOS[1]!;
            const chartDef = defOf(chartRatio);
            const chartValues = items.map((i) => chartRatio.get(i) ?? null);
            const chartMarks = bestAndWorst(chartValues, chartDef);
            return (
              <>
                {missing.length > 0 ? (
                  <p role="status" className="text-warn text-[13px]">
                    No fundamentals for {missing.join(", ")}: left out of the comparison.
                  </p>
                ) : null}
                <Section title="Key ratios" id="key-ratios">
                  <p className="text-2xs text-muted mb-1">
                    Best and worst per ratio are marked where a direction is meaningful, companies tied as
                    shown alike; a valuation multiple of zero or less reads n/m (not meaningful: no earnings
                    to price) and is never best. Operation ratios use the annual (1Y) period when available.
                  </p>
                  <div tabIndex={0} className="border-line overflow-auto rounded border">
                    <table
                      className="w-full border-collapse text-[13px] tabular-nums"
                      data-testid="compare-table"
                    >
                      <caption className="sr-only">
                        Key ratios of {items.map((i) => i.symbol).join(", ")}
                      </caption>
                      <thead>
                        <tr>
                          <th
                            scope="col"
                            className="border-line bg-surface text-2xs text-muted sticky top-0 left-0 z-20 h-8 border-b px-2 text-left uppercase"
                          >
                            Ratio
                          </th>
                          {items.map((i) => (
                            <th
                              key={i.symbol}
                              scope="col"
                              className="border-line bg-surface sticky top-0 z-10 h-8 border-b px-2 text-right"
                            >
                              <span className="font-mono">{i.symbol}</span>
                              <span className="text-2xs text-muted block max-w-36 truncate font-normal">
                                {i.company.standardName}
                              </span>
                            </th>
                          ))}
                        </tr>
                      </thead>
                      <tbody>
                        {KEY_RATIOS.map((r) => {
                          const def = defOf(r);
                          const values = items.map((i) => r.get(i) ?? null);
                          const marks = bestAndWorst(values, def);
                          return (
                            <tr key={r.key} className="hover:bg-surface" data-ratio={r.key}>
                              <th
                                scope="row"
                                className="border-line bg-canvas sticky left-0 z-[1] h-[30px] border-b px-2 text-left font-normal whitespace-nowrap"
                              >
                                {r.def ? r.def.label : <RatioLabel ratioKey={r.key} />}
                              </th>
                              {values.map((v, idx) => {
                                const isBest = marks.best.includes(idx);
                                const isWorst = marks.worst.includes(idx);
                                const isNm = marks.notMeaningful.includes(idx);
                                return (
                                  <td
                                    key={items[idx]!.symbol}
                                    data-mark={isBest ? "best" : isWorst ? "worst" : isNm ? "n/m" : undefined}
                                    title={
                                      isNm
                                        ? `${def.kind === "money" ? formatMoney(v) : formatFigure(v, def.kind)}: not meaningful (a multiple of zero or less)`
                                        : undefined
                                    }
                                    className={cn(
                                      "border-line h-[30px] border-b px-2 text-right whitespace-nowrap",
                                      isBest && "bg-pos-soft text-pos font-semibold",
                                      isWorst && "bg-neg-soft text-neg",
                                      isNm && "text-muted",
                                    )}
                                  >
                                    {isBest ? (
                                      <span aria-hidden className="text-2xs mr-1">
                                        ▲
                                      </span>
                                    ) : isWorst ? (
                                      <span aria-hidden className="text-2xs mr-1">
                                        ▼
                                      </span>
                                    ) : null}
                                    {isNm
                                      ? "n/m"
                                      : def.kind === "money"
                                        ? formatMoney(v)
                                        : formatFigure(v, def.kind)}
                                    {isBest ? <span className="sr-only"> (best)</span> : null}
                                    {isWorst ? <span className="sr-only"> (worst)</span> : null}
                                    {isNm ? <span className="sr-only"> (not meaningful)</span> : null}
                                  </td>
                                );
                              })}
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </div>
                </Section>
                <Section
                  title={`${chartDef.label} across companies`}
                  id="ratio-chart"
                  actions={
                    <Field label="Ratio" htmlFor={`${id}-chart`}>
                      <Select
                        id={`${id}-chart`}
                        value={chartRatio.key}
                        onChange={(e) => setChartKey(e.target.value)}
                      >
                        {KEY_RATIOS.map((r) => (
                          <option key={r.key} value={r.key}>
                            {defOf(r).label}
                          </option>
                        ))}
                      </Select>
                    </Field>
                  }
                >
                  <p className="text-2xs text-muted mb-1">
                    {chartDef.definition}
                    {chartDef.higherIsBetter === null
                      ? ""
                      : chartDef.higherIsBetter
                        ? " Higher is better."
                        : " Lower is better."}
                  </p>
                  <BarChart
                    data={items.map((i, idx) => ({
                      label: i.symbol,
                      // A multiple that is not meaningful is left off the chart, as the table reads it n/m.
                      value: chartMarks.notMeaningful.includes(idx) ? null : (chartValues[idx] ?? null),
                      color: chartMarks.best.includes(idx)
                        ? "var(--pos)"
                        : chartMarks.worst.includes(idx)
                          ? "var(--neg)"
                          : undefined,
                    }))}
                    formatValue={(v) =>
                      chartDef.kind === "money" ? formatMoney(v) : formatFigure(v, chartDef.kind)
                    }
                    ariaLabel={`${chartDef.label} of ${items.map((i) => i.symbol).join(", ")}`}
                  />
                </Section>
              </>
            );
          }}
        </QueryPanel>
      )}
    </div>
  );
}
