import "server-only";
import { LRUCache } from "lru-cache";
import { AppError } from "../../errors";
import { getLogger } from "../../log";
import { CircuitBreaker } from "../../security/circuit-breaker";
import type { MediaLinks } from "../calls";

/**
 * The media proxy (docs/interfaces.md §3): the browser's HLS player, MP3 download and PDF link only ever reach our
 * `/api/calls/{id}/…` paths; the signed upstream links stay here.
 *
 * - Links come from `GET /calls/{id}?audio=true&pdf=true`, cached until shortly before the expiry their `Policy`
 *   carries; an upstream 403 (expired or revoked) re-signs once: fresh links, one retry.
 * - The playlist is fetched (coalesced: at most one upstream read per `playlistRefreshMs` while live, however many
 *   players poll) and rewritten: segment `n` (media sequence + position) becomes `segments/{n}.{ext}`, relative to
 *   our playlist URL. Only the tags a media-playlist player needs pass, each checked against its expected shape
 *   (`PLAYLIST_TAGS`); every other tag, comment and segment title is dropped, so no upstream URL or signature
 *   reaches the browser, whatever the upstream puts in its playlist.
 * - Segments are immutable: cached in an LRU bounded by bytes, with single-flight, so a thousand listeners cost
 *   one upstream read per segment.
 * - MP3 and PDF are streamed through, passing `Range` and relaying 206/416 with `Content-Range`. An ended call
 *   whose MP3 the upstream is still preparing answers 503 `recording_not_ready` with `Retry-After` (see
 *   `mp3Readiness`), not a 404 that would tell the player to give up.
 * - SSRF guard: only URLs derived from the call's own upstream links are fetched, and each must have the origin of
 *   UPSTREAM_BASE_URL. Nothing a browser sends becomes part of an upstream URL except the validated call id and the
 *   integer segment index.
 *
 * Decision: a deployment whose real service serves media from a CDN host would need that host allowed here; the
 * contract puts the links under `{base}`, so the base origin is the only one accepted.
 */

export interface MediaProxyOptions {
  /** The call's current signed links; `null` when the upstream does not know the call. */
  fetchLinks: (callId: string, signal?: AbortSignal) => Promise<MediaLinks | null>;
  /** Origin every fetched URL must have (the runtime passes UPSTREAM_BASE_URL's). */
  allowedOrigin: () => string;
  fetch?: typeof fetch;
  /** The runtime passes the process's media breaker; default: one of the proxy's own. */
  breaker?: CircuitBreaker;
  now?: () => number;
  segmentCacheBytes?: number;
  playlistRefreshMs?: number;
  /** Links without a readable expiry are trusted this long. */
  defaultLinkTtlMs?: number;
  /** How long missing formats (MP3 before the end, PDF before enrichment) are believed missing (default 5 s). */
  missingLinkTtlMs?: number;
  upstreamTimeoutMs?: number;
}

export interface MediaStats {
  linkFetches: number;
  playlistFetches: number;
  segmentFetches: number;
  segmentHits: number;
  fileFetches: number;
  resigns: number;
}

interface LinkEntry {
  links: MediaLinks;
  fetchedAt: number;
  expiresAt: number;
}

interface PlaylistEntry {
  /** Rewritten text, safe for the browser. */
  text: string;
  ended: boolean;
  fetchedAt: number;
  /** Segment number → upstream URL. */
  segments: Map<number, string>;
  /** Segment number → file extension (for our path and content type). */
  extensions: Map<number, string>;
}

export interface SegmentBody {
  body: Uint8Array;
  contentType: string;
}

const EXT_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  ts: "video/mp2t",
  aac: "audio/aac",
  m4s: "video/iso.segment",
  mp4: "audio/mp4",
};

