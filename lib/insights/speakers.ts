/**
 * Names for live voices (docs/insights.md, "Speakers while live"). A live call labels voices `OPERATOR`,
 * `SPEAKER_1`, … until enrichment names them, yet the call says who speaks: the operator introduces the host and
 * each analyst ("I would now like to turn the conference over to Jane Doe, Head of Investor Relations", "Our next
 * question comes from …"), the host the executives ("I'm joined by Laura Chen, our CEO, and Ravi Mehta, our CFO"),
 * each speaker the next ("I'll now turn the call over to our Chief Financial Officer, Ravi Mehta"), and speakers
 * thank the one before ("Thanks, Ingrid"). A label takes the name announced for the voice that speaks next;
 * enrichment's names replace the inferred ones.
 */
import { parseIntro } from "./intros";
import { isOperator, type TranscriptSentence } from "./sentence";

export interface SpeakerName {
  name: string;
  /** True until enrichment names the voice: read from the call's own words. */
  inferred: boolean;
}

// A person's full name: two or three capitalised words ("Ravi Mehta", "Mary Jo Smith", "Julia Laurent-Smith").
// One name word: "Mehta", "McCarthy", "DeBerry", "O'Sullivan", "Laurent-Smith". Each part starts with a capital,
// so a word splits one way only (a run of lower-case letters that could split many ways backtracks for ever).
const WORD = String.raw`(?:[A-Z][a-z]+|[A-Z]['’](?=[A-Z]))(?:['’-]?[A-Z][a-z]+)*`;
const FULL = String.raw`((?:[A-Z]\.\s+)?${WORD}(?:\s+[A-Z]\.)?(?:\s+${WORD}){1,2})`;
const FIRST = String.raw`([A-Z][a-z]+)`;

/** "turn the call over to X", "hand it back to X", "over to you, X": the call handed to someone. */
const HANDING = String.raw`(?:\b(?:turn(?:ing)?|hand(?:ing)?|pass(?:ing)?|giv(?:e|ing))\s+(?:the\s+(?:call|conference|floor|meeting|line|presentation|mic|microphone)|this\s+call|it|things|this)\s+(?:back\s+)?(?:over\s+)?to|\b(?:turn(?:ing)?|hand(?:ing)?)\s+over\s+to|\bover\s+to|\b(?:hear from|introduce(?:\s+you\s+to)?))\s+(?:you,?\s+)?(?:our\s+|my\s+)?(?:your\s+(?:conference\s+)?(?:host|speaker|moderator|presenter)s?(?:\s+(?:for\s+)?today)?,?\s+)?(?:Mr\.\s+|Ms\.\s+|Mrs\.\s+|Dr\.\s+)?`;
const TITLE = String.raw`(?:(?:[A-Z][\w&-]*\s+|and\s+|of\s+){0,7}?(?:Officer|President|CEO|CFO|COO|CTO|Chairman|Chair|Director|Relations|Treasurer|Controller|Head|Founder|Partner|Executive|Manager|colleague|partner)\s*,?\s+)?`;
const HANDOFF = new RegExp(String.raw`${HANDING}${TITLE}(?:Mr\.\s+|Ms\.\s+|Dr\.\s+)?${FULL}`);
const HANDOFF_FIRST = new RegExp(String.raw`${HANDING}${FIRST}\b(?!\s+[A-Z])`);
/** "Ravi, do you want to take that?", "I'll let Ravi answer", "Ravi can add to that". */
const ASKED = new RegExp(
  String.raw`(?:^|[.?!]\s+|\bso\s+|\band\s+)${FIRST},\s+(?:do you want|would you|could you|can you|why don't you|you want|maybe you|if you|please)|\b(?:let|have|ask)\s+${FIRST}\s+(?:answer|take|address|comment|add|talk|speak|jump|chime|respond|cover|provide|give|walk)|\b${FIRST}\s+(?:can|will|could|may|is going to)\s+(?:now\s+)?(?:answer|take|address|add|comment|talk|cover|provide|give|walk|review|discuss|go|share|update|run)|^${FIRST}\?$`,
);
/** The operator or a host before someone speaks: "Before we begin, Jane Doe, Head of IR, will …", "X, you may begin". */
const PRESENTS = new RegExp(
  String.raw`(?:\bintroduce\s+(?:you\s+to\s+)?(?:your\s+)?(?:host(?:s)?(?:\s+for\s+today's\s+call)?,?\s+)?|\byour\s+(?:host|speaker)(?:\s+for\s+today)?,?\s+|\bwelcome\s+(?:our\s+)?(?:host|speaker),?\s+|^(?:Before we begin|At this time|Now),\s+)(?:Mr\.\s+|Ms\.\s+)?${FULL}|${FULL},?\s+(?:you may (?:now )?(?:begin|proceed)|please (?:go ahead|proceed|begin))`,
);
/** "I'm joined by Laura Chen, our President and CEO; and Ravi Mehta, our CFO": who will speak. */
const ROSTER = new RegExp(
  String.raw`\b(?:joined (?:today |here |on the call )?by|with (?:me|us) (?:today |on (?:the|today's) call |here |this morning |this afternoon )?(?:are|is)|joining (?:me|us)(?: today| here| on (?:the|today's|this) call| this (?:morning|afternoon))? (?:are|is)|(?:here|present) with me (?:today )?(?:are|is)|(?:on|joining) (?:the|today's) call (?:with me )?(?:today )?(?:are|is)|(?:speakers|presenters) (?:today |on (?:the|today's) call )?(?:are|will be|include))\s+([^]*)`,
);
/** A person with a title: "Sam Ortiz, our senior vice president", "Acme's CFO, Al Moreno", "CEO, Dan Porter". */
const TITLE_WORD = String.raw`(?:CEO|CFO|COO|CTO|CAO|CIO|President|Chief|Officer|Chairman|Chairwoman|Chair|Director|Treasurer|Controller|Head|EVP|SVP|VP|Vice|Senior|Executive|Founder|Partner|Manager|General Counsel|Secretary|[Ss]enior [Vv]ice|[Cc]hief)`;
const TITLED = new RegExp(
  String.raw`${FULL}\s*,\s*(?:our\s+|the\s+|[A-Z][\w.&]*'s\s+|who\s+is\s+(?:our\s+)?)?(?:(?:[A-Z][\w&-]*|new|talented|interim|and|of|&)\s+){0,5}?${TITLE_WORD}|\b(?:CEO|CFO|COO|CTO|President|Officer|Chairman|Relations|Treasurer|Controller|Counsel)\s*,\s*${FULL}`,
  "g",
);

