import "server-only";
import type { AlertRuleKind, RuleMatch, SpeakerRole } from "@/lib/schemas/alerts";

/**
 * A rule as the engine evaluates it: its scope already resolved to upper-case tickers (its own tickers plus its
 * watchlist's), so matching never touches the database. `tickers: null` = every call.
 */
export interface CompiledRule {
  id: string;
  userId: string;
  kind: AlertRuleKind;
  /** What the alert will call it (`ruleLabel`): kept with the alert, so it outlives a rename. */
  label: string;
  phrase: string | null;
  tickers: ReadonlySet<string> | null;
  speakerRole: SpeakerRole | null;
  threshold: number | null;
}

/**
 * What an event's evaluation produced for one user: one alert, however many of the user's rules matched (`rules`,
 * each with its matched words). Recording it (once) and delivering it is the dispatcher's job.
 */
export interface AlertCandidate {
  userId: string;
  /** What the firing is unique per, with `sequence`: the call id, or `earnings:<record id>` for results. */
  subject: string;
  callId: string | null;
  symbol: string;
  sequence: number | null;
  startMs: number | null;
  text: string;
  rules: RuleMatch[];
}

/** One rule's match before it is grouped with the user's other rules on the same event. */
export function ruleMatch(
  rule: CompiledRule,
  matched: string[] = [],
  detail: string | null = null,
): RuleMatch {
  return { ruleId: rule.id, kind: rule.kind, label: rule.label, matched, detail };
}

/**
 * One event's candidates, grouped by user as matches are added, in the order the users first appear: the same
 * sentence matched by three of a user's rules is one alert naming the three. Built in place (no intermediate list):
 * this runs for every user a sentence alerts.
 */
export class CandidateGroups {
  private readonly byUser = new Map<string, AlertCandidate>();
  readonly candidates: AlertCandidate[] = [];

  constructor(private readonly base: Omit<AlertCandidate, "userId" | "rules">) {}

  add(userId: string, match: RuleMatch): void {
    const existing = this.byUser.get(userId);
    if (existing) {
      existing.rules.push(match);
      return;
    }
    const base = this.base;
    const candidate: AlertCandidate = {
      userId,
      subject: base.subject,
      callId: base.callId,
      symbol: base.symbol,
      sequence: base.sequence,
      startMs: base.startMs,
      text: base.text,
      rules: [match],
    };
    this.byUser.set(userId, candidate);
    this.candidates.push(candidate);
  }
}

/** Rules bucketed by ticker, so finding the rules of one symbol never walks every user's rules. */
export class ScopeIndex {
  private readonly all: CompiledRule[] = [];
  private readonly bySymbol = new Map<string, CompiledRule[]>();
  /** Each symbol's every-call rules and own rules in one array, made on first use: the index never changes. */
  private readonly merged = new Map<string, readonly CompiledRule[]>();

  constructor(rules: readonly CompiledRule[]) {
    for (const rule of rules) {
      if (rule.tickers === null) this.all.push(rule);
      else
        for (const symbol of rule.tickers) {
          const list = this.bySymbol.get(symbol);
          if (list) list.push(rule);
          else this.bySymbol.set(symbol, [rule]);
        }
    }
  }

  get isEmpty(): boolean {
    return this.all.length === 0 && this.bySymbol.size === 0;
  }

  /** `upperSymbol` already upper-cased. An array, not a generator: the sentiment check runs it for every sentence. */
  rulesFor(upperSymbol: string): readonly CompiledRule[] {
    const list = this.bySymbol.get(upperSymbol);
    if (!list) return this.all;
    let merged = this.merged.get(upperSymbol);
    if (!merged) {
      merged = this.all.concat(list);
      this.merged.set(upperSymbol, merged);
    }
    return merged;
  }
}

/** Live diarization labels: `OPERATOR`, then `SPEAKER_1`, `SPEAKER_2`, … for everyone else. */
export function speakerRoleOf(speaker: string): SpeakerRole {
  return speaker.trim().toUpperCase() === "OPERATOR" ? "operator" : "speaker";
}

/**
 * Resolves a stored rule's scope: its tickers and its watchlist's tickers together; neither = every call. A rule
 * scoped to a watchlist that is now empty (or gone) watches nothing rather than everything.
 */
export function resolveScope(
  tickers: readonly string[] | null,
  watchlistTickers: readonly string[] | null | undefined,
  hasWatchlist: boolean,
): ReadonlySet<string> | null {
  if (!hasWatchlist && (tickers === null || tickers.length === 0)) return null;
  return new Set([...(tickers ?? []), ...(watchlistTickers ?? [])].map((t) => t.toUpperCase()));
}
