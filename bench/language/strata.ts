/** What the samplers (sample.ts, sample-fresh.ts) draw on: a sentence that states an amount, or looks ahead. */
export const AMOUNT =
  /\$\s?\d|\d(?:\.\d+)?\s?(?:%|percent\b|basis points?\b|bps\b|cents?\b|billion\b|million\b)/i;
export const FORWARD =
  /\b(?:guidance|guide|outlook|expect\w*|anticipat\w*|forecast\w*|target\w*|project(?:ed|ion|ing)?s?|reaffirm\w*|reiterat\w*|going forward|next quarter|full[- ]year|fiscal (?:year )?20\d\d|we will|we plan)\b/i;
