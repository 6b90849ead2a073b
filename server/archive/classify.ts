import "server-only";

/**
 * Who speaks (executive, analyst, operator) and in which part of the call (prepared remarks, Q&A), for the search
 * filters. Enriched calls name their speakers and list participants with roles, which settles the role. Live
 * sentences carry only diarization labels, so the role is inferred the way a listener does: the operator's label is
 * `OPERATOR`, and a label first heard right after the operator introduces a question belongs to an analyst.
 * Q&A begins with the first operator sentence about questions once someone else has spoken.
 *
 * Incremental on purpose: the live indexer feeds sentences one by one and must reach the same answer as a batch
 * pass over the finished call.
 */

export type SpeakerRole = "executive" | "analyst" | "operator";
export type CallSection = "prepared" | "qa";

export interface ClassifiedSentence {
  role: SpeakerRole | null;
  section: CallSection;
}

export interface ParticipantRole {
  name: string;
  role: string | null;
}

const QUESTION_CUE = /\bquestions?\b|\bq\s*&\s*a\b/i;
const ANALYST_INTRO = /\bquestion\b.*\bcomes?\s+from\b|\bnext\s+question\b|\bfirst\s+question\b/i;

function roleFromTitle(title: string | null, name: string): SpeakerRole {
  const t = `${title ?? ""} ${name}`.toLowerCase();
  if (/\boperator\b/.test(t)) return "operator";
  if (/\banalyst\b/.test(t)) return "analyst";
  return "executive";
}

export class SentenceClassifier {
  private section: CallSection = "prepared";
  private hasNonOperatorSpoken = false;
  private lastWasAnalystIntro = false;
  private readonly labelRoles = new Map<string, SpeakerRole>();
  private readonly participantRoles: Map<string, SpeakerRole>;

  constructor(participants: readonly ParticipantRole[] = []) {
    this.participantRoles = new Map(
      participants.map((p) => [p.name.toLowerCase(), roleFromTitle(p.role, p.name)]),
    );
  }

  next(sentence: { speaker: string; speakerName: string | null; text: string }): ClassifiedSentence {
    const role = this.roleOf(sentence);
    if (role === "operator") {
      if (this.hasNonOperatorSpoken && QUESTION_CUE.test(sentence.text)) this.section = "qa";
      this.lastWasAnalystIntro = ANALYST_INTRO.test(sentence.text);
    } else {
      this.hasNonOperatorSpoken = true;
      this.lastWasAnalystIntro = false;
    }
    return { role, section: this.section };
  }

  private roleOf(s: { speaker: string; speakerName: string | null }): SpeakerRole | null {
    const label = s.speaker.toUpperCase();
    if (label === "OPERATOR") return "operator";
    const named = s.speakerName ?? (/^SPEAKER_\d+$/.test(label) ? null : s.speaker);
    if (named !== null) {
      const known = this.participantRoles.get(named.toLowerCase());
      if (known) return known;
      if (named.toLowerCase() === "operator") return "operator";
    }
    const remembered = this.labelRoles.get(label);
    if (remembered) return remembered;
    // A label's first words right after the operator hands the line to a questioner: an analyst.
    const inferred: SpeakerRole | null = this.lastWasAnalystIntro
      ? "analyst"
      : this.section === "prepared"
        ? "executive"
        : null;
    if (inferred) this.labelRoles.set(label, inferred);
    return inferred ?? (named !== null ? "executive" : null);
  }
}

/** Classifies a whole transcript in order. */
export function classifySentences(
  sentences: readonly { speaker: string; speakerName: string | null; text: string }[],
  participants: readonly ParticipantRole[] = [],
): ClassifiedSentence[] {
  const classifier = new SentenceClassifier(participants);
  return sentences.map((s) => classifier.next(s));
}
