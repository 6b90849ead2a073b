/**
 * Serialising answers: JSON (`application/json; charset=utf-8`), the deprecated XML format, the upstream's error
 * envelope and Kong's "no route" body.
 *
 * XML mapping (the contract only says XML "works"; these choices keep it well-formed and reversible):
 * - the body's members become children of the route's root element (`JsonResult.xmlRoot`, default `response`);
 * - an array becomes its member's element holding one `<item>` per entry, so a one-entry or empty array reads back
 *   unambiguously (`<earnings><item>…</item></earnings>`);
 * - `null` becomes an empty element; numbers and booleans their JSON text;
 * - a member name that is not an XML name (e.g. the period key `3M`) is prefixed with `_` (`<_3M>`).
 * Error envelopes are always JSON, whatever `accept` says: the gateway in front of the real service answers errors
 * in JSON and every client already parses them that way.
 */
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { XMLBuilder } from "fast-xml-parser";
import type { ApiError } from "./api-error";
import type { EmbeddedResult, JsonResult, RawResult } from "./types";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
export const XML_CONTENT_TYPE = "application/xml; charset=utf-8";

const builder = new XMLBuilder({ ignoreAttributes: true, format: false, suppressEmptyNode: false });

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

type XmlTree = string | number | boolean | { [name: string]: XmlTree | XmlTree[] };

function toXmlTree(value: unknown): XmlTree {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.length === 0 ? "" : { item: value.map(toXmlTree) };
  if (typeof value === "object") {
    const tree: Record<string, XmlTree> = {};
    for (const [name, member] of Object.entries(value)) {
      if (member === undefined) continue;
      tree[XML_NAME.test(name) && !/^xml/i.test(name) ? name : `_${name}`] = toXmlTree(member);
    }
    return tree;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return value;
  return String(value);
}

export function toXml(body: unknown, root = "response"): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ [root]: toXmlTree(body) }) as string}`;
}

/** True when `accept` prefers XML over JSON (highest q wins; on a tie, the earlier type). */
export function acceptsXml(accept: string | undefined): boolean {
  if (!accept) return false;
  let best: { xml: boolean; q: number } | null = null;
  for (const part of accept.split(",")) {
    const [typeRaw, ...paramsRaw] = part.split(";");
    const type = (typeRaw ?? "").trim().toLowerCase();
    const isXml = type === "application/xml" || type === "text/xml";
    const isJson = type === "application/json";
    if (!isXml && !isJson) continue;
    const qParam = paramsRaw.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (best === null || q > best.q) best = { xml: isXml, q };
  }
  return best?.xml ?? false;
}

export function isRawResult(result: EmbeddedResult): result is RawResult {
  return "raw" in result;
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  payload: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...headers,
    "Content-Type": contentType,
    "Content-Length": String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

export function sendJsonResult(res: ServerResponse, result: JsonResult, wantsXml: boolean): void {
  const status = result.status ?? 200;
  if (wantsXml) {
    send(res, status, XML_CONTENT_TYPE, toXml(result.body, result.xmlRoot), {
      ...result.headers,
      Deprecation: "true",
    });
  } else {
    send(res, status, JSON_CONTENT_TYPE, JSON.stringify(result.body), result.headers);
  }
}

export function sendRawResult(res: ServerResponse, result: RawResult): void {
  const status = result.status ?? 200;
  if (result.raw instanceof Readable) {
    res.writeHead(status, { ...result.headers, "Content-Type": result.contentType });
    result.raw.on("error", () => res.destroy());
    result.raw.pipe(res);
    return;
  }
  send(res, status, result.contentType, result.raw, result.headers);
}

export function sendResult(res: ServerResponse, result: EmbeddedResult, wantsXml: boolean): void {
  if (isRawResult(result)) sendRawResult(res, result);
  else sendJsonResult(res, result, wantsXml);
}

export const errorEnvelope = (error: ApiError) => ({
  ok: false,
  errors: [{ code: error.code, id: error.id, value: error.value }],
});

export function sendApiError(res: ServerResponse, error: ApiError): void {
  send(res, error.status, JSON_CONTENT_TYPE, JSON.stringify(errorEnvelope(error)), error.headers);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, JSON_CONTENT_TYPE, JSON.stringify(body));
}

export const NO_ROUTE_BODY = { message: "no Route matched with those values" } as const;
