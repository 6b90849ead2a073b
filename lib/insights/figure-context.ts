/** What extraction reads besides the sentence: the sentence itself and what the sentences before it set up. */
import type { Horizon } from "./guidance";

export interface SentenceInput {
  sequence: number;
  text: string;
  startMs: number;
}

/** What the sentences before this one set up (the engine keeps it per speaker). */
export interface SentenceContext {
  /** The horizon of an outlook opened earlier ("For fiscal 2022, we expect …"), for guidance that does not say. */
  horizon?: Horizon | null;
  /** A segment the speaker opened ("Turning to our Industrial segment."): company-level readings are doubtful. */
  segment?: string | null;
  /** The call's own fiscal year and quarter (1–4), so "first quarter 2020" on a 2021 call is a year ago. */
  fiscalYear?: number | null;
  fiscalQuarter?: number | null;
  /**
   * The speaker is going through an outlook ("For 2021, we expect revenue of … . Net income of $38 million to $46
   * million and EPS of …"): amounts in a sentence that states no result are guidance too.
   */
  outlook?: boolean;
  /** The speaker is going through the year's results ("Looking at the year as a whole, …"), not the quarter's. */
  yearResults?: boolean;
  /** Sentences since the segment was last named. */
  segmentAge?: number;
  /** Words of the company's own name, lower-case ("idacorp"): "IDACORP's revenue" is the company's, not a part's. */
  company?: readonly string[];
}
