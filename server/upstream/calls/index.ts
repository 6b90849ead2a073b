import "server-only";

/**
 * Conference calls and summaries (docs/upstream.md §5). The wire schemas are loose and tolerate the documented
 * variants of the real service: status in lower case or unknown, a single `recording` object instead of
 * `recordings[]` whose `file_link`s may be relative to the service's base URL, a summary wrapped as
 * `{data: [summary]}`, numbers as strings, missing optional blocks, a `call_title` that is an AI-written headline
 * with the formal title in `description` and no `period`/`year` (docs/upstream.md §8), ids that are not hex.
 * Everything upstream-specific ends in the `to*` mappers; signed media links never leave this module except through
 * `toMediaLinks` (used by the media proxy, server-side only).
 */

export { CALLS_PATH, SUMMARIES_PATH } from "./wire";
export * from "./transform";
export * from "./fetch";
