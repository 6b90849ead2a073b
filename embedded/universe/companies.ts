/** The fictional companies: names, tickers, identifiers, classification, profile text, and model parameters. */
import type { Company, SizeTier } from "./types";
import { createRng, type Rng } from "./prng";
import { cusipCheckDigit, isinCheckDigit, sedolCheckDigit } from "./identifiers";
import {
  CITIES,
  CORPORATE_SUFFIXES,
  FIRST_NAMES,
  LAST_NAMES,
  NAME_PREFIXES,
  OVERFLOW_PREFIXES,
  RESERVED_TICKERS,
  STREETS,
} from "./names";
import { SECTORS } from "./sector-table";
import type { Industry, Sector } from "./sectors";

/** Parameters of a company's financial model; internal to the universe. */
export interface CompanyParams {
  /** Annual revenue in the reference year (2026), USD. */
  revenueRef: number;
  grossMargin: number;
  operatingMargin: number;
  growth: number;
  isPayer: boolean;
  payoutRatio: number;
  /** Annual net change of the share count (negative = buybacks). */
  shareChangeRate: number;
  /** Diluted shares exceed basic by this fraction when profitable. */
  dilutionSpread: number;
  priceToSales: number;
  /** Share price the company trades near in the reference year. */
  referencePrice: number;
  beta: number;
  taxRate: number;
  debtToRevenue: number;
  sbcToRevenue: number;
  /** Usual days from fiscal quarter end to the report (Q4 is longer). */
  reportLagDays: number;
  reportLagDaysQ4: number;
  /** Usual report time (US Eastern). */
  reportTime: string;
  /** Share of quarters that beat the consensus EPS. */
  beatRate: number;
}

export interface CompanyEntry {
  company: Company;
  sector: Sector;
  industry: Industry;
  params: CompanyParams;
}

const MEGA_BY_SECTOR: Record<string, number> = {
  Technology: 3,
  "Health Care": 1,
  Financials: 1,
  "Consumer Discretionary": 1,
  "Communication Services": 1,
  "Consumer Staples": 1,
};

const REVENUE_RANGE: Record<SizeTier, [number, number]> = {
  mega: [90e9, 380e9],
  large: [12e9, 60e9],
  mid: [1.5e9, 10e9],
  small: [0.12e9, 1.1e9],
};

const TIER_MARGIN_FACTOR: Record<SizeTier, number> = { mega: 1.25, large: 1.1, mid: 0.95, small: 0.7 };
const TIER_PS_FACTOR: Record<SizeTier, number> = { mega: 1.35, large: 1.1, mid: 1.0, small: 0.85 };
const TIER_IMPORTANCE: Record<SizeTier, [number, number]> = {
  mega: [5, 5],
  large: [4, 4],
  mid: [2, 3],
  small: [0, 2],
};

const BMO_TIMES = ["06:45:00", "07:00:00", "07:00:00", "07:30:00", "08:00:00", "08:30:00"];
const AMC_TIMES = ["16:01:00", "16:05:00", "16:05:00", "16:10:00", "16:15:00", "16:30:00"];

const SEDOL_CHARS = "0123456789BCDFGHJKLMNPQRSTVWXYZ";
const ALNUM = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";

const logUniform = (rng: Rng, min: number, max: number) => Math.exp(rng.range(Math.log(min), Math.log(max)));
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const randomChars = (rng: Rng, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet.charAt(rng.int(0, alphabet.length - 1))).join("");

function tiersFor(sector: Sector, rng: Rng): SizeTier[] {
  const mega = MEGA_BY_SECTOR[sector.name] ?? 0;
  const rest = sector.count - mega;
  const large = Math.round(rest * 0.26);
  const mid = Math.round(rest * 0.34);
  const tiers: SizeTier[] = [
    ...Array<SizeTier>(mega).fill("mega"),
    ...Array<SizeTier>(large).fill("large"),
    ...Array<SizeTier>(mid).fill("mid"),
    ...Array<SizeTier>(rest - large - mid).fill("small"),
  ];
  // Shuffle so that the first company of a sector is not always the largest.
  for (let i = tiers.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [tiers[i], tiers[j]] = [tiers[j] as SizeTier, tiers[i] as SizeTier];
  }
  return tiers;
}

