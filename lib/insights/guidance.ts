/**
 * Guidance language (docs/insights.md, "Guidance"): where a sentence looks forward, how far (next quarter, the year,
 * longer), and whether a whole sentence is management guidance. One reading for the figures (which amounts are
 * guidance) and for the guidance alert rule (server/alerts), so the two never disagree.
 */

/** Words that make what follows them a forecast ("we expect", "is expected to", "our outlook calls for"). */
const FORWARD =
  /\b(?:expect(?:s|ed|ing|ations?)?|anticipat(?:e|es|ed|ing)|forecast(?:s|ed|ing)?|project(?:s|ed|ing)|guid(?:e|es|ed|ing|ance)|outlook|target(?:s|ed|ing)?|(?:re)?affirm(?:s|ed|ing)?|reiterat(?:e|es|ed|ing)|estimat(?:e|es|ed|ing)|assum(?:e|es|ed|ing|ptions?)|implies|plan(?:s|ned|ning)? (?:to|for|on)|(?:we|it|this|that|they)(?:'ll| will) (?:be|have|see|deliver|generate|reach|finish|end|exceed|grow)|(?:should|will|would|could) (?:be|come in|approximate|range|total|grow|increase|decrease|decline|improve|expand|reach|exceed|land|remain|finish|end up|run|step up|contribute|generate|deliver|see|drive)|(?:are|is|remain) on track|aiming|we see|we now see|(?:we're|we are) planning|would result in|looking (?:ahead|forward) to (?:the|fiscal|20)|(?:full[- ]year|annual) (?:view|range))\b/gi;

