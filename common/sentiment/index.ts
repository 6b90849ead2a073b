/**
 * Financial-language sentiment (see score.ts for the model). `liveSentiment` is the live bus's per-sentence estimate:
 * cheap (a few microseconds per sentence), synchronous, deterministic.
 */
import { scoreText } from "./score";

export {
  ROLE_WEIGHTS,
  overallSentiment,
  scoreSentence,
  scoreText,
  type ParticipantRole,
  type ScoredSegment,
  type SentenceSentiment,
  type SentimentHit,
} from "./score";

/** One live sentence's score in [−1, 1], rounded to 3 decimals (what the SSE `sentence` event carries). */
export function liveSentiment(text: string): number {
  const score = scoreText(text).score;
  if (!Number.isFinite(score)) return 0;
  return Math.round(Math.max(-1, Math.min(1, score)) * 1000) / 1000;
}
