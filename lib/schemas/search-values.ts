/** Zod-free values of the search API (lib/schemas/search.ts), for browser code that must not pull in zod. */

/** Longer than any sensible search; a 2 kB paste is refused with a clear message instead of a slow query. */
export const SEARCH_QUERY_MAX = 300;
/**
 * Most alternatives a query may join with `OR` (websearch syntax, any case). Each alternative is one more pass over the
 * index and its matches: three 300-character `OR` searches at once held the archive for over a second (issue 26).
 */
export const SEARCH_OR_BRANCHES_MAX = 8;

/** How many alternatives `OR` makes of a query, as `websearch_to_tsquery` reads it (quoted phrases are one term). */
export function searchOrBranches(q: string): number {
  const outsideQuotes = q.split('"').filter((_, i) => i % 2 === 0);
  let ors = 0;
  for (const part of outsideQuotes) ors += (part.match(/(?:^|\s)or(?=\s|$)/gi) ?? []).length;
  return ors + 1;
}

/** Calls per result page. */
export const SEARCH_PAGE_SIZE = 10;

export const speakerRoles = ["executive", "analyst", "operator"] as const;
export const callSections = ["prepared", "qa"] as const;
export type SpeakerRole = (typeof speakerRoles)[number];
export type CallSection = (typeof callSections)[number];
