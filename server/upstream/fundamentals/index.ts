import "server-only";

/**
 * Fundamentals v2.1 (docs/upstream.md §3) and the v3 balance sheet (§4).
 *
 * The wire schemas check the structure (a `result` array of per-company items, each section an object or an array
 * of objects) and leave field values to the mappers, which read the known fields tolerantly: numbers or decimal
 * strings, keys in either letter case (`PERatio`/`peRatio`, `EBITDAMargin`), sections that are an object where an
 * array was documented or the reverse. Tolerated too: `result` at the top or under `data` (the earningReports
 * envelope), `ok` as the string "true" (v3).
 *
 * Two shapes of every record are understood (docs/upstream.md §3 and §8): the seed's, where operation ratios and
 * earning reports are grouped by period (`{"3M": {...}, "1Y": {...}}`), and the real service's documented one, where
 * each record is flat with its keys in `id: {companyId|shareClassId, asOf, period, reportType, aorRestate}`, field
 * names differ (`currencyId`, `isPrimaryShare`, `dilutedContEpsGrowth`) and figures beyond the seed's lists arrive
 * (kept in `other`, or as statement line items).
 */

export * from "./transform";
export * from "./fetch";
