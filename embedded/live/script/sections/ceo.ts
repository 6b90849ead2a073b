/** The CEO's prepared remarks: the quarter's verdict, a change of CFO, the recurring topics, the sector's themes. */
import { formatMoney, formatPercent } from "../figures";
import type { CallContext } from "../context";
import { fill, firstName } from "../lines";
import { changeWords } from "../record-figures";
import type { Rng } from "../../../universe/prng";
import type { TopicEmphasis } from "../story";
import type { Line } from "../types";

const EMPHASIS: Record<TopicEmphasis["intensity"], readonly string[]> = {
  record: [
    "In {topic}, this was a record quarter for us.",
    "We delivered record results in {topic} this quarter.",
  ],
  strong: ["We saw strong momentum in {topic}.", "Performance in {topic} was strong this quarter."],
  solid: ["We made solid progress in {topic}.", "Trends in {topic} were solid through the quarter."],
  modest: [
    "We saw modest improvement in {topic} this quarter.",
    "Progress in {topic} was modest this quarter.",
  ],
  softer: [
    "We saw softer trends in {topic} this quarter.",
    "Conditions in {topic} were softer this quarter.",
  ],
};

const LEVEL = ["softer", "modest", "solid", "strong", "record"];

function emphasisSentence(topic: TopicEmphasis, rng: Rng): string {
  const base = fill(rng.pick(EMPHASIS[topic.intensity]), { topic: topic.theme.topic });
  const delta = LEVEL.indexOf(topic.intensity) - LEVEL.indexOf(topic.previous);
  if (delta > 0) return `${base.slice(0, -1)}, an improvement from last quarter.`;
  if (delta < 0) return `${base.slice(0, -1)}, after a stronger prior quarter.`;
  return base;
}

function openingVerdict({ rng, tone, quarter, company }: CallContext): string {
  const toneRng = rng.fork("tone");
  return tone === "beat"
    ? toneRng.pick([
        `We delivered an excellent ${quarter}, with results ahead of our expectations on both the top and bottom line.`,
        `This was a record ${quarter} for ${company.shortName}, and our teams executed exceptionally well.`,
        `I'm very pleased with our performance this quarter, which exceeded the outlook we gave you ninety days ago.`,
      ])
    : tone === "miss"
      ? toneRng.pick([
          `This was a difficult ${quarter}, and our results fell short of what we expected.`,
          `Our performance this quarter was disappointing, and I want to be direct about what happened.`,
          `We faced meaningful headwinds in the ${quarter}, and our results came in below our own expectations.`,
        ])
      : toneRng.pick([
          `We delivered a solid ${quarter}, in line with the outlook we shared last quarter.`,
          `Our results this quarter were consistent with our plan, and the business remains on track.`,
          `The ${quarter} played out largely as we expected, with steady execution across the company.`,
        ]);
}

function toneLines({ tone, seg }: CallContext): string[] {
  return tone === "beat"
    ? [
        "Execution across the organization was excellent, and I want to thank our employees for their hard work.",
        "We are entering the next quarter with strong momentum and a healthy pipeline.",
      ]
    : tone === "miss"
      ? [
          `Several factors weighed on results, including softer demand in ${seg} and higher costs than we planned.`,
          "We are not satisfied with these results, and we have already begun to address them, including a review of our cost structure.",
          "I am confident the actions we are taking will put us back on track over the coming quarters.",
        ]
      : [
          "Overall, the business performed as we expected, and our priorities remain unchanged.",
          "We continue to balance investment for growth with discipline on costs.",
        ];
}

export function ceoLines(ctx: CallContext): Line[] {
  const { rng, story, ir, cfo, fig, rich, seg, seg2, slots } = ctx;
  const lines: Line[] = [
    {
      role: "ceo",
      text: `Thank you, ${firstName(ir.name)}, and thank you all for joining us.`,
      section: "ceo",
      keep: true,
    },
    { role: "ceo", text: openingVerdict(ctx), section: "ceo", keep: true },
  ];
  if (story.cfoLeaving) {
    const { outgoing, incoming } = story.cfoLeaving;
    lines.push(
      {
        role: "ceo",
        text: `Before we get into the results, as we announced last week, this will be ${outgoing.name}'s last earnings call as our ${outgoing.title}.`,
        section: "ceo",
        keep: rich,
      },
      {
        role: "ceo",
        text: `${incoming.name} will succeed ${firstName(outgoing.name)} at the start of next quarter, and I want to thank ${firstName(outgoing.name)} for years of partnership.`,
        section: "ceo",
        keep: rich,
      },
    );
  }
  // One sentence per recurring topic carries its emphasis word, always spoken: it is what moves between quarters.
  const emphasisRng = rng.fork("emphasis");
  for (const topic of ctx.topics)
    lines.push({ role: "ceo", text: emphasisSentence(topic, emphasisRng), section: "ceo", keep: rich });
  if (fig.revenue !== null) {
    const change = changeWords(fig.revenue, fig.revenuePrior);
    lines.push({
      role: "ceo",
      text: change
        ? `Revenue reached ${formatMoney(fig.revenue)}, ${change.dir} ${formatPercent(change.pct)} year over year.`
        : `Revenue reached ${formatMoney(fig.revenue)} for the quarter.`,
      section: "ceo",
    });
  }
  for (const theme of ctx.topics.map((t) => t.theme)) {
    const r = rng.fork(`remarks:${theme.topic}`);
    // Two of a theme's remarks, chosen per call: the topic recurs, its wording shifts.
    for (const t of r.shuffle(theme.remarks).slice(0, 2))
      lines.push({ role: "ceo", text: fill(t, slots(r)), section: "ceo" });
  }
  for (const t of toneLines(ctx)) lines.push({ role: "ceo", text: t, section: "ceo" });
  const genericCeo = rng
    .fork("ceo-generic")
    .shuffle([
      `Our strategy remains focused on three priorities: growing our ${seg} business, expanding into adjacent markets, and improving operating efficiency.`,
      `In ${seg2}, we signed several new multi-year agreements with large customers during the quarter.`,
      "We continued to invest in our people and our technology, and we launched several new products.",
      "Our balance sheet gives us the flexibility to keep investing through the cycle while returning capital to shareholders.",
      "We also made progress on our sustainability goals, reducing the emissions intensity of our operations.",
      `Customer feedback on our latest ${seg} offerings has been ${slots(rng.fork("ceo-adj")).adj}.`,
    ]);
  for (const t of genericCeo) lines.push({ role: "ceo", text: t, section: "ceo" });
  lines.push({
    role: "ceo",
    text: `With that, let me turn it over to ${firstName(cfo.name)} to walk through the financials.`,
    section: "ceo",
    keep: true,
  });
  return lines;
}
