import "server-only";

/**
 * Earnings and M&A calendars (docs/upstream.md §2). The wire schemas accept the documented variants of the real
 * service: an empty result as `{"earnings": []}`, bare `[]` or 404 `no_data_found`; `date_confirmed` as a string;
 * amounts as decimal strings or numbers; "" for anything missing.
 */

export { EARNINGS_PATH, MA_PATH } from "./wire";
export * from "./transform";
export * from "./fetch";
