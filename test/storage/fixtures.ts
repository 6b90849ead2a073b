/** Small, readable calls for the storage suite: each sentence is chosen so that a test can name what it finds. */
import type { ArchivableCall } from "@/server/archive/store";

export interface FixtureOptions {
  callId: string;
  symbol: string;
  startTime: string;
  status?: ArchivableCall["status"];
  /** Extra sentences for the CFO in prepared remarks. */
  remarks?: string[];
  /** The analyst's question. */
  question?: string;
  period?: string;
  year?: number;
}

export function fixtureCall(o: FixtureOptions): ArchivableCall {
  const enriched = (o.status ?? "enriched") === "enriched";
  const lines: [label: string, name: string, text: string][] = [
    ["OPERATOR", "Operator", `Good afternoon, and welcome to the ${o.symbol} earnings conference call.`],
    ["SPEAKER_1", "Dana Whitfield", "Thank you, operator, and thank you all for joining us."],
    ["SPEAKER_1", "Dana Whitfield", "Revenue grew this quarter on strong demand."],
    ...(o.remarks ?? []).map((t): [string, string, string] => ["SPEAKER_2", "Omar Reyes", t]),
    ["SPEAKER_2", "Omar Reyes", "With that, operator, please open the line for questions."],
    ["OPERATOR", "Operator", "Thank you. We will now begin the question-and-answer session."],
    ["OPERATOR", "Operator", "Our first question comes from Lucia Nakamura with Aldridge Brothers."],
    ["SPEAKER_3", "Lucia Nakamura", o.question ?? "Can you talk about margins into next year?"],
    ["SPEAKER_1", "Dana Whitfield", "Thanks for the question. We expect margins to expand."],
  ];
  const segments = lines.map(([label, name, text], i) => ({
    sequence: i,
    speaker: label,
    speakerName: enriched ? name : null,
    startMs: i * 4_000,
    endMs: i * 4_000 + 3_500,
    text,
    confidence: 0.98,
    sentiment: enriched ? 0.1 : null,
    sentimentSource: enriched ? ("enriched" as const) : ("live" as const),
  }));
  return {
    callId: o.callId,
    title: `${o.period ?? "Q3"} ${o.year ?? 2026} ${o.symbol} Earnings Conference Call`,
    symbol: o.symbol,
    name: `${o.symbol} Corp.`,
    exchange: "NYSE",
    period: o.period ?? "Q3",
    year: o.year ?? 2026,
    startTime: o.startTime,
    endTime: o.status === "live" ? null : new Date(Date.parse(o.startTime) + 600_000).toISOString(),
    durationSeconds: 600,
    status: o.status ?? "enriched",
    segments,
    summary: enriched
      ? {
          callId: o.callId,
          symbol: o.symbol,
          points: ["Revenue grew."],
          sentiment: 0.2,
          language: "en-US",
          createdAt: o.startTime,
          updatedAt: o.startTime,
        }
      : null,
    participants: enriched
      ? [
          { name: "Operator", role: "Operator", organization: null, mentions: 3, isHumanVerified: false },
          {
            name: "Dana Whitfield",
            role: "Chief Executive Officer",
            organization: null,
            mentions: 3,
            isHumanVerified: false,
          },
          {
            name: "Omar Reyes",
            role: "Chief Financial Officer",
            organization: null,
            mentions: 2,
            isHumanVerified: false,
          },
          {
            name: "Lucia Nakamura",
            role: "Analyst",
            organization: "Aldridge Brothers",
            mentions: 1,
            isHumanVerified: false,
          },
        ]
      : [],
    hasAudio: true,
    hasMp3: true,
    hasPdf: enriched,
  };
}

/** Call ids as the upstream makes them: 24 hex characters. */
export function fixtureId(n: number): string {
  return n.toString(16).padStart(24, "0");
}
