import "server-only";
import type { CallStartedEvent, CallStatusEvent, SentenceEvent } from "@/lib/schemas/live";
import { formatEps, formatMoney } from "@/lib/format";
import { extractFigures, isFact } from "@/lib/insights/figures";
import { forwardWords, isGuidanceStatement } from "@/lib/insights/guidance";
import { LiveRoles } from "@/lib/insights/live-roles";
import { PhraseMatcher } from "./matcher";
import { CandidateGroups, ruleMatch, ScopeIndex, type AlertCandidate, type CompiledRule } from "./rules";

/**
 * Every rule kind over the live events and the earnings calendar, one candidate per user and event: a sentence that
 * matches a user's keyword rule, guidance rule and sentiment rule is one alert naming the three. Pure and synchronous: it holds only what crossing
 * detection needs (each call's recent sentiment); recording a firing exactly once is the dispatcher's job, since
 * a restarted evaluator or a new leader may see an event again.
 *
 * - keyword: PhraseMatcher over each sentence.
 * - guidance: the insights' guidance classifier (lib/insights/guidance.ts), the same reading as the Figures panel's:
 *   management's forward-looking statement (a guidance figure, or forward-looking words about results), never a
 *   question, an operator line, an analyst's sentence (LiveRoles tells the voices apart as the call goes), a
 *   transition ("Turning to our outlook.") or a look back ("than we expected"). Its matched words are the
 *   forward-looking words and the guided figures (docs/insights.md, "Guidance alerts").
 * - call-live: `call.started` of a call in scope.
 * - sentiment: the live estimate is the mean of the last 12 scored sentences (the call room's chart draws the same
 *   line). A positive threshold (or 0) fires when the estimate rises to it, a negative one when it falls to it;
 *   the rule re-arms once the estimate is back on the other side, and stays quiet for the first 3 scored
 *   sentences, whose mean is noise. Whether a rule was beyond its threshold is read from the previous estimate
 *   rather than kept per rule: every sentence checks every sentiment rule in scope, so that check is arithmetic,
 *   not set updates. It also means a rule created while the estimate is already beyond its threshold fires at the
 *   next crossing, not at once (docs/workspace.md).
 * - results: an earnings record of a ticker in scope that carries actuals (EPS or revenue).
 */

export const SENTIMENT_WINDOW = 12;
export const SENTIMENT_WARMUP = 3;

export interface EarningsActuals {
  id: string;
  symbol: string;
  name: string;
  period: string | null;
  periodYear: number | null;
  eps: number | null;
  epsEst: number | null;
  revenue: number | null;
  revenueEst: number | null;
}

interface CallSentiment {
  ring: number[];
  sum: number;
  /** The estimate after the previous scored sentence; null until the warm-up is over. */
  previous: number | null;
}

/** Whether an estimate is at or beyond a threshold, on the threshold's side of zero. */
const isBeyond = (estimate: number, threshold: number) =>
  threshold >= 0 ? estimate >= threshold : estimate <= threshold;

export class AlertEvaluator {
  private readonly phrases: PhraseMatcher;
  private readonly callLive: ScopeIndex;
  private readonly sentiment: ScopeIndex;
  private readonly results: ScopeIndex;
  private readonly guidance: ScopeIndex;
  private readonly calls = new Map<string, CallSentiment>();
  private roles = new LiveRoles();

  constructor(readonly rules: readonly CompiledRule[]) {
    this.phrases = new PhraseMatcher(rules);
    this.callLive = new ScopeIndex(rules.filter((r) => r.kind === "call-live"));
    this.sentiment = new ScopeIndex(rules.filter((r) => r.kind === "sentiment" && r.threshold !== null));
    this.results = new ScopeIndex(rules.filter((r) => r.kind === "results"));
    this.guidance = new ScopeIndex(rules.filter((r) => r.kind === "guidance"));
  }

  /** A new evaluator over new rules that keeps the sentiment state of calls in progress. */
  withRules(rules: readonly CompiledRule[]): AlertEvaluator {
    const next = new AlertEvaluator(rules);
    for (const [callId, state] of this.calls) next.calls.set(callId, state);
    next.roles = this.roles;
    return next;
  }

  onCallStarted(event: CallStartedEvent): AlertCandidate[] {
    const symbol = event.symbol.toUpperCase();
    const groups = new CandidateGroups({
      subject: event.callId,
      callId: event.callId,
      symbol,
      sequence: null,
      startMs: 0,
      text: `${event.name} (${symbol}) is live`,
    });
    for (const rule of this.callLive.rulesFor(symbol)) groups.add(rule.userId, ruleMatch(rule));
    return groups.candidates;
  }

