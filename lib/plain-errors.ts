/**
 * The API's error messages name parameters (`webhookUrl must be an https URL`), which is right for scripts and
 * wrong for a person at a form. Forms show `plainMessage(error)`: the same fact in the form's own words. A message
 * with no plain wording here is shown with its parameter name taken off and a capital letter, never as code.
 */

const PLAIN: readonly [RegExp, string | ((m: RegExpMatchArray) => string)][] = [
  [
    /webhookUrl must be an absolute( https)? URL/i,
    "Enter the webhook's full address, starting with https://.",
  ],
  [/webhookUrl must be an https URL/i, "The webhook address must start with https://."],
  [/webhookUrl must not carry credentials/i, "Leave the user name and password out of the webhook address."],
  [
    /webhookUrl (must not point to a local or private host|must not point to a private or loopback address|resolves to a private or loopback address)/i,
    "The webhook address points inside a private network, which Callroom does not post to.",
  ],
  [
    /webhookUrl names a host that does not resolve \((.+)\)/i,
    (m) => `No server answers to ${m[1]}; check the webhook address.`,
  ],
  [
    /webhookUrl must be at most (\d+)/i,
    (m) => `The webhook address is too long (at most ${m[1]} characters).`,
  ],
  [/phrase (is required|must not be empty)/i, "Enter a word or phrase to listen for."],
  [/phrase must be at most (\d+)/i, (m) => `Keep the phrase to ${m[1]} characters or fewer.`],
  [/phrase must contain a letter or a digit/i, "The phrase needs at least one letter or digit."],
  [/threshold (is required|must be between)/i, "Choose a sentiment threshold between −1 and 1."],
  [
    /tickers must be ticker symbols/i,
    "Tickers are symbols such as NWSC or ACME: a letter, then letters, digits, “.” or “-”, separated by commas.",
  ],
  [/tickers must list at least one/i, "Name at least one ticker, or choose another scope."],
  [/tickers must list at most (\d+)/i, (m) => `A list holds at most ${m[1]} tickers.`],
  [/a watchlist holds at most (\d+) tickers/i, (m) => `A watchlist holds at most ${m[1]} tickers.`],
  [
    /at most (\d+) alert rules per user/i,
    (m) => `You have ${m[1]} rules, the most there can be; delete one first.`,
  ],
  [/at most (\d+) watchlists per user/i, (m) => `You have ${m[1]} watchlists, the most there can be.`],
  [/name must not be empty/i, "Give it a name."],
  [/name must be at most (\d+)/i, (m) => `Keep the name to ${m[1]} characters or fewer.`],
  [/watchlistId names no watchlist of yours/i, "That watchlist no longer exists; choose another."],
  [/text must not be empty/i, "Write something, or highlight a sentence."],
];

export function plainMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  if (!message) return "Something went wrong. Try again.";
  for (const [pattern, plain] of PLAIN) {
    const match = message.match(pattern);
    if (match) return typeof plain === "string" ? plain : plain(match);
  }
  const bare = message.replace(/^[a-z][A-Za-z.]*(?::\s*|\s+(?=must|is|names))/, "");
  const sentence = bare.charAt(0).toUpperCase() + bare.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
