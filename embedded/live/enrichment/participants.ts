/**
 * Call participants from the known speakers. `mentions` = segments the participant spoke + times others say their
 * full name ("over to Dana Whitfield") or, when no other speaker shares it, their surname ("as Whitfield said").
 * First names alone are not counted: "Will", "Grant" or "May" are also ordinary words at the start of a sentence.
 * Matching is case-sensitive on word boundaries, so the surname "Price" does not match "price".
 */
import type { EnrichedParticipant, EnrichmentInput, ParticipantRole } from "./types";

const ROLE_ORDER: Record<ParticipantRole, number> = { Operator: 0, Executive: 1, Analyst: 2 };

const escapeRegExp = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A counter for one phrase, compiled once: a call asks it of every segment. */
function occurrencesOf(phrase: string): (text: string) => number {
  if (phrase.trim() === "") return () => 0;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, "gu");
  // A cheap substring test first: most segments do not name most participants.
  return (text) => (text.includes(phrase) ? (text.match(pattern)?.length ?? 0) : 0);
}

export function surnameOf(name: string): string {
  const parts = name.trim().split(/\s+/);
  return parts.length > 1 ? (parts.at(-1) ?? "") : "";
}

export function buildParticipants(
  input: Pick<EnrichmentInput, "speakers" | "segments">,
): EnrichedParticipant[] {
  const surnameCounts = new Map<string, number>();
  for (const speaker of input.speakers) {
    const surname = surnameOf(speaker.name);
    if (surname !== "") surnameCounts.set(surname, (surnameCounts.get(surname) ?? 0) + 1);
  }

  const participants = input.speakers.map((speaker, index) => {
    let mentions = 0;
    const surname = surnameOf(speaker.name);
    const useSurname = surname !== "" && surnameCounts.get(surname) === 1;
    const countName = occurrencesOf(speaker.name);
    const countSurname = occurrencesOf(surname);
    for (const segment of input.segments) {
      if (segment.speakerLabel === speaker.label) {
        mentions += 1;
        continue;
      }
      const full = countName(segment.text);
      // Surname hits include those inside the full name, which are already counted.
      const bySurname = useSurname ? countSurname(segment.text) - full : 0;
      mentions += full + Math.max(0, bySurname);
    }
    const participant: EnrichedParticipant = {
      name: speaker.name,
      role: speaker.role,
      title: speaker.title,
      organization: speaker.organization,
      mentions,
    };
    return { participant, index };
  });

  return participants
    .sort((a, b) => ROLE_ORDER[a.participant.role] - ROLE_ORDER[b.participant.role] || a.index - b.index)
    .map((entry) => entry.participant);
}
