/**
 * The operator's introductions of analysts, in every phrasing the corpus of real calls uses (docs/insights.md,
 * "Q&A"): "Our next question comes from the line of Jane Doe with Morgan Stanley.", "Jane Doe with Morgan Stanley,
 * your line is open.", "We'll go to the line of Jane Doe at Morgan Stanley.", "Jane Doe of Morgan Stanley is on line
 * with a question.", "Our next question is from Jane Doe, Morgan Stanley.", "another question from the line of Jane
 * Doe" (no firm).
 */
// A person: two to four capitalised words ("Jane Doe", "Ravi K. Patel", "Julia Laurent-Smith").
// "Bradley -- Brady Gailey": the operator corrects the name; the second is the one meant.
const NAME = String.raw`(?:(?:Mr|Ms|Mrs|Dr)\.?\s+)?(?:[A-Z][\w'’-]+\s+--\s+)?((?:[A-Z][\w'’-]+|(?:[A-Z]\.){1,3})(?:\s+(?:[A-Z]\.|[A-Z][\w'’-]+|de|van|von|da|di|la|le)){1,3})`;
const FIRM_WORD = String.raw`(?:(?:[A-Z]\.){1,3}|[A-Z&][\w&'’.-]*)`;
const FIRM = String.raw`(${FIRM_WORD}(?:,?\s+(?:of|and|&|de|du|Co\.|${FIRM_WORD})){0,6})`;
/** The operator's words before the analyst's name, in every phrasing the corpus uses. */
const LEAD = String.raw`(?:(?:question|questions|follow-?up|follow-?up question)\b[^.?!]{0,60}?\b(?:from|with)|(?:comes|will come|coming|is|will be)\s+from|(?:go|move|turn)\s+(?:on\s+)?(?:first\s+|next\s+|now\s+)?(?:back\s+)?(?:over\s+)?to|(?:take|hear from)(?:\s+(?:our|the|a))?(?:\s+(?:next|first|last|final))?(?:\s+question)?(?:\s+from)?|have\s+(?:(?:our|the|a)\s+)?(?:(?:next|first|last|final)\s+)?question(?:\s+from)?|question,?\s+we\s+have|next,?\s+we\s+have)`;
const INTRO = [
  new RegExp(
    String.raw`${LEAD}\s+(?:(?:the\s+)?line\s+(?:of|for|at)\s+|the\s+phone\s+lines?\s+(?:of|from)\s+)?${NAME}(?:\s*,?\s+(?:with|from|of|at)\s+(?:the\s+)?${FIRM}|\s*,\s+${FIRM}(?=\s*[.,]|\s+(?:please|your|you|go)\b))?`,
  ),
  // "Larry Biegelsen of Wells Fargo is on line with a question.", "John Lovallo, your line is open."
  new RegExp(
    String.raw`^(?:\[[^\]]*\]\s*)?${NAME}(?:\s*,?\s+(?:with|from|of|at)\s+(?:the\s+)?${FIRM})?\s*,?\s+(?:is on(?: the)?\s?line|is online|has a (?:question|follow-up)|is next|your line is (?:now )?open)`,
  ),
  // "Kyle Jordan with Jefferies. Your line is open.": the name and firm alone, from the operator.
  new RegExp(
    String.raw`^(?:\[[^\]]*\]\s*)?(?:(?:[Tt]hank you|[Tt]hanks|[Aa]nd|[Nn]ext|[Oo]ur next)[.,]?\s+)*${NAME}\s*,?\s+(?:with|from|of|at)\s+(?:the\s+)?${FIRM}(?=\s*[.,]|\s+(?:[Pp]lease|[Yy]our|[Yy]ou|[Gg]o)\b|\s*$)`,
  ),
];
/** Words a name capture can run into: "from the line of", "Please go ahead". */
const NOT_NAME =
  /^(?:The|Line|Please|Your|Our|Thank|Thanks|Operator|Instructions|Question|Next|This|That|Ladies|Go)\b/;

export interface AnalystIntro {
  analyst: string;
  /** Null when the operator names no firm ("another question from the line of Vedula Murti"). */
  firm: string | null;
}

// detectQa reads the whole transcript each time it grows; operator sentences do not change.
const introMemo = new Map<string, AnalystIntro | null>();
const MEMO_MAX = 20_000;

/** The analyst and firm an operator's sentence introduces, or null. */
export function parseIntro(text: string): AnalystIntro | null {
  const hit = introMemo.get(text);
  if (hit !== undefined) return hit;
  const intro = readIntro(text);
  if (introMemo.size >= MEMO_MAX) introMemo.clear();
  introMemo.set(text, intro);
  return intro;
}

function readIntro(text: string): AnalystIntro | null {
  for (const re of INTRO) {
    const m = re.exec(text);
    if (!m) continue;
    const analyst = m[1]!.trim();
    if (NOT_NAME.test(analyst)) continue;
    // "… with Firm. Your line is open": what follows the firm is not the firm.
    const firm = (m[2] ?? m[3] ?? "")
      .replace(/[.,]?\s+(?:Please|Your|You|Go|Thank|Thanks|Ma'am|Sir)\b.*$/, "")
      .replace(/[,\s]+(?:of|and|&|de)$/i, "")
      .replace(/[,]+$/, "")
      .replace(/(?<!\b(?:[A-Z]|Co|Inc|Corp|Ltd))\.$/, "")
      .trim();
    return { analyst, firm: firm || null };
  }
  return null;
}
