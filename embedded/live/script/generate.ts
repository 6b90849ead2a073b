/**
 * Earnings-call scripts: operator introduction, safe harbour, CEO remarks, CFO financials, guidance, Q&A and the
 * operator close (one module each under `sections/`), sized to the call's planned duration and deterministic by
 * `call_id`; calls under a minute are built by `short.ts`.
 *
 * The CFO states the EPS and revenue of the calendar record the call is about (docs/upstream.md §7), in transcript form.
 * Tone follows the record's surprises: a beat sounds confident, a miss sounds contrite, in line sounds measured.
 * Speakers carry diarization labels assigned in order of first appearance (OPERATOR, SPEAKER_1, …), as a live
 * diarizer would; the real names are only handed to enrichment through `speakers`.
 */
import { easternWallTime } from "../../../common/time/eastern";
import { assemble } from "./assemble";
import { callContext } from "./context";
import { cost, trimToBudget } from "./lines";
import { ceoLines } from "./sections/ceo";
import { cfoLines } from "./sections/cfo";
import { closingLines, FINAL_LINES } from "./sections/close";
import { guidanceLines } from "./sections/guidance";
import { introLines, safeHarborLines } from "./sections/opening";
import { qaLines } from "./sections/qa";
import { SHORT_CALL_SECONDS, shortScript } from "./short";
import type { CallScript, Line, ScriptInput } from "./types";

export function generateScript(input: ScriptInput): CallScript {
  const ctx = callContext(input, easternWallTime(input.startTime.getTime()).hour);
  if (ctx.targetSeconds < SHORT_CALL_SECONDS) return shortScript(ctx);
  const { targetSeconds } = ctx;

  // ---- Budget: fixed parts first, prepared remarks next, Q&A takes what is left; the close is reserved.
  const closing = closingLines(ctx);
  const fixedIntro = trimToBudget(introLines(ctx), targetSeconds * 0.06);
  const fixedSafe = trimToBudget(safeHarborLines(ctx), targetSeconds * 0.07);
  const closeCost = cost(closing) + cost(FINAL_LINES);
  const remaining = Math.max(0, targetSeconds - cost(fixedIntro) - cost(fixedSafe) - closeCost);
  const ceoKept = trimToBudget(ceoLines(ctx), remaining * 0.27);
  const cfoKept = trimToBudget(cfoLines(ctx), remaining * 0.25);
  const guidanceKept = trimToBudget(guidanceLines(ctx), remaining * 0.08);
  const qa = qaLines(ctx, remaining - cost(ceoKept) - cost(cfoKept) - cost(guidanceKept));

  // Without a Q&A the CFO cannot hand over to questions; the prepared remarks end the call instead.
  const guidanceSpoken: Line[] =
    qa.lines.length > 0
      ? guidanceKept
      : [
          ...guidanceKept.slice(0, -1),
          { role: "cfo", text: "That concludes our prepared remarks.", section: "guidance" },
        ];
  const lines = [
    ...fixedIntro,
    ...fixedSafe,
    ...ceoKept,
    ...cfoKept,
    ...guidanceSpoken,
    ...qa.lines,
    ...(qa.lines.length > 0 ? closing : closing.slice(1)),
  ];
  const closeIndex = lines.length;
  lines.push(...FINAL_LINES);
  return assemble(input, ctx.tone, lines, closeIndex, qa.analysts, ctx.cfo);
}
