/** Lines to a script: diarization labels in order of first appearance, and the speakers enrichment will name. */
import type { Company, Executive } from "../../universe/types";
import type { EnrichmentSpeaker } from "../enrichment/types";
import type { Analyst } from "./story";
import type { CallScript, Line, Role, ScriptInput, Tone } from "./types";

/** "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call" */
export function callTitle(
  period: string,
  year: number,
  company: Pick<Company, "shortName" | "symbol">,
): string {
  return `${period} ${year} ${company.shortName} (${company.symbol}) Earnings Conference Call`;
}

export function assemble(
  input: ScriptInput,
  tone: Tone,
  lines: readonly Line[],
  closeIndex: number,
  analysts: readonly Analyst[],
  cfo: Executive,
): CallScript {
  const { company, record } = input;
  const labels = new Map<Role, string>();
  let next = 1;
  for (const line of lines) {
    if (labels.has(line.role)) continue;
    labels.set(line.role, line.role === "operator" ? "OPERATOR" : `SPEAKER_${next++}`);
  }
  const speakers: EnrichmentSpeaker[] = [];
  for (const [role, label] of labels) {
    if (role === "operator") {
      speakers.push({
        label,
        name: "Operator",
        role: "Operator",
        title: "Operator",
        organization: company.shortName,
      });
    } else if (role === "ir" || role === "ceo" || role === "cfo") {
      const exec = role === "cfo" ? cfo : company.executives[role];
      speakers.push({
        label,
        name: exec.name,
        role: "Executive",
        title: exec.title,
        organization: company.shortName,
      });
    } else {
      const analyst = analysts[Number(role.slice("analyst:".length))];
      speakers.push({
        label,
        name: analyst?.name ?? "Analyst",
        role: "Analyst",
        title: "Analyst",
        organization: analyst?.firm ?? "",
      });
    }
  }
  return {
    callId: input.callId,
    title: callTitle(record.period, record.period_year, company),
    tone,
    period: record.period,
    year: record.period_year,
    speakers,
    sentences: lines.map((l) => ({
      speakerLabel: labels.get(l.role) ?? "OPERATOR",
      text: l.text,
      section: l.section,
    })),
    closeIndex,
  };
}
