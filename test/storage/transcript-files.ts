/**
 * Transcript files in the corpus's layout (`<TICKER>_q<N>_<YEAR>.json`: prepared remarks, Q&A turns, participants),
 * with text written here for the tests: the real corpus is never copied into the repository.
 */
export interface TranscriptFileOptions {
  /** Extra sentences of the CFO's prepared remarks. */
  remarks?: string[];
  question?: string;
}

export function corpusTranscript(o: TranscriptFileOptions = {}): Record<string, unknown> {
  return {
    header_texts: ["Contents:", "Prepared Remarks:", "Questions and Answers:", "Call participants:"],
    prepared_remarks: [
      { speaker: "Operator", speech: "Good day, and welcome to the Quillfeather first quarter call." },
      {
        speaker: "Maren Holloway",
        speech:
          "Thank you, operator. Good morning, everyone.\nRevenue was $412 million, up 9% from a year ago. Mr. Abernethy will cover margins.",
      },
      {
        speaker: "Tobias Abernethy",
        speech: ["Gross margin expanded to 41.5% on pricing discipline.", ...(o.remarks ?? [])].join(" "),
      },
    ],
    q_and_a: [
      {
        speaker: "Operator",
        speech: "Thank you. Our first question comes from the line of Ines Varga from Kestrel Partners.",
      },
      {
        speaker: "Ines Varga",
        speech: o.question ?? "How durable is the pricing discipline into next year?",
      },
      { speaker: "Maren Holloway", speech: "We think it holds. Our customers value reliability over price." },
    ],
    participants: [
      "Maren Holloway--Chief Executive Officer",
      "Tobias Abernethy--Chief Financial Officer",
      "Ines Varga--Kestrel Partners -- Analyst",
    ],
  };
}
