/**
 * Calendars v2.1 (docs/upstream.md §2): `GET /api/v2.1/calendar/earnings` → `{earnings: […]}` and
 * `GET /api/v2.1/calendar/ma` → `{ma: […]}`, product `calendars`.
 *
 * Decisions where the contract is silent:
 * - An empty value (`pagesize=`) counts as absent, and unknown parameters are ignored, as the real service does.
 *   Repeated parameters: the first value counts.
 * - `parameters[date]` wins over `parameters[date_from]`/`parameters[date_to]` when both are sent; all three are
 *   still validated. Dates filter on the record's `date` (for M&A: the announcement date).
 * - Tickers are trimmed and matched case-insensitively; empty entries (`A,,B`) are dropped; each must look like a
 *   ticker (letters, digits, `.`, `-`, at most 12). On M&A a ticker matches the acquirer or the target.
 * - Earnings `date` alone means ascending (a bare field sorts ascending; `date:desc` is the default). Ties are broken
 *   by `time` in the same direction as the date (newest-first reads newest time first), then by ticker ascending,
 *   then by id, so the order — and therefore paging — is total and stable.
 * - M&A: `announced` = announcement date, oldest first; `expected` and `completed` = that date, newest first (the
 *   contract's "newest first" applies to both); ties by announcement date (newest first) then id. Records lacking
 *   the sort's date are left out even when `parameters[updated]` overrides the order, since the client asked for
 *   deals having that date.
 * - `date_expected` may be `YYYY-MM-DD`, `YYYY-QN` or `YYYY-MM`; it sorts by the earliest day it denotes (the first
 *   day of the quarter or month), so a deal "expected in 2026-Q3" sorts as 2026-07-01 and falls after one expected on
 *   2026-06-30 and before one expected on 2026-07-02. A value in none of these forms counts as no date.
 * - `parameters[updated]` sorts by `updated` ascending, ties by id.
 * - XML (deprecated, `accept: application/xml`): root element `<result>`, holding `<earnings>` (or `<ma>`) with one
 *   `<item>` per record (see core/render.ts for the general mapping).
 */
import { z } from "zod";
import { badParameter, noDataFound } from "../core/api-error";
import type { EmbeddedRequest, RouteDef } from "../core/types";
import type { Universe } from "../universe/types";
import type { WireEarningsRecord, WireMaRecord } from "../universe/wire";

export const EARNINGS_SORTS = ["date", "date:asc", "date:desc"] as const;
export const MA_SORTS = ["announced", "expected", "completed"] as const;
export const MAX_TICKERS = 50;

export type EarningsSort = (typeof EARNINGS_SORTS)[number];
export type MaSort = (typeof MA_SORTS)[number];

export interface CalendarQuery<Sort extends string> {
  page: number;
  pageSize: number;
  /** Inclusive bounds, `YYYY-MM-DD`; null = open. */
  dateFrom: string | null;
  dateTo: string | null;
  /** Upper-case tickers; null = every ticker. */
  tickers: ReadonlySet<string> | null;
  importance: number | null;
  updated: number | null;
  dateSort: Sort;
}

const blankIsAbsent = (value: unknown) => (value === "" || value === null ? undefined : value);

const integerParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^[+-]?\d+$/, `${name} must be an integer between ${min} and ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `${name} must be between ${min} and ${max}`)
        .max(max, `${name} must be between ${min} and ${max}`),
    );

/** True for a `YYYY-MM-DD` that names a day that exists (no 2025-02-30). */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const dateParam = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date in the form YYYY-MM-DD`)
    .refine(isRealDate, `${name} must be a real calendar date (YYYY-MM-DD)`);

const TICKER = /^[A-Z0-9.-]{1,12}$/;

const tickersParam = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((ticker) => ticker.trim().toUpperCase())
      .filter((ticker) => ticker !== ""),
  )
  .refine(
    (tickers) => tickers.length <= MAX_TICKERS,
    `parameters[tickers] accepts at most ${MAX_TICKERS} tickers`,
  )
  .refine(
    (tickers) => tickers.every((ticker) => TICKER.test(ticker)),
    "parameters[tickers] must be comma-separated tickers (letters, digits, '.' or '-', at most 12 characters each)",
  );

const enumParam = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });

function querySchema<Sorts extends readonly [string, ...string[]]>(sorts: Sorts) {
  const optional = <S extends z.ZodType>(schema: S) => z.preprocess(blankIsAbsent, schema.optional());
  return z.object({
    page: optional(integerParam("page", 0, 100_000)),
    pagesize: optional(integerParam("pagesize", 1, 1000)),
    "parameters[date]": optional(dateParam("parameters[date]")),
    "parameters[date_from]": optional(dateParam("parameters[date_from]")),
    "parameters[date_to]": optional(dateParam("parameters[date_to]")),
    "parameters[tickers]": optional(tickersParam),
    "parameters[importance]": optional(integerParam("parameters[importance]", 0, 5)),
    "parameters[updated]": optional(
      z
        .string()
        .regex(/^\d{1,15}$/, "parameters[updated] must be a Unix time in seconds (a non-negative integer)")
        .transform(Number),
    ),
    "parameters[date_sort]": optional(enumParam("parameters[date_sort]", sorts)),
  });
}

const NAMES = [
  "page",
  "pagesize",
  "parameters[date]",
  "parameters[date_from]",
  "parameters[date_to]",
  "parameters[tickers]",
  "parameters[importance]",
  "parameters[updated]",
  "parameters[date_sort]",
] as const;

