/**
 * Financial-language word lists in the style of Loughran–McDonald (positive, negative, uncertainty, litigious),
 * written for earnings-call speech rather than 10-K prose. Not a copy of the LM dictionary: words that are neutral
 * in calls ("approximately", "may", "liabilities", "contract") are left out, and direction words ("increase",
 * "decline") are handled as numeric cues in score.ts, because whether a rise is good depends on what rose.
 */

export type LexiconCategory = "positive" | "negative" | "uncertainty" | "litigious";

const words = (list: string): string[] => list.trim().split(/\s+/);

export const POSITIVE_WORDS = words(`
  accomplish accomplishment accretive achieve achievement advance advancement advantage advantaged attractive
  beat benefit beneficial best better boost breakthrough capitalize certainty confident confidence conviction
  delight delighted disciplined durable efficient efficiency encourage encouraged encouraging enhance enhancement
  enthusiasm enthusiastic excellence excellent exceed exceptional excited exciting favorable favourable
  favorably gain good great greater greatest healthy highest ideal impressive improve improvement innovative
  innovation leadership lucrative milestone momentum opportunity optimism optimistic outpace outperform
  outperformance overdeliver pleased pleasing positive premium productive profitable profitability
  progress proud rebound recover recovery remarkable resilience resilient reward rewarding robust solid
  stability stable stellar strength strengthen strong stronger strongest succeed success successful superior
  surpass sustainable tailwind thrive thriving traction upbeat upgrade upside upswing win winner winning
  record unmatched unrivaled differentiated meet
`);

export const NEGATIVE_WORDS = words(`
  adverse adversely bankruptcy breach burden challenge challenged challenging closure concern concerned
  bad constrain constraint crisis damage decelerate deceleration default deficit delay deteriorate
  deterioration difficult difficulty dilution dilutive disappoint disappointed disappointing disappointment
  disrupt disruption downgrade downside downturn drag erode erosion fail failure glut hamper harm headwind hurt
  impair impaired impairment inability inadequate ineffective inferior insolvency lag lagging layoff lose loss
  lost miss negative obsolescence obsolete outage overcapacity penalty plunge poor poorly pressure problem
  recession recessionary restructure restructuring sluggish shortfall shortage slowdown slump soft softer softness
  soften softening stagnant stagnation struggle tough turmoil unable underperform underperformance unfavorable unfavourable
  unprofitable unsuccessful volatile weak weaken weaker weakest weakness worse worsen worst writedown writeoff
  destocking overhang cannibalize cannibalization delinquency markdown recall churn attrition strain
  shutdown suspend suspension terminate termination uneconomic unsold backlash problematic severe
`);

export const UNCERTAINTY_WORDS = words(`
  ambiguity ambiguous choppy contingency contingent doubt doubtful fluctuate fluctuation fragile hesitant
  hesitation indefinite instability murky pending precarious risk risky speculate speculative tentative
  turbulence turbulent uncertain uncertainty unclear unforeseen unknown unpredictable unpredictability unsettled
  unstable unexpected unexpectedly unproven variability caution cautious cautiously
`);

export const LITIGIOUS_WORDS = words(`
  allegation allege antitrust appeal arbitration claimant complaint counsel court defendant deposition
  enforcement indictment infringe infringement injunction investigation judgment judgement lawsuit litigation
  noncompliance plaintiff proceeding prosecution sanction settlement statute subpoena testimony tribunal verdict
  violate violation whistleblower
`);

/**
 * Multi-word finance phrases. Each slot is a set of words (stemmed when compiled); `maxGap` words may sit between
 * consecutive slots, so "ahead of analyst expectations" and "raising our full-year guidance" match. Phrases win
 * over the single words they contain, and carry larger weights because they are unambiguous in a call.
 */
export interface PhraseDef {
  slots: string[][];
  maxGap: number;
  weight: number;
  category: LexiconCategory;
}

const phrase = (
  slots: string,
  maxGap: number,
  weight: number,
  category: LexiconCategory = "positive",
): PhraseDef => ({
  slots: slots.split(" / ").map((slot) => slot.split("|")),
  maxGap,
  weight,
  category,
});

