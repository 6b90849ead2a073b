import { formatEps, formatMoney, formatNumber, formatPercent } from "@/lib/format";
import { METRIC_LABELS } from "@/lib/insights/metric-specs";
import type { Change, Figure, FigurePeriod, FigureUnit } from "@/lib/schemas/insights";

/** A figure's value as an analyst reads it: "$4.20B", "$1.99", "45.2%", "+40 bp", "+12%". */
export function formatFigureValue(value: number, unit: FigureUnit, isChange = false): string {
  switch (unit) {
    case "usd":
      return isChange && value > 0 ? `+${formatMoney(value)}` : formatMoney(value);
    case "usd_per_share":
      return `${value < 0 ? "−" : ""}$${formatEps(Math.abs(value))}`;
    case "percent":
      return formatPercent(value, { sign: isChange, decimals: Number.isInteger(value) ? 0 : 1 });
    case "bps":
      return `${value > 0 ? "+" : value < 0 ? "−" : ""}${formatNumber(Math.abs(value), 0)} bp`;
    case "count":
      return `${isChange && value > 0 ? "+" : value < 0 ? "−" : ""}${formatCount(Math.abs(value))}`;
  }
}

/** "2.2M", "12,400": a count as an analyst reads it. */
function formatCount(value: number): string {
  if (value >= 1e9) return `${formatNumber(value / 1e9, 2)}B`;
  if (value >= 1e6) return `${formatNumber(value / 1e6, 2)}M`;
  return formatNumber(value, 0);
}

export function formatFigure(f: Pick<Figure, "value" | "unit" | "kind" | "low" | "high">): string {
  const isChange = f.kind === "change";
  if (f.low !== undefined && f.high !== undefined && f.low !== f.high) {
    return `${formatFigureValue(f.low, f.unit, isChange)} – ${formatFigureValue(f.high, f.unit, isChange)}`;
  }
  return formatFigureValue(f.value, f.unit, isChange);
}

/** "Revenue", "Data Center revenue", "EMC gross margin": a segment's figure says whose it is. */
export function figureLabel(f: Pick<Figure, "metric" | "segment">): string {
  if (!f.segment) return METRIC_LABELS[f.metric];
  if (f.metric === "segment_revenue") return `${f.segment} revenue`;
  const label = METRIC_LABELS[f.metric];
  return `${f.segment} ${/^[A-Z]{2,}/.test(label) ? label : label.toLowerCase()}`;
}

/** What a figure is, in words: "Revenue", "Revenue growth", "Gross margin change", "EPS (a year ago)". */
export function figureName(f: Pick<Figure, "metric" | "segment" | "kind" | "unit" | "period">): string {
  const kind = f.kind === "change" ? (f.unit === "bps" ? " change" : " growth") : "";
  const period = f.period === "quarter" ? "" : ` (${PERIOD_LABELS[f.period]})`;
  return `${figureLabel(f)}${kind}${period}`;
}

export const PERIOD_LABELS: Record<FigurePeriod, string> = {
  quarter: "this quarter",
  prior_year_quarter: "a year ago",
  prior_quarter: "last quarter",
  next_quarter: "next quarter",
  full_year: "full year",
  prior_year: "last year",
  other: "other period",
};

/** "guides revenue 2.2 % below consensus", "beat consensus by 2.8 %". */
export function consensusPhrase(f: Figure): string | null {
  if (f.surprisePercent === undefined) return null;
  const size = formatPercent(Math.abs(f.surprisePercent), { sign: false });
  const what = f.metric === "eps" ? "EPS" : "revenue";
  if (f.isGuidance) {
    if (Math.abs(f.surprisePercent) < 0.05) return `guides ${what} in line with consensus`;
    return `guides ${what} ${size} ${f.surprisePercent > 0 ? "above" : "below"} consensus`;
  }
  if (Math.abs(f.surprisePercent) < 0.05) return "in line with consensus";
  return `${f.surprisePercent > 0 ? "beat" : "missed"} consensus by ${size}`;
}

export const CHANGE_LABELS: Record<Change["kind"], string> = {
  figure_up: "Figure up",
  figure_down: "Figure down",
  guidance_raised: "Guidance raised",
  guidance_lowered: "Guidance lowered",
  intensity_up: "Stronger words",
  intensity_down: "Softer words",
  new_topic: "New topic",
  dropped_topic: "Dropped topic",
};

export function changeTone(kind: Change["kind"]): "pos" | "neg" | "neutral" {
  if (kind === "figure_up" || kind === "guidance_raised" || kind === "intensity_up") return "pos";
  if (kind === "figure_down" || kind === "guidance_lowered" || kind === "intensity_down") return "neg";
  return "neutral";
}

/** One line saying what changed: "Revenue $3.90B → $4.20B", "Revenue growth +5% → −2.7%", "strong → modest". */
export function changeSummary(c: Change): string {
  if (c.before !== null && c.after !== null && c.unit !== null && c.metric !== null) {
    const base = c.topic && c.metric === "segment_revenue" ? `${c.topic} revenue` : METRIC_LABELS[c.metric];
    // A percent of a money metric, or basis points, is a movement: "Revenue growth", "Gross margin change".
    const isMove = c.unit === "bps" || (c.unit === "percent" && !/margin/.test(c.metric));
    const label = isMove ? `${base} ${c.unit === "bps" ? "change" : "growth"}` : base;
    return `${label} ${formatFigureValue(c.before, c.unit, isMove)} → ${formatFigureValue(c.after, c.unit, isMove)}`;
  }
  if (c.fromWord && c.toWord) return `“${c.fromWord}” → “${c.toWord}”`;
  return c.topic ?? "";
}

/** Changes read off the same pair of sentences, together: one row, both quotes once. */
export function groupChanges(changes: readonly Change[]): Change[][] {
  const groups: Change[][] = [];
  const byPair = new Map<string, Change[]>();
  for (const c of changes) {
    const key = `${c.sequence ?? "-"}|${c.previousSequence ?? "-"}`;
    const group = c.sequence !== null && c.previousSequence !== null ? byPair.get(key) : undefined;
    if (group) group.push(c);
    else {
      const fresh = [c];
      groups.push(fresh);
      byPair.set(key, fresh);
    }
  }
  return groups;
}

/**
 * One row per statement: calls repeat their headline figures (the CEO's remarks, then the CFO's review), and the
 * panel lists each once, at its first mention, with how often it was said.
 */
export function distinctFigures(figures: readonly Figure[]): { figure: Figure; times: number }[] {
  const byKey = new Map<string, { figure: Figure; times: number }>();
  for (const f of figures) {
    const key = [f.metric, f.segment, f.kind, f.period, f.isGuidance, f.basis, f.value, f.low, f.high].join(
      "|",
    );
    const had = byKey.get(key);
    if (had) had.times++;
    else byKey.set(key, { figure: f, times: 1 });
  }
  return [...byKey.values()];
}

/**
 * A guidance figure in one line, as an alert says it: "guides revenue $4.10B, 1.6% below consensus $4.17B", or
 * without a comparable estimate "guides revenue $4.10B (next quarter)".
 */
export function guidanceLine(f: Figure): string {
  const value = formatFigure(f);
  const compared = consensusPhrase(f);
  if (compared && f.consensus !== undefined) {
    const estimate = formatFigureValue(f.consensus, f.unit);
    return `${compared.replace(/^guides (\S+)/, `guides $1 ${value},`)} ${estimate}`;
  }
  return `guides ${figureName({ ...f, period: "quarter" }).toLowerCase()} ${value}${
    f.period === "quarter" ? "" : ` (${PERIOD_LABELS[f.period]})`
  }`;
}