/**
 * The tags a player needs to play a media playlist, each with the only shape it may have. An allowlist, not a
 * blocklist: HLS keeps adding tags that carry URIs or free text (`EXT-X-DEFINE`, `EXT-X-CONTENT-STEERING`,
 * `EXT-X-DATERANGE`'s `X-` attributes, `EXT-X-SESSION-DATA`), and any of them could carry a signed upstream link.
 * Low-latency parts, preload hints and blocking reloads are left out: our playlist takes no query and lists whole
 * segments. `EXT-X-KEY` passes only as `METHOD=NONE`: we proxy no key.
 */
const PLAYLIST_TAGS: readonly RegExp[] = [
  /^#EXTM3U$/,
  /^#EXT-X-VERSION:\d{1,2}$/,
  /^#EXT-X-TARGETDURATION:\d{1,5}$/,
  /^#EXT-X-MEDIA-SEQUENCE:\d{1,15}$/,
  /^#EXT-X-DISCONTINUITY-SEQUENCE:\d{1,15}$/,
  /^#EXT-X-PLAYLIST-TYPE:(EVENT|VOD)$/,
  /^#EXT-X-INDEPENDENT-SEGMENTS$/,
  /^#EXT-X-DISCONTINUITY$/,
  /^#EXT-X-GAP$/,
  /^#EXT-X-ENDLIST$/,
  /^#EXT-X-KEY:METHOD=NONE$/,
  /^#EXT-X-BITRATE:\d{1,10}$/,
  /^#EXT-X-START:TIME-OFFSET=-?\d{1,7}(\.\d{1,6})?(,PRECISE=(YES|NO))?$/,
  /^#EXT-X-PROGRAM-DATE-TIME:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/,
];

/** `#EXTINF:<duration>,<title>`: the duration is kept, the title (free text) is not. */
const EXTINF = /^#EXTINF:(\d{1,9}(?:\.\d{1,15})?)\s*(?:,|$)/;

/** Expiry (epoch ms) carried by a signed link: CloudFront canned `Expires`, or a base64(url) JSON `Policy`. */
export function linkExpiry(link: string): number | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const expires = Number(url.searchParams.get("Expires"));
  if (Number.isFinite(expires) && expires > 0) return expires * 1000;
  const policy = url.searchParams.get("Policy");
  if (!policy) return null;
  try {
    const json = JSON.parse(
      Buffer.from(policy.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8"),
    ) as {
      expires?: unknown;
      Statement?: { Condition?: { DateLessThan?: Record<string, unknown> } }[];
    };
    const candidates = [json.expires, json.Statement?.[0]?.Condition?.DateLessThan?.["AWS:EpochTime"]];
    for (const c of candidates) if (typeof c === "number" && c > 0) return c * 1000;
  } catch {
    // Not a policy we can read: fall back to the default lifetime.
  }
  return null;
}

/**
 * Rewrites a media playlist for the browser. Returns the text and the map from our segment numbers to upstream
 * URLs (resolved against the playlist's URL). Throws when a segment URL leaves the allowed origin.
 */
export function rewritePlaylist(
  text: string,
  playlistUrl: string,
  allowedOrigin: string,
): { text: string; ended: boolean; segments: Map<number, string>; extensions: Map<number, string> } {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines[0]?.trim() !== "#EXTM3U")
    throw mediaError("The audio playlist from the market-data service is malformed.");
  if (lines.some((l) => l.startsWith("#EXT-X-STREAM-INF"))) {
    throw mediaError("The market-data service sent a master playlist where a media playlist was expected.");
  }
  let mediaSequence = 0;
  let position = 0;
  let ended = false;
  const out: string[] = [];
  const segments = new Map<number, string>();
  const extensions = new Map<number, string>();
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("#")) {
      const seq = /^#EXT-X-MEDIA-SEQUENCE:(\d+)$/.exec(line);
      if (seq) mediaSequence = Number(seq[1]);
      if (line === "#EXT-X-ENDLIST") ended = true;
      const extinf = EXTINF.exec(line);
      if (extinf) out.push(`#EXTINF:${extinf[1]},`);
      else if (PLAYLIST_TAGS.some((tag) => tag.test(line))) out.push(line);
      continue;
    }
    const absolute = new URL(line, playlistUrl);
    if (absolute.origin !== allowedOrigin)
      throw mediaError("A segment of the audio playlist points elsewhere.");
    const n = mediaSequence + position;
    position += 1;
    const ext = /\.([a-z0-9]{2,4})$/i.exec(absolute.pathname)?.[1]?.toLowerCase();
    const safeExt = ext && ext in EXT_TYPES ? ext : "ts";
    segments.set(n, absolute.toString());
    extensions.set(n, safeExt);
    out.push(`segments/${n}.${safeExt}`);
  }
  return { text: `${out.join("\n")}\n`, ended, segments, extensions };
}

