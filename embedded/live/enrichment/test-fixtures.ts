/** Crafted earnings calls shared by the enrichment tests: one that beats expectations, one that misses. */
import type { EnrichmentInput, EnrichmentSpeaker } from "./types";

export const SPEAKERS: EnrichmentSpeaker[] = [
  {
    label: "SPEAKER_2",
    name: "Marcus Lee",
    role: "Executive",
    title: "Chief Financial Officer",
    organization: "Northwind Semiconductor",
  },
  {
    label: "SPEAKER_3",
    name: "Priya Raman",
    role: "Analyst",
    title: "Analyst",
    organization: "Halvorsen Capital",
  },
  {
    label: "OPERATOR",
    name: "Operator",
    role: "Operator",
    title: "Operator",
    organization: "Northwind Semiconductor",
  },
  {
    label: "SPEAKER_1",
    name: "Dana Whitfield",
    role: "Executive",
    title: "Chief Executive Officer",
    organization: "Northwind Semiconductor",
  },
];

type Line = [label: string, text: string];

function build(callId: string, lines: Line[]): EnrichmentInput {
  return {
    callId,
    callTitle: "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call",
    symbol: "NWSC",
    companyName: "Northwind Semiconductor",
    startTime: new Date("2026-07-23T14:00:00Z"),
    speakers: SPEAKERS,
    segments: lines.map(([speakerLabel, text], sequence) => ({
      sequence,
      speakerLabel,
      text,
      startMs: sequence * 7_500,
      endMs: sequence * 7_500 + 7_000,
    })),
  };
}

export const BEAT_CALL: EnrichmentInput = build("aaaaaaaaaaaaaaaaaaaaaaaa", [
  [
    "OPERATOR",
    "Good morning, and welcome to the Northwind Semiconductor third quarter 2026 earnings conference call.",
  ],
  [
    "OPERATOR",
    "This conference is being recorded. I would now like to turn the call over to Dana Whitfield, Chief Executive Officer.",
  ],
  ["SPEAKER_1", "Thank you, operator, and good morning, everyone."],
  [
    "SPEAKER_1",
    "We delivered record revenue of $4.2 billion this quarter, up 18% year over year and well ahead of our guidance.",
  ],
  [
    "SPEAKER_1",
    "Demand for our data center products was exceptionally strong, and we gained share in every major market.",
  ],
  [
    "SPEAKER_1",
    "Our new accelerator platform is ramping faster than we planned, with excellent customer feedback.",
  ],
  ["SPEAKER_1", "I will now hand it over to Marcus Lee, our Chief Financial Officer."],
  ["SPEAKER_2", "Thanks, Dana."],
  [
    "SPEAKER_2",
    "Gross margin was 61.5%, up 240 basis points, reflecting margin expansion from a favorable product mix.",
  ],
  [
    "SPEAKER_2",
    "Diluted EPS was $1.99, exceeding consensus of $1.85, and free cash flow increased 25% to $1.1 billion.",
  ],
  ["SPEAKER_2", "Operating expenses decreased 3% as we improved efficiency across the business."],
  ["SPEAKER_2", "Given this momentum, we are raising our full-year revenue guidance to $16.5 billion."],
  [
    "OPERATOR",
    "Thank you. We will now begin the question-and-answer session. Our first question comes from Priya Raman with Halvorsen Capital. Your line is open.",
  ],
  [
    "SPEAKER_3",
    "Congratulations on a strong quarter. Marcus, can you talk about the sustainability of gross margin?",
  ],
  [
    "SPEAKER_2",
    "Sure, Priya. We are confident margins remain healthy, and we expect continued improvement as volumes grow.",
  ],
  ["SPEAKER_3", "Great, thank you."],
  ["OPERATOR", "That concludes today's conference call. You may now disconnect."],
]);

export const MISS_CALL: EnrichmentInput = build("bbbbbbbbbbbbbbbbbbbbbbbb", [
  [
    "OPERATOR",
    "Good morning, and welcome to the Northwind Semiconductor third quarter 2026 earnings conference call.",
  ],
  [
    "OPERATOR",
    "This conference is being recorded. I would now like to turn the call over to Dana Whitfield, Chief Executive Officer.",
  ],
  ["SPEAKER_1", "Thank you, operator, and good morning, everyone."],
  [
    "SPEAKER_1",
    "Revenue was $3.1 billion, down 12% year over year and below our guidance, as demand weakened across our end markets.",
  ],
  [
    "SPEAKER_1",
    "Data center demand was not strong, and we lost share to competitors in several key accounts.",
  ],
  ["SPEAKER_1", "The ramp of our new accelerator platform was delayed by supply chain disruptions."],
  ["SPEAKER_1", "I will now hand it over to Marcus Lee, our Chief Financial Officer."],
  ["SPEAKER_2", "Thanks, Dana."],
  [
    "SPEAKER_2",
    "Gross margin was 52.1%, down 310 basis points, reflecting margin compression from pricing pressure and an unfavorable mix.",
  ],
  [
    "SPEAKER_2",
    "Diluted EPS was $0.71, missing consensus of $0.95, and we recorded a goodwill impairment of $300 million.",
  ],
  ["SPEAKER_2", "Inventory increased 20%, and we expect headwinds to persist through the year."],
  ["SPEAKER_2", "Given this uncertainty, we are lowering our full-year revenue guidance to $12.5 billion."],
  [
    "OPERATOR",
    "Thank you. We will now begin the question-and-answer session. Our first question comes from Priya Raman with Halvorsen Capital. Your line is open.",
  ],
  ["SPEAKER_3", "Marcus, how should we think about the weakness in gross margin?"],
  ["SPEAKER_2", "Sure, Priya. Pricing remains challenging and we do not see a recovery until next year."],
  ["SPEAKER_3", "Okay, thank you."],
  ["OPERATOR", "That concludes today's conference call. You may now disconnect."],
]);
