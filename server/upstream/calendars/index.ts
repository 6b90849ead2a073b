import "server-only";
import { z } from "zod";
import type { EarningsQuery, EarningsRow, MaQuery, MaRow } from "@/lib/schemas/calendar";
import { cacheKey, CACHE_POLICIES, type Cached } from "../cache";
import type { Upstream, UpstreamQuery } from "../client";
import { easternToIso, toBool, toInt, toNumber, toText, unixToIso, wireScalar } from "../values";

/**
 * Earnings and M&A calendars (docs/upstream.md §2). The wire schemas accept the documented variants of the real
 * service: an empty result as `{"earnings": []}`, bare `[]` or 404 `no_data_found`; `date_confirmed` as a string;
 * amounts as decimal strings or numbers; "" for anything missing.
 */

export const EARNINGS_PATH = "/api/v2.1/calendar/earnings";
export const MA_PATH = "/api/v2.1/calendar/ma";

const upstreamEarningsRecordSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  date: z.string(),
  date_confirmed: wireScalar,
  time: wireScalar,
  ticker: z.string(),
  exchange: wireScalar,
  isin: wireScalar,
  cusip: wireScalar,
  name: wireScalar,
  currency: wireScalar,
  period: wireScalar,
  period_year: wireScalar,
  eps_type: wireScalar,
  eps: wireScalar,
  eps_est: wireScalar,
  eps_prior: wireScalar,
  eps_surprise: wireScalar,
  eps_surprise_percent: wireScalar,
  revenue_type: wireScalar,
  revenue: wireScalar,
  revenue_est: wireScalar,
  revenue_prior: wireScalar,
  revenue_surprise: wireScalar,
  revenue_surprise_percent: wireScalar,
  importance: wireScalar,
  notes: wireScalar,
  updated: wireScalar,
});
type UpstreamEarningsRecord = z.infer<typeof upstreamEarningsRecordSchema>;

const upstreamEarningsResponseSchema = z.union([
  z.array(upstreamEarningsRecordSchema),
  z.looseObject({ earnings: z.array(upstreamEarningsRecordSchema).nullish() }),
]);

const upstreamMaRecordSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  date: z.string(),
  date_expected: wireScalar,
  date_completed: wireScalar,
  acquirer_ticker: wireScalar,
  acquirer_exchange: wireScalar,
  acquirer_name: wireScalar,
  acquirer_cusip: wireScalar,
  acquirer_isin: wireScalar,
  target_ticker: wireScalar,
  target_exchange: wireScalar,
  target_name: wireScalar,
  target_cusip: wireScalar,
  target_isin: wireScalar,
  currency: wireScalar,
  deal_type: wireScalar,
  deal_size: wireScalar,
  deal_payment_type: wireScalar,
  deal_status: wireScalar,
  deal_terms_extra: wireScalar,
  notes: wireScalar,
  importance: wireScalar,
  updated: wireScalar,
});
type UpstreamMaRecord = z.infer<typeof upstreamMaRecordSchema>;

const upstreamMaResponseSchema = z.union([
  z.array(upstreamMaRecordSchema),
  z.looseObject({ ma: z.array(upstreamMaRecordSchema).nullish() }),
]);

/* ------------------------------------------------------------------ mappers */

export function toEarningsRow(raw: UpstreamEarningsRecord): EarningsRow {
  const date = raw.date.trim();
  const time = toText(raw.time);
  const ticker = raw.ticker.trim().toUpperCase();
  return {
    id: String(raw.id),
    date,
    time,
    startsAt: easternToIso(date, time),
    isDateConfirmed: toBool(raw.date_confirmed) ?? false,
    ticker,
    exchange: toText(raw.exchange),
    isin: toText(raw.isin),
    cusip: toText(raw.cusip),
    name: toText(raw.name) ?? ticker,
    currency: toText(raw.currency),
    period: toText(raw.period),
    periodYear: toInt(raw.period_year),
    epsType: toText(raw.eps_type),
    eps: toNumber(raw.eps),
    epsEst: toNumber(raw.eps_est),
    epsPrior: toNumber(raw.eps_prior),
    epsSurprise: toNumber(raw.eps_surprise),
    epsSurprisePercent: toNumber(raw.eps_surprise_percent),
    revenueType: toText(raw.revenue_type),
    revenue: toNumber(raw.revenue),
    revenueEst: toNumber(raw.revenue_est),
    revenuePrior: toNumber(raw.revenue_prior),
    revenueSurprise: toNumber(raw.revenue_surprise),
    revenueSurprisePercent: toNumber(raw.revenue_surprise_percent),
    importance: toInt(raw.importance) ?? 0,
    notes: toText(raw.notes),
    updatedAt: unixToIso(raw.updated),
  };
}

