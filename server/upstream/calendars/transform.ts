import "server-only";
import { z } from "zod";
import type { EarningsQuery, EarningsRow, MaQuery, MaRow } from "@/lib/schemas/calendar";
import type { UpstreamQuery } from "../client";
import { easternToIso, toBool, toInt, toNumber, toText, unixToIso } from "../values";
import {
  upstreamEarningsResponseSchema,
  upstreamMaResponseSchema,
  type UpstreamEarningsRecord,
  type UpstreamMaRecord,
} from "./wire";

/** Calendar records (`wire.ts`) → our rows (lib/schemas/calendar.ts), and our query → the service's names. */

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

/** Parse + map a captured body exactly as a live answer would be (tests, fixtures); throws on a malformed body. */
export function earningsRowsFromBody(body: unknown): EarningsRow[] {
  return toEarningsRows(upstreamEarningsResponseSchema.parse(body));
}

export function maRowsFromBody(body: unknown): MaRow[] {
  return toMaRows(upstreamMaResponseSchema.parse(body));
}
