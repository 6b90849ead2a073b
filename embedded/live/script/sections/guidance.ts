/** The CFO's outlook: the next quarter's guidance (anchored on the next record's estimates), then the handover. */
import type { CallContext } from "../context";
import { formatMoney, formatPerShare, periodWords } from "../figures";
import { shortEpsLabel } from "../record-figures";
import type { Guidance } from "../story";
import type { Line } from "../types";

/** Revenue range (always), EPS range and full-year revenue (when given), in the form analysts extract. */
export function guidanceSentences(given: Guidance, epsLabel: string): string[] {
  const out = [
    `For the ${periodWords(given.period)}, we expect revenue in the range of ${formatMoney(given.revenueLow)} to ${formatMoney(given.revenueHigh)}.`,
  ];
  if (given.epsLow !== null && given.epsHigh !== null)
    out.push(
      `We expect ${shortEpsLabel(epsLabel)} in the range of ${formatPerShare(given.epsLow)} to ${formatPerShare(given.epsHigh)}.`,
    );
  if (given.fullYear)
    out.push(
      `For fiscal ${given.fullYear.year}, we now expect revenue in the range of ${formatMoney(given.fullYear.revenueLow)} to ${formatMoney(given.fullYear.revenueHigh)}.`,
    );
  return out;
}

export function guidanceLines({ story, fig, tone, rich }: CallContext): Line[] {
  const lines: Line[] = [{ role: "cfo", text: "Turning to our outlook.", section: "guidance" }];
  const given = story.guidance;
  if (given)
    for (const text of guidanceSentences(given, fig.epsLabel))
      lines.push({ role: "cfo", text, section: "guidance", keep: rich });
  if (!given?.fullYear)
    lines.push({
      role: "cfo",
      text:
        tone === "beat"
          ? "Given the strength we saw this quarter, we are raising our full-year outlook."
          : tone === "miss"
            ? "We are lowering our full-year outlook to reflect the softer demand environment."
            : "We are reaffirming our full-year outlook.",
      section: "guidance",
    });
  lines.push({
    role: "cfo",
    text: "With that, operator, please open the line for questions.",
    section: "guidance",
    keep: true,
  });
  return lines;
}