/** "Thanks, Ingrid", "Thank you, Laura, and good morning": the speaker before is greeted. */
const THANKS = new RegExp(
  String.raw`^(?:(?:Great|Okay|OK|Yes|Well|Sure|And)[.,]?\s+)?(?:[Tt]hanks|[Tt]hank you)(?: very much| so much)?,?\s+${FIRST}\b`,
);
/** "This is Ravi", "I'm Jane Doe", "Ravi here": a voice names itself. */
const SELF = new RegExp(
  String.raw`(?:^|[.!]\s+)(?:(?:[Hh]i|[Hh]ello|[Hh]ey|[Yy]es|[Yy]eah|[Ss]ure)[,.]?\s+)?(?:[Tt]his is|[Ii]t's|I am|I'm)\s+(?:actually\s+)?${FULL}\b(?!\s+(?:and|with|from))|(?:^|[.!]\s+)(?:[Tt]his is|[Ii]t's)\s+${FIRST}[.,]?\s*$|^${FIRST}\s+here\b`,
);

const NOT_A_NAME =
  /^(?:Operator|Thank|Thanks|The|Our|Good|Morning|Afternoon|Evening|Everyone|Everybody|All|Ladies|Gentlemen|You|We|It|This|That|And|So|Sure|Yes|Okay|Hello|Hi|Hey|Great|Well|Question|Questions|Q&A|Slide|Page|First|Second|Third|Fourth|Chief|Executive|Senior|Vice|President|Investor|Relations|Financial|Officer|Director|Chairman|Management|Team|Company|Call|Conference|Today|Now|Next|Mr|Ms|Mrs|Dr|Guys|Folks|Sir|Madam)$/;

const firstWord = (name: string) => name.split(/\s+/)[0]!;
const isName = (name: string) => !name.split(/\s+/).some((w) => NOT_A_NAME.test(w));
/** "Keri Mattox Senior" (a title run into the name) → "Keri Mattox"; null when no name is left. */
function cleanName(raw: string | undefined): string | null {
  if (!raw) return null;
  const words = raw.trim().split(/\s+/);
  while (words.length > 1 && NOT_A_NAME.test(words[words.length - 1]!)) words.pop();
  const name = words.join(" ");
  return isName(name) ? name : null;
}

