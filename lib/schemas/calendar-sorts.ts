/** Sort orders of the calendars (see ./calendar.ts), without zod so browser code can import them. */
export const EARNINGS_SORTS = ["date:asc", "date:desc"] as const;
export const MA_SORTS = ["announced", "expected", "completed"] as const;
