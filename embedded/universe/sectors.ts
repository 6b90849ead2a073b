/**
 * What a sector and an industry are: classification codes (SIC, NAICS, Morningstar-style sector/group/industry
 * codes), the nouns that make up company names, and the financial profile that shapes each company's statements.
 * The data, one named field per value, and the table the universe reads: `sector-table.ts`. Codes are real
 * classification codes (public standards); the companies using them are fictional.
 */
export interface Industry {
  industryGroup: string;
  industry: string;
  sic: string;
  sicName: string;
  naics: string;
  naicsName: string;
  msGroupCode: string;
  msGroupName: string;
  msIndustryCode: string;
  msIndustryName: string;
  /** Words that fit a company name in this industry ("Semiconductor", "Foods"). */
  nouns: readonly string[];
  /** Completes "<Name> is a company that …" in descriptions. */
  activity: string;
}

export interface FinancialProfile {
  grossMargin: number;
  operatingMargin: number;
  /** Annual revenue growth, mean. */
  growth: number;
  /** Quarterly volatility of the revenue level. */
  revenueVol: number;
  /** Seasonal weights of fiscal quarters 1–4 (mean 1). */
  seasonality: readonly [number, number, number, number];
  rdShareOfOpex: number;
  capexToRevenue: number;
  daToRevenue: number;
  daysInventory: number;
  daysSales: number;
  daysPayable: number;
  ppeToRevenue: number;
  goodwillToRevenue: number;
  intangiblesToRevenue: number;
  debtToRevenue: number;
  cashToRevenue: number;
  /** Dividend payout ratio of payers, and the share of companies that pay. */
  payoutRatio: number;
  payerShare: number;
  /** Price to sales, typical. */
  priceToSales: number;
  beta: number;
  /** Monthly volatility of the price's sentiment component. */
  priceVol: number;
  /** Weights of fiscal year end months 1–12. */
  fyeWeights: readonly number[];
}

export interface Sector {
  name: string;
  msSectorCode: string;
  msSectorName: string;
  /** How many companies of the universe fall in this sector. */
  count: number;
  industries: readonly Industry[];
  profile: FinancialProfile;
  /** Earnings-per-share label on the calendar. */
  epsType: "Adj" | "GAAP" | "FFO";
}

/** An industry as the table writes it: its Morningstar industry name is its own name. */
export type IndustryRow = Omit<Industry, "msIndustryName">;
export type SectorRow = Omit<Sector, "industries"> & {
  industries: readonly IndustryRow[];
};
