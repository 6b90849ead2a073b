/**
 * The hand-written labels of bench/language/labels.json: which sentence (file, section, turn, character offset and
 * length in the turn's text), whether it is management guidance, and every figure an analyst would take from it,
 * written in a compact notation (bench/language/README.md):
 *
 *   metric kind value unit period [adj|gaap] [g] [low..high] [~] [seg?] [|segment]
 *
 * e.g. `revenue L 4.2e9 $ q`, `eps L 1.05 $/sh nq adj g 0.95..1.15`, `segment_revenue C -4 % q |EMEA`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

export const LABELS_PATH = join(fileURLToPath(new URL(".", import.meta.url)), "labels.json");

const UNITS = {
  $: "usd",
  "$/sh": "usd_per_share",
  "%": "percent",
  bp: "bps",
  n: "count",
  x: "ratio",
} as const;
const PERIODS = {
  q: "quarter",
  pyq: "prior_year_quarter",
  pq: "prior_quarter",
  nq: "next_quarter",
  fy: "full_year",
  py: "prior_year",
  o: "other",
} as const;

export interface LabelFigure {
  /** One or more metric names (`net_income/eps`: either reading is right). */
  metrics: string[];
  kind: "level" | "change";
  value: number;
  unit: (typeof UNITS)[keyof typeof UNITS];
  periods: (typeof PERIODS)[keyof typeof PERIODS][];
  basis: "adjusted" | "gaap" | null;
  isGuidance: boolean;
  low?: number;
  high?: number;
  /** A qualitative amount ("double-digit growth"): the value is not compared. */
  approximate: boolean;
  /** A part of the company (segment, product, region), `?` when unnamed; null for the company as a whole. */
  segment: string | null;
  /** The sentence does not say whether it is the company or a part of it: either reading is right. */
  segmentOptional: boolean;
  raw: string;
}

export interface LabelledSentence {
  file: string;
  split: "tuning" | "heldout" | "fresh" | "fresh2";
  section: "prepared_remarks" | "q_and_a";
  turn: number;
  offset: number;
  length: number;
  guidance: boolean;
  figures: LabelFigure[];
}

const sentenceSchema = z.object({
  file: z.string(),
  split: z.enum(["tuning", "heldout", "fresh", "fresh2"]),
  section: z.enum(["prepared_remarks", "q_and_a"]),
  turn: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  length: z.number().int().positive(),
  guidance: z.boolean(),
  figures: z.array(z.string()),
});
const fileSchema = z.object({ version: z.literal(1), sentences: z.array(sentenceSchema) });

export function parseLabelFigure(raw: string): LabelFigure {
  const [head, segment] = raw.split("|").map((s) => s.trim()) as [string, string | undefined];
  const tokens = head.split(/\s+/);
  const [metric, kind, value, unit, period, ...flags] = tokens;
  if (!metric || !kind || !value || !unit || !period) throw new Error(`label "${raw}": too few fields`);
  if (kind !== "L" && kind !== "C") throw new Error(`label "${raw}": kind is L or C`);
  if (!(unit in UNITS)) throw new Error(`label "${raw}": unknown unit ${unit}`);
  const periods = period.split("/").map((p) => {
    if (!(p in PERIODS)) throw new Error(`label "${raw}": unknown period ${p}`);
    return PERIODS[p as keyof typeof PERIODS];
  });
  const figure: LabelFigure = {
    metrics: metric.split("/"),
    kind: kind === "L" ? "level" : "change",
    value: Number(value),
    unit: UNITS[unit as keyof typeof UNITS],
    periods,
    basis: null,
    isGuidance: false,
    approximate: false,
    segment: segment ?? null,
    segmentOptional: false,
    raw,
  };
  if (!Number.isFinite(figure.value)) throw new Error(`label "${raw}": value is not a number`);
  for (const flag of flags) {
    if (flag === "adj") figure.basis = "adjusted";
    else if (flag === "gaap") figure.basis = "gaap";
    else if (flag === "g") figure.isGuidance = true;
    else if (flag === "~") figure.approximate = true;
    else if (flag === "seg?") figure.segmentOptional = true;
    else if (/^-?[\d.e]+\.\.-?[\d.e]+$/.test(flag)) {
      const [low, high] = flag.split("..").map(Number) as [number, number];
      figure.low = low;
      figure.high = high;
    } else throw new Error(`label "${raw}": unknown flag ${flag}`);
  }
  return figure;
}

export function loadLabels(path = LABELS_PATH): LabelledSentence[] {
  const parsed = fileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  return parsed.sentences.map((s) => ({ ...s, figures: s.figures.map(parseLabelFigure) }));
}
