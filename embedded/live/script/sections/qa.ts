/**
 * The question-and-answer session: the sector's themes turned into questions and answers, asked by the company's
 * covering analysts (who asks first rotates with the quarter), one or two questions each, then follow-ups, as long
 * as the budget lasts.
 */
import type { CallContext } from "../context";
import { cost, fill, sentenceEnd } from "../lines";
import type { Rng } from "../../../universe/prng";
import { quarterOrdinal, type Analyst } from "../story";
import type { Line, Role } from "../types";

const ELABORATIONS: readonly string[] = [
  "Over the longer term, we remain confident in the trajectory of the business.",
  "We will share more detail on this at our investor day later in the year.",
  "It is still early, but the data points we have are consistent with that view.",
  "We are watching this closely and will adjust quickly if conditions change.",
  "I would add that our teams have done a good job staying close to customers on this.",
  "So overall, we feel good about where we are positioned.",
];

const FOLLOW_UPS: readonly string[] = [
  "And as a quick follow-up, ",
  "If I could squeeze in one more, ",
  "And just a follow-up, ",
];

const ACKS = ["Thanks for the question.", "Sure.", "That's a good question.", "Yes, thanks."];

interface QaPair {
  question: string;
  answerBy: "ceo" | "cfo";
  answer: string[];
}

/** Every question the call could take, in the order it would take them. */
function qaPairs({ themes, slots, tone, seg }: CallContext, rng: Rng): QaPair[] {
  const pairs: QaPair[] = [];
  const elaborations = rng.shuffle(ELABORATIONS);
  let elaborationIndex = 0;
  const elaborate = (): string[] =>
    elaborationIndex < elaborations.length ? [elaborations[elaborationIndex++] as string] : [];
  for (const theme of rng.shuffle(themes)) {
    const r = rng.fork(`qa:${theme.topic}`);
    theme.questions.forEach((question, k) => {
      // Two questions on one theme must not get the same answer: split the theme's answers between them.
      const own = theme.answers.filter((_, i) => i % theme.questions.length === k);
      const answer = (own.length > 0 ? own : theme.answers.slice(-1)).map((a) => fill(a, slots(r)));
      pairs.push({
        question: fill(question, slots(r)),
        answerBy: rng.chance(0.6) ? "ceo" : "cfo",
        answer: [...answer, ...(r.chance(0.7) ? elaborate() : [])],
      });
    });
  }
  pairs.push({
    question: `On the outlook, what are you assuming for ${seg} in the coming quarter, and how much conservatism is built in?`,
    answerBy: "cfo",
    answer: [
      `Our outlook assumes ${seg} grows roughly in line with what we saw this quarter.`,
      tone === "miss"
        ? "Given the volatility we experienced, we have deliberately widened the range and assumed no improvement in demand."
        : "We take a prudent approach to guidance, and we think the range reflects a balanced view of the risks.",
    ],
  });
  pairs.push({
    question:
      "How are you prioritizing capital allocation between reinvestment, acquisitions and returning cash to shareholders?",
    answerBy: "cfo",
    answer: [
      "Organic investment remains our first priority, because it generates the highest returns.",
      "Beyond that, we will continue to return excess cash through dividends and buybacks, and we look at acquisitions selectively.",
    ],
  });
  if (tone === "miss") {
    pairs.unshift({
      question:
        "I wanted to start with the shortfall this quarter. What surprised you the most, and how confident are you that it doesn't persist?",
      answerBy: "ceo",
      answer: [
        `The biggest surprise was how quickly conditions in ${seg} softened late in the quarter.`,
        "We have adjusted our cost base and our plans accordingly, and we are seeing early signs of stabilization.",
        "We are not going to call a bottom today, but we are confident in the actions we have taken.",
      ],
    });
  }
  return pairs;
}

function greetings(tone: CallContext["tone"]): readonly string[] {
  return tone === "beat"
    ? [
        "Congratulations on a strong quarter.",
        "Nice results, and thanks for taking my question.",
        "Great quarter, thank you.",
      ]
    : tone === "miss"
      ? [
          "Thanks for taking my question.",
          "Good afternoon, thanks for taking the question.",
          "Thank you for the color so far.",
        ]
      : ["Thanks for taking my questions.", "Good afternoon, and thanks for the time.", "Hi, thank you."];
}