/** Short and long forms of common first names, so "Dave" finds "David Nunes". */
const NICKNAMES: string[][] = [
  ["david", "dave"],
  ["michael", "mike"],
  ["william", "bill", "will", "billy"],
  ["robert", "rob", "bob", "bobby"],
  ["richard", "rich", "rick", "dick"],
  ["james", "jim", "jimmy", "jamie"],
  ["thomas", "tom", "tommy"],
  ["joseph", "joe", "joey"],
  ["christopher", "chris"],
  ["daniel", "dan", "danny"],
  ["douglas", "doug"],
  ["ronald", "ron"],
  ["edward", "ed", "eddie", "ted"],
  ["stephen", "steve", "steven"],
  ["matthew", "matt"],
  ["anthony", "tony"],
  ["andrew", "andy", "drew"],
  ["benjamin", "ben"],
  ["charles", "charlie", "chuck"],
  ["gregory", "greg"],
  ["jeffrey", "jeff"],
  ["jonathan", "jon"],
  ["kenneth", "ken"],
  ["lawrence", "larry"],
  ["nicholas", "nick"],
  ["patrick", "pat"],
  ["peter", "pete"],
  ["philip", "phil"],
  ["samuel", "sam"],
  ["timothy", "tim"],
  ["elizabeth", "liz", "beth"],
  ["katherine", "kate", "katie", "kathy"],
  ["jennifer", "jen", "jenny"],
  ["rebecca", "becky"],
  ["susan", "sue"],
  ["alexander", "alex"],
  ["frederick", "fred"],
  ["gerald", "jerry"],
  ["raymond", "ray"],
  ["zachary", "zach", "zack"],
];
const NICK = new Map<string, string[]>();
for (const group of NICKNAMES) for (const n of group) NICK.set(n, group);

/** Full names heard so far, by first name, so "Ravi" resolves to "Ravi Mehta". */
class Roster {
  private readonly byFirst = new Map<string, string>();

  add(full: string): void {
    if (!isName(full)) return;
    const first = firstWord(full).toLowerCase();
    if (!this.byFirst.has(first)) this.byFirst.set(first, full);
  }

  /** A first name resolved to the full name heard for it (or for its long or short form), or itself. */
  resolve(name: string): string {
    if (/\s/.test(name)) return name;
    const first = name.toLowerCase();
    const direct = this.byFirst.get(first);
    if (direct) return direct;
    for (const alias of NICK.get(first) ?? []) {
      const full = this.byFirst.get(alias);
      if (full) return full;
    }
    return name;
  }
}

interface Signals {
  thanks: string | null;
  self: string | null;
  roster: string[];
  /** The name handed to, in full or first name only. */
  next: { name: string; full: boolean } | null;
}

const signalMemo = new Map<string, Signals>();
const MEMO_MAX = 20_000;

/** What one sentence says about who speaks, read once per text (the transcript is reread as it grows). */
function signalsOf(text: string, operator: boolean): Signals {
  const key = `${operator ? 1 : 0}${text}`;
  const hit = signalMemo.get(key);
  if (hit) return hit;
  const thanks = operator ? null : (THANKS.exec(text)?.[1] ?? null);
  const selfMatch = operator ? null : SELF.exec(text);
  const self = selfMatch ? (selfMatch[1] ?? selfMatch[2] ?? selfMatch[3] ?? null) : null;
  const rosterMatch = ROSTER.exec(text);
  const roster: string[] = [];
  if (rosterMatch) {
    const list = rosterMatch[1]!;
    for (const m of list.matchAll(new RegExp(FULL, "g"))) {
      const name = cleanName(m[1]);
      if (name && /\s/.test(name)) roster.push(name);
    }
  }
  for (const m of text.matchAll(TITLED)) {
    const name = cleanName(m[1] ?? m[2]);
    if (name && /\s/.test(name) && !roster.includes(name)) roster.push(name);
  }
  let next: Signals["next"] = null;
  const intro = operator ? parseIntro(text) : null;
  if (intro) next = { name: intro.analyst, full: true };
  else {
    const handoff = HANDOFF.exec(text) ?? PRESENTS.exec(text);
    const handName = cleanName(handoff ? (handoff[1] ?? handoff[2]) : undefined);
    if (handName && /\s/.test(handName)) next = { name: handName, full: true };
    else {
      const first = HANDOFF_FIRST.exec(text) ?? ASKED.exec(text);
      const name = first ? first.slice(1).find(Boolean) : undefined;
      if (name && isName(name)) next = { name, full: false };
    }
  }
  const signals = {
    thanks: thanks && isName(thanks) ? thanks : null,
    self: self && isName(self) ? self : null,
    roster,
    next,
  };
  if (signalMemo.size >= MEMO_MAX) signalMemo.clear();
  signalMemo.set(key, signals);
  return signals;
}

