/**
 * Builds the fictional data universe (see types.ts). Everything heavy happens here, once: companies, every
 * quarter of every company's financial model, the price paths, the report events and the deal timelines.
 * Calls that depend on `now` only filter and format, and are memoised per minute.
 */
import { buildCompanyFundamentals, type CompanyFundamentals } from "./fundamentals";
import { generateCompanies, type CompanyEntry } from "./companies";
import { buildReportEvents, earningsWindow, type ReportEvent } from "./calendar";
import { buildDeals, maWindow, type Deal } from "./deals";
import {
  buildCompanyModel,
  marketFactor,
  MODEL_FIRST_YEAR,
  MODEL_LAST_YEAR,
  type CompanyModel,
} from "./model";
import type { Company, Universe } from "./types";
import type { WireEarningsRecord, WireMaRecord } from "./wire";

export type { Company, Universe } from "./types";

/** Internal view used by the fundamentals routes; the `Universe` interface is the public one. */
export interface UniverseInternals {
  entries: readonly CompanyEntry[];
  models: readonly CompanyModel[];
  events: readonly ReportEvent[];
  deals: readonly Deal[];
  entryOf(company: Company): CompanyEntry;
  modelOf(company: Company): CompanyModel;
  /** Derived fundamentals histories, computed on first use per company and kept. */
  fundamentalsOf(company: Company): CompanyFundamentals;
}

const INTERNALS = Symbol.for("callroom.universe.internals");

export interface BuiltUniverse extends Universe {
  readonly [INTERNALS]: UniverseInternals;
}

/** Access to the model behind a universe built by `buildUniverse`. */
export function internalsOf(universe: Universe): UniverseInternals {
  const internals = (universe as Partial<BuiltUniverse>)[INTERNALS];
  if (!internals) throw new Error("universe was not built by buildUniverse");
  return internals;
}

/** Caches the result for the current minute (and keeps the previous one: requests straddle minute boundaries). */
function perMinute<T>(compute: (nowMs: number) => T): (now: Date) => T {
  const cache = new Map<number, T>();
  return (now) => {
    const minute = Math.floor(now.getTime() / 60_000);
    const hit = cache.get(minute);
    if (hit !== undefined) return hit;
    // Render for the end of the minute's start so every caller within the minute sees the same records.
    const value = compute(minute * 60_000);
    cache.set(minute, value);
    if (cache.size > 2) cache.delete(cache.keys().next().value as number);
    return value;
  };
}

export function buildUniverse(seed: number): Universe {
  const entries = generateCompanies(seed);
  const market = marketFactor(seed, (MODEL_LAST_YEAR - MODEL_FIRST_YEAR + 1) * 12);
  const models = entries.map((entry) => buildCompanyModel(seed, entry, market));
  const events = buildReportEvents(seed, entries, models);
  // Deals are only needed by the M&A calendar: built on its first request, off the start-up path.
  let deals: readonly Deal[] | undefined;
  const dealsOf = () => (deals ??= buildDeals(seed, entries, models));

  const bySymbol = new Map<string, number>();
  const byCik = new Map<string, number>();
  const byCompany = new Map<Company, number>();
  entries.forEach((entry, i) => {
    bySymbol.set(entry.company.symbol, i);
    byCik.set(entry.company.cik, i);
    byCompany.set(entry.company, i);
  });
  const derived: (CompanyFundamentals | undefined)[] = [];
  const indexOf = (company: Company) => {
    const i = byCompany.get(company) ?? bySymbol.get(company.symbol);
    if (i === undefined) throw new Error(`company ${company.symbol} is not part of this universe`);
    return i;
  };

  const internals: UniverseInternals = {
    entries,
    models,
    events,
    get deals() {
      return dealsOf();
    },
    entryOf: (company) => entries[indexOf(company)]!,
    modelOf: (company) => models[indexOf(company)]!,
    fundamentalsOf: (company) => {
      const i = indexOf(company);
      let f = derived[i];
      if (!f) {
        f = buildCompanyFundamentals(entries[i]!, models[i]!);
        derived[i] = f;
      }
      return f;
    },
  };
  const companies = entries.map((e) => e.company);
  const earnings = perMinute<readonly WireEarningsRecord[]>((nowMs) => earningsWindow(events, nowMs));
  const ma = perMinute<readonly WireMaRecord[]>((nowMs) => maWindow(dealsOf(), nowMs));

  const universe: BuiltUniverse = {
    seed,
    companies,
    findCompany: (symbol) => {
      const i = bySymbol.get(symbol.trim().toUpperCase());
      return i === undefined ? undefined : companies[i];
    },
    findCompanyByCik: (cik) => {
      const digits = cik.trim();
      if (!/^\d{1,10}$/.test(digits)) return undefined;
      const i = byCik.get(digits.padStart(10, "0"));
      return i === undefined ? undefined : companies[i];
    },
    earningsRecords: earnings,
    maRecords: ma,
    [INTERNALS]: internals,
  };
  return universe;
}
