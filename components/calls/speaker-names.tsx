import type { Qa } from "@/lib/schemas/insights";

/** A voice's name as the call room shows it: enrichment's, or read from the call (inferred, marked so). */
export interface SpeakerNameView {
  name: string;
  inferred: boolean;
}

/** Each voice's name from the insights' speakers (operators excluded): what the transcript and lists show. */
export function speakerNamesOf(qa: Pick<Qa, "speakers">): Map<string, SpeakerNameView> {
  const names = new Map<string, SpeakerNameView>();
  for (const s of qa.speakers)
    if (s.role !== "operator" && s.name) names.set(s.speaker, { name: s.name, inferred: s.nameInferred });
  return names;
}

export const INFERRED_HINT =
  "Read from the call (introductions and hand-offs); confirmed once the call is enriched";

/** The mark an inferred name carries until enrichment confirms it. */
export function InferredMark() {
  return (
    <span
      className="text-2xs text-muted font-normal tracking-normal normal-case italic"
      title={INFERRED_HINT}
    >
      {" "}
      (inferred)
    </span>
  );
}
