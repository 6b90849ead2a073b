import { z } from "zod";
import { EARNINGS_SORTS, MA_SORTS } from "./calendar-sorts";
import { dateParam, enumParam, intParam, symbolListParam, unixSecondsParam } from "./params";

/**
 * Calendar rows as OUR API serves them (GET /api/calendar/earnings, GET /api/calendar/ma), wrapped in the paged
 * envelope of `./envelope` (`{ data: rows, meta: { fetchedAt, stale, page, pageSize, hasMore } }`).
 * Upstream quirks end in the mapper: amounts are `number | null` (null = does not exist yet / not reported), empty
 * strings become null.
 */

export const EARNINGS_PERIODS = ["Q1", "Q2", "Q3", "Q4", "FY", "H1", "H2"] as const;

export const earningsRowSchema = z.object({
  id: z.string(),
  /** Report date, YYYY-MM-DD (US Eastern calendar day). */
  date: z.string(),
  /** Report time of day, HH:MM:SS in US Eastern time; null when unknown. */
  time: z.string().nullable(),
  /** Report moment as ISO 8601 UTC (from date + US Eastern time); null when the time is unknown. */
  startsAt: z.string().nullable(),
  isDateConfirmed: z.boolean(),
  ticker: z.string(),
  exchange: z.string().nullable(),
  isin: z.string().nullable(),
  cusip: z.string().nullable(),
  name: z.string(),
  currency: z.string().nullable(),
  /** Fiscal period label, usually one of EARNINGS_PERIODS (other labels are passed through). */
  period: z.string().nullable(),
  periodYear: z.number().int().nullable(),
  epsType: z.string().nullable(),
  eps: z.number().nullable(),
  epsEst: z.number().nullable(),
  epsPrior: z.number().nullable(),
  epsSurprise: z.number().nullable(),
  /** Percent, e.g. 4.1 means +4.1 %. */
  epsSurprisePercent: z.number().nullable(),
  revenueType: z.string().nullable(),
  revenue: z.number().nullable(),
  revenueEst: z.number().nullable(),
  revenuePrior: z.number().nullable(),
  revenueSurprise: z.number().nullable(),
  revenueSurprisePercent: z.number().nullable(),
  /** 0–5, larger = more important. */
  importance: z.number().int(),
  notes: z.string().nullable(),
  /** Last change of the record, ISO 8601 UTC; null when the upstream gave none. */
  updatedAt: z.string().nullable(),
});
export type EarningsRow = z.infer<typeof earningsRowSchema>;

export const DEAL_STATUSES = ["Rumored", "Announced", "Regulatory Review", "Completed", "Canceled"] as const;
export const DEAL_TYPES = ["Acquisition", "Merger", "Asset Sale"] as const;
export const DEAL_PAYMENT_TYPES = ["Cash", "Stock", "Cash & Stock"] as const;

export const dealPartySchema = z.object({
  /** null for private companies. */
  ticker: z.string().nullable(),
  exchange: z.string().nullable(),
  name: z.string().nullable(),
  cusip: z.string().nullable(),
  isin: z.string().nullable(),
});
export type DealParty = z.infer<typeof dealPartySchema>;

export const maRowSchema = z.object({
  id: z.string(),
  /** Announcement date, YYYY-MM-DD. */
  announcedDate: z.string(),
  /** YYYY-MM-DD, YYYY-QN or YYYY-MM (the upstream is vague about future dates); null when none. */
  expectedDate: z.string().nullable(),
  completedDate: z.string().nullable(),
  acquirer: dealPartySchema,
  target: dealPartySchema,
  currency: z.string().nullable(),
  /** Usually one of DEAL_TYPES; unknown values are passed through. */
  dealType: z.string().nullable(),
  dealSize: z.number().nullable(),
  /** Usually one of DEAL_PAYMENT_TYPES; null when not disclosed. */
  dealPaymentType: z.string().nullable(),
  /** Usually one of DEAL_STATUSES; unknown values are passed through. */
  dealStatus: z.string().nullable(),
  dealTermsExtra: z.string().nullable(),
  notes: z.string().nullable(),
  importance: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type MaRow = z.infer<typeof maRowSchema>;

/* ---------------------------------------------------------------- queries (our names, camelCase) */

// Zod-free module, so browser code can import the sort names without zod.
export { EARNINGS_SORTS, MA_SORTS } from "./calendar-sorts";

const calendarBaseShape = {
  /** Inclusive, YYYY-MM-DD. */
  from: dateParam("from").optional(),
  to: dateParam("to").optional(),
  /** Shorthand for from = to = date; cannot be combined with from/to. */
  date: dateParam("date").optional(),
  /** At most 50. */
  tickers: symbolListParam("tickers", 50).optional(),
  /** Keeps rows with importance ≥ value. */
  importance: intParam("importance", 0, 5).optional(),
  /** 0-based, as the upstream. */
  page: intParam("page", 0, 100000).default(0),
  pageSize: intParam("pageSize", 1, 1000).default(100),
  /** Unix seconds or ISO date-time; keeps rows updated since then, sorted by update time (overrides `sort`). */
  updatedSince: unixSecondsParam("updatedSince").optional(),
};

type DateRange = { from?: string; to?: string; date?: string };

function refineDates<T extends DateRange>(value: T, ctx: z.RefinementCtx) {
  if (value.date !== undefined && (value.from !== undefined || value.to !== undefined)) {
    ctx.addIssue({ code: "custom", path: ["date"], message: "date cannot be combined with from or to" });
  }
  if (value.from !== undefined && value.to !== undefined && value.from > value.to) {
    ctx.addIssue({ code: "custom", path: ["from"], message: "from must be on or before to" });
  }
}

export const earningsQuerySchema = z
  .object({
    ...calendarBaseShape,
    /** Default `date:desc` (newest first), as the upstream. */
    sort: enumParam("sort", EARNINGS_SORTS).optional(),
  })
  .superRefine(refineDates);
export type EarningsQuery = z.infer<typeof earningsQuerySchema>;
export type EarningsQueryInput = z.input<typeof earningsQuerySchema>;

export const maQuerySchema = z
  .object({
    ...calendarBaseShape,
    /** `announced` oldest first (default); `expected`/`completed` newest first and leave out deals without that date. */
    sort: enumParam("sort", MA_SORTS).optional(),
  })
  .superRefine(refineDates);
export type MaQuery = z.infer<typeof maQuerySchema>;
export type MaQueryInput = z.input<typeof maQuerySchema>;