export const PHRASES: PhraseDef[] = [
  // Results against expectations.
  phrase(
    "ahead|above|exceed|beat|top|surpass|outpace / expectation|consensus|estimate|forecast|plan|guidance|outlook",
    3,
    2,
  ),
  phrase("better / than / expect|expected|anticipated|planned|forecast", 0, 1.5),
  phrase("in|came|come / line / with / expectation|consensus|guidance|plan", 1, 0.5),
  phrase("meet|met / expectation|consensus|guidance|target|commitment|goal", 2, 1),
  phrase(
    "below|miss|missed|short|shy|under / expectation|consensus|estimate|forecast|plan|guidance|outlook|target",
    3,
    2,
    "negative",
  ),
  phrase("worse / than / expect|expected|anticipated|planned|forecast", 0, 1.5, "negative"),
  phrase("fell|fall|came|come / short", 0, 1.5, "negative"),
  // Guidance moves.
  phrase("raise|raising|raised|lift|increase|upgrade / guidance|outlook|forecast|target|dividend", 4, 1.5),
  phrase(
    "lower|lowering|lowered|cut|reduce|trim|withdraw|suspend / guidance|outlook|forecast|target|dividend",
    4,
    2,
    "negative",
  ),
  phrase("reaffirm|reiterate|maintain|confirm / guidance|outlook|forecast|target", 4, 0.5),
  // Records and margins.
  phrase(
    "record / revenue|sales|quarter|year|earnings|result|bookings|backlog|margin|cash|profit|high|level|order",
    2,
    2,
  ),
  phrase("all / time / high", 0, 1.5),
  phrase("margin / expansion|expand|expanded|improvement|improved|increase|uplift", 2, 1.5),
  phrase("expand|expanded|expanding|improve|improved|improving / margin", 3, 1.5),
  phrase("margin / compression|contraction|pressure|decline|erosion|headwind|squeeze", 2, 1.5, "negative"),
  phrase("compress|compressed|compressing|erode|eroded / margin", 3, 1.5, "negative"),
  // Growth shapes.
  phrase("double|triple / digit / growth|increase|gain", 0, 1.5),
  phrase("top / and / bottom / line / growth", 0, 1.5),
  phrase("market / share / gain|gains", 1, 1.5),
  phrase("gain|gained|gaining|take|took|taking / share", 1, 1.2),
  phrase("lose|lost|losing|cede|ceded / share", 1, 1.5, "negative"),
  phrase("share / repurchase|buyback", 1, 0.5),
  phrase("free / cash / flow / positive", 0, 1),
  // Charges and balance-sheet pain.
  phrase("one|non / time|recurring / charge|charges|expense", 0, 1, "negative"),
  phrase("write / down|off", 0, 1.5, "negative"),
  phrase("goodwill / impairment|writedown", 0, 2, "negative"),
  phrase("inventory / correction|glut|overhang|build", 1, 1.5, "negative"),
  phrase("supply / chain / disruption|constraint|issue|shortage", 1, 1.5, "negative"),
  phrase("headcount / reduction", 0, 1.2, "negative"),
  phrase("going / concern", 0, 2, "negative"),
  phrase("limited|lower|reduced|less / visibility", 1, 1, "uncertainty"),
  phrase("class / action", 0, 1.5, "litigious"),
  phrase("legal / proceeding|matter|action|claim", 0, 1, "litigious"),
  phrase("consent / decree", 0, 1.5, "litigious"),
  // Common openings that must stay neutral even though they contain a sentiment word.
  phrase("good / morning|afternoon|evening|day", 0, 0),
  phrase("great|good / question", 0, 0),
];

/** Raw tokens that stem onto a sentiment key but are neutral in a call ("this call is being recorded"). */
export const NEUTRAL_SURFACE_FORMS = new Set([
  "recorded",
  "recording",
  "recordings",
  "meeting",
  "meetings",
  "winners",
  "concerning",
  "regarding",
  "premiums",
  "settlements",
  "appeals",
]);

export const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "neither",
  "nor",
  "none",
  "nothing",
  "without",
  "cannot",
  "lack",
  "lacked",
  "lacking",
  "barely",
  "hardly",
]);

/** "-n't" contractions are negators too; the apostrophe form keeps "isn't", "didn't", "won't", "can't". */
export function isNegator(token: string): boolean {
  return NEGATORS.has(token) || token.endsWith("n't");
}

export const INTENSIFIERS = new Map<string, number>([
  ["very", 1.5],
  ["extremely", 1.8],
  ["significantly", 1.6],
  ["substantially", 1.6],
  ["considerably", 1.5],
  ["sharply", 1.6],
  ["strongly", 1.5],
  ["dramatically", 1.7],
  ["markedly", 1.5],
  ["meaningfully", 1.4],
  ["materially", 1.4],
  ["exceptionally", 1.7],
  ["remarkably", 1.6],
  ["particularly", 1.3],
  ["especially", 1.3],
  ["highly", 1.4],
  ["much", 1.3],
  ["really", 1.3],
  ["incredibly", 1.7],
  ["tremendously", 1.7],
  ["hugely", 1.6],
  ["severely", 1.6],
  ["deeply", 1.5],
  ["truly", 1.3],
  ["solidly", 1.3],
  ["slightly", 0.5],
  ["somewhat", 0.6],
  ["modestly", 0.6],
  ["marginally", 0.5],
  ["mildly", 0.5],
  ["partially", 0.6],
  ["partly", 0.6],
  ["relatively", 0.7],
  ["fairly", 0.7],
  ["moderately", 0.7],
  ["minor", 0.6],
  ["bit", 0.6],
]);

/**
 * Direction words. Whether a move is good depends on what moved, so these only count with a figure nearby
 * ("up 12%", "declined $0.03") or, for the unambiguous verbs, at a reduced weight without one; a cost subject
 * ("operating expenses decreased 3%") inverts them.
 */
export const UP_WORDS = words(
  `increase grow grew growth rise rose risen climb jump surge expand expansion accelerate acceleration up higher`,
);
export const DOWN_WORDS = words(
  `decrease decline fall fell fallen drop shrink shrank contraction slip dip slide slid down lower tumble`,
);
/** Direction words that are too ambiguous to count without a figure ("follow up", "this fall", "lower Manhattan"). */
export const FIGURE_ONLY_WORDS = new Set(
  words(`up down higher lower rise rose risen fall fell fallen slip dip slide slid climb jump`),
);

/** Subjects for which "up" is bad news. */
export const COST_WORDS = words(`
  cost expense opex spend spending loss debt leverage churn attrition delinquency writeoff inventory headcount
  impairment charge dilution
`);
