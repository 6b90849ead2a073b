/**
 * The financial-language sentiment scorer lives in `common/sentiment` (pure TypeScript): the app's live bus scores live
 * sentences with the same model the enrichment uses, so a live estimate and the enriched score agree for the same
 * words. Re-exported here so enrichment keeps its imports. A relative path, not `@/`: this program also runs alone.
 */
export {
  ROLE_WEIGHTS,
  overallSentiment,
  scoreSentence,
  scoreText,
  type ScoredSegment,
  type SentenceSentiment,
  type SentimentHit,
} from "../../../common/sentiment/score";
