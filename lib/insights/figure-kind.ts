/** Whether an amount is a level or a change, and its sign: the words right before and after it. */
/** A verb or noun that makes the amount after it a movement, not a level ("up 12%", "an increase of 40 bps"). */
export const CHANGE_BEFORE =
  /\b(?:up|down|grew|grow|growing|growth(?: of)?|increased?|increasing|decreased?|decreasing|declined?|declining|rose|rise|rising|fell|fall|falling|expanded|expanding|expansion(?: of)?|contracted|contraction(?: of)?|compressed|compression(?: of)?|improved|improving|improvement(?: of)?|higher|lower|ahead|gain(?:ed)?|jumped|dropped|climbed|reduced|reduction(?: of)?|cut|deteriorat(?:ed|ion)(?: of)?|accelerated|decelerated|outpaced|more|less|paid down|repaid|paid off)\b(?:\s+(?:by|of|roughly|about|approximately|nearly|almost|more than|over|some|an additional|a(?: strong| solid| robust| healthy| record)?|another|just|only|slightly|well|significantly))*\s*$/i;
export const NEGATIVE_CHANGE =
  /\b(?:down|decreased?|decreasing|declined?|declining|decline|fell|fall|falling|contracted|contraction|compressed|compression|lower|dropped|reduced|reduction|cut|deteriorat(?:ed|ion)|less|repaid)\b/i;
/** A movement named right before the metric: "increasing earnings $27.5 million", "reduced debt by $33 million". */
export const PRE_CHANGE =
  /\b(increas(?:e|ed|ing)(?: to)?|decreas(?:e|ed|ing)|declin(?:e|ed|ing)|grow(?:th|ing)?|grew|improv(?:ement|ed|ing)|reduc(?:tion|ed|ing)|rais(?:ed|ing)|lower(?:ed|ing)|cut|boost(?:ed|ing)|expan(?:ded|ding|sion)|paid down|repaid)\s+(?:(?:in|of)\s+)?(?:(?:our|the|its|total|consolidated|net|adjusted|overall|quarterly|first|second|third|fourth|quarter|first-quarter|second-quarter|third-quarter|fourth-quarter|[a-z]+(?:-[a-z]+)+)\s+){0,3}$/i;
export const PRE_CHANGE_NEGATIVE = /^(?:decreas|declin|reduc|lower|cut|paid down|repaid)/i;
/** The movement said after the amount: "12% year over year", "a 4% decline", "25% lower than last year". */
export const CHANGE_AFTER =
  /^\s*(?:(?:year[- ]over[- ]year|year[- ]on[- ]year|sequentially|yoy|over (?:the )?(?:prior|last) year|versus (?:the )?(?:prior|last) year)\b|(?:growth|increase|decline|decrease|improvement|expansion|contraction|compression|reduction|rise|drop|jump|gain|higher|lower|more|less|better|worse|above|below|ahead|compound(?:ed)? (?:annual|average)|CAGR|annual(?:ized)? growth)\b)/i;
export const NEGATIVE_AFTER =
  /^\s*(?:decline|decrease|reduction|contraction|compression|drop|lower|less|worse|below)\b/i;
/** "grew to $4.2 billion": the amount after "to" is where it landed, a level. */
export const LANDING =
  /\b(?:to|at)(?:\s+(?:a|an|the|record|new|all-time|high|of|approximately|about|roughly|just|over|under|nearly|more than|a record))*\s*$/i;
/** "…, or 25% lower than …": the alternative form of the same amount, skipped to read what is said of both. */
export const ALTERNATIVE =
  /^\s*,?\s*or\s+(?:negative\s+|minus\s+)?\$?\s?[\d.,]+\s*(?:%|percent|basis points?|bps|(?:thousand|million|billion)\b)?\s*/i;
/** A level said as a loss or an outflow ("a net loss of $12 million", "an outflow of $293.7 million"). */
export const NEGATIVE_LEVEL = /\b(?:loss(?:es)?|outflow|negative|deficit|burn(?:ed)?|used)\b[^$\d]{0,30}$/i;
