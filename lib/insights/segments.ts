/**
 * Which part of the company a figure is about (docs/insights.md, "Segments"): a segment, product, channel or region
 * named in front of the metric ("Data centers revenue", "Latin America net sales", "license and maintenance
 * revenue"), as the sentence's subject ("The Logistics business generated …", "International delivered …"), or in a
 * framing phrase ("In the Distribution segment, sales …", "revenue in the U.S."). Such a figure is never the
 * company's total. Words that describe the company as a whole ("total", "consolidated", "reported", the quarter)
 * leave it the company's.
 */

/** Modifiers that keep a metric the company's own: "total revenue", "third quarter net sales", "GAAP revenue". */
const COMPANY_WORDS = new Set(
  `total consolidated company companywide company-wide overall enterprise our the its their this that these those
  net gross reported gaap non-gaap adjusted organic core underlying comparable record quarterly annual annualized
  full-year full year fiscal first second third fourth first-quarter second-quarter third-quarter fourth-quarter q1
  q2 q3 q4 quarter quarter's quarters year year's yearly ytd year-to-date half six-month nine-month month sequential
  operating cumulative combined aggregate strong solid healthy robust higher lower increased decreased improved
  incremental additional constant currency-neutral fx-neutral pro forma proforma like-for-like reported
  approximately about roughly nearly almost over more less than total-company and of a an in on for from with to at
  by as its our your we also still just only even both all each every same new last prior previous current
  next this-year's record-breaking double-digit single-digit high low mid top-line bottom-line
  recurring nonrecurring non-recurring one-time cash base ending beginning average period-end year-end dollar
  dollars percent per share shares unit non economic ongoing normalized operational weekly monthly daily diluted fully`
    .split(/\s+/)
    .filter(Boolean),
);

/** A year or quarter label: "2021", "'21", "Q3", "FY22". */
const TIME_TOKEN = /^(?:'?\d{2}|\d{4}|q[1-4]|fy'?\d{2,4}|h[12]|[1-4](?:st|nd|rd|th))$/i;

