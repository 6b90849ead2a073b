/**
 * Bodies shaped like the real service's published examples (`test/fixtures/upstream/documented/`, written from its reference:
 * flat fundamentals records with `id{…}`, headline call titles with `description`, a relative singular
 * `recording`, millisecond segment times) go through the mappers, and every value they carry arrives in our API's
 * shape, except the members listed as not part of our API (docs/upstream.md §8).
 */
import { describe, expect, it } from "vitest";
import { earningsRowSchema, maRowSchema } from "@/lib/schemas/calendar";
import { callListItemSchema, callSchema, callSummarySchema } from "@/lib/schemas/calls";
import { fundamentalsItemSchemas, type FundamentalsKind } from "@/lib/schemas/fundamentals";
import { parseFrame } from "@/server/upstream/stream/frames";
import { earningsRowsFromBody, maRowsFromBody } from "./calendars";
import { callFromBody, callListFromBody, mediaLinksFromBody, summaryFromBody } from "./calls";
import all from "@/test/fixtures/upstream/documented/all.json";
import alphaBeta from "@/test/fixtures/upstream/documented/alpha-beta.json";
import assetClassification from "@/test/fixtures/upstream/documented/asset-classification.json";
import balanceSheetV3 from "@/test/fixtures/upstream/documented/balance-sheet-v3.json";
import call from "@/test/fixtures/upstream/documented/call.json";
import calls from "@/test/fixtures/upstream/documented/calls.json";
import companyProfile from "@/test/fixtures/upstream/documented/company-profile.json";
import company from "@/test/fixtures/upstream/documented/company.json";
import earningRatios from "@/test/fixtures/upstream/documented/earning-ratios.json";
import earningReports from "@/test/fixtures/upstream/documented/earning-reports.json";
import earnings from "@/test/fixtures/upstream/documented/earnings.json";
import financials from "@/test/fixtures/upstream/documented/financials.json";
import ma from "@/test/fixtures/upstream/documented/ma.json";
import operationRatios from "@/test/fixtures/upstream/documented/operation-ratios.json";
import shareClassProfile from "@/test/fixtures/upstream/documented/share-class-profile.json";
import shareClass from "@/test/fixtures/upstream/documented/share-class.json";
import streamSentence from "@/test/fixtures/upstream/documented/stream-sentence.json";
import summary from "@/test/fixtures/upstream/documented/summary.json";
import valuationRatios from "@/test/fixtures/upstream/documented/valuation-ratios.json";
import { balanceSheetItemsFromBody, fundamentalsItemsFromBody } from "./fundamentals";

/** Scalars compared by meaning: decimal strings as numbers, date-times as instants, "" as absent. */
function normalise(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    const t = value.trim();
    if (/^-?\d+(\.\d+)?$/.test(t)) return String(Number(t));
    if (/^\d{4}-\d{2}-\d{2}T/.test(t) && !Number.isNaN(Date.parse(t))) return new Date(t).toISOString();
    return t;
  }
  return String(value);
}

