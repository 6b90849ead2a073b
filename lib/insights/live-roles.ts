/**
 * Who a live voice is, sentence by sentence, without the whole transcript (docs/insights.md, "Guidance alerts"):
 * the operator by its label, an analyst as the first new voice after the operator introduces one (or a new voice
 * in the Q&A that asks), management otherwise. The guidance alert rule uses it so that analysts' questions and
 * operator lines never fire; it keeps a few labels per call and nothing else.
 */
import { parseIntro } from "./intros";

export type LiveRole = "operator" | "management" | "analyst";

interface CallRoles {
  roles: Map<string, LiveRole>;
  /** The operator has introduced an analyst whose voice has not been heard yet. */
  awaitingAnalyst: boolean;
  inQa: boolean;
}

const QA_OPENS =
  /\b(?:question-and-answer|question and answer|Q&A)\s+(?:session|portion|period)\b|\bopen (?:up )?the (?:line|lines|floor|call) (?:up )?(?:for|to) questions\b|\bfirst question\b/i;
const ASKS = /\?\s*$|\b(?:my (?:first |next |last )?question|a follow-up|I (?:was )?wonder(?:ing)?)\b/i;

/** Keeps each live call's voices apart. Bounded: a call is forgotten when it ends (`end`), the oldest past `max`. */
export class LiveRoles {
  private readonly calls = new Map<string, CallRoles>();

  constructor(private readonly max = 1_000) {}

  /** The role of the voice saying `text` now, learning from it. */
  observe(callId: string, speaker: string, text: string): LiveRole {
    let call = this.calls.get(callId);
    if (!call) {
      if (this.calls.size >= this.max) this.calls.delete(this.calls.keys().next().value!);
      call = { roles: new Map(), awaitingAnalyst: false, inQa: false };
      this.calls.set(callId, call);
    }
    if (/^operator$/i.test(speaker.trim())) {
      if (parseIntro(text)) {
        call.awaitingAnalyst = true;
        call.inQa = true;
      } else if (QA_OPENS.test(text)) call.inQa = true;
      call.roles.set(speaker, "operator");
      return "operator";
    }
    const known = call.roles.get(speaker);
    if (known) {
      call.awaitingAnalyst = call.awaitingAnalyst && known !== "analyst";
      return known;
    }
    const role: LiveRole = call.awaitingAnalyst || (call.inQa && ASKS.test(text)) ? "analyst" : "management";
    call.awaitingAnalyst = false;
    call.roles.set(speaker, role);
    return role;
  }

  end(callId: string): void {
    this.calls.delete(callId);
  }
}
