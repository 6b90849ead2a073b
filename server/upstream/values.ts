import "server-only";
import { easternToDate } from "@/common/time/eastern";
import { z } from "zod";

/**
 * Wire-value helpers shared by the resource modules: where the upstream's quirks (decimal strings, "" for missing,
 * strings for integers and booleans) become `number | null`, `string | null`, `boolean | null`.
 */

/** A scalar the upstream may send as string, number, boolean or null. */
export const wireScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]).optional();
export type WireScalar = z.infer<typeof wireScalar>;

export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") {
    const t = value.trim().replace(/,/g, "");
    if (t === "") return null;
    const n = Number(t);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function toInt(value: unknown): number | null {
  const n = toNumber(value);
  return n === null ? null : Math.trunc(n);
}

export function toText(value: unknown): string | null {
  if (typeof value === "string") {
    const t = value.trim();
    return t === "" ? null : t;
  }
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

export function toBool(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") {
    const t = value.trim().toLowerCase();
    if (t === "true" || t === "1" || t === "yes") return true;
    if (t === "false" || t === "0" || t === "no") return false;
  }
  return null;
}

/** Unix seconds (number or digit string) → ISO 8601 UTC; 0 and garbage → null. */
export function unixToIso(value: unknown): string | null {
  const n = toNumber(value);
  if (n === null || n <= 0) return null;
  return new Date(n * 1000).toISOString();
}

/** A date the upstream sends as YYYY-MM-DD, an ISO date-time, or Unix seconds (any sign, e.g. old IPOs) → YYYY-MM-DD. */
export function toIsoDate(value: unknown): string | null {
  if (typeof value === "number" || (typeof value === "string" && /^-?\d{1,12}$/.test(value.trim()))) {
    const seconds = toNumber(value);
    if (seconds === null) return null;
    const date = new Date(seconds * 1000);
    return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
  }
  const t = toText(value);
  if (t === null) return null;
  return /^\d{4}-\d{2}-\d{2}/.test(t) ? t.slice(0, 10) : t;
}

/** Calendar date + US Eastern wall time (HH:MM[:SS]) → ISO 8601 UTC; null when either is missing or malformed. */
export function easternToIso(date: string | null, time: string | null): string | null {
  if (!date || !time) return null;
  // The shared conversion also reads an hour without its leading zero ("9:30"), as the upstream may send it.
  const instant = easternToDate(date, time);
  return instant ? instant.toISOString() : null;
}

export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Reads `keys` from `raw` case-insensitively (the upstream mixes `PERatio`/`peRatio`, `EBITDAMargin`), trying each
 * key's `aliases` after it: the real service spells a few fields differently from the seed
 * (`dilutedContEpsGrowth` for `dilutedConstEpsGrowth`, `fixAssetsTuronver` for `fixAssetTurnover`).
 */
export function pickNumbers<const K extends string>(
  raw: Record<string, unknown>,
  keys: readonly K[],
  aliases: Partial<Record<K, readonly string[]>> = {},
): Record<K, number | null> {
  const byLower = new Map(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
  const read = (k: K): number | null => {
    for (const name of [k, ...(aliases[k] ?? [])]) {
      const n = toNumber(byLower.get(name.toLowerCase()));
      if (n !== null) return n;
    }
    return null;
  };
  return Object.fromEntries(keys.map((k) => [k, read(k)])) as Record<K, number | null>;
}

/** Lower-cased names `pickNumbers` reads for `keys` and their `aliases` (so the rest can be kept as "other"). */
export function knownNames(
  keys: readonly string[],
  aliases: Partial<Record<string, readonly string[]>> = {},
) {
  return new Set(keys.flatMap((k) => [k, ...(aliases[k] ?? [])]).map((k) => k.toLowerCase()));
}

/**
 * Numeric members of `raw` beyond `known` (lower-cased names) and `meta`: the real service sends far more figures
 * than the seed lists, and the UI shows whatever arrives. Keys keep their spelling, first letter lowered.
 */
export function otherNumbers(
  raw: Record<string, unknown>,
  known: ReadonlySet<string>,
): Record<string, number> {
  const other: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (known.has(key.toLowerCase()) || typeof value === "boolean") continue;
    const n = toNumber(value);
    if (n !== null) other[key.charAt(0).toLowerCase() + key.slice(1)] = n;
  }
  return other;
}

/** Reads the first present of several spellings of one text field (`currency` / `currencyId`). */
export function firstText(raw: Record<string, unknown>, names: readonly string[]): string | null {
  for (const name of names) {
    const t = toText(raw[name]);
    if (t !== null) return t;
  }
  return null;
}

export function pickTexts<const K extends string>(
  raw: Record<string, unknown> | null | undefined,
  keys: readonly K[],
): Record<K, string | null> {
  const source = raw ?? {};
  return Object.fromEntries(keys.map((k) => [k, toText(source[k])])) as Record<K, string | null>;
}
