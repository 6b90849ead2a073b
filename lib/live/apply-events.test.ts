import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callQueries, type CallEnvelope } from "@/lib/queries/calls";
import { liveQueries } from "@/lib/queries/live";
import type { Call, CallListResponse } from "@/lib/schemas/calls";
import type { LiveMessage } from "@/lib/schemas/live";
import { applyLiveMessages, createFrameBatcher } from "./apply-events";

const CALL_ID = "aaaaaaaaaaaaaaaaaaaaaaaa";
const meta = { fetchedAt: "2025-01-01T00:00:00Z", stale: false };

function call(overrides: Partial<Call> = {}): Call {
  return {
    callId: CALL_ID,
    title: "Acme Q3",
    symbol: "ACME",
    name: "Acme",
    exchange: null,
    period: null,
    year: null,
    startTime: "2025-01-01T00:00:00Z",
    endTime: null,
    durationSeconds: null,
    status: "live",
    segments: [],
    summary: null,
    participants: [],
    hasAudio: true,
    hasMp3: false,
    hasPdf: false,
    streamCursor: null,
    ...overrides,
  };
}

const sentence = (sequence: number, callId = CALL_ID): LiveMessage => ({
  event: "sentence",
  id: `c${sequence}`,
  data: {
    callId,
    sequence,
    text: `s${sequence}`,
    speaker: "OPERATOR",
    startMs: sequence * 1000,
    endMs: sequence * 1000 + 900,
    confidence: 0.9,
  },
});

function clientWith(detail?: Call, board?: CallListResponse) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (detail)
    client.setQueryData<CallEnvelope>(callQueries.detail(detail.callId).queryKey, { data: detail, meta });
  if (board) client.setQueryData(liveQueries.board().queryKey, board);
  return client;
}

const detailOf = (client: QueryClient, id = CALL_ID) =>
  client.getQueryData<CallEnvelope>(callQueries.detail(id).queryKey)?.data;

afterEach(() => vi.restoreAllMocks());

