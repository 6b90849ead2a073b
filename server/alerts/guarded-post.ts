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
 */

export interface PostResult {
  status: number | null;
  error: string | null;
  retryAfterMs: number | null;
  /** The address check refused the connection: retrying cannot help. */
  refused: boolean;
}

const REFUSED = "ECALLROOM_REFUSED";
const TIMEOUT_MS = 10_000;

function refusal(text: string): NodeJS.ErrnoException {
  return Object.assign(new Error(text), { code: REFUSED });
}

export interface GuardedPostOptions {
  allowlisted: boolean;
  resolve: Resolver;
  headers: Record<string, string | number>;
  timeoutMs?: number;
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
  return new Promise<PostResult>((resolve) => {
    const req = send(
      url,
      {
        method: "POST",
        headers: { ...options.headers, "Content-Length": Buffer.byteLength(body) },
        lookup,
        timeout: options.timeoutMs ?? TIMEOUT_MS,
      },
      (res: IncomingMessage) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? null,
            error: null,
            retryAfterMs: retryAfterMs(res.headers["retry-after"]),
            refused: false,
          }),
        );
        res.on("error", (error) =>
          resolve({
            status: res.statusCode ?? null,
            error: error.message,
            retryAfterMs: null,
            refused: false,
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ status: null, error: error.message, retryAfterMs: null, refused: error.code === REFUSED }),
    );
    req.end(body);
  });
}

function retryAfterMs(header: string | undefined): number | null {
  if (!header) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}
