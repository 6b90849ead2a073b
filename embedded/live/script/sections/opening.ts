/** The operator's introduction and investor relations' safe harbour. */
import type { CallContext } from "../context";
import { firstName } from "../lines";
import type { Line } from "../types";

export function introLines({ company, quarter, year, greeting, ir }: CallContext): Line[] {
  return [
    {
      role: "operator",
      text: `Good ${greeting}, and welcome to the ${company.shortName} ${quarter} ${year} earnings conference call.`,
      section: "intro",
      keep: true,
    },
    {
      role: "operator",
      text: "At this time, all participants are in a listen-only mode. After the speakers' presentation, there will be a question-and-answer session.",
      section: "intro",
    },
    {
      role: "operator",
      text: "Please be advised that today's conference is being recorded.",
      section: "intro",
    },
    {
      role: "operator",
      text: `I would now like to hand the conference over to ${ir.name}, ${ir.title}. Please go ahead.`,
      section: "intro",
      keep: true,
    },
  ];
}

export function safeHarborLines({ greeting, story, ceo, cfo, rich }: CallContext): Line[] {
  return [
    {
      role: "ir",
      text: `Thank you, operator, and good ${greeting}, everyone.`,
      section: "safe_harbor",
      keep: true,
    },
    {
      role: "ir",
      text: story.cfoJoined
        ? `Joining me today are ${ceo.name}, our ${ceo.title}, and ${cfo.name}, who joined us as ${cfo.title} this quarter.`
        : `Joining me today are ${ceo.name}, our ${ceo.title}, and ${cfo.name}, our ${cfo.title}.`,
      section: "safe_harbor",
      keep: story.cfoJoined && rich,
    },
    {
      role: "ir",
      text: "Before we begin, let me remind you that today's discussion contains forward-looking statements based on our current expectations.",
      section: "safe_harbor",
      keep: true,
    },
    {
      role: "ir",
      text: "Actual results may differ materially because of risks and uncertainties described in our filings with the Securities and Exchange Commission.",
      section: "safe_harbor",
    },
    {
      role: "ir",
      text: "We will also refer to non-GAAP financial measures; reconciliations to the most comparable GAAP measures are in our earnings release.",
      section: "safe_harbor",
    },
    {
      role: "ir",
      text: `With that, I'll turn the call over to ${firstName(ceo.name)}.`,
      section: "safe_harbor",
      keep: true,
    },
  ];
}
