/**
 * M&A deals. Each deal has a fixed timeline (rumor → announcement → regulatory review → completion or
 * cancellation); the record shown at `now` reflects the latest step reached by then, so statuses are always
 * consistent with the dates. Acquirers (and public targets) come from the universe; most targets are private.
 */
import type { CompanyEntry } from "./companies";
import type { CompanyModel } from "./model";
import { PRIVATE_SUFFIXES, PRIVATE_WORDS_A, PRIVATE_WORDS_B } from "./names";
import { createRng } from "./prng";
import { DAY_MS, utcDate, ymd } from "./time";
import { decimal, stableId } from "./calendar";
import type { DealPaymentType, DealType, WireMaRecord } from "./wire";

export interface Deal {
  id: string;
  acquirer: CompanyEntry;
  target: CompanyEntry | null;
  targetName: string;
  dealType: DealType;
  dealSize: number | null;
  payment: DealPaymentType;
  rumorMs: number | null;
  announcedMs: number | null;
  reviewMs: number | null;
  completedMs: number | null;
  canceledMs: number | null;
  expected: { ms: number; format: "day" | "quarter" | "month" | "none" };
  termsExtra: string;
  notes: string;
}

const DEALS_PER_YEAR = 140;
const FIRST_YEAR = 2018;
const LAST_YEAR = 2034;

const DIVISIONS = [
  "Specialty Products Division",
  "Services Business",
  "Consumer Unit",
  "Analytics Unit",
  "Regional Operations",
  "Components Business",
];
const NOTES = [
  "",
  "",
  "Expected to be accretive to adjusted EPS in the first full year after closing.",
  "Subject to customary closing conditions, including regulatory approvals.",
  "The boards of both companies have unanimously approved the transaction.",
  "Financed with cash on hand and a committed bridge facility.",
  "Target management will join the acquirer's leadership team.",
];
const PRIVATE_NOUNS: Record<string, readonly string[]> = {
  Technology: ["Analytics", "Software", "Semiconductor Design", "Cloud Systems", "Cyber"],
  "Health Care": ["Therapeutics", "Diagnostics", "Medical", "Clinical Labs"],
  Financials: ["Capital Advisors", "Payments", "Insurance Services", "Wealth Partners"],
  Energy: ["Resources", "Midstream", "Oilfield Services", "Renewables"],
  "Consumer Discretionary": ["Brands", "Outdoor", "Restaurants", "Apparel"],
  "Consumer Staples": ["Foods", "Beverages", "Naturals", "Household Products"],
  Industrials: ["Automation", "Logistics", "Aerospace Components", "Controls"],
  Utilities: ["Power", "Solar", "Water Systems", "Grid Services"],
  Materials: ["Chemicals", "Packaging", "Minerals", "Coatings"],
  "Communication Services": ["Media", "Fiber Networks", "Studios", "Digital"],
  "Real Estate": ["Properties", "Realty Partners", "Storage", "Communities"],
};

const quarterLabel = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
};

