import "server-only";
/** A minimal SSE reader for tests: parses `id`/`event`/`data` messages from a Response body as they arrive. */
export interface SseMessage {
  id: string | null;
  event: string;
  data: unknown;
}

export interface SseReader {
  messages: SseMessage[];
  /** Resolves when a message matching `test` has arrived (or rejects after `timeoutMs`). */
  waitFor(test: (m: SseMessage, all: SseMessage[]) => boolean, timeoutMs: number): Promise<SseMessage>;
  /** The last `id:` seen, including bare-id preambles (what an EventSource would send as Last-Event-ID). */
  lastEventId(): string | null;
  close(): Promise<void>;
  done: Promise<void>;
}

export function readSse(response: Response): SseReader {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const messages: SseMessage[] = [];
  let lastId: string | null = null;
  let buffer = "";
  const waiters = new Set<() => void>();
  let closed = false;

  const parseBlock = (block: string) => {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") id = value;
      else if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (id !== null) lastId = id;
    if (data.length === 0) return;
    messages.push({ id, event, data: JSON.parse(data.join("\n")) as unknown });
  };

  const done = (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf("\n\n")) !== -1) {
          parseBlock(buffer.slice(0, at));
          buffer = buffer.slice(at + 2);
        }
        for (const w of [...waiters]) w();
      }
    } catch {
      // Cancelled or errored: the test looks at what arrived.
    } finally {
      closed = true;
      for (const w of [...waiters]) w();
    }
  })();

  return {
    messages,
    lastEventId: () => lastId,
    waitFor(test, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = messages.find((m) => test(m, messages));
          if (hit) {
            cleanup();
            resolve(hit);
          } else if (closed) {
            cleanup();
            reject(new Error(`stream closed before the awaited message (${messages.length} messages)`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`timed out after ${timeoutMs} ms waiting for a message (${messages.length} so far)`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      await reader.cancel().catch(() => {});
      await done;
    },
    done,
  };
}