/** Where a forward word looks back: "than we expected", "in line with our guidance", "exceeded our outlook". */
const BACKWARD =
  /\b(?:(?:than|as) (?:we |I |had |was |were |originally |previously |initially )*(?:expected|anticipated|forecast(?:ed)?|planned|guided|projected|targeted)|(?:in line with|consistent with|within|above|below|ahead of|exceed(?:ed|ing)?|beat|at|toward|to) (?:the )?(?:(?:top|high|low|upper|lower) end of )?(?:our |the )?(?:prior |previous |original |revised |initial )?(?:(?:Q\d|\w+ quarter|full[- ]year) )?(?:range of expectations?|expectations?|guidance(?: range)?|outlook|forecast|targets?|range)|(?:better|worse|stronger|weaker|higher|lower|faster|slower)[- ]than[- ](?:expectations?|anticipated|expected|estimated|forecast(?:ed)?|planned|projected|guided)|as (?:expected|anticipated|forecasted)|as (?:we|you|one|I) (?:would|might|could|should|may) (?:expect|anticipate)|range of expectations?|expected to close|(?:we|I) had (?:expect(?:ed)?|anticipated|planned|forecast(?:ed)?|guided|estimated)|(?:we've|we have|we had) (?:estimated|forecasted|projected)|(?:un|un-)expected(?:ly)?|forward-looking|projections? (?:are|is) subject)\b/gi;

/** A prior guidance range restated next to the new one ("up from our previous guidance of …"). */
export const PRIOR_GUIDANCE =
  /\b(?:prior|previous|previously|earlier|original|initial|last quarter's)\s+(?:\w+\s+){0,2}(?:range|guidance|outlook|forecast|expectations?|targets?)\b(?:\s+(?:range\s+)?(?:of|was|for))?\s*$/i;

/** Phrases that open the outlook without stating it: "Turning to our outlook.", "Let me now discuss guidance". */
const TRANSITION =
  /^(?:(?:and |so |now |next |finally |lastly |with that,? |before |)(?:,\s*)?(?:i(?:'d| would| will|'ll)? (?:like to |now )?|let me (?:now )?|let's (?:now )?|we(?:'ll| will) (?:now )?)?(?:turn(?:ing)?|mov(?:e|ing)|go(?:ing)?|walk(?:ing)? (?:you )?through|review(?:ing)?|discuss(?:ing)?|talk(?:ing)? about|conclude|close|provide|cover|shift(?:ing)?)(?: now)?(?: (?:on|over|to|with))? (?:to |a (?:few|couple of) (?:words|comments) (?:on|about) )?(?:(?:our|the) )?(?:\w+ )?(?:\w+ )?(?:guidance|outlook|expectations|forecast)\b[^.]{0,60}[.:]?\s*$)/i;

export type Horizon = "next_quarter" | "full_year" | "other";

const NEXT_QUARTER =
  /\b(?:next|coming|current|upcoming|following) quarter\b|\b(?:first|second|third|fourth|1st|2nd|3rd|4th)[- ](?:fiscal )?quarter\b|\bQ[1-4]\b|\bquarter(?:ly)? guidance\b/i;
const OTHER_HORIZON =
  /\b(?:(?:second|back|first|front) half|(?:long|medium|mid)[- ]term|by (?:the end of )?(?:fiscal )?(?:20\d\d|'\d\d)|through (?:fiscal )?(?:20\d\d|'\d\d)|over the (?:next|coming) (?:\w+ )?(?:years|quarters)|multi-?year|CAGR|compound(?:ed)? annual|(?:20\d\d|'\d\d) (?:and|through|to) (?:20\d\d|'\d\d)|next (?:few|several|couple of) (?:years|quarters)|five-year|5-year|10-year|three-year|3-year|first (?:12|twelve) months)\b/i;
const FULL_YEAR =
  /\b(?:(?:our|the) (?:fiscal )?(?:20\d\d|'\d\d)\b|(?:20\d\d|'\d\d) (?:(?:adjusted|non-GAAP|GAAP|diluted|organic|consolidated|total) )*(?:guidance|outlook|earnings|EPS|revenues?|sales|capex|plan|targets?|EBITDA|margins?|(?:gross|operating|net|EBITDA) margin|free cash flow|operating income|net income|tax rate)|full[- ]year|fiscal (?:year )?(?:20\d\d|'?\d\d|year)|fy ?'?\d\d|for the (?:full |fiscal |calendar )?year|this year|next year|the year|for (?:20\d\d|'\d\d)|in (?:20\d\d|'\d\d)|calendar (?:year )?20\d\d|annual(?:ly)?|year-end)\b/i;

/** How far the forecast in `text` looks; null when the sentence does not say. */
export function horizonOf(text: string): Horizon | null {
  if (OTHER_HORIZON.test(text)) return "other";
  if (FULL_YEAR.test(text)) return "full_year";
  if (NEXT_QUARTER.test(text)) return "next_quarter";
  return null;
}

/** Where a sentence refers back to a forecast ("above the high end of our guidance range"), as [start, end]. */
export function backwardSpans(text: string): [number, number][] {
  return spans(BACKWARD, text);
}

/** Where `re` matches `text`, as [start, end] pairs. */
function spans(re: RegExp, text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(re)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/**
 * Positions in `text` where forward-looking language starts (not counting the backward-looking uses). A figure
 * after one of them, in the same clause, is guidance.
 */
export function forwardCues(text: string): number[] {
  return forwardSpans(text).map(([s]) => s);
}

/** The forward-looking words themselves ("we expect", "reaffirming"), as said: what a guidance alert shows matched. */
export function forwardWords(text: string): string[] {
  return [...new Set(forwardSpans(text).map(([s, e]) => text.slice(s, e)))];
}

function forwardSpans(text: string): [number, number][] {
  const back = spans(BACKWARD, text);
  return (
    spans(FORWARD, text)
      .filter(([s, e]) => !back.some(([bs, be]) => s < be && e > bs))
      // "As you will see on slide six": the listener's future, not the company's.
      .filter(([s]) => !/\b(?:you|as)\s+$/i.test(text.slice(Math.max(0, s - 6), s)))
  );
}

export interface GuidanceStatementInput {
  text: string;
  /** Who says it: only management gives guidance. */
  role: "operator" | "management" | "analyst" | "unknown";
  /** The sentence's figures flagged as guidance, when already extracted (a guided figure is guidance outright). */
  hasGuidanceFigure?: boolean;
}

/** Forward words that are guidance only with a result of the company in view (not "we expect the deal to close"). */
const RESULT_WORDS =
  /\b(?:revenues?|sales|growth|grow|margins?|earnings|EPS|income|profit(?:ability)?|EBITDA|cash flow|capex|capital (?:expenditures?|spending|plan|program|investments?)|dividends?|repurchases?|buybacks?|volumes?|pricing|prices|costs?|expenses?|spend(?:ing)?|tax rate|orders|bookings|backlog|demand|results|performance|guidance|outlook|range|midpoint|per share|FFO|NOI|occupancy|leverage|debt|savings|comps?|same-store|shipments|production|deliveries|units|returns|headwinds?|tailwinds?|rate base|payout|business|quarter|year|half|inflation|improve(?:ment)?|decline|increase|recover(?:y)?|accretive|dilutive)\b|\d\s?%|\$\s?\d/i;

/** Forward words that need the company as their agent: a forecast, an expectation, a projection, a target. */
const AGENT_NEEDED = /^(?:expect|anticipat|forecast|project|outlook|target|estimat|assum)/i;
/** The company looking forward: "we now expect", "our outlook", "management anticipates", "we're targeting". */
const OURS_BEFORE =
  /\b(?:we|we're|we've|we'd|we'll|our|us|I|I'm|management|the company(?:'s)?|(?:the|this|that|our) (?:[\w-]+ )?(?:guidance|outlook|forecast|plan|range))\b/i;
/** The company by its name: "Northwind expects". */
const NAME_EXPECTS =
  /\b[A-Z][\w&.-]+\s+(?:now\s+|still\s+)?(?:expects|anticipates|projects|forecasts|estimates)$/;
/** "… are expected to allow us to …", "expected to give our shareholders": the company as the object. */
const OURS_AFTER = /^\w*\s+(?:to\s+\w+\s+)?(?:us|our)\b/i;
/** A result expected, said passively: "revenue is expected to", "EPS is now projected at". */
const RESULT_SUBJECT_BEFORE =
  /\b(?:revenues?|sales|margins?|earnings|EPS|income|EBITDA|cash flow|capex|capital expenditures|expenses|costs|tax rate|FFO|production|volumes?|shipments|bookings|backlog|growth)\b(?:\s+\S+){0,6}\s+(?:is|are|was|were)\s+(?:now\s+|still\s+|currently\s+)?$/i;

/** Statements about guidance that state none: "we don't provide quarterly guidance", "we will update you". */
const NO_CONTENT =
  /\b(?:(?:do not|don't|won't|will not|not) (?:provide|give|guide|update)|(?:will|'ll|to) (?:update|provide|share|give) (?:you|more|further|an update|with you)|refer to (?:our|the) (?:press release|slides?)|forward-looking statements)\b/i;

/**
 * A sentence that names the outlook as a subject to come or gone, with no amount in it: "I will begin with the
 * quarter and conclude with guidance for 2020", "… turn the call over to Alan for our outlook for Q2", "we've talked
 * about the margin outlook", "providing formal earnings guidance". And someone else's: "guidance by the CDC".
 */
const ANNOUNCES =
  /\b(?:conclud(?:e|ing) with|discuss(?:ing|ion of)?|review(?:ing)?|cover(?:ing)?|walk(?:ing)? (?:you )?through|talk(?:ed|ing)? about|go(?:ing)? (?:over|through)|turn(?:ing)? (?:the call |it )?over to \w+(?: \w+)? (?:to|for)|(?:provid(?:e|es|ed|ing)|giv(?:e|es|ing)|issu(?:e|es|ed|ing)|introduc(?:e|es|ed|ing)|reinstat(?:e|es|ed|ing)|withdr[ae]w(?:ing|n)?) (?:formal |annual |quarterly |full-year |any |an? )?(?:earnings |financial )?)\b[^.;]{0,80}\b(?:guidance|outlook|expectations|forecast)\b|\b(?:guidance|outlook|forecast) (?:from|by|of) the\b|\b(?:World|Energy|Economic|Industry) Outlook\b/i;

/**
 * Whether a sentence is management's forward-looking statement about the company's results: a guidance figure, or
 * explicit guidance language with a result in view. Never a question, an operator line, an analyst's sentence, a
 * transition ("Turning to our outlook."), or a look back ("than we expected").
 */
export function isGuidanceStatement(input: GuidanceStatementInput): boolean {
  if (input.role === "operator" || input.role === "analyst") return false;
  const text = input.text.trim();
  if (text.endsWith("?")) return false;
  if (input.hasGuidanceFigure) return true;
  if (TRANSITION.test(text) || NO_CONTENT.test(text)) return false;
  if (ANNOUNCES.test(text) && !/\d/.test(text)) return false;
  // A forecast of the company's own: a result in view right around a forward word that is management's own ("we
  // expect", "our outlook", "revenue is expected to"), not someone else's ("Gartner's forecast", "the Fed's
  // outlook", "farm income is projected") nor a plan with no result ("we expect to make acquisitions").
  return forwardSpans(text).some(([start, end]) => {
    const around = text.slice(Math.max(0, start - 100), Math.min(text.length, end + 120));
    if (!RESULT_WORDS.test(around)) return false;
    if (!AGENT_NEEDED.test(text.slice(start, end))) return true;
    return (
      OURS_BEFORE.test(text.slice(Math.max(0, start - 80), start)) ||
      RESULT_SUBJECT_BEFORE.test(text.slice(Math.max(0, start - 50), start)) ||
      NAME_EXPECTS.test(text.slice(Math.max(0, start - 30), end)) ||
      OURS_AFTER.test(text.slice(end, end + 30))
    );
  });
}
