/**
 * Topics an analyst tracks from one quarter to the next. A curated list rather than free phrases: names of people
 * and firms fill operator introductions, and a free-phrase detector would report every new analyst as a new topic.
 * Segment names come in from the figures (`segment_revenue`).
 */
const TOPICS: { topic: string; re: RegExp }[] = [
  { topic: "AI", re: /\b(?:AI|artificial intelligence|generative|machine learning)\b/ },
  { topic: "tariffs", re: /\btariffs?\b/i },
  { topic: "China", re: /\bChina\b|\bChinese\b/ },
  { topic: "supply chain", re: /\bsupply[- ]chain\b/i },
  { topic: "pricing", re: /\bpricing\b|\bprice increases?\b/i },
  { topic: "inventory", re: /\binventor(?:y|ies)\b/i },
  { topic: "foreign exchange", re: /\bforeign exchange\b|\bcurrency\b|\bFX\b/i },
  { topic: "restructuring", re: /\brestructuring\b|\blayoffs?\b|\bworkforce reduction\b/i },
  { topic: "acquisitions", re: /\bacquisitions?\b|\bacquire[ds]?\b|\bM&A\b/i },
  { topic: "buybacks", re: /\b(?:share )?(?:repurchases?|buybacks?)\b/i },
  { topic: "dividend", re: /\bdividends?\b/i },
  { topic: "margins", re: /\bmargins?\b/i },
  { topic: "cost savings", re: /\bcost (?:savings|reductions?|discipline)\b|\befficiency program\b/i },
  { topic: "demand", re: /\bdemand\b/i },
  { topic: "backlog", re: /\bbacklog\b|\border book\b/i },
  { topic: "macro", re: /\bmacro(?:economic)?\b|\brecession\b|\binterest rates?\b/i },
  { topic: "regulation", re: /\bregulat(?:ion|ory|ors)\b|\bantitrust\b/i },
  { topic: "competition", re: /\bcompetit(?:ion|ive|ors?)\b/i },
  { topic: "capacity", re: /\bcapacity\b|\bnew (?:plant|factory|facility)\b/i },
  { topic: "debt", re: /\bdebt\b|\bleverage\b|\brefinanc/i },
  { topic: "product launch", re: /\blaunch(?:ed|es|ing)?\b|\bnew products?\b/i },
  { topic: "cloud", re: /\bcloud\b/i },
  { topic: "subscriptions", re: /\bsubscriptions?\b|\brecurring revenue\b/i },
  { topic: "guidance", re: /\bguidance\b|\boutlook\b/i },
  { topic: "headcount", re: /\bheadcount\b|\bhiring\b/i },
  { topic: "litigation", re: /\blitigation\b|\blawsuit\b|\bsettlement\b/i },
  { topic: "cybersecurity", re: /\bcyber(?:security|attack)?\b|\bbreach\b/i },
];

// The engine asks again for every sentence each time the transcript grows; sentences do not change.
const memo = new Map<string, string[]>();
const MEMO_MAX = 20_000;

/** The topics a sentence mentions. */
export function sentenceTopics(text: string): string[] {
  const hit = memo.get(text);
  if (hit) return hit;
  const out: string[] = [];
  for (const t of TOPICS) if (t.re.test(text)) out.push(t.topic);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(text, out);
  return out;
}
