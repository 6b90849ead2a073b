import type { EarningsFilters, MaFilters } from "./calendar";

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
  statements: { period: "ALL", reportType: "A" },
} as const;
