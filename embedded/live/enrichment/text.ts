// The scorer's text handling lives in common/sentiment (shared with the app's live scoring); the summary uses it too.
export {
  BOUNDARY,
  STOP_WORDS,
  isNumberToken,
  isProcedural,
  splitSentences,
  stem,
  tokenize,
} from "../../../common/sentiment/text";