  onSentence(symbol: string, event: SentenceEvent): AlertCandidate[] {
    const upper = symbol.toUpperCase();
    const hits = this.phrases.match({ symbol: upper, speaker: event.speaker, text: event.text });
    // Every sentence teaches who is speaking, whether or not a guidance rule is listening yet.
    const role = this.roles.observe(event.callId, event.speaker, event.text);
    const guided = this.guidance.isEmpty ? [] : this.guidanceRules(upper, role, event);
    const crossed =
      !this.sentiment.isEmpty && typeof event.sentiment === "number"
        ? this.crossings(upper, event.callId, event.sentiment)
        : [];
    if (hits.length === 0 && crossed.length === 0 && guided.length === 0) return [];
    const groups = new CandidateGroups({
      subject: event.callId,
      callId: event.callId,
      symbol: upper,
      sequence: event.sequence,
      startMs: event.startMs,
      text: event.text,
    });
    for (const { rule, matched } of guided) groups.add(rule.userId, ruleMatch(rule, matched));
    for (const { rule, matched } of hits) groups.add(rule.userId, ruleMatch(rule, matched));
    if (crossed.length > 0) {
      const estimate = signed(this.estimate(event.callId)!);
      for (const rule of crossed)
        groups.add(
          rule.userId,
          ruleMatch(rule, [], `Live sentiment ${estimate} crossed ${signed(rule.threshold!)}`),
        );
    }
    return groups.candidates;
  }

  onCallStatus(event: CallStatusEvent): void {
    if (event.status !== "live") {
      this.calls.delete(event.callId);
      this.roles.end(event.callId);
    }
  }

  /** The guidance rules a sentence fires, with the words that make it guidance. */
  private guidanceRules(
    symbol: string,
    role: ReturnType<LiveRoles["observe"]>,
    event: SentenceEvent,
  ): { rule: CompiledRule; matched: string[] }[] {
    const rules = this.guidance.rulesFor(symbol);
    if (rules.length === 0 || role !== "management") return [];
    const figures = extractFigures({
      sequence: event.sequence,
      text: event.text,
      startMs: event.startMs,
    }).filter((f) => f.isGuidance && isFact(f));
    if (!isGuidanceStatement({ text: event.text, role, hasGuidanceFigure: figures.length > 0 })) return [];
    const matched = [...new Set([...forwardWords(event.text), ...figures.map((f) => f.quote)])];
    return rules
      .filter((rule) => rule.speakerRole === null || rule.speakerRole === "speaker")
      .map((rule) => ({ rule, matched }));
  }

  onEarnings(records: readonly EarningsActuals[]): AlertCandidate[] {
    const out: AlertCandidate[] = [];
    for (const record of records) {
      if (record.eps === null && record.revenue === null) continue;
      const symbol = record.symbol.toUpperCase();
      const groups = new CandidateGroups({
        subject: `earnings:${record.id}`,
        callId: null,
        symbol,
        sequence: null,
        startMs: null,
        text: resultsText(record),
      });
      for (const rule of this.results.rulesFor(symbol)) groups.add(rule.userId, ruleMatch(rule));
      out.push(...groups.candidates);
    }
    return out;
  }

  private estimate(callId: string): number | null {
    const state = this.calls.get(callId);
    return state && state.ring.length > 0 ? state.sum / state.ring.length : null;
  }

  private crossings(symbol: string, callId: string, score: number): CompiledRule[] {
    let state = this.calls.get(callId);
    if (!state) {
      state = { ring: [], sum: 0, previous: null };
      this.calls.set(callId, state);
    }
    state.ring.push(score);
    state.sum += score;
    if (state.ring.length > SENTIMENT_WINDOW) state.sum -= state.ring.shift()!;
    if (state.ring.length < SENTIMENT_WARMUP) return [];
    const mean = state.sum / state.ring.length;
    const previous = state.previous;
    state.previous = mean;
    const fired: CompiledRule[] = [];
    for (const rule of this.sentiment.rulesFor(symbol)) {
      const t = rule.threshold!;
      if (isBeyond(mean, t) && (previous === null || !isBeyond(previous, t))) fired.push(rule);
    }
    return fired;
  }
}

/** "+0.42", "−0.30": the sign always shown, as thresholds are read. */
function signed(value: number): string {
  return `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(2)}`;
}

function resultsText(record: EarningsActuals): string {
  const parts: string[] = [];
  const period = [record.period, record.periodYear].filter((x) => x !== null).join(" ");
  if (record.eps !== null)
    parts.push(
      `EPS ${formatEps(record.eps)}${record.epsEst !== null ? ` vs ${formatEps(record.epsEst)} est.` : ""}`,
    );
  if (record.revenue !== null)
    parts.push(
      `revenue ${formatMoney(record.revenue)}${record.revenueEst !== null ? ` vs ${formatMoney(record.revenueEst)} est.` : ""}`,
    );
  return `${record.name} (${record.symbol.toUpperCase()})${period ? ` ${period}` : ""} results: ${parts.join(", ")}`;
}