export function buildDeals(
  seed: number,
  entries: readonly CompanyEntry[],
  models: readonly CompanyModel[],
): Deal[] {
  const rng = createRng(seed, "deals");
  const capOf = (i: number) => {
    const model = models[i]!;
    const mid = model.months[Math.floor(model.months.length / 2)] ?? model.months[0];
    return mid?.marketCap ?? 1e9;
  };
  const caps = entries.map((_, i) => capOf(i));
  // Bigger companies do more deals, but not proportionally to size.
  const weights = caps.map((c) => Math.sqrt(c / 1e9));
  const indices = entries.map((_, i) => i);
  const deals: Deal[] = [];
  const start = utcDate(FIRST_YEAR, 1, 1);
  const span = utcDate(LAST_YEAR, 12, 31) - start;
  const count = DEALS_PER_YEAR * (LAST_YEAR - FIRST_YEAR + 1);
  for (let n = 0; n < count; n++) {
    const firstMs =
      start + Math.floor(rng.next() * (span / DAY_MS)) * DAY_MS + rng.int(12 * 3600, 22 * 3600) * 1000;
    const ai = rng.weighted(indices, weights);
    const acquirer = entries[ai]!;
    const acquirerCap = caps[ai]!;
    const kind = rng.weighted(["private", "public", "asset"] as const, [0.66, 0.2, 0.14]);
    let target: CompanyEntry | null = null;
    let targetName: string;
    let dealType: DealType;
    let size: number | null;
    let termsExtra = "";
    if (kind === "public") {
      const candidates = indices.filter((i) => i !== ai && caps[i]! < acquirerCap * 0.6);
      const ti = candidates.length > 0 ? rng.pick(candidates) : null;
      target = ti === null ? null : entries[ti]!;
      if (ti !== null && target) {
        targetName = target.company.name;
        dealType = caps[ti]! > acquirerCap * 0.3 ? "Merger" : rng.chance(0.8) ? "Acquisition" : "Merger";
        const premium = rng.range(1.15, 1.5);
        size = Math.round((caps[ti]! * premium) / 1e5) * 1e5;
        const perShare =
          (models[ti]!.months[Math.floor(models[ti]!.months.length / 2)]?.price ?? 20) * premium;
        termsExtra = `$${perShare.toFixed(2)} per share`;
      } else {
        targetName = "";
        dealType = "Acquisition";
        size = null;
      }
    } else if (kind === "asset") {
      const seller = entries[rng.pick(indices.filter((i) => i !== ai))]!;
      targetName = `${seller.company.shortName} ${rng.pick(DIVISIONS)}`;
      dealType = "Asset Sale";
      size = Math.round(Math.min(20e9, acquirerCap * rng.range(0.003, 0.06)) / 1e5) * 1e5;
    } else {
      targetName = "";
      dealType = "Acquisition";
      size = rng.chance(0.85)
        ? Math.round(
            Math.min(12e9, acquirerCap * Math.exp(rng.range(Math.log(0.001), Math.log(0.05)))) / 1e5,
          ) * 1e5
        : null;
    }
    if (!targetName) {
      const nouns = PRIVATE_NOUNS[acquirer.sector.name] ?? ["Holdings"];
      targetName = `${rng.pick(PRIVATE_WORDS_A)} ${rng.pick(PRIVATE_WORDS_B)} ${rng.pick(nouns)} ${rng.pick(PRIVATE_SUFFIXES)}`;
    }
    if (termsExtra === "" && size !== null && rng.chance(0.2))
      termsExtra = `Includes up to $${decimal((size * 0.1) / 1e6).replace(/\.0+$/, "")} million in earn-out payments`;

    let payment = rng.weighted<DealPaymentType>(
      ["Cash", "Stock", "Cash & Stock", ""],
      [0.55, 0.14, 0.21, 0.1],
    );
    if (dealType === "Merger" && payment === "Cash") payment = "Stock";

    const rumorFirst = rng.chance(0.3);
    let rumorMs: number | null = null;
    let announcedMs: number | null = firstMs;
    if (rumorFirst) {
      rumorMs = firstMs;
      announcedMs = rng.chance(0.55) ? firstMs + rng.int(5, 75) * DAY_MS + rng.int(-3, 3) * 3600_000 : null;
    }
    let reviewMs: number | null = null;
    let completedMs: number | null = null;
    let canceledMs: number | null = null;
    const big = (size ?? 0) >= 1e9 || target !== null;
    let expectedMs = firstMs;
    if (announcedMs !== null) {
      const duration = big ? rng.int(120, 420) : rng.int(30, 200);
      expectedMs = announcedMs + duration * DAY_MS;
      if (big || rng.chance(0.25))
        reviewMs = announcedMs + rng.int(12, 50) * DAY_MS + rng.int(0, 8) * 3600_000;
      if (rng.chance(0.11)) {
        canceledMs = announcedMs + rng.int(20, duration) * DAY_MS + rng.int(0, 8) * 3600_000;
      } else {
        completedMs =
          Math.max(announcedMs + 21 * DAY_MS, expectedMs + rng.int(-30, 45) * DAY_MS) +
          rng.int(0, 8) * 3600_000;
      }
      if (reviewMs !== null && reviewMs >= (completedMs ?? canceledMs ?? Infinity)) reviewMs = null;
    } else {
      // A rumor that never turned into a deal is called off after a while.
      canceledMs = firstMs + rng.int(45, 200) * DAY_MS;
    }
    const format = rng.weighted(["day", "quarter", "month", "none"] as const, [0.3, 0.38, 0.18, 0.14]);
    deals.push({
      id: stableId(seed, `ma:${n}`),
      acquirer,
      target,
      targetName,
      dealType,
      dealSize: size,
      payment,
      rumorMs,
      announcedMs,
      reviewMs,
      completedMs,
      canceledMs,
      expected: { ms: expectedMs, format: announcedMs === null ? "none" : format },
      termsExtra,
      notes: rng.pick(NOTES),
    });
  }
  deals.sort((a, b) => (a.rumorMs ?? a.announcedMs ?? 0) - (b.rumorMs ?? b.announcedMs ?? 0));
  return deals;
}