export function parseCalendarQuery<Sorts extends readonly [string, ...string[]]>(
  query: URLSearchParams,
  sorts: Sorts,
  defaultSort: Sorts[number],
): CalendarQuery<Sorts[number]> {
  const raw: Record<string, string | undefined> = {};
  for (const name of NAMES) raw[name] = query.get(name) ?? undefined;
  const parsed = querySchema(sorts).safeParse(raw);
  if (!parsed.success) throw badParameter(parsed.error.issues[0]?.message ?? "invalid parameter");
  const q = parsed.data;
  let dateFrom = q["parameters[date_from]"] ?? null;
  let dateTo = q["parameters[date_to]"] ?? null;
  if (dateFrom !== null && dateTo !== null && dateFrom > dateTo) {
    throw badParameter("parameters[date_from] must be on or before parameters[date_to]");
  }
  const date = q["parameters[date]"];
  if (date !== undefined) [dateFrom, dateTo] = [date, date];
  const tickers = q["parameters[tickers]"];
  return {
    page: q.page ?? 0,
    pageSize: q.pagesize ?? 100,
    dateFrom,
    dateTo,
    tickers: tickers === undefined || tickers.length === 0 ? null : new Set(tickers),
    importance: q["parameters[importance]"] ?? null,
    updated: q["parameters[updated]"] ?? null,
    dateSort: (q["parameters[date_sort]"] ?? defaultSort) as Sorts[number],
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function inDateRange(date: string, q: CalendarQuery<string>): boolean {
  return (q.dateFrom === null || date >= q.dateFrom) && (q.dateTo === null || date <= q.dateTo);
}

function pageOf<T>(rows: T[], q: CalendarQuery<string>): T[] {
  const start = q.page * q.pageSize;
  const page = rows.slice(start, start + q.pageSize);
  if (page.length === 0) throw noDataFound();
  return page;
}

export function selectEarnings(
  records: readonly WireEarningsRecord[],
  q: CalendarQuery<EarningsSort>,
): WireEarningsRecord[] {
  const rows = records.filter(
    (r) =>
      inDateRange(r.date, q) &&
      (q.tickers === null || q.tickers.has(r.ticker.toUpperCase())) &&
      (q.importance === null || r.importance >= q.importance) &&
      (q.updated === null || r.updated >= q.updated),
  );
  if (q.updated !== null) {
    rows.sort((a, b) => a.updated - b.updated || compareText(a.id, b.id));
  } else {
    const direction = q.dateSort === "date:desc" ? -1 : 1;
    rows.sort(
      (a, b) =>
        direction * (compareText(a.date, b.date) || compareText(a.time, b.time)) ||
        compareText(a.ticker, b.ticker) ||
        compareText(a.id, b.id),
    );
  }
  return pageOf(rows, q);
}

/** The earliest day a `date_expected` denotes, as `YYYY-MM-DD`; null when it names no date. */
export function expectedDateStart(value: string): string | null {
  if (isRealDate(value)) return value;
  const quarter = /^(\d{4})-Q([1-4])$/.exec(value);
  if (quarter) return `${quarter[1]}-${String((Number(quarter[2]) - 1) * 3 + 1).padStart(2, "0")}-01`;
  const month = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value);
  if (month) return `${month[1]}-${month[2]}-01`;
  return null;
}

export function selectMa(records: readonly WireMaRecord[], q: CalendarQuery<MaSort>): WireMaRecord[] {
  const sortDate = (r: WireMaRecord): string | null =>
    q.dateSort === "announced"
      ? r.date
      : q.dateSort === "expected"
        ? expectedDateStart(r.date_expected)
        : r.date_completed === ""
          ? null
          : r.date_completed;
  const keyed = records
    .filter(
      (r) =>
        inDateRange(r.date, q) &&
        (q.tickers === null ||
          q.tickers.has(r.acquirer_ticker.toUpperCase()) ||
          q.tickers.has(r.target_ticker.toUpperCase())) &&
        (q.importance === null || r.importance >= q.importance) &&
        (q.updated === null || r.updated >= q.updated),
    )
    .map((record) => ({ record, key: sortDate(record) }))
    .filter((row): row is { record: WireMaRecord; key: string } => row.key !== null);
  if (q.updated !== null) {
    keyed.sort((a, b) => a.record.updated - b.record.updated || compareText(a.record.id, b.record.id));
  } else if (q.dateSort === "announced") {
    keyed.sort((a, b) => compareText(a.key, b.key) || compareText(a.record.id, b.record.id));
  } else {
    keyed.sort(
      (a, b) =>
        compareText(b.key, a.key) ||
        compareText(b.record.date, a.record.date) ||
        compareText(a.record.id, b.record.id),
    );
  }
  return pageOf(
    keyed.map((row) => row.record),
    q,
  );
}

export function calendarRoutes(universe: Universe): RouteDef[] {
  return [
    {
      method: "GET",
      pattern: "/api/v2.1/calendar/earnings",
      product: "calendars",
      handle(req: EmbeddedRequest) {
        const q = parseCalendarQuery(req.query, EARNINGS_SORTS, "date:desc");
        return {
          body: { earnings: selectEarnings(universe.earningsRecords(req.now), q) },
          xmlRoot: "result",
        };
      },
    },
    {
      method: "GET",
      pattern: "/api/v2.1/calendar/ma",
      product: "calendars",
      handle(req: EmbeddedRequest) {
        const q = parseCalendarQuery(req.query, MA_SORTS, "announced");
        return { body: { ma: selectMa(universe.maRecords(req.now), q) }, xmlRoot: "result" };
      },
    },
  ];
}