describe("applyLiveMessages", () => {
  it("appends a batch of sentences to the cached call in order, in one cache write", () => {
    const client = clientWith(call());
    const spy = vi.spyOn(client, "setQueryData");
    applyLiveMessages(client, [sentence(0), sentence(2), sentence(1)]);
    expect(detailOf(client)?.segments.map((s) => s.sequence)).toEqual([0, 1, 2]);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("drops sentences it already holds and keeps the REST copy (names, sentiment)", () => {
    const client = clientWith(
      call({
        segments: [
          {
            sequence: 0,
            speaker: "SPEAKER_1",
            speakerName: "Dana",
            startMs: 0,
            endMs: 900,
            text: "s0",
            confidence: 1,
            sentiment: 0.4,
            sentimentSource: "enriched",
          },
        ],
      }),
    );
    applyLiveMessages(client, [sentence(0), sentence(1), sentence(1)]);
    const segments = detailOf(client)!.segments;
    expect(segments.map((s) => s.sequence)).toEqual([0, 1]);
    expect(segments[0]!.speakerName).toBe("Dana");
  });

  it("lands each sentence's live sentiment in the cached call, marked as a live estimate", () => {
    const client = clientWith(call());
    const scored = (sequence: number, sentiment: number | undefined): LiveMessage => {
      const m = sentence(sequence);
      return m.event === "sentence" ? { ...m, data: { ...m.data, sentiment } } : m;
    };
    applyLiveMessages(client, [scored(0, 0.62), scored(1, -0.4), scored(2, undefined)]);
    const segments = detailOf(client)!.segments;
    expect(segments.map((s) => [s.sentiment, s.sentimentSource])).toEqual([
      [0.62, "live"],
      [-0.4, "live"],
      [null, null],
    ]);
  });

  it("ignores sentences of calls the page does not hold", () => {
    const client = clientWith(call());
    applyLiveMessages(client, [sentence(0, "bbbbbbbbbbbbbbbbbbbbbbbb")]);
    expect(client.getQueryData(callQueries.detail("bbbbbbbbbbbbbbbbbbbbbbbb").queryKey)).toBeUndefined();
  });

  it("refetches instead of writing when a sentence leaves a hole in the sequence", () => {
    const client = clientWith(
      call({
        segments: [
          {
            sequence: 0,
            speaker: "OPERATOR",
            speakerName: null,
            startMs: 0,
            endMs: 1,
            text: "s0",
            confidence: null,
            sentiment: null,
            sentimentSource: null,
          },
        ],
      }),
    );
    const invalidate = vi.spyOn(client, "invalidateQueries").mockResolvedValue();
    applyLiveMessages(client, [sentence(3)]);
    expect(detailOf(client)!.segments).toHaveLength(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: callQueries.detail(CALL_ID).queryKey });
  });

  it("adds a started call to the live board once, after the calls already there", () => {
    const board: CallListResponse = {
      data: [call({ callId: "cccccccccccccccccccccccc" })],
      meta: { ...meta, page: 0, pageSize: 100, hasMore: false, total: 1 },
    };
    const client = clientWith(undefined, board);
    const started: LiveMessage = {
      event: "call.started",
      id: "x",
      data: { callId: CALL_ID, symbol: "ACME", name: "Acme", startTime: "2025-01-01T01:00:00Z" },
    };
    applyLiveMessages(client, [started, started]);
    const after = client.getQueryData<CallListResponse>(liveQueries.board().queryKey)!;
    expect(after.data.map((c) => c.callId)).toEqual(["cccccccccccccccccccccccc", CALL_ID]);
    expect(after.data[1]!.status).toBe("live");
  });

  it("marks a completed call in place and refetches its detail and the lists, but not the board", () => {
    const board: CallListResponse = {
      data: [call()],
      meta: { ...meta, page: 0, pageSize: 100, hasMore: false, total: 1 },
    };
    const client = clientWith(call(), board);
    const invalidate = vi.spyOn(client, "invalidateQueries").mockResolvedValue();
    applyLiveMessages(client, [
      { event: "call.status", id: "y", data: { callId: CALL_ID, status: "completed" } },
    ]);
    expect(detailOf(client)!.status).toBe("completed");
    expect(client.getQueryData<CallListResponse>(liveQueries.board().queryKey)!.data[0]!.status).toBe(
      "completed",
    );
    const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(keys).toContain(JSON.stringify(callQueries.detail(CALL_ID).queryKey));
    expect(keys).toContain(JSON.stringify(callQueries.lists()));
    expect(keys).not.toContain(JSON.stringify(liveQueries.board().queryKey));
  });

  it("never moves a status backwards", () => {
    const client = clientWith(call({ status: "enriched" }));
    vi.spyOn(client, "invalidateQueries").mockResolvedValue();
    applyLiveMessages(client, [
      { event: "call.status", id: "z", data: { callId: CALL_ID, status: "completed" } },
    ]);
    expect(detailOf(client)!.status).toBe("enriched");
  });

  it("refetches everything about calls on reset", () => {
    const client = clientWith(call());
    const invalidate = vi.spyOn(client, "invalidateQueries").mockResolvedValue();
    applyLiveMessages(client, [sentence(0), { event: "reset", id: "r", data: { reason: "cursor_too_old" } }]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: callQueries.all() });
  });
});

describe("createFrameBatcher", () => {
  it("delivers everything pushed before the frame as one batch, and schedules one frame per batch", () => {
    const frames: (() => void)[] = [];
    const batches: LiveMessage[][] = [];
    const batcher = createFrameBatcher(
      (b) => batches.push(b),
      (f) => frames.push(f),
    );
    batcher.push(sentence(0));
    batcher.push(sentence(1));
    expect(frames).toHaveLength(1);
    expect(batches).toHaveLength(0);
    frames.shift()!();
    expect(batches).toEqual([[sentence(0), sentence(1)]]);
    batcher.push(sentence(2));
    expect(frames).toHaveLength(1);
  });

  it("delivers nothing after dispose", () => {
    const frames: (() => void)[] = [];
    const onFlush = vi.fn();
    const batcher = createFrameBatcher(onFlush, (f) => frames.push(f));
    batcher.push(sentence(0));
    batcher.dispose();
    frames.shift()!();
    batcher.push(sentence(1));
    expect(onFlush).not.toHaveBeenCalled();
  });
});
