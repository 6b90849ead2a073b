/**
 * Scripts for calls under a minute. Always: the operator's welcome, the CFO stating revenue and EPS (one combined
 * sentence when the call is too short for two), the operator's close. Then, step by step in order of value, each
 * step kept only if the estimate still fits the requested duration: the CFO's handover and greeting, the figures
 * in full, a fuller welcome and close, the verdict against expectations, the outlook. A call that comes out
 * short is padded with a pause at the end by the runtime, so the sizing errs short.
 */
import { assemble } from "./assemble";
import type { CallContext } from "./context";
import { formatMoney, formatPerShare } from "./figures";
import { guidanceSentences } from "./sections/guidance";
import type { CallScript, Line, ScriptSection } from "./types";

/** Below this, `shortScript` builds the call; from here on the full structure fits. */
export const SHORT_CALL_SECONDS = 60;

/**
 * Spoken length without pauses, for fitting short calls, calibrated on the eSpeak voices: a word costs by its
 * letters, an acronym is spelled out, a figure ("$4.21", "12%") is read as several words. Errs long: the runtime
 * pads a call that comes out short, but cannot shorten the sentences it must say.
 */
export function spokenSecondsEstimate(text: string): number {
  let seconds = 0;
  for (const token of text.split(/\s+/)) {
    const word = token.replace(/[^\p{L}\p{N}$%.']/gu, "");
    if (word === "") continue;
    const digits = word.replace(/\D/g, "").length;
    if (digits > 0) seconds += 0.6 + 0.35 * Math.min(digits, 6);
    else if (/^[A-Z]{2,5}$/.test(word)) seconds += 0.25 * word.length;
    else seconds += 0.12 + 0.045 * word.length;
  }
  return seconds;
}

/** Short calls' runtime overhead besides speech (call.ts): lead-in plus trail, and the pause before a sentence. */
export function shortCallOverheadSeconds(targetSeconds: number, sentenceCount: number): number {
  const pause = targetSeconds < 20 ? 0.35 : 0.55;
  return Math.min(1.2, Math.max(0.2, targetSeconds * 0.02)) + 0.3 + pause * Math.max(0, sentenceCount - 1);
}

/** What a short call says of the quarter beyond its figures: the verdict (none without actuals) and the outlook. */
function shortVerdicts({ fig, tone }: CallContext): {
  verdict: string | null;
  outlook: string;
} {
  const verdict =
    !fig.hasActuals || fig.epsEst === null || fig.eps === null
      ? null
      : tone === "beat"
        ? "Both revenue and earnings per share came in above our expectations."
        : tone === "miss"
          ? "Earnings per share were below our expectations, reflecting lower volumes and cost pressures."
          : "Results were in line with our expectations on both revenue and earnings.";
  const outlook =
    tone === "beat"
      ? "Given this strength, we are raising our full-year outlook."
      : tone === "miss"
        ? "We are lowering our full-year outlook to reflect softer demand."
        : "We are reaffirming our full-year outlook.";
  return { verdict, outlook };
}

export function shortScript(ctx: CallContext): CallScript {
  const { input, company, record, fig, cfo, quarter, year, greeting } = ctx;
  const target = Math.max(5, input.targetSeconds);
  const money = fig.revenue === null ? null : formatMoney(fig.revenue);
  const perShare = fig.eps === null ? null : `${fig.eps < 0 ? "a loss of " : ""}${formatPerShare(fig.eps)}`;
  const combined =
    money !== null && perShare !== null
      ? `Revenue was ${money}, and EPS was ${perShare}.`
      : money !== null
        ? `Revenue was ${money}.`
        : perShare !== null
          ? `EPS was ${perShare}.`
          : `We are not reporting figures for the ${quarter} on this call.`;
  const given = ctx.story.guidance;
  const { verdict, outlook } = shortVerdicts(ctx);

  const op = (text: string, section: ScriptSection): Line[] => [{ role: "operator", text, section }];
  const said = (text: string, section: ScriptSection): Line[] => [{ role: "cfo", text, section }];
  // Slots in script order; a step fills or replaces one.
  const order = [
    "welcome",
    "handover",
    "greeting",
    "figures",
    "verdict",
    "guide-revenue",
    "guide-eps",
    "outlook",
    "remarks-end",
    "close",
  ] as const;
  type Key = (typeof order)[number];
  const chosen = new Map<Key, Line[]>();
  const current = () => order.flatMap((k) => chosen.get(k) ?? []);
  const fits = () => {
    const lines = current();
    const speech = lines.reduce((s, l) => s + spokenSecondsEstimate(l.text), 0);
    return speech + shortCallOverheadSeconds(target, lines.length) <= target;
  };
  const step = (key: Key, lines: Line[]) => {
    const before = chosen.get(key);
    chosen.set(key, lines);
    if (fits()) return;
    if (before) chosen.set(key, before);
    else chosen.delete(key);
  };

  // The frame, shortest forms first: it is spoken even if it overruns (a 10 s call cannot drop its figures).
  chosen.set("welcome", op("Welcome, everyone.", "intro"));
  chosen.set("figures", said(combined, "cfo"));
  chosen.set("close", op("That concludes the call.", "close"));
  step("welcome", op(`Welcome to the ${company.shortName} call.`, "intro"));
  step("welcome", op(`Welcome to the ${company.shortName} earnings call.`, "intro"));
  step("handover", op(`Over to ${cfo.name}, our ${cfo.title}.`, "intro"));
  step("greeting", said("Thank you, operator.", "cfo"));
  step("figures", [...said(ctx.revenueSentence(), "cfo"), ...said(ctx.epsSentence(), "cfo")]);
  step(
    "welcome",
    op(
      `Good ${greeting}, and welcome to the ${company.shortName} ${record.period} ${year} earnings call.`,
      "intro",
    ),
  );
  step("handover", op(`I will now hand the call over to ${cfo.name}, ${cfo.title}.`, "intro"));
  if (verdict) step("verdict", said(verdict, "cfo"));
  step("close", op("This concludes today's call. You may now disconnect.", "close"));
  const [guideRevenue, guideEps] = given ? guidanceSentences(given, fig.epsLabel) : [];
  if (guideRevenue) step("guide-revenue", said(guideRevenue, "guidance"));
  step("outlook", said(outlook, "guidance"));
  if (guideEps && given?.epsLow !== null) step("guide-eps", said(guideEps, "guidance"));
  step("greeting", said(`Thank you, operator, and good ${greeting}, everyone.`, "cfo"));
  step("remarks-end", said("That concludes our prepared remarks.", "guidance"));
  step(
    "close",
    op("This concludes today's call. Thank you for participating. You may now disconnect.", "close"),
  );

  const lines = current();
  const closeIndex = lines.length - (chosen.get("close")?.length ?? 0);
  return assemble(input, ctx.tone, lines, closeIndex, [], cfo);
}
