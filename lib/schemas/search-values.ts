/** Zod-free values of the search API (lib/schemas/search.ts), for browser code that must not pull in zod. */

/** Longer than any sensible search; a 2 kB paste is refused with a clear message instead of a slow query. */
export const SEARCH_QUERY_MAX = 300;
/** Calls per result page. */
export const SEARCH_PAGE_SIZE = 10;

export const speakerRoles = ["executive", "analyst", "operator"] as const;
export const callSections = ["prepared", "qa"] as const;
export type SpeakerRole = (typeof speakerRoles)[number];
export type CallSection = (typeof callSections)[number];