const importanceOf = (size: number | null, acquirerImportance: number) => {
  const bySize =
    size === null ? 1 : size >= 10e9 ? 5 : size >= 1e9 ? 4 : size >= 250e6 ? 3 : size >= 50e6 ? 2 : 1;
  return Math.min(5, Math.max(bySize, acquirerImportance - 2));
};

/** The deal as the calendar shows it at `nowMs`; null when nothing about it is public yet. */
export function toMaRecord(deal: Deal, nowMs: number): WireMaRecord | null {
  const firstMs = deal.rumorMs ?? deal.announcedMs;
  if (firstMs === null || firstMs > nowMs) return null;
  const reached = (ms: number | null): ms is number => ms !== null && ms <= nowMs;
  const announced = reached(deal.announcedMs);
  let status: WireMaRecord["deal_status"] = announced ? "Announced" : "Rumored";
  let updatedMs = announced ? deal.announcedMs! : firstMs;
  if (reached(deal.reviewMs)) {
    status = "Regulatory Review";
    updatedMs = deal.reviewMs;
  }
  if (reached(deal.completedMs)) {
    status = "Completed";
    updatedMs = deal.completedMs;
  }
  if (reached(deal.canceledMs)) {
    status = "Canceled";
    updatedMs = deal.canceledMs;
  }
  const exp = deal.expected;
  const dateExpected = !announced
    ? ""
    : exp.format === "day"
      ? ymd(exp.ms)
      : exp.format === "quarter"
        ? quarterLabel(exp.ms)
        : exp.format === "month"
          ? ymd(exp.ms).slice(0, 7)
          : "";
  const a = deal.acquirer.company;
  const t = deal.target?.company;
  return {
    id: deal.id,
    date: ymd(announced ? deal.announcedMs! : firstMs),
    date_expected: dateExpected,
    date_completed: status === "Completed" ? ymd(deal.completedMs!) : "",
    acquirer_ticker: a.symbol,
    acquirer_exchange: a.exchange,
    acquirer_name: a.name,
    acquirer_cusip: a.cusip,
    acquirer_isin: a.isin,
    target_ticker: t?.symbol ?? "",
    target_exchange: t?.exchange ?? "",
    target_name: deal.targetName,
    target_cusip: t?.cusip ?? "",
    target_isin: t?.isin ?? "",
    currency: "USD",
    deal_type: deal.dealType,
    deal_size: deal.dealSize === null ? "" : decimal(deal.dealSize),
    // Rumors rarely come with terms.
    deal_payment_type: announced ? deal.payment : "",
    deal_status: status,
    deal_terms_extra: announced ? deal.termsExtra : "",
    notes:
      status === "Canceled" && !announced
        ? "Talks ended without an agreement."
        : status === "Canceled"
          ? "The parties terminated the agreement."
          : deal.notes,
    importance: importanceOf(deal.dealSize, a.importance),
    updated: Math.floor(updatedMs / 1000),
  };
}

/** Deals dated within the last three years as of `nowMs`, date ascending. */
export function maWindow(deals: readonly Deal[], nowMs: number): WireMaRecord[] {
  const from = ymd(nowMs - 3 * 365 * DAY_MS);
  const out: WireMaRecord[] = [];
  for (const deal of deals) {
    const record = toMaRecord(deal, nowMs);
    if (record && record.date >= from) out.push(record);
  }
  out.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  return out;
}