/** Words that end a noun phrase when reading back from the metric: verbs, pronouns, prepositions, conjunctions. */
const STOP_BACK = new Set(
  `was were is are be been being had has have grew grow increased decreased declined rose fell came delivered
  generated reported posted saw experienced achieved contributed drove led with in of for from to at by on as and or
  but while which that where when than versus vs compared including excluding driven due so then also despite
  although though because after before during within across into through per we we're we've we'll i i'm i'd you
  they it it's he she us them this these those the a an our its their your my expect expects expected anticipate
  anticipates see sees forecast project projects target targets plan plans planning expecting seeing targeting
  deliver delivering generate generating report reporting post posting achieve achieving produce producing
  maintain maintaining reduce reduced reducing cut increase increasing improve improved improving drive driving
  reflect reflects reflected reflecting represent represents represented representing include includes included
  total-company will would should could can may might do does did get got make made take took give gave keep kept
  remain remained remains continue continued continues return returned returning invest invested investing spend
  spent spending pay paid paying raise raised raising lower lowered lowering guide guided guiding reaffirm
  reaffirmed reaffirming reiterate reiterated reiterating under over about around approximately roughly nearly
  almost just only some any`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lower-case words that name parts of companies ("digital revenue", "license and maintenance revenue"). */
const SEGMENT_LEXICON = new Set(
  `services service products product digital international domestic retail wholesale commercial residential
  industrial consumer government federal cloud hardware software subscription subscriptions advertising ad
  licensing license licenses maintenance rental rentals ancillary data center centers centre centres equipment
  parts aftermarket oem new used vehicle vehicles auto automotive aerospace defense energy gas electric water
  utility utilities pipeline midstream upstream downstream chemicals materials construction infrastructure
  healthcare medical pharmacy pharma devices diagnostics e-commerce ecommerce online direct indirect channel private
  label brand brands professional platform mobile wireless wireline broadband video voice print media content
  gaming games hotel hotels restaurant restaurants franchise franchised company-operated owned apparel footwear
  accessories home beauty food foods beverage beverages snacks grocery fresh frozen pet personal care baby child
  dental vision surgical office fertility specialty generic generics biosimilars animal crop seed seeds agriculture
  agricultural mining coal steel aluminum metals paper packaging lumber wood siding insurance banking lending
  mortgage wealth management trading fixed income equities asset investment capital markets fee fees transaction
  transactions processing payments security cybersecurity north south east west american european asian latin
  america americas europe asia pacific emea apac china japan india canada mexico brazil germany france uk u.s. us
  global regional rest world natural solar wind nuclear oil transportation logistics freight rail marine air
  travel leisure gaming casino lodging cruise dining beer wine spirits tobacco cannabis security systems storage
  semiconductor semiconductors chips memory devices pc server servers networking enterprise-grade noninterest
  non-interest fee-based production`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lower-case words before a metric that are no part of the company: verbs, and the market the company is in. */
const WEAK_NOT = new Set(
  `implies imply means suggests shows gives makes takes puts brings drives factors items things results industry
  market markets peer peers competitor competitors sector economy midpoint period periods normal annual annualized
  maintenance common stock preferred quarterly monthly range guidance outlook target baseline underlying
  incremental additional`
    .split(/\s+/)
    .filter(Boolean),
);

/** Nouns that name a part of a company rather than the company. */
const PART_NOUNS =
  /\b(?:segments?|business(?:es)?|divisions?|units?|regions?|channels?|categor(?:y|ies)|brands?|platforms?|portfolio|products?|services|solutions|markets?|group|operations|team)\b/i;
const PART_NOUN = String.raw`(?:segment|business|division|unit|region|category|channel|group|platform|team|franchise|portfolio)`;

const ORDINARY_STARTERS = new Set(
  `we our the this that these those it its in for as and but so now turning moving looking let i you they there
  here with on at by total consolidated overall revenue revenues sales net adjusted gaap non-gaap first second third
  fourth fiscal operating gross free cash capital eps ebitda diluted during over while although despite since after
  sales inventory inventories liquidity debt backlog bookings orders pricing volume volumes margin margins earnings
  before both each all this year quarter today also lastly finally additionally importantly similarly again once
  given however meanwhile next then third-quarter fourth-quarter second-quarter first-quarter full-year q1 q2 q3 q4
  compared year-over-year organic reported comparable same-store average ending excluding including on an a my
  please thank thanks yes no well okay ok good great sure just really`
    .split(/\s+/)
    .filter(Boolean),
);

const clean = (name: string): string | null => {
  const words = name
    .replace(/[,;:]+$/, "")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  // "The Company's tax rate", "non-GAAP earnings": the company, and its basis, are not parts of it.
  const plain = (w: string) =>
    w
      .toLowerCase()
      .replace(/['’]s$/, "")
      .replace(/-$/, "");
  while (words.length > 0 && COMPANY_WORDS.has(plain(words[0]!))) words.shift();
  while (words.length > 0 && COMPANY_WORDS.has(plain(words[words.length - 1]!))) words.pop();
  while (words.length > 0 && /^(?:segment|business|division)$/i.test(words[words.length - 1]!)) words.pop();
  if (words.length === 0) return null;
  if (words.every((w) => COMPANY_WORDS.has(w.toLowerCase()) || TIME_TOKEN.test(w))) return null;
  if (words.some((w) => TIME_TOKEN.test(w))) return null;
  const out = words.join(" ").replace(/'s$/, "");
  if (out.length < 2 || /-$/.test(out)) return null;
  return out[0]!.toUpperCase() + out.slice(1);
};

/**
 * The noun phrase right before a metric word: "Data centers" in "Data centers revenue was …". Accepted as a part of
 * the company when it is a name (capitalised past the sentence's first word, several capitalised words, an
 * acronym), words that name parts of companies, or ends in "segment", "business" and the like.
 */
function modifierBefore(
  text: string,
  metricStart: number,
  company: readonly string[],
): { name: string; weak: boolean } | null {
  const from = Math.max(0, metricStart - 80);
  const before = text.slice(from, metricStart);
  const cut = Math.max(...[",", ";", ":", "(", ". ", "—", " - ", "–"].map((p) => before.lastIndexOf(p)));
  const phraseStart = cut >= 0 ? from + cut + 1 : from;
  const tokens = [...text.slice(phraseStart, metricStart).matchAll(/\S+/g)].map((m) => ({
    word: m[0].replace(/["“”]/g, ""),
    at: phraseStart + m.index,
  }));
  const words: typeof tokens = [];
  for (let i = tokens.length - 1; i >= 0 && words.length < 5; i--) {
    const w = tokens[i]!.word;
    const lw = w.toLowerCase();
    // "Our US sales": the country, not the pronoun.
    if (STOP_BACK.has(lw) && w !== "US") {
      // "license and maintenance revenue": an "and" between two nouns is inside the name.
      const prev = tokens[i - 1]?.word.toLowerCase();
      if (lw === "and" && words.length > 0 && prev && !STOP_BACK.has(prev) && !COMPANY_WORDS.has(prev)) {
        words.unshift(tokens[i]!);
        continue;
      }
      break;
    }
    words.unshift(tokens[i]!);
  }
  while (words.length > 0 && COMPANY_WORDS.has(words[0]!.word.toLowerCase())) words.shift();
  while (words.length > 0 && COMPANY_WORDS.has(words[words.length - 1]!.word.toLowerCase())) words.pop();
  if (words.length === 0) return null;
  if (words.some((w) => /\d/.test(w.word) && !TIME_TOKEN.test(w.word))) return null;
  // The company's own name ("IDACORP's earnings per share", "Total GPC sales") is the company, not a part.
  // Only with its distinctive first word: "Diagnostics revenue" at Irdium Diagnostics is a segment's.
  const own = words.map((w) => w.word.replace(/['’]s$/, "").toLowerCase());
  if (
    company.length > 0 &&
    own.includes(company[0]!) &&
    own.every((w) => company.includes(w) || COMPANY_WORDS.has(w))
  )
    return null;
  const name = clean(words.map((w) => w.word).join(" "));
  if (!name) return null;
  const named = words.filter((w) => /^[A-Z]/.test(w.word) && w.word.toLowerCase() !== "and");
  const atSentenceStart = words[0]!.at === 0 || /^[\s"“]*$/.test(text.slice(0, words[0]!.at));
  // A sentence's first word is capitalised anyway: it is a name only when it is no ordinary word ("Laneway sales").
  const firstIsOrdinary = (w: string) =>
    ORDINARY_STARTERS.has(w.toLowerCase()) ||
    COMPANY_WORDS.has(w.toLowerCase()) ||
    STOP_BACK.has(w.toLowerCase());
  const isName =
    named.some((w) => /^[A-Z&]{2,}$/.test(w.word.replace(/[.'’s]+$/, "")) || /[&]/.test(w.word)) ||
    named.length >= 2 ||
    (named.length === 1 && (!atSentenceStart || !firstIsOrdinary(named[0]!.word)));
  const lexical = words.every(
    (w) =>
      SEGMENT_LEXICON.has(w.word.toLowerCase()) ||
      COMPANY_WORDS.has(w.word.toLowerCase()) ||
      w.word === "and",
  );
  if (isName || lexical || PART_NOUNS.test(words[words.length - 1]!.word)) return { name, weak: false };
  // Any other describing word ("store sales", "off-price sales") still names a part more often than the whole.
  // Not a verb or a participle ("factors produced EBITDA", "this implies sales"), nor a describing compound
  // ("hotel-level expenses", "performance-based pay").
  if (
    words.every(
      (w) =>
        /^[a-z][a-z-]+$/.test(w.word) &&
        // "expanded adjusted EBITDA margins": a participle, not a part's name.
        !/(?:ly|ing|ed|-level|-based|-related|-wide|-driven)$/.test(w.word) &&
        !WEAK_NOT.has(w.word),
    ) &&
    !(words.length > 1 && /ed$/.test(words[words.length - 1]!.word))
  )
    return { name, weak: true };
  return null;
}

/** "In the Distribution segment, sales …", "Within Personal Care, …": a framing phrase at the clause start. */
const FRAME =
  /(?:^|[;,.]\s+|\band\s+)(?:in|within|for|at|turning to|moving to|now to|on to|next,? to)\s+(?:the\s+|our\s+)?([^,;.]{2,50}?)\s*,/gi;

/** Framing phrases that are about time, method or scope, not a part of the company. */
const FRAME_NOT =
  /^(?:addition|total|summary|aggregate|particular|general|short|fact|contrast|comparison|terms|line|order|response|connection|light|the quarter|quarter|Q[1-4]|20\d\d|fiscal|January|February|March|April|May|June|July|August|September|October|November|December|local|constant|our view|closing|conclusion|short|sum|turn|other words|dollar terms|aggregate|aggregate terms|absolute|percentage terms|this|that|both|each|all|the first|the second|the third|the fourth|first|second|third|fourth|the prior|the same|the current|the year|the full|full|year|the past|the last|last|recent|the meantime|the interim|US GAAP|GAAP|non-GAAP|Slide|Page|slide|page)\b/i;

/** "The Logistics business generated …", "International delivered …", "E&P had net income of …". */
const SUBJECT =
  /^(?:(?:[Ff]inally|[Aa]lso|[Aa]dditionally|[Ll]astly|[Mm]eanwhile|[Ss]imilarly|[Ll]ikewise|[Nn]ext|[Nn]ow|[Aa]nd|[Ss]o|[Ii]n addition|[Ii]mportantly|[Oo]verall|[Ff]inally)[, ]+)*(?:(?:[Tt]he|[Oo]ur|[A-Z][\w]*'s)\s+)?((?:[A-Z][\w&'./-]*|and|&)(?:\s+(?:[A-Z][\w&'./-]*|and|&|of)){0,4}|[a-z][\w&'-]*(?:\s+[a-z][\w&'-]*){0,2}(?=\s+(?:segment|business|division|category|team|group|unit|platform)\b))(?:\s+(?:segment|business|division|region|unit|group|platform|team|category))?(?:,[^,]{1,80},)?\s+(?:also\s+|again\s+)?(?:is expected to (?:generate|add|deliver|contribute)|had|has|have|adds|added|brings|brought|delivered|generated|reported|posted|grew|saw|experienced|achieved|produced|contributed|was|were|continued|finished|ended|closed|improved|increased|declined|decreased|rose|fell)\b/;

/** Geography after the metric: "revenue in the U.S.", "sales in Europe". */
const GEO_AFTER =
  /^\s+(?:in|from|across)\s+(?:the\s+)?((?:U\.S\.|US|United States|Canada|Mexico|Europe|EMEA|Asia(?:[- ]Pacific)?|APAC|China|Japan|India|Brazil|Germany|France|UK|U\.K\.|United Kingdom|Latin America|LatAm|North America|South America|International|Americas|Australia|Korea)(?:\s+[A-Z][\w]*)?)\b/;
/**
 * "Sales for Electronic Instruments Group were …", "sales in the quarter for EIG", "revenue for the Trailhead brand to
 * grow …": the part named after.
 */
const FOR_PART =
  /^\s+(?:in the (?:\w+ )?quarter\s+)?for (?:the |our )?(?!(?:First|Second|Third|Fourth|Full|Fiscal|Quarter|Year|Company|Q[1-4])\b)([A-Z][\w&'./-]*(?:\s+(?:[A-Z][\w&'./-]*|and|&|of)){0,4})(?=\s+(?:were|was|segment|business|division|group|totaled|came|grew|increased|decreased|declined|rose|fell|in|to)\b)/;
/** "revenue from our Cloud segment", "revenue in the Industrial business". */
const PART_AFTER = new RegExp(
  String.raw`^\s+(?:(?:growth|sales|revenues?)\s+)?(?:from|in|of|for)\s+(?:our\s+|the\s+)?([\w&'.-]+(?:\s[\w&'.-]+){0,3})\s+${PART_NOUN}\b`,
);
/** "… sales of roughly $640 million in the Industrial segment": the part named after the amount. */
export const PART_AFTER_AMOUNT = new RegExp(
  String.raw`^\s*(?:in|from|for|at)\s+(?:the\s+|our\s+)?([\w&'.-]+(?:\s[\w&'.-]+){0,3})\s+${PART_NOUN}\b`,
);

export interface SegmentReading {
  name: string;
  /** Where it was read: right before the metric and in a framing phrase are firm; the subject is likelier wrong. */
  how: "modifier" | "weak" | "frame" | "subject" | "after";
}

/** Company-level cues right before the metric override everything: "total company revenue", "consolidated sales". */
const COMPANY_BEFORE =
  /\b(?:total|consolidated|overall|company-?wide|total[- ]company|enterprise)\s+(?:(?:net|gross|adjusted|reported|GAAP|non-GAAP|operating|company|organic|quarterly|annual|record)\s+){0,2}$/i;

/**
 * The part of the company the metric at `[metricStart, metricEnd)` is about, or null for the company as a whole.
 * `clauseStart` is where the metric's clause begins (a frame or subject before it does not carry across `;`).
 */
export function segmentOf(
  text: string,
  metricStart: number,
  metricEnd: number,
  clauseStart: number,
  company: readonly string[] = [],
): SegmentReading | null {
  const after = text.slice(metricEnd);
  const part = PART_AFTER.exec(after) ?? GEO_AFTER.exec(after) ?? FOR_PART.exec(after);
  if (part) return { name: part[1]!.trim(), how: "after" };
  if (COMPANY_BEFORE.test(text.slice(Math.max(0, metricStart - 40), metricStart))) return null;
  const modifier = modifierBefore(text, metricStart, company);
  if (modifier) return { name: modifier.name, how: modifier.weak ? "weak" : "modifier" };
  const clause = text.slice(clauseStart, metricStart);
  let frame: string | null = null;
  for (const m of clause.matchAll(FRAME)) {
    const name = m[1]!.trim();
    if (FRAME_NOT.test(name)) continue;
    // A part of the company is a name ("In North America,") or says what it is ("in the agriculture segment,").
    if (!/^[A-Z]/.test(name) && !PART_NOUNS.test(name)) continue;
    if (/\d/.test(name)) continue;
    frame = name;
  }
  if (frame) {
    const name = clean(frame);
    if (name) return { name, how: "frame" };
  }
  const rest = text.slice(clauseStart);
  const lead = rest.length - rest.trimStart().length;
  const subject = SUBJECT.exec(rest.trimStart());
  // The subject must come before the metric, not be it ("Inventory decreased 19%").
  if (subject && clauseStart + lead + subject[0].length <= metricStart + 1) {
    const raw = subject[1]!.trim();
    const first = raw.split(/\s+/)[0]!.toLowerCase();
    if (!ORDINARY_STARTERS.has(first)) {
      const name = clean(raw);
      if (name && !/^(?:We|I|It|They)$/.test(name)) return { name, how: "subject" };
    }
  }
  return null;
}

/** A heading that opens a segment's discussion: "Turning to our Industrial segment.", "Now to Cloud Services." */
const HEADING =
  /^(?:(?:now |next |moving on |turning |let me turn |let's turn |let me move |shifting |let's move |i'll turn |i'll now turn |moving )(?:now )?(?:over )?(?:to|on to|onto)\s+)(?:the\s+|our\s+)?([A-Z][\w&'./-]*(?:\s+(?:[A-Z][\w&'./-]*|and|&|of)){0,4}|[a-z][\w&'-]*(?:\s+[a-z][\w&'-]*){0,2})\s+(?:segment|business|division|group|results)\b/i;
/** What brings the discussion back to the company: "Turning to the balance sheet", "On a consolidated basis". */
const COMPANY_AGAIN =
  /\b(?:balance sheet|cash flow|consolidated|total company|company-?wide|overall|enterprise|for the (?:total )?company|corporate|guidance|outlook|capital allocation|liquidity|share repurchase)\b/i;

/** A part named anywhere in the sentence: "our Industrial segment", "the pipeline business", "Turning to EMEA,". */
const PART_NAMED =
  /\b(?:the|our|its)\s+([A-Z][\w&'./-]*(?:\s+(?:[A-Z][\w&'./-]*|and|&|of)){0,4}|[a-z][\w&'-]*(?:\s+[a-z][\w&'-]*){0,2})\s+(?:segment|business|division|group|unit)\b|\b(?:turning|moving|now|next|shifting)\s+(?:over\s+)?(?:to|on to)\s+(?:the\s+|our\s+)?([A-Z][\w&'./-]*(?:\s+(?:[A-Z][\w&'./-]*|and|&|of)){0,4})\s*[,.]/;
/** "On slide 10 we show the highlights for Eurasia Banking": a part's results are about to be gone through. */
const RESULTS_OF_PART =
  /\b(?:highlights|results|performance|financials)\s+(?:for|of|at|in)\s+(?:the\s+|our\s+)?(?!(?:First|Second|Third|Fourth|Full|Fiscal|Quarter|Year|Company|Q[1-4])\b)([A-Z][\w&'./-]*(?:\s+(?:[A-Z][\w&'./-]*|and|&|of)){0,4})\b/;
const GENERIC_PART =
  /^(?:core|whole|entire|total|overall|base|existing|new|own|legacy|underlying|ongoing|same|other|remaining|combined)\b/i;

/** The segment a sentence opens for the sentences after it, "" when it closes one, undefined when neither. */
export function segmentHeading(text: string): string | "" | undefined {
  const m = HEADING.exec(text.trim()) ?? PART_NAMED.exec(text) ?? RESULTS_OF_PART.exec(text);
  if (m) {
    const raw = m[1] ?? m[2];
    const name = raw ? clean(raw) : null;
    if (name && !PART_NOUNS.test(name) && !GENERIC_PART.test(name) && !FRAME_NOT.test(name)) return name;
  }
  if (COMPANY_AGAIN.test(text)) return "";
  return undefined;
}