/**
 * Each voice label's name: enrichment's when the sentences carry it, else the one the call's words give (marked
 * inferred). Operators are named "Operator". Reads the transcript in order, one sentence at a time (`add`), so a
 * live call pays for its new sentence only; `names()` is the reading so far.
 */
export class SpeakerNamer {
  private readonly known = new Map<string, SpeakerName>();
  private readonly taken = new Map<string, string>();
  private readonly roster = new Roster();
  private pending: string | null = null;
  private previousSpeaker: string | null = null;
  private previousVoice: string | null = null;
  private previousWasOperator = false;

  private assign(label: string, raw: string, strong: boolean): void {
    const name = this.roster.resolve(raw);
    const had = this.known.get(label);
    if (had && (!had.inferred || (!strong && /\s/.test(had.name)))) return;
    // A full name does not move to a second voice; a first name alone yields to a full one.
    const owner = this.taken.get(name.toLowerCase());
    if (owner && owner !== label) return;
    if (had) this.taken.delete(had.name.toLowerCase());
    if (had && /\s/.test(had.name) && !/\s/.test(name)) return;
    this.known.set(label, { name, inferred: true });
    this.taken.set(name.toLowerCase(), label);
  }

  add(s: TranscriptSentence): void {
    const { known: names, taken, roster } = this;
    if (s.speakerName && !/^operator$/i.test(s.speakerName)) {
      const had = names.get(s.speaker);
      if (had?.inferred) taken.delete(had.name.toLowerCase());
      names.set(s.speaker, { name: s.speakerName, inferred: false });
      taken.set(s.speakerName.toLowerCase(), s.speaker);
    }
    const operator = isOperator(s);
    const signals = signalsOf(s.text, operator);
    const newVoice = s.speaker !== this.previousSpeaker;

    if (!operator && newVoice) {
      if (this.pending && !names.has(s.speaker)) this.assign(s.speaker, this.pending, true);
      this.pending = null;
      // "Thanks, Ingrid": the voice before this one was Ingrid.
      // Right after the operator, thanks go to the operator.
      if (
        signals.thanks &&
        this.previousVoice &&
        this.previousVoice !== s.speaker &&
        !this.previousWasOperator
      )
        this.assign(this.previousVoice, signals.thanks, false);
    }
    if (signals.self && !operator) this.assign(s.speaker, signals.self, true);
    for (const name of signals.roster) roster.add(name);
    // Who speaks next: an analyst introduced, a speaker presented or handed over to.
    if (signals.next) {
      if (signals.next.full) roster.add(signals.next.name);
      // "… over to Maria Delgado, who will provide an update. Maria?": the first name repeats the one handed to.
      const repeats =
        !signals.next.full &&
        this.pending !== null &&
        firstWord(this.pending).toLowerCase() === signals.next.name.toLowerCase();
      if (!repeats) this.pending = roster.resolve(signals.next.name);
    }

    this.previousWasOperator = operator;
    if (operator) names.set(s.speaker, names.get(s.speaker) ?? { name: "Operator", inferred: false });
    else this.previousVoice = s.speaker;
    this.previousSpeaker = s.speaker;
  }

  /** The names so far (a new map: later sentences do not change it). */
  names(): Map<string, SpeakerName> {
    const names = new Map(this.known);
    // A voice known by its first name takes the full name heard since ("Thanks, Dave" before the roster was read).
    for (const [label, n] of names)
      if (n.inferred && !/\s/.test(n.name)) {
        const full = this.roster.resolve(n.name);
        if (full !== n.name && !this.taken.has(full.toLowerCase()))
          names.set(label, { name: full, inferred: true });
      }
    return names;
  }
}

/** One-shot form of `SpeakerNamer` over a whole transcript. */
export function inferSpeakerNames(sentences: readonly TranscriptSentence[]): Map<string, SpeakerName> {
  const namer = new SpeakerNamer();
  for (const s of sentences) namer.add(s);
  return namer.names();
}
