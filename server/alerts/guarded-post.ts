import "server-only";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isNonPublicAddress, type Resolver } from "./webhook-target";

/**
 * One POST to a user-supplied URL (a webhook, a browser's push endpoint) whose connection is checked itself: the
 * `lookup` refuses a name that resolves to a non-public address unless the target is allowlisted, so a name that
 * turns inwards between saving and delivering (DNS rebinding) cannot reach inside. No redirects are followed.
 * Literal addresses never reach `lookup`; callers check them first (`checkWebhookUrl`).
 *
 * The target is hostile until proven otherwise, so an attempt has one overall deadline (`deadlineMs`, connection,
 * request, headers and body together): a socket timeout alone restarts at every byte, and a receiver trickling one
 * byte every few seconds held its socket for ever. At most `MAX_BODY_BYTES` of the answer are read (only its status
 * and `Retry-After` matter). Every attempt has a connection of its own (`agent: false`), closed when it ends, and
 * `signal` aborts it at once (the rule was deleted, the server stops).
 */

export interface PostResult {
  status: number | null;
  error: string | null;
  retryAfterMs: number | null;
  /** The address check refused the connection: retrying cannot help. */
  refused: boolean;
}

const REFUSED = "ECALLROOM_REFUSED";
/** Default overall deadline of one attempt; callers may lower it, never raise it past `MAX_DEADLINE_MS`. */
export const DEADLINE_MS = 10_000;
export const MAX_DEADLINE_MS = 30_000;
const MAX_BODY_BYTES = 64 * 1024;

function refusal(text: string): NodeJS.ErrnoException {
  return Object.assign(new Error(text), { code: REFUSED });
}

export interface GuardedPostOptions {
  allowlisted: boolean;
  resolve: Resolver;
  headers: Record<string, string | number>;
  /** Overall deadline of the attempt (default `DEADLINE_MS`, at most `MAX_DEADLINE_MS`). */
  deadlineMs?: number;
  signal?: AbortSignal;
}

export function guardedPost(
  url: URL,
  body: string | Buffer,
  options: GuardedPostOptions,
): Promise<PostResult> {
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    options.resolve(hostname).then(
      (addresses) => {
        const address = addresses[0];
        if (address === undefined) return callback(new Error(`${hostname} does not resolve`), "", 4);
        if (!options.allowlisted && addresses.some(isNonPublicAddress))
          return callback(refusal(`${hostname} resolves to a non-public address`), "", 4);
        const family = isIP(address) || 4;
        if ((lookupOptions as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
            { address, family },
          ]);
        callback(null, address, family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, "", 4),
    );
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const deadlineMs = Math.min(options.deadlineMs ?? DEADLINE_MS, MAX_DEADLINE_MS);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener("abort", onAbort);
      req.destroy();
      resolve(result);
    };
    const fail = (error: string, refused = false) =>
      finish({ status: null, error, retryAfterMs: null, refused });
    const onAbort = () => fail(abortReason(options.signal), true);
    const req = send(
      url,
      {
        method: "POST",
        headers: { ...options.headers, "Content-Length": Buffer.byteLength(body) },
        lookup,
        agent: false,
      },
      (res: IncomingMessage) => {
        const answer = (error: string | null) =>
          finish({
            status: res.statusCode ?? null,
            error,
            retryAfterMs: retryAfterMs(res.headers["retry-after"]),
            refused: false,
          });
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_BODY_BYTES) answer(null);
        });
        res.on("end", () => answer(null));
        res.on("error", (error) => answer(error.message));
      },
    );
    // Before anything can destroy it: a destroyed request emits "error", which must always have a listener.
    req.on("error", (error: NodeJS.ErrnoException) => fail(error.message, error.code === REFUSED));
    const deadline = setTimeout(() => fail(`no complete answer within ${deadlineMs} ms`), deadlineMs);
    deadline.unref();
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    req.end(body);
  });
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  return typeof reason === "string" ? reason : "cancelled";
}

function retryAfterMs(header: string | undefined): number | null {
  if (!header) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}
