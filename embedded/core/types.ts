/**
 * The embedded market-data service's internal HTTP contract: how a route is declared and what a handler returns.
 * The service is plain Node (node:http + ws); it never imports Next or `server-only`, because it also runs alone.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";

/** Products a key's plan can hold (docs/upstream.md §1). `null` on a route means no key is needed (control API). */
export type Product = "calendars" | "fundamentals" | "transcripts";

export interface EmbeddedRequest {
  method: string;
  /** Path without query string, percent-decoded. */
  path: string;
  /** Query with bracketed names normalised: `parameters%5Btickers%5D` arrives as `parameters[tickers]`. */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Named segments of the route pattern, e.g. `{ callId }` for `/api/v1/transcripts/calls/:callId`. */
  params: Record<string, string>;
  /** True when the `accept` header asks for `application/xml` (deprecated format). */
  wantsXml: boolean;
  /** Parsed JSON body for POST/DELETE routes (control API); undefined otherwise. */
  body: unknown;
  /** The key that authenticated the request; null on routes without a product. */
  apiKey: string | null;
  /** Wall-clock time of the request; handlers use this, never `Date.now()`, so tests can reason about it. */
  now: Date;
}

/** A JSON (or XML when `wantsXml`) answer. */
export interface JsonResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Root element name when serialised as XML; default `response` (see core/render.ts for the XML mapping). */
  xmlRoot?: string;
}

/** A raw answer: media, PDF, playlists. */
export interface RawResult {
  status?: number;
  raw: Buffer | string | Readable;
  contentType: string;
  headers?: Record<string, string>;
}

export type EmbeddedResult = JsonResult | RawResult;

export interface RouteDef {
  method: "GET" | "POST" | "DELETE";
  /** Literal segments and `:name` parameters, e.g. `/api/v1/transcripts/calls/:callId/hls`. */
  pattern: string;
  /** Product the key's plan must include; `null` = control route (no key, loopback only). */
  product: Product | null;
  /** True for routes that bypass the key check but are not control routes (signed media links carry their own auth). */
  signed?: boolean;
  handle(req: EmbeddedRequest): EmbeddedResult | Promise<EmbeddedResult>;
}