/** Every scalar leaf with its path (`a.b.0.c`). */
function leaves(value: unknown, path = "", out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}.${i}`, out));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) leaves(v, path === "" ? k : `${path}.${k}`, out);
  } else out.push([path, value]);
  return out;
}

/**
 * Values of `body` (outside `notOurs`, path patterns with `*` for any segment) that appear nowhere in `mapped`.
 * Dates also count when the mapped side has them as YYYY-MM-DD.
 */
function missing(body: unknown, mapped: unknown, notOurs: readonly string[]): string[] {
  const have = new Set<string>();
  for (const [, v] of leaves(mapped)) {
    const n = normalise(v);
    if (n !== null) have.add(n);
  }
  const skip = notOurs.map(
    (p) => new RegExp(`(^|\\.)${p.replace(/\./g, "\\.").replace(/\*/g, "[^.]+")}(\\.|$)`),
  );
  const out: string[] = [];
  for (const [path, v] of leaves(body)) {
    const n = normalise(v);
    if (n === null || skip.some((re) => re.test(path))) continue;
    const asDate = /^\d{4}-\d{2}-\d{2}T/.test(n) ? n.slice(0, 10) : null;
    if (!have.has(n) && !(asDate && have.has(asDate))) out.push(`${path} = ${JSON.stringify(v)}`);
  }
  return out;
}

/** Members of every documented fundamentals record that our API does not carry. */
const FUNDAMENTALS_NOT_OURS = [
  "idType",
  "id.companyId",
  "id.aorRestate",
  "isCalculated",
  "fiscalYearEndChange",
  "ok",
  "processingTimeMillis",
] as const;

type V21 = Exclude<FundamentalsKind, "balance-sheet">;

const V21_FIXTURES: [V21, unknown, readonly string[]][] = [
  ["valuation-ratios", valuationRatios, []],
  ["operation-ratios", operationRatios, []],
  ["earning-ratios", earningRatios, []],
  ["earning-reports", earningReports, []],
  // A statement's own fiscal-year-end month is the company profile's business.
  [
    "financials",
    financials,
    ["balanceSheet.fiscalYearEnd", "incomeStatement.fiscalYearEnd", "cashFlowStatement.fiscalYearEnd"],
  ],
  ["share-class", shareClass, []],
  ["share-class-profile", shareClassProfile, []],
  ["alpha-beta", alphaBeta, []],
  ["company", company, []],
  ["company-profile", companyProfile, []],
  ["asset-classification", assetClassification, []],
  [
    "all",
    all,
    ["balanceSheet.fiscalYearEnd", "incomeStatement.fiscalYearEnd", "cashFlowStatement.fiscalYearEnd"],
  ],
];

describe("documented fundamentals bodies", () => {
  it.each(V21_FIXTURES)("%s: every value arrives, in our app schema", (kind, body, notOurs) => {
    const items = fundamentalsItemsFromBody(kind, body);
    expect(items).toHaveLength(1);
    for (const item of items) expect(fundamentalsItemSchemas[kind].parse(item)).toEqual(item);
    expect(missing(body, items, [...FUNDAMENTALS_NOT_OURS, ...notOurs])).toEqual([]);
  });

  it("operation ratios: flat records keep their period from id, the reference's spellings land on our names", () => {
    const [item] = fundamentalsItemsFromBody("operation-ratios", operationRatios);
    expect(item!.operationRatios.map((r) => [r.asOf, r.period])).toEqual([
      ["2025-03-31", "3M"],
      ["2025-03-31", "1Y"],
      ["2024-12-31", "3M"],
    ]);
    expect(item!.operationRatios[1]).toMatchObject({
      reportType: "A",
      fiscalYearEnd: "3",
      ebitdaMargin: 0.2273,
      roa: 0.0645,
      fixAssetTurnover: 5.42,
      debtToAssets: 0.1802,
      payableTurnover: 8.8,
    });
    expect(item!.operationRatios[1]!.other).toMatchObject({ normalizedRoic: 0.0972, taxRate: 0.2432 });
  });

  it("earning reports and ratios: EPS and dilutedContEpsGrowth are read, currency from currencyId", () => {
    const [reports] = fundamentalsItemsFromBody("earning-reports", earningReports);
    expect(reports!.earningReports[0]).toMatchObject({
      period: "3M",
      dilutedEps: 0.63,
      basicEps: 0.64,
      currency: "USD",
    });
    const [ratios] = fundamentalsItemsFromBody("earning-ratios", earningRatios);
    expect(ratios!.earningRatios[0]).toMatchObject({
      dilutedConstEpsGrowth: 13.04,
      aorOrRestate: "AOR",
      period: "1Y",
    });
    expect(ratios!.earningRatios[0]!.other).toMatchObject({ fcfPerShareGrowth: 22.5 });
  });

  it("statements: metadata lifted out of the line items, every real line item listed", () => {
    const [item] = fundamentalsItemsFromBody("financials", financials);
    const statement = item!.financials[0]!;
    expect(statement).toMatchObject({
      asOf: "2025-03-31",
      period: "12M",
      currency: "USD",
      periodEndingDate: "2025-03-31",
    });
    for (const part of [statement.balanceSheet, statement.incomeStatement, statement.cashFlowStatement]) {
      for (const meta of [
        "id",
        "currencyId",
        "periodEndingDate",
        "isCalculated",
        "fiscalYearEnd",
        "fiscalYearEndChange",
      ]) {
        expect(part).not.toHaveProperty(meta);
      }
    }
    expect(Object.keys(statement.balanceSheet)).toHaveLength(
      Object.keys(financials.result[0]!.financials[0]!.balanceSheet).length - 6,
    );
    expect(statement.balanceSheet).toMatchObject({ netPpe: 83_110_000, totalAssets: 962_880_000 });
  });

  it("share class: currencyId, isPrimaryShare and an ISO ipoDate", () => {
    const [item] = fundamentalsItemsFromBody("share-class", shareClass);
    expect(item!.shareClass).toMatchObject({
      currency: "USD",
      isPrimary: true,
      isDepositaryReceipt: false,
      ipoDate: "2011-05-05",
    });
  });

  it("the combined answer: arrays per section, the latest records, the extra sections", () => {
    const [item] = fundamentalsItemsFromBody("all", all);
    expect(item!.operationRatios.map((r) => r.period)).toEqual(["3M", "1Y"]);
    expect(item!.earningReports.map((r) => r.period)).toEqual(["3M", "12M"]);
    expect(item!.shareClassProfile).toMatchObject({ marketCap: 1_014_690_000 });
    expect(item!.financials?.balanceSheet.totalAssets).toBe(962_880_000);
    expect(item!.assetClassification).toMatchObject({ msSectorCode: "310", msSuperSectorName: "Sensitive" });
  });

  it("v3 balance sheet: every value arrives", () => {
    const items = balanceSheetItemsFromBody(balanceSheetV3);
    expect(missing(balanceSheetV3, items, ["ok", "type"])).toEqual([]);
  });
});

describe("documented calendar bodies", () => {
  it("earnings and M&A: every value arrives", () => {
    const rows = earningsRowsFromBody(earnings);
    for (const row of rows) earningsRowSchema.parse(row);
    // The 0/1 flag becomes a boolean.
    expect(missing(earnings, rows, ["id", "updated", "date_confirmed"])).toEqual([]);
    expect(rows[0]!.isDateConfirmed).toBe(true);
    const deals = maRowsFromBody(ma);
    for (const deal of deals) maRowSchema.parse(deal);
    expect(missing(ma, deals, ["id", "updated"])).toEqual([]);
  });
});

/** Members of the documented call our API does not carry (storage details, FIGIs, record ids). */
const CALL_NOT_OURS = [
  "figis",
  "securities",
  "created_at",
  "updated_at",
  "transcripts.*.transcript_id",
  "transcripts.*.text",
  "transcripts.*.language",
  "transcripts.*.confidence_score",
  "transcripts.*.type",
  "recording",
  "summary_id",
  "participant_id",
  "duration",
  // The status word becomes our lifecycle (asserted per test).
  "status",
] as const;

describe("documented call bodies", () => {
  it("one call: title from description, headline as subtitle, period and year from the title, ms offsets", () => {
    const mapped = callFromBody(call);
    callSchema.omit({ streamCursor: true }).parse(mapped);
    expect(mapped).toMatchObject({
      callId: "6825da6a06fdca0001a89e50",
      title: "Q4 2025 Thermon Example Holdings (THR) Earnings Conference Call",
      headline: call.call_title,
      period: "Q4",
      year: 2025,
      status: "enriched",
      hasMp3: true,
      // 14:59:03 to 15:55:23, not the `duration` of 52 (minutes) read as seconds.
      durationSeconds: 3380,
    });
    expect(mapped.segments[1]).toMatchObject({
      startMs: 120_140,
      endMs: 129_640,
      speakerName: "Yvonne Salem",
    });
    expect(mapped.summary?.points).toHaveLength(3);
    expect(
      missing(call, mapped, [
        ...CALL_NOT_OURS,
        "headline",
        "summary.call_id",
        "participants.*.call_id",
        // The transcript is keyed by the live sentences: the final one lends its speaker names, not its timings.
        "transcripts.1.segments.*.start_time",
        "transcripts.1.segments.*.end_time",
        "transcripts.1.segments.*.confidence",
        // One point per line (asserted above).
        "summary.summary",
      ]),
    ).toEqual([]);
  });

  it("the long `headline` field never replaces the formal title", () => {
    const mapped = callFromBody(call);
    expect(mapped.title).not.toBe(call.headline);
  });

  it("a singular recording with a relative link resolves against the base URL", () => {
    const links = mediaLinksFromBody(call, "https://api.example.test");
    expect(links.mp3).toBe("https://api.example.test/6825da6a06fdca0001a89e50/mp3/audio.mp3");
    expect(mediaLinksFromBody(call).mp3).toBeNull();
  });

  it("a call list: ids that are not hex, live calls, every value arrives", () => {
    const { items, hits } = callListFromBody(calls);
    for (const item of items) callListItemSchema.parse(item);
    expect(hits).toBe(2);
    expect(items[1]).toMatchObject({
      callId: "call_7Gx-Q2",
      title: "Example Corp (EXC) Q1 2026 Earnings Call",
      period: "Q1",
      year: 2026,
      status: "live",
    });
    expect(missing(calls, items, [...CALL_NOT_OURS, "headline", "message", "pagination"])).toEqual([]);
  });

  it("a summary with blank symbol and transcript id: the points and times arrive", () => {
    const mapped = summaryFromBody(summary);
    expect(mapped).not.toBeNull();
    callSummarySchema.parse(mapped);
    expect(missing(summary, mapped, ["summary_id", "summary"])).toEqual([]);
    expect(mapped!.points[0]).toBe("Thermon Example reported a 5% increase in Q4 revenue.");
  });
});

describe("documented stream frames", () => {
  it("a sentence frame: every value the live bus uses arrives", () => {
    const frame = parseFrame(JSON.stringify(streamSentence));
    expect(frame.kind).toBe("sentence");
    if (frame.kind !== "sentence") return;
    expect(frame.sentence).toMatchObject({
      callId: "67ecf164692ecb0001940d4b",
      symbol: "AAPL",
      sequence: 2,
      text: streamSentence.sentence,
    });
  });

  it("the acknowledgment as a JSON string", () => {
    expect(parseFrame('"Subscribed to AAPL"')).toEqual({ kind: "ack", action: "subscribed", ticker: "AAPL" });
    expect(parseFrame('"Unsubscribed from *"')).toEqual({ kind: "ack", action: "unsubscribed", ticker: "*" });
  });
});