/** A missing format is looked up again after this long: the Retry-After a preparing MP3 announces. */
const DEFAULT_MISSING_LINK_TTL_MS = 5_000;

/**
 * `ready`: the MP3 link exists. `preparing`: the call is over and its HLS exists but the MP3 is not listed yet
 * (contract: the format is "added at completion", but an old call's audio may be rendered only when first asked
 * for, the MP3 once the whole call is encoded): a transient state, answered 503 + Retry-After. `none`: live (the
 * MP3 comes at the end) or no recording at all (e.g. the audio of an old live run was released).
 */
export type Mp3Readiness = "ready" | "preparing" | "none";

export function mp3Readiness(links: MediaLinks): Mp3Readiness {
  if (links.mp3) return "ready";
  return links.isEnded === true && links.hls !== null ? "preparing" : "none";
}

function mediaError(message: string): AppError {
  return new AppError("upstream_media_error", message);
}

function noMedia(message: string): AppError {
  return new AppError("not_found", message);
}

/** Media routes take no query parameters: nothing a browser sends may steer what the proxy fetches. */
export function assertNoQuery(request: Request): void {
  if (new URL(request.url).search !== "") {
    throw new AppError("invalid_parameter", "This path takes no query parameters.");
  }
}

const RANGE = /^bytes=(\d+-\d*|-\d+)(,\s*(\d+-\d*|-\d+))*$/;
const PASSED_HEADERS = [
  "content-type",
  "content-length",
  "content-range",
  "accept-ranges",
  "etag",
  "last-modified",
];

export class MediaProxy {
  private readonly links = new Map<string, LinkEntry>();
  private readonly linkFlights = new Map<string, Promise<LinkEntry>>();
  private readonly playlists = new LRUCache<string, PlaylistEntry>({ max: 500 });
  private readonly playlistFlights = new Map<string, Promise<PlaylistEntry>>();
  private readonly segments: LRUCache<string, SegmentBody>;
  private readonly segmentFlights = new Map<string, Promise<SegmentBody>>();
  private readonly counters: MediaStats = {
    linkFetches: 0,
    playlistFetches: 0,
    segmentFetches: 0,
    segmentHits: 0,
    fileFetches: 0,
    resigns: 0,
  };
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;

  private readonly breaker: CircuitBreaker;

  constructor(private readonly options: MediaProxyOptions) {
    this.breaker = options.breaker ?? new CircuitBreaker();
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.segments = new LRUCache<string, SegmentBody>({
      maxSize: options.segmentCacheBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (v) => Math.max(1, v.body.byteLength),
      maxEntrySize: 8 * 1024 * 1024,
    });
  }

  stats(): MediaStats {
    return { ...this.counters };
  }

  private allowedOrigin(): string {
    return this.options.allowedOrigin();
  }

