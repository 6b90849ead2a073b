/** The CFO's results: the figures of the record, against the previous call's guidance, segments, risks, the rest. */
import { formatMoney, formatPercent, formatPerShare } from "../figures";
import type { CallContext } from "../context";
import { capitalize, firstName } from "../lines";
import { shortEpsLabel, type Figures } from "../record-figures";
import { roundAsSpoken, type Guidance } from "../story";
import type { Line } from "../types";

function riskSentence({ risk, phase }: { risk: string; phase: "emerging" | "ongoing" | "easing" }): string {
  if (phase === "emerging")
    return `One new factor this quarter was ${risk}, which we expect to weigh on results in the near term.`;
  // Number-neutral wording: risks are singular ("foreign exchange") and plural ("tariffs on …") alike.
  if (phase === "ongoing") return `The headwind from ${risk} continued this quarter, as it did last quarter.`;
  return `The pressure from ${risk}, which weighed on us last quarter, has largely eased.`;
}

/** Compared as said: an actual that rounds to the range's end is "at" it, not above it. */
function position(actual: number, low: number, high: number): string {
  if (actual > high) return "above the high end of";
  if (actual < low) return "below the low end of";
  if (actual === high) return "at the high end of";
  if (actual === low) return "at the low end of";
  return "within";
}

/** The quarter's actuals against what the previous call guided, in the amounts that call stated. */
function againstGuidance(fig: Figures, prior: Guidance): string[] {
  const out: string[] = [];
  if (fig.revenue !== null)
    out.push(
      `Revenue of ${formatMoney(fig.revenue)} was ${position(roundAsSpoken(fig.revenue), prior.revenueLow, prior.revenueHigh)} our guidance range of ${formatMoney(prior.revenueLow)} to ${formatMoney(prior.revenueHigh)}.`,
    );
  if (fig.eps !== null && prior.epsLow !== null && prior.epsHigh !== null)
    out.push(
      `${capitalize(shortEpsLabel(fig.epsLabel))} of ${fig.eps < 0 ? "-" : ""}${formatPerShare(fig.eps)} was ${position(Math.round(fig.eps * 100) / 100, prior.epsLow, prior.epsHigh)} our guidance of ${formatPerShare(prior.epsLow)} to ${formatPerShare(prior.epsHigh)}.`,
    );
  return out;
}

export function cfoLines(ctx: CallContext): Line[] {
  const { rng, fig, story, tone, rich, greeting, ceo } = ctx;
  const fr = rng.fork("cfo");
  const revenue = fig.revenue ?? 1e9;
  const grossMargin = fr.int(28, 72) + fr.int(0, 9) / 10;
  const opMargin = Math.max(4, grossMargin - fr.int(12, 30));
  const lines: Line[] = [
    {
      role: "cfo",
      text: `Thanks, ${firstName(ceo.name)}, and good ${greeting}, everyone.`,
      section: "cfo",
      keep: true,
    },
    { role: "cfo", text: ctx.revenueSentence(), section: "cfo", keep: true },
    { role: "cfo", text: ctx.epsSentence(), section: "cfo", keep: true },
  ];
  if (fig.hasActuals && story.priorGuidance)
    for (const text of againstGuidance(fig, story.priorGuidance))
      lines.push({ role: "cfo", text, section: "cfo", keep: rich });
  if (fig.hasActuals && fig.epsEst !== null && fig.eps !== null) {
    lines.push({
      role: "cfo",
      text:
        tone === "beat"
          ? "Both revenue and earnings per share came in ahead of consensus expectations."
          : tone === "miss"
            ? "Earnings per share were below our expectations, reflecting lower volumes and cost pressures that we did not fully offset."
            : "Results were in line with our expectations on both revenue and earnings.",
      section: "cfo",
    });
  }
  story.segments.forEach((segment, i) => {
    const amount = revenue * segment.share;
    const dir = segment.growthPct >= 0 ? "up" : "down";
    lines.push({
      role: "cfo",
      text: `${capitalize(segment.name)} revenue was ${formatMoney(amount)}, ${dir} ${formatPercent(segment.growthPct)} year over year, and represented ${Math.round(segment.share * 100)}% of total revenue.`,
      section: "cfo",
      keep: rich && i === 0,
    });
  });
  story.risks.forEach((mention, i) => {
    lines.push({ role: "cfo", text: riskSentence(mention), section: "cfo", keep: rich && i === 0 });
  });
  const extra = [
    `Gross margin was ${grossMargin.toFixed(1)}%, ${tone === "miss" ? "down" : "up"} ${fr.int(20, 180)} basis points from a year ago.`,
    `Operating expenses were ${formatMoney((revenue * (grossMargin - opMargin)) / 100)}, reflecting continued investment in growth and discipline elsewhere.`,
    `Operating margin was ${opMargin.toFixed(1)}%.`,
    `Our effective tax rate was ${fr.int(14, 24)}%.`,
    `Operating cash flow was ${formatMoney((revenue * fr.int(12, 25)) / 100)}, and free cash flow was ${formatMoney((revenue * fr.int(5, 11)) / 100)}.`,
    `Capital expenditures were ${formatMoney((revenue * fr.int(3, 8)) / 100)}, in line with our plan.`,
    `We ended the quarter with ${formatMoney((revenue * fr.int(40, 120)) / 100)} in cash and investments.`,
    `During the quarter, we returned ${formatMoney((revenue * fr.int(3, 9)) / 100)} to shareholders through dividends and share repurchases.`,
  ];
  for (const t of extra) lines.push({ role: "cfo", text: t, section: "cfo" });
  return lines;
}