function tickerFor(prefix: string, noun: string, used: Set<string>, rng: Rng, length: number): string {
  const p = prefix.toUpperCase().replace(/[^A-Z]/g, "");
  const n = noun.toUpperCase().replace(/[^A-Z]/g, "");
  const consonants = p.charAt(0) + p.slice(1).replace(/[AEIOU]/g, "");
  const candidates = [
    p.slice(0, length - 2) + n.slice(0, 2),
    p.slice(0, length - 1) + n.charAt(0),
    consonants.slice(0, length),
    p.slice(0, length),
    consonants.slice(0, length - 1) + n.charAt(0),
    p.charAt(0) + consonants.slice(1, length - 1) + n.charAt(0),
  ];
  for (const c of candidates) {
    if (c.length >= 2 && !used.has(c) && !RESERVED_TICKERS.has(c)) return c;
  }
  for (;;) {
    const c = p.charAt(0) + randomChars(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", length - 1);
    if (!used.has(c) && !RESERVED_TICKERS.has(c)) return c;
  }
}

const personName = (rng: Rng) => `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;

/** Every company of the universe, in a stable order (sector by sector). */
export function generateCompanies(seed: number): CompanyEntry[] {
  const rng = createRng(seed, "companies");
  const usedTickers = new Set<string>(["NWSC"]);
  const usedPrefixes = new Set<string>(["Northwind"]);
  const usedCiks = new Set<string>();
  const usedIssuers = new Set<string>();
  const prefixes = [...NAME_PREFIXES].filter((p) => p !== "Northwind");
  const overflow = [...OVERFLOW_PREFIXES];
  const entries: CompanyEntry[] = [];

  for (const sector of SECTORS) {
    const tiers = tiersFor(sector, createRng(seed, `tiers:${sector.name}`));
    tiers.forEach((tierPick, index) => {
      const isNorthwind = sector.name === "Technology" && index === 0;
      const tier: SizeTier = isNorthwind ? "large" : tierPick;
      const industry = isNorthwind ? (sector.industries[0] as Industry) : rng.pick(sector.industries);
      let prefix = "Northwind";
      if (!isNorthwind) {
        do
          prefix =
            prefixes.length > 0
              ? (prefixes.splice(rng.int(0, prefixes.length - 1), 1)[0] as string)
              : (overflow.shift() ?? `Company ${entries.length}`);
        while (usedPrefixes.has(prefix));
        usedPrefixes.add(prefix);
      }
      const noun = isNorthwind ? "Semiconductor" : rng.pick(industry.nouns);
      const suffix = isNorthwind ? "Inc." : rng.pick(CORPORATE_SUFFIXES);
      const shortName = `${prefix} ${noun}`;
      const name = `${shortName} ${suffix}`;

      const exchange = isNorthwind
        ? "NASDAQ"
        : tier === "small" && rng.chance(0.3)
          ? "NYSE American"
          : rng.chance(
                ["Technology", "Communication Services", "Health Care"].includes(sector.name) ? 0.7 : 0.25,
              )
            ? "NASDAQ"
            : "NYSE";
      const exchangeId = exchange === "NASDAQ" ? "NAS" : exchange === "NYSE" ? "NYS" : "ASE";
      const symbol = isNorthwind
        ? "NWSC"
        : tickerFor(prefix, noun, usedTickers, rng, exchange === "NASDAQ" ? 4 : rng.pick([3, 3, 4]));
      usedTickers.add(symbol);

      let cik: string;
      do cik = String(rng.int(1_050_000, 1_999_999)).padStart(10, "0");
      while (usedCiks.has(cik));
      usedCiks.add(cik);
      let issuer: string;
      do
        issuer =
          String(rng.int(10, 99)) +
          randomChars(rng, "0123456789ABCDEFGHJKLMNPRSTUVWXYZ", 3) +
          String(rng.int(0, 9));
      while (usedIssuers.has(issuer));
      usedIssuers.add(issuer);
      const cusip8 = `${issuer}10`;
      const cusip = cusip8 + cusipCheckDigit(cusip8);
      const isin = `US${cusip}${isinCheckDigit(`US${cusip}`)}`;
      const sedol6 = randomChars(rng, SEDOL_CHARS, 6);
      const sedol = sedol6 + sedolCheckDigit(sedol6);

      const place = rng.pick(CITIES);
      const streetNumber = rng.int(100, 9900);
      const fyeMonth = isNorthwind
        ? 12
        : rng.weighted(
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            sector.profile.fyeWeights.length === 12 ? sector.profile.fyeWeights : [],
          );
      const [impLo, impHi] = TIER_IMPORTANCE[tier];
      const domain = `${prefix.toLowerCase().replace(/[^a-z]/g, "")}${noun
        .toLowerCase()
        .replace(/[^a-z]/g, "")
        .slice(0, 8)}.example`;
      const ipoYear = rng.int(1978, 2019);
      const company: Company = {
        symbol,
        name,
        shortName,
        legalName: name.replace(/Inc\.$/, "Incorporated").replace(/Corp\.$/, "Corporation"),
        exchange,
        exchangeId,
        currency: "USD",
        cik,
        cusip,
        isin,
        valoren: String(rng.int(1_000_000, 129_999_999)),
        sedol,
        shareClassId: `0P0000${randomChars(rng, ALNUM, 4)}`,
        sector: sector.name,
        industryGroup: industry.industryGroup,
        industry: industry.industry,
        sic: industry.sic,
        sicName: industry.sicName,
        naics: industry.naics,
        naicsName: industry.naicsName,
        msSectorCode: sector.msSectorCode,
        msGroupCode: industry.msGroupCode,
        msIndustryCode: industry.msIndustryCode,
        sizeTier: tier,
        fiscalYearEndMonth: fyeMonth,
        ipoDate: `${ipoYear}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`,
        importance: rng.int(impLo, impHi),
        headquarters: {
          address1: `${streetNumber} ${rng.pick(STREETS)}`,
          city: place.city,
          province: place.province,
          postalCode: `${place.zip}${String(rng.int(0, 99)).padStart(2, "0")}`,
          country: "United States",
          countryId: "USA",
          phone: `+1 ${place.area} 555-${String(rng.int(100, 199)).padStart(4, "0")}`,
          fax: `+1 ${place.area} 555-${String(rng.int(200, 299)).padStart(4, "0")}`,
        },
        homepage: `https://www.${domain}`,
        shortDescription: `${shortName} ${industry.activity}.`,
        longDescription: "",
        executives: {
          ceo: { name: personName(rng), title: "Chief Executive Officer" },
          cfo: { name: personName(rng), title: "Chief Financial Officer" },
          ir: { name: personName(rng), title: "Vice President, Investor Relations" },
        },
      };
      company.longDescription =
        `${name} ${industry.activity}. Founded in ${ipoYear - rng.int(5, 40)} and headquartered in ${place.city}, ` +
        `${place.province}, the company went public in ${ipoYear} and serves customers across North America, Europe ` +
        `and Asia. It operates in the ${industry.industry.toLowerCase()} industry and is led by Chief Executive ` +
        `Officer ${company.executives.ceo.name}. ${shortName} is a fictional company of a demo data universe.`;

      const p = sector.profile;
      const [revLo, revHi] = REVENUE_RANGE[tier];
      const revenueRef = isNorthwind ? 48.6e9 : logUniform(rng, revLo, revHi);
      const lossMaker = tier === "small" && rng.chance(0.22);
      const operatingMargin = lossMaker
        ? rng.range(-0.18, -0.02)
        : clamp(p.operatingMargin * TIER_MARGIN_FACTOR[tier] + rng.normal() * 0.04, 0.02, 0.55);
      const grossMargin = clamp(
        Math.max(p.grossMargin + rng.normal() * 0.06, operatingMargin + 0.08),
        0.1,
        0.92,
      );
      const isPayer =
        isNorthwind || (!lossMaker && rng.chance(tier === "small" ? p.payerShare * 0.5 : p.payerShare));
      const marginFactor = clamp(operatingMargin / p.operatingMargin, 0.35, 1.8) ** 0.5;
      entries.push({
        company,
        sector,
        industry,
        params: {
          revenueRef,
          grossMargin,
          operatingMargin,
          growth: p.growth + rng.normal() * 0.04 + (tier === "small" ? 0.03 : 0),
          isPayer,
          payoutRatio: isPayer ? clamp(p.payoutRatio + rng.normal() * 0.08, 0.08, 0.95) : 0,
          shareChangeRate: lossMaker
            ? rng.range(0.01, 0.05)
            : isPayer
              ? rng.range(-0.035, 0.002)
              : rng.range(-0.015, 0.015),
          dilutionSpread: rng.range(0.003, 0.02),
          priceToSales: clamp(
            p.priceToSales * TIER_PS_FACTOR[tier] * marginFactor * Math.exp(rng.normal() * 0.25),
            0.3,
            12,
          ),
          referencePrice: isNorthwind
            ? 186
            : tier === "mega"
              ? rng.range(140, 620)
              : logUniform(rng, 12, 320),
          beta: clamp(p.beta + rng.normal() * 0.2, 0.2, 2.4),
          taxRate: rng.range(0.15, 0.24),
          debtToRevenue: p.debtToRevenue * Math.exp(rng.normal() * 0.35),
          sbcToRevenue: sector.name === "Technology" ? rng.range(0.02, 0.07) : rng.range(0.004, 0.02),
          reportLagDays: rng.int(20, 36),
          reportLagDaysQ4: rng.int(30, 52),
          reportTime: isNorthwind
            ? "16:05:00"
            : rng.chance(0.04)
              ? "12:00:00"
              : rng.chance(0.5)
                ? rng.pick(BMO_TIMES)
                : rng.pick(AMC_TIMES),
          beatRate: clamp(0.72 + rng.normal() * 0.08, 0.5, 0.9),
        },
      });
    });
  }
  return entries;
}