  private checkOrigin(link: string): URL {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw mediaError("The market-data service sent a malformed media link.");
    }
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== this.allowedOrigin()) {
      getLogger().error({ origin: url.origin }, "media: refusing a media link outside the upstream's origin");
      throw mediaError("The market-data service sent a media link we do not follow.");
    }
    return url;
  }

  /* ---------------------------------------------------------------- links */

  private async getLinks(
    callId: string,
    options: { fresh?: boolean; need?: keyof MediaLinks } = {},
  ): Promise<MediaLinks> {
    const now = this.now();
    const cached = this.links.get(callId);
    const missingTtl = this.options.missingLinkTtlMs ?? DEFAULT_MISSING_LINK_TTL_MS;
    const usable =
      cached &&
      !options.fresh &&
      now < cached.expiresAt &&
      !(options.need && cached.links[options.need] === null && now - cached.fetchedAt > missingTtl);
    if (usable) return cached.links;
    let flight = this.linkFlights.get(callId);
    if (!flight) {
      flight = this.loadLinks(callId).finally(() => this.linkFlights.delete(callId));
      this.linkFlights.set(callId, flight);
    }
    return (await flight).links;
  }

  private async loadLinks(callId: string): Promise<LinkEntry> {
    this.counters.linkFetches += 1;
    const links = await this.options.fetchLinks(callId);
    if (!links) throw noMedia("No call with this id.");
    const now = this.now();
    const expiries = [links.hls, links.mp3, links.pdf]
      .filter((l): l is string => l !== null)
      .map((l) => linkExpiry(l) ?? now + (this.options.defaultLinkTtlMs ?? 60_000));
    const earliest = expiries.length ? Math.min(...expiries) : now + 60_000;
    // Refresh ahead of expiry: a fifth of the lifetime, at least 5 s, so a link is never used in its last moments.
    const margin = Math.max(5_000, (earliest - now) / 5);
    const entry = { links, fetchedAt: now, expiresAt: Math.max(now + 1_000, earliest - margin) };
    this.links.set(callId, entry);
    if (this.links.size > 2_000) {
      const oldest = this.links.keys().next().value;
      if (oldest !== undefined) this.links.delete(oldest);
    }
    return entry;
  }

  /** Fetches an upstream media URL; on 403 gets fresh links (via `relink`) and tries once more. */
  private async fetchSigned(
    callId: string,
    resolve: (fresh: boolean) => Promise<string>,
    init: { headers?: Record<string, string>; signal?: AbortSignal; streaming?: boolean },
  ): Promise<Response> {
    for (let attempt = 0; ; attempt += 1) {
      const url = this.checkOrigin(await resolve(attempt > 0));
      const response = await this.fetchWithDeadline(url, init);
      if (response.status === 403 && attempt === 0) {
        await response.body?.cancel();
        this.counters.resigns += 1;
        getLogger().info({ callId }, "media: upstream link refused (expired?); re-signing");
        continue;
      }
      return response;
    }
  }

  private async fetchWithDeadline(
    url: URL,
    init: { headers?: Record<string, string>; signal?: AbortSignal; streaming?: boolean },
  ): Promise<Response> {
    const timeout = this.options.upstreamTimeoutMs ?? 15_000;
    // Fails fast (503 upstream_unavailable + Retry-After) while the media origin keeps failing.
    const breaker = this.breaker;
    const admission = breaker.admit();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("timeout")), timeout);
    const onAbort = () => controller.abort(init.signal?.reason);
    init.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.fetchImpl(url, {
        headers: init.headers,
        signal: controller.signal,
        cache: "no-store",
        redirect: "error",
      });
      // A streamed body may take longer than the deadline; only its start is bounded.
      if (init.streaming) clearTimeout(timer);
      breaker.record(admission, response.status >= 500 ? "failure" : "success");
      return response;
    } catch (error) {
      breaker.record(admission, init.signal?.aborted ? "neutral" : "failure");
      if (init.signal?.aborted) throw new AppError("client_closed_request", "The request was cancelled.");
      if (controller.signal.aborted)
        throw new AppError("upstream_timeout", "The audio did not arrive in time.");
      getLogger().warn(
        { err: error instanceof Error ? error.message : String(error) },
        "media: upstream fetch failed",
      );
      throw mediaError("The market-data service failed to deliver the media.");
    } finally {
      if (!init.streaming) clearTimeout(timer);
      init.signal?.removeEventListener("abort", onAbort);
    }
  }

  /* ---------------------------------------------------------------- playlist */

  async playlist(callId: string, signal?: AbortSignal): Promise<{ text: string; ended: boolean }> {
    const entry = await this.getPlaylist(callId, { signal });
    return { text: entry.text, ended: entry.ended };
  }

  private async getPlaylist(
    callId: string,
    options: { signal?: AbortSignal; newerThan?: number; fresh?: boolean } = {},
  ): Promise<PlaylistEntry> {
    const cached = this.playlists.get(callId);
    const refreshMs = this.options.playlistRefreshMs ?? 1_000;
    if (
      cached &&
      !options.fresh &&
      (cached.ended || this.now() - cached.fetchedAt < refreshMs) &&
      (options.newerThan === undefined || cached.fetchedAt > options.newerThan)
    ) {
      return cached;
    }
    let flight = this.playlistFlights.get(callId);
    if (!flight) {
      flight = this.loadPlaylist(callId, options.fresh ?? false).finally(() =>
        this.playlistFlights.delete(callId),
      );
      this.playlistFlights.set(callId, flight);
    }
    return flight;
  }

  private async loadPlaylist(callId: string, fresh: boolean): Promise<PlaylistEntry> {
    this.counters.playlistFetches += 1;
    let playlistUrl = "";
    const response = await this.fetchSigned(
      callId,
      async (refresh) => {
        const links = await this.getLinks(callId, { fresh: fresh || refresh, need: "hls" });
        if (!links.hls) throw noMedia("This call has no audio yet.");
        playlistUrl = links.hls;
        return links.hls;
      },
      {},
    );
    if (response.status === 404) {
      await response.body?.cancel();
      throw noMedia("This call has no audio yet.");
    }
    if (!response.ok) {
      await response.body?.cancel();
      getLogger().warn({ callId, status: response.status }, "media: playlist fetch failed");
      throw mediaError("The market-data service failed to deliver the audio playlist.");
    }
    const text = await response.text();
    const rewritten = rewritePlaylist(text, playlistUrl, this.allowedOrigin());
    const entry: PlaylistEntry = { ...rewritten, fetchedAt: this.now() };
    this.playlists.set(callId, entry);
    return entry;
  }

  /* ---------------------------------------------------------------- segments */

  async segment(callId: string, n: number, signal?: AbortSignal): Promise<SegmentBody> {
    const key = `${callId}/${n}`;
    const hit = this.segments.get(key);
    if (hit) {
      this.counters.segmentHits += 1;
      return hit;
    }
    let flight = this.segmentFlights.get(key);
    if (!flight) {
      flight = this.loadSegment(callId, n).finally(() => this.segmentFlights.delete(key));
      this.segmentFlights.set(key, flight);
    } else {
      this.counters.segmentHits += 1;
    }
    // The shared fetch ignores one listener leaving; each waiter can still stop waiting.
    if (!signal) return flight;
    return new Promise<SegmentBody>((resolve, reject) => {
      const onAbort = () => reject(new AppError("client_closed_request", "The request was cancelled."));
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      flight.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  private async segmentUrl(callId: string, n: number, fresh: boolean): Promise<{ url: string; ext: string }> {
    const startedAt = this.now();
    let playlist = await this.getPlaylist(callId, { fresh });
    // A player may ask for a segment published after our copy of the playlist: look once more.
    if (!playlist.segments.has(n) && !playlist.ended) {
      playlist = await this.getPlaylist(callId, { newerThan: startedAt - 1 });
    }
    const url = playlist.segments.get(n);
    if (!url) throw noMedia("No such audio segment.");
    return { url, ext: playlist.extensions.get(n) ?? "ts" };
  }

  private async loadSegment(callId: string, n: number): Promise<SegmentBody> {
    this.counters.segmentFetches += 1;
    let ext = "ts";
    const response = await this.fetchSigned(
      callId,
      async (refresh) => {
        const found = await this.segmentUrl(callId, n, refresh);
        ext = found.ext;
        return found.url;
      },
      {},
    );
    if (response.status === 404) {
      await response.body?.cancel();
      throw noMedia("No such audio segment.");
    }
    if (!response.ok) {
      await response.body?.cancel();
      getLogger().warn({ callId, n, status: response.status }, "media: segment fetch failed");
      throw mediaError("The market-data service failed to deliver an audio segment.");
    }
    const body = new Uint8Array(await response.arrayBuffer());
    const upstreamType = response.headers.get("content-type");
    const segment = { body, contentType: EXT_TYPES[ext] ?? upstreamType ?? "application/octet-stream" };
    this.segments.set(`${callId}/${n}`, segment);
    return segment;
  }

  /** Seconds until a missing link is looked up again (what a client should wait before retrying). */
  private retryAfterSeconds(callId: string): number {
    const cached = this.links.get(callId);
    const missingTtl = this.options.missingLinkTtlMs ?? DEFAULT_MISSING_LINK_TTL_MS;
    const left = cached ? cached.fetchedAt + missingTtl - this.now() : missingTtl;
    return Math.max(1, Math.ceil(left / 1000));
  }

  /**
   * Whether the MP3 route can serve the call now. `GET /api/calls/[callId]` asks this for ended calls, so `hasMp3`
   * never promises a file that answers 503; it shares the link cache (and its single-flight) with the media routes.
   */
  async mp3Readiness(callId: string): Promise<Mp3Readiness> {
    return mp3Readiness(await this.getLinks(callId, { need: "mp3" }));
  }

  /* ---------------------------------------------------------------- whole files */

  /** Streams the MP3 or PDF through, with `Range` passed on and 206/416 relayed. */
  async file(
    callId: string,
    kind: "mp3" | "pdf",
    range: string | null,
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (range !== null) {
      if (!RANGE.test(range.trim())) {
        throw new AppError("invalid_range", "The Range header is not a valid bytes range.");
      }
      headers.Range = range.trim();
    }
    this.counters.fileFetches += 1;
    const response = await this.fetchSigned(
      callId,
      async (refresh) => {
        const links = await this.getLinks(callId, { fresh: refresh, need: kind });
        const link = links[kind];
        if (!link) {
          if (kind === "mp3" && mp3Readiness(links) === "preparing") {
            throw new AppError(
              "recording_not_ready",
              "The MP3 recording is being prepared; the stream plays meanwhile. Try again shortly.",
              { retryAfterSeconds: this.retryAfterSeconds(callId) },
            );
          }
          throw noMedia(
            kind === "mp3"
              ? "The MP3 recording appears once the call has ended."
              : "The PDF transcript appears once the call is enriched.",
          );
        }
        return link;
      },
      { headers, signal, streaming: true },
    );
    if (response.status === 404) {
      await response.body?.cancel();
      throw noMedia(kind === "mp3" ? "No MP3 recording for this call." : "No PDF transcript for this call.");
    }
    if (!response.ok && response.status !== 416) {
      await response.body?.cancel();
      getLogger().warn({ callId, kind, status: response.status }, "media: file fetch failed");
      throw mediaError("The market-data service failed to deliver the file.");
    }
    const out = new Headers();
    for (const name of PASSED_HEADERS) {
      const value = response.headers.get(name);
      if (value) out.set(name, value);
    }
    if (!out.has("content-type")) out.set("content-type", kind === "mp3" ? "audio/mpeg" : "application/pdf");
    if (!out.has("accept-ranges")) out.set("accept-ranges", "bytes");
    out.set("cache-control", "private, max-age=300");
    out.set("content-disposition", `inline; filename="call-${callId}.${kind}"`);
    out.set("x-content-type-options", "nosniff");
    return new Response(response.status === 416 ? null : response.body, {
      status: response.status,
      headers: out,
    });
  }
}
