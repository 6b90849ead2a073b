/**
 * The alert rules the alert benchmarks load: `users` users × `rulesPerUser` rules (seven keyword phrases of one to
 * three words, one guidance, one sentiment threshold, one call-live each), scoped to a watchlist-sized set of 30
 * tickers, to a few tickers, or to every call. Deterministic from `seed`, so runs compare.
 */

export const ALERT_TERMS =
  `revenue margin growth demand tariff tariffs pricing supply chain inventory backlog customers quarter
  year guidance outlook expect cloud data center capex buyback dividend headwinds tailwinds currency china europe
  semiconductor memory wafer yield shipments orders bookings churn subscription retention operating expense leverage
  free cash flow debt refinancing acquisition integration synergy restructuring layoffs hiring wages inflation rates
  consumer enterprise government defense healthcare pharmacy claims premiums underwriting loans deposits credit`
    .split(/\s+/)
    .filter(Boolean);

export interface BenchRule {
  userId: string;
  kind: "keyword" | "guidance" | "sentiment" | "call-live";
  phrase: string | null;
  tickers: string[] | null;
  speakerRole: "speaker" | null;
  threshold: number | null;
}

/** A small linear congruential generator: the same rules on every run and machine. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

export function generateRules(options: {
  users: number;
  rulesPerUser: number;
  tickers: readonly string[];
  rand: () => number;
  userId?: (index: number) => string;
}): BenchRule[] {
  const { rand, tickers } = options;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const phrase = () => {
    const n = rand() < 0.6 ? 1 : rand() < 0.8 ? 2 : 3;
    return Array.from({ length: n }, () => pick(ALERT_TERMS)).join(" ");
  };
  const scope = (): string[] | null => {
    const r = rand();
    if (r < 0.2) return null;
    return [...new Set(Array.from({ length: r < 0.7 ? 30 : 3 }, () => pick(tickers)))];
  };
  const rules: BenchRule[] = [];
  for (let u = 0; u < options.users; u++) {
    const watchlist = scope();
    for (let r = 0; r < options.rulesPerUser; r++) {
      const kind = r < 7 ? "keyword" : r === 7 ? "guidance" : r === 8 ? "sentiment" : "call-live";
      rules.push({
        userId: options.userId ? options.userId(u) : String(u),
        kind,
        phrase: kind === "keyword" ? phrase() : null,
        tickers: rand() < 0.5 ? watchlist : scope(),
        speakerRole: rand() < 0.1 ? "speaker" : null,
        threshold: kind === "sentiment" ? (rand() < 0.5 ? -0.4 : 0.5) : null,
      });
    }
  }
  return rules;
}
