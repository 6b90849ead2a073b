import { z } from "zod";
import { isValidIsoDate } from "./iso-date";

/**
 * Builders for OUR query parameters. Each rule's message names our parameter (camelCase) and the rule, because the
 * message reaches the user unchanged: `pageSize must be between 1 and 1000`. The limits mirror the upstream's
 * (docs/upstream.md §2–§4) so that bad input is refused before it costs an upstream call.
 */

// Zod-free module, so browser code can check dates without zod.
export { isValidIsoDate } from "./iso-date";

export const dateParam = (name: string) =>
  z.string().refine(isValidIsoDate, { message: `${name} must be a date in the form YYYY-MM-DD` });

export const intParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, { message: `${name} must be an integer between ${min} and ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `${name} must be between ${min} and ${max}` });

export const enumParam = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { message: `${name} must be one of ${values.join(", ")}` });

/**
 * A ticker as the upstream accepts it everywhere (its transcripts API is the strictest): a letter, then up to nine
 * letters, digits, "." or "-" (`BRK.B`, `RDS-A`). Anything wider would pass our check and earn an upstream 400,
 * which reaches the analyst as a 502 instead of a clear message about their input.
 */
const SYMBOL = /^[A-Z][A-Z0-9.-]{0,9}$/;

/** Comma-separated ticker list: trimmed, upper-cased, de-duplicated, order kept. */
export const symbolListParam = (name: string, max: number) =>
  z
    .string()
    .transform((raw) => [
      ...new Set(
        raw
          .split(",")
          .map((s) => s.trim().toUpperCase())
          .filter((s) => s.length > 0),
      ),
    ])
    .refine((list) => list.length > 0, { message: `${name} must list at least one symbol` })
    .refine((list) => list.length <= max, { message: `${name} must list at most ${max} symbols` })
    .refine((list) => list.every((s) => SYMBOL.test(s)), {
      message: `${name} must be comma-separated ticker symbols (a letter, then up to 9 letters, digits, "." or "-")`,
    });

/**
 * `updatedSince`: Unix seconds (as the upstream) or an ISO 8601 date-time; normalised to Unix seconds.
 */
export const unixSecondsParam = (name: string) =>
  z.string().transform((raw, ctx) => {
    if (/^\d{1,12}$/.test(raw)) return Number(raw);
    const ms = Date.parse(raw);
    if (/^\d{4}-\d{2}-\d{2}/.test(raw) && !Number.isNaN(ms)) return Math.floor(ms / 1000);
    ctx.addIssue({ code: "custom", message: `${name} must be Unix seconds or an ISO 8601 date-time` });
    return z.NEVER;
  });
