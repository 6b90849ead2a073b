import type { EarningsFilters, MaFilters } from "./calendar";
import type { CallListFilters } from "./calls";

/**
 * The company page's calendar windows and default statement view, in one place: the page prefetches them on the
 * server and its panels query them, and both must name the very same query keys.
 */
export const companyFilters = {
  earnings: (symbol: string): EarningsFilters => ({
    tickers: [symbol],
    page: 0,
    pageSize: 100,
    sort: "date:desc",
  }),
  deals: (symbol: string): MaFilters => ({ tickers: [symbol], page: 0, pageSize: 100, sort: "announced" }),
  /** Every call of the company in one request: the list's page limit, more than a company's calls in the archive. */
  calls: (symbol: string): CallListFilters => ({ tickers: [symbol], status: "all", page: 0, pageSize: 100 }),
  statements: { kind: "quarterly", period: "3M", reportType: "A" },
} as const;