export function toEarningsRows(body: z.infer<typeof upstreamEarningsResponseSchema>): EarningsRow[] {
  const records = Array.isArray(body) ? body : (body.earnings ?? []);
  return records.map(toEarningsRow);
}

export function toMaRow(raw: UpstreamMaRecord): MaRow {
  const party = (prefix: "acquirer" | "target") => ({
    ticker: toText(raw[`${prefix}_ticker`])?.toUpperCase() ?? null,
    exchange: toText(raw[`${prefix}_exchange`]),
    name: toText(raw[`${prefix}_name`]),
    cusip: toText(raw[`${prefix}_cusip`]),
    isin: toText(raw[`${prefix}_isin`]),
  });
  return {
    id: String(raw.id),
    announcedDate: raw.date.trim(),
    expectedDate: toText(raw.date_expected),
    completedDate: toText(raw.date_completed),
    acquirer: party("acquirer"),
    target: party("target"),
    currency: toText(raw.currency),
    dealType: toText(raw.deal_type),
    dealSize: toNumber(raw.deal_size),
    dealPaymentType: toText(raw.deal_payment_type),
    dealStatus: toText(raw.deal_status),
    dealTermsExtra: toText(raw.deal_terms_extra),
    notes: toText(raw.notes),
    importance: toInt(raw.importance) ?? 0,
    updatedAt: unixToIso(raw.updated),
  };
}

export function toMaRows(body: z.infer<typeof upstreamMaResponseSchema>): MaRow[] {
  const records = Array.isArray(body) ? body : (body.ma ?? []);
  return records.map(toMaRow);
}

/* ------------------------------------------------------------------ queries */

/** Our camelCase query → the upstream's names (docs/interfaces.md §1: translating is this module's job). */
export function toUpstreamCalendarQuery(query: EarningsQuery | MaQuery): UpstreamQuery {
  return {
    page: query.page,
    pagesize: query.pageSize,
    "parameters[date]": query.date,
    "parameters[date_from]": query.from,
    "parameters[date_to]": query.to,
    "parameters[tickers]": query.tickers?.join(","),
    "parameters[importance]": query.importance,
    "parameters[date_sort]": query.sort,
    "parameters[updated]": query.updatedSince,
  };
}

export interface CalendarPage<T> extends Cached<T[]> {
  page: number;
  pageSize: number;
  hasMore: boolean;
}

async function listCalendar<T, S extends z.ZodType>(
  upstream: Upstream,
  path: string,
  query: EarningsQuery | MaQuery,
  schema: S,
  map: (body: z.output<S>) => T[],
  signal: AbortSignal | undefined,
): Promise<CalendarPage<T>> {
  const upstreamQuery = toUpstreamCalendarQuery(query);
  const cached = await upstream.cache.get(
    cacheKey(path, upstreamQuery),
    CACHE_POLICIES.calendar,
    async () => {
      const result = await upstream.http.get(path, upstreamQuery, schema);
      return result.status === "no_data" ? [] : map(result.data);
    },
    { signal },
  );
  return {
    ...cached,
    page: query.page,
    pageSize: query.pageSize,
    hasMore: cached.value.length >= query.pageSize,
  };
}

export function listEarnings(
  upstream: Upstream,
  query: EarningsQuery,
  options: { signal?: AbortSignal } = {},
) {
  return listCalendar(
    upstream,
    EARNINGS_PATH,
    query,
    upstreamEarningsResponseSchema,
    toEarningsRows,
    options.signal,
  );
}

export function listMa(upstream: Upstream, query: MaQuery, options: { signal?: AbortSignal } = {}) {
  return listCalendar(upstream, MA_PATH, query, upstreamMaResponseSchema, toMaRows, options.signal);
}

/** One uncached page of earnings rows for an upstream query (the symbol directory pages through the calendar). */
export async function fetchEarningsRows(
  upstream: Upstream,
  upstreamQuery: UpstreamQuery,
): Promise<EarningsRow[]> {
  const result = await upstream.http.get(EARNINGS_PATH, upstreamQuery, upstreamEarningsResponseSchema);
  return result.status === "no_data" ? [] : toEarningsRows(result.data);
}

/** Parse + map a captured body exactly as a live answer would be (tests, fixtures); throws on a malformed body. */
export function earningsRowsFromBody(body: unknown): EarningsRow[] {
  return toEarningsRows(upstreamEarningsResponseSchema.parse(body));
}

export function maRowsFromBody(body: unknown): MaRow[] {
  return toMaRows(upstreamMaResponseSchema.parse(body));
}
