/** The shapes of a call's script (`generate.ts`) and of the lines its sections write before labels are assigned. */
import type { Company } from "../../universe/types";
import type { WireEarningsRecord } from "../../universe/wire";
import type { EnrichmentSpeaker } from "../enrichment/types";

export type Tone = "beat" | "miss" | "inline";
/** A generated call's sections; a replayed transcript has its prepared remarks and its Q&A. */
export type ScriptSection =
  "intro" | "safe_harbor" | "ceo" | "cfo" | "guidance" | "qa" | "close" | "prepared";

export interface ScriptSentence {
  /** Diarization label: "OPERATOR", "SPEAKER_1", … */
  speakerLabel: string;
  text: string;
  section: ScriptSection;
}

export interface CallScript {
  callId: string;
  title: string;
  tone: Tone;
  period: string;
  year: number;
  speakers: EnrichmentSpeaker[];
  sentences: ScriptSentence[];
  /** Index of the operator's final lines: ending a call early skips straight to here. */
  closeIndex: number;
}

export interface ScriptInput {
  callId: string;
  company: Company;
  /** The calendar record the call reports on; its EPS and revenue are stated by the CFO. */
  record: WireEarningsRecord;
  /** The company's following record, if any: its estimates anchor the guidance. */
  nextRecord?: WireEarningsRecord;
  startTime: Date;
  /** Planned length of the spoken call. */
  targetSeconds: number;
  /** The company's previous record: the guidance its call gave is what this call reports against. */
  previousRecord?: WireEarningsRecord | undefined;
  /** Seed of the universe: the quarter's story (people, topics, guidance) derives from it, not from `callId`. */
  seed?: number;
}

/** Who speaks a line; `assemble` turns roles into diarization labels in order of first appearance. */
export type Role = "operator" | "ir" | "ceo" | "cfo" | `analyst:${number}`;

export interface Line {
  role: Role;
  text: string;
  section: ScriptSection;
  /** Kept whatever the budget (handoffs, the figures). */
  keep?: boolean;
}