/** The operator's introduction of an analyst, their questions and the answers, their thanks. */
function analystTurn(
  rng: Rng,
  analyst: Analyst,
  a: number,
  questions: number,
  queue: readonly QaPair[],
  next: { pairIndex: number },
  greeting: string,
): Line[] {
  const role: Role = `analyst:${a}`;
  const batch: Line[] = [
    {
      role: "operator",
      text: `Our ${a === 0 ? "first" : "next"} question comes from ${analyst.name} with ${sentenceEnd(analyst.firm)} Your line is open.`,
      section: "qa",
    },
  ];
  for (let k = 0; k < questions && next.pairIndex < queue.length; k++) {
    const pair = queue[next.pairIndex++] as QaPair;
    const prefix = k === 0 ? `${greeting} ` : rng.pick(FOLLOW_UPS);
    const question =
      k === 0 || /^I\b/.test(pair.question)
        ? pair.question
        : pair.question.charAt(0).toLowerCase() + pair.question.slice(1);
    batch.push({ role, text: `${prefix}${question}`, section: "qa" });
    const [first, ...rest] = pair.answer;
    batch.push({
      role: pair.answerBy,
      text: `${rng.pick(ACKS)} ${first ?? "We will come back to you on that."}`,
      section: "qa",
    });
    for (const more of rest) batch.push({ role: pair.answerBy, text: more, section: "qa" });
  }
  if (rng.chance(0.6))
    batch.push({
      role,
      text: rng.pick(["Thank you.", "Very helpful, thanks.", "Great, thank you."]),
      section: "qa",
    });
  return batch;
}

/** A follow-up question from an analyst already heard. */
function followUpTurn(rng: Rng, analyst: Analyst, role: Role, pair: QaPair): Line[] {
  const [first, ...rest] = pair.answer;
  return [
    {
      role: "operator",
      text: `We have a follow-up question from ${analyst.name} with ${sentenceEnd(analyst.firm)} Your line is open.`,
      section: "qa",
    },
    { role, text: `Thanks for squeezing me back in. ${pair.question}`, section: "qa" },
    {
      role: pair.answerBy,
      text: `${rng.pick(ACKS)} ${first ?? "We will come back to you on that."}`,
      section: "qa",
    },
    ...rest.map((more) => ({ role: pair.answerBy, text: more, section: "qa" as const })),
  ];
}

/** The Q&A that fits `budget` seconds, and the analysts who spoke in it (none when not even one fits). */
export function qaLines(ctx: CallContext, budget: number): { lines: Line[]; analysts: Analyst[] } {
  const rng = ctx.rng.fork("qa");
  const queue = qaPairs(ctx, rng);
  const roster = ctx.story.roster;
  const ordinal = quarterOrdinal(ctx.record.period, ctx.record.period_year);

  // 2–5 analysts; a longer call gets more of them, as a real one would.
  const analystCount = Math.min(roster.length, 5, Math.max(2, Math.round(budget / 75) + rng.int(-1, 0)));
  const questionsEach = budget / analystCount > 70 ? 2 : 1;
  // The same analysts call in quarter after quarter: the roster in order, starting one further each quarter, so
  // two consecutive calls share most of their questioners.
  const first = ((ordinal % roster.length) + roster.length) % roster.length;
  const analysts = [...roster.slice(first), ...roster.slice(0, first)].slice(0, analystCount);

  const lines: Line[] = [];
  let used = 0;
  const take = (batch: Line[]): boolean => {
    const c = cost(batch);
    if (used + c > budget) return false;
    lines.push(...batch);
    used += c;
    return true;
  };
  const opener: Line = {
    role: "operator",
    text: "Thank you. We will now begin the question-and-answer session.",
    section: "qa",
  };
  if (!take([opener])) return { lines: [], analysts: [] };

  const greet = rng.shuffle(greetings(ctx.tone));
  const speaking: Analyst[] = [];
  const next = { pairIndex: 0 };
  for (let a = 0; a < analysts.length && next.pairIndex < queue.length; a++) {
    const analyst = analysts[a] as Analyst;
    const questions = questionsEach === 2 || rng.chance(0.3) ? 2 : 1;
    if (!take(analystTurn(rng, analyst, a, questions, queue, next, greet[a % greet.length] as string))) break;
    speaking.push(analyst);
  }
  // A follow-up or two from analysts already heard, while questions and time remain.
  for (const analyst of rng.shuffle(speaking).slice(0, 2)) {
    const pair = queue[next.pairIndex];
    if (!pair) break;
    if (!take(followUpTurn(rng, analyst, `analyst:${speaking.indexOf(analyst)}`, pair))) break;
    next.pairIndex++;
  }
  if (speaking.length === 0) return { lines: [], analysts: [] };
  return { lines, analysts: speaking };
}
