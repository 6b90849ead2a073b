/** Two quarters of one fictional company's call, short, for the changes, Q&A and engine tests. */
import type { TranscriptSentence } from "./sentence";

const lines = (rows: [string, string][], speakerNames: Record<string, string> = {}): TranscriptSentence[] =>
  rows.map(([speaker, text], sequence) => ({
    sequence,
    speaker,
    speakerName: speakerNames[speaker] ?? null,
    startMs: sequence * 5_000,
    endMs: sequence * 5_000 + 4_000,
    text,
    sentiment: speaker === "OPERATOR" ? null : 0.2,
  }));

export const PREVIOUS_CALL = lines([
  ["OPERATOR", "Good afternoon and welcome to the second quarter earnings call."],
  ["SPEAKER_1", "Thank you, operator, and good afternoon, everyone."],
  ["SPEAKER_1", "Demand was strong across our Data Center business this quarter."],
  ["SPEAKER_2", "Revenue for the quarter was $3.9 billion, up 10% year over year."],
  ["SPEAKER_2", "Data Center revenue was $1.8 billion."],
  ["SPEAKER_2", "We continue to see supply chain constraints easing through the year."],
  ["SPEAKER_2", "For the third quarter, we expect revenue in the range of $4.0 billion to $4.2 billion."],
  ["OPERATOR", "Our first question comes from Jane Doe with Morgan Stanley."],
  ["SPEAKER_3", "How should we think about pricing in the second half?"],
  ["SPEAKER_1", "Pricing has been stable and we expect that to continue."],
]);

export const CURRENT_CALL = lines([
  ["OPERATOR", "Good afternoon and welcome to the third quarter earnings call."],
  ["SPEAKER_1", "Thank you, operator, and good afternoon, everyone."],
  ["SPEAKER_1", "Demand was modest across our Data Center business this quarter."],
  ["SPEAKER_2", "Revenue for the quarter was $4.2 billion, up 12% year over year."],
  ["SPEAKER_2", "Data Center revenue was $2.1 billion."],
  ["SPEAKER_2", "Tariffs added roughly 50 basis points of cost in the quarter."],
  ["SPEAKER_2", "Adjusted EPS for the quarter was $1.99, compared with $1.75 a year ago."],
  ["SPEAKER_2", "For the fourth quarter, we expect revenue in the range of $4.3 billion to $4.5 billion."],
  ["SPEAKER_1", "With that, operator, please open the line for questions."],
  ["OPERATOR", "Our first question comes from Jane Doe with Morgan Stanley. Your line is open."],
  ["SPEAKER_3", "Thanks for taking my question."],
  ["SPEAKER_3", "Can you talk about the tariff impact on gross margin next year?"],
  ["SPEAKER_2", "Sure, Jane."],
  ["SPEAKER_2", "We expect the impact to fade as we reprice contracts."],
  ["OPERATOR", "Our next question comes from Tom Okafor with Halden Securities."],
  ["SPEAKER_4", "Did revenue really grow $300 million in Data Center?"],
  ["SPEAKER_1", "Yes, and we are very pleased with the execution there."],
]);
