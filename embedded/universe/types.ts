/**
 * The fictional data universe of the embedded service. Deterministic from a seed: the same seed gives the same
 * companies, financial history, calendar and deals on every machine. Only what is *visible* depends on the clock
 * (actuals appear once a report's time has passed; the calendar window is now−400 d … now+90 d).
 *
 * Consumers: rest/* (calendars, fundamentals), live/* (call content states the calendar's EPS and revenue).
 * Fields may be added; none may be removed or renamed without updating every consumer.
 */
import type { WireEarningsRecord, WireMaRecord } from "./wire";

export type SizeTier = "mega" | "large" | "mid" | "small";

export interface Executive {
  name: string;
  title: string; // "Chief Executive Officer"
}

export interface Company {
  symbol: string; // upper case, 1–5 letters
  name: string; // "Northwind Semiconductor Inc."
  shortName: string; // "Northwind Semiconductor"
  legalName: string;
  exchange: string; // "NASDAQ" | "NYSE" | "NYSE American" | …
  exchangeId: string; // e.g. "NAS", "NYS"
  currency: "USD";
  cik: string; // 10 digits, zero-padded
  cusip: string; // 9 characters with a valid check digit
  isin: string; // "US" + cusip + check digit
  valoren: string;
  sedol: string; // 7 characters
  shareClassId: string; // e.g. "0P000003RE"
  sector: string; // display name, e.g. "Technology"
  industryGroup: string;
  industry: string;
  sic: string;
  sicName: string;
  naics: string;
  naicsName: string;
  msSectorCode: string;
  msGroupCode: string;
  msIndustryCode: string;
  sizeTier: SizeTier;
  fiscalYearEndMonth: number; // 1–12
  ipoDate: string; // YYYY-MM-DD
  importance: number; // 0–5, larger companies matter more
  headquarters: {
    address1: string;
    city: string;
    province: string;
    postalCode: string;
    country: string; // "United States"
    countryId: string; // "USA"
    phone: string;
    fax: string;
  };
  homepage: string;
  shortDescription: string;
  longDescription: string;
  executives: { ceo: Executive; cfo: Executive; ir: Executive };
}

export interface Universe {
  readonly seed: number;
  readonly companies: readonly Company[];
  /** Case-insensitive; undefined for unknown symbols. */
  findCompany(symbol: string): Company | undefined;
  findCompanyByCik(cik: string): Company | undefined;
  /**
   * Every earnings record in the window [now − 400 days, now + 90 days], date ascending.
   * Records whose report time has passed carry actuals and surprises; later ones have "" there.
   * Memoised: calling it again within the same minute costs nothing.
   */
  earningsRecords(now: Date): readonly WireEarningsRecord[];
  /** Every M&A deal visible at `now` (announced on or before now), announced-date ascending. Memoised likewise. */
  maRecords(now: Date): readonly WireMaRecord[];
}
