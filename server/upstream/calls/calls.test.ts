import { describe, expect, it } from "vitest";
import {
  callFromBody,
  callListFromBody,
  hmsToMs,
  mediaLinksFromBody,
  segmentSentiment,
  summaryFromBody,
  toCallStatus,
} from ".";

const ID = "65a1b2c3d4e5f60718293a4b";
const BASE = "http://127.0.0.1:4010";

function seg(i: number, extra: Record<string, unknown> = {}) {
  return {
    segment_id: i,
    speaker: i === 0 ? "OPERATOR" : "SPEAKER_1",
    start_time: `00:00:0${i * 2}`,
    end_time: `00:00:0${i * 2 + 1}`,
    start_ms: i * 2000,
    end_ms: i * 2000 + 1500,
    confidence: 0.95,
    text: `Sentence ${i}.`,
    sentiment: null,
    ...extra,
  };
}

const enrichedCall = {
  call_id: ID.toUpperCase(),
  call_title: "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call",
  symbol: "nwsc",
  name: "Northwind Semiconductor",
  exchange: "NASDAQ",
  period: "Q3",
  year: 2026,
  start_time: "2026-10-20T21:00:00Z",
  end_time: "2026-10-20T21:12:00Z",
  duration: 720,
  status: "COMPLETED",
  created_at: "2026-10-20T21:00:00Z",
  updated_at: "2026-10-20T21:12:20Z",
  transcripts: [
    {
      transcript_id: "t-live",
      type: "LIVE",
      language: "en-US",
      confidence_score: 0.95,
      text: "",
      segments: [seg(0), seg(1), seg(2)],
    },
    {
      transcript_id: "t-final",
      type: "NON_LIVE",
      language: "en-US",
      confidence_score: 0.97,
      text: "",
      segments: [
        seg(0, { speaker: "Operator", sentiment: 0 }),
        seg(1, { speaker: "Dana Whitfield", sentiment: 0.4 }),
        seg(2, { speaker: "Dana Whitfield", sentiment: "-0.2" }),
      ],
    },
  ],
  recordings: [
    {
      recording_id: "r1",
      language: "en-US",
      duration: 720,
      formats: [
        {
          file_link: `${BASE}/api/v1/transcripts/calls/${ID}/hls?Key-Pair-Id=k&Policy=p&Signature=s`,
          content_type: "application/vnd.apple.mpegurl",
          quality: "720p",
        },
        {
          file_link: `${BASE}/api/v1/transcripts/calls/${ID}/mp3?Key-Pair-Id=k&Policy=p&Signature=s`,
          content_type: "audio/mpeg",
          quality: "192kbps",
        },
      ],
    },
  ],
  summary: {
    summary_id: "s1",
    call_id: ID,
    transcript_id: "t-final",
    symbol: "NWSC",
    summary: "Revenue grew 12%.\n- Margins expanded.\n\nGuidance raised.",
    sentiment: "0.35",
    language: "en-US",
    created_at: "2026-10-20T21:12:20Z",
    updated_at: "2026-10-20T21:12:20Z",
  },
  participants: [
    {
      participant_id: "p1",
      call_id: ID,
      name: "Dana Whitfield",
      role: "CFO",
      organization: "Northwind",
      mentions: 3,
      human_verified: "true",
    },
    {
      participant_id: "p2",
      call_id: ID,
      name: "",
      role: "",
      organization: "",
      mentions: 0,
      human_verified: false,
    },
  ],
  pdf: {
    file_link: `${BASE}/api/v1/transcripts/calls/${ID}/pdf?Key-Pair-Id=k&Policy=p&Signature=s`,
    content_type: "application/pdf",
  },
};

describe("toCallStatus", () => {
  it("maps the upstream statuses, tolerating case and unknown values", () => {
    expect(toCallStatus("STARTED", false, null)).toBe("live");
    expect(toCallStatus("in_progress", false, null)).toBe("live");
    expect(toCallStatus("COMPLETED", false, "x")).toBe("completed");
    expect(toCallStatus("completed", true, "x")).toBe("enriched");
    expect(toCallStatus("ARCHIVED", false, null)).toBe("live");
    expect(toCallStatus("ARCHIVED", false, "2026-01-01T00:00:00Z")).toBe("completed");
    expect(toCallStatus(undefined, true, "2026-01-01T00:00:00Z")).toBe("enriched");
  });
});

describe("hmsToMs", () => {
  it("reads HH:MM:SS and MM:SS offsets", () => {
    expect(hmsToMs("01:02:03")).toBe(3_723_000);
    expect(hmsToMs("02:03.5")).toBe(123_500);
    expect(hmsToMs("")).toBeNull();
    expect(hmsToMs("soon")).toBeNull();
  });
});

describe("callFromBody (toCall)", () => {
  it("maps an enriched call: names and sentiment overlaid on the live sequence, flags instead of links", () => {
    const call = callFromBody(enrichedCall);
    expect(call).toMatchObject({
      callId: ID,
      symbol: "NWSC",
      title: "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call",
      status: "enriched",
      startTime: "2026-10-20T21:00:00.000Z",
      endTime: "2026-10-20T21:12:00.000Z",
      durationSeconds: 720,
      year: 2026,
      hasAudio: true,
      hasMp3: true,
      hasPdf: true,
    });
    expect(call.segments).toEqual([
      {
        sequence: 0,
        speaker: "OPERATOR",
        speakerName: "Operator",
        startMs: 0,
        endMs: 1500,
        text: "Sentence 0.",
        confidence: 0.95,
        sentiment: 0,
        sentimentSource: "enriched",
      },
      {
        sequence: 1,
        speaker: "SPEAKER_1",
        speakerName: "Dana Whitfield",
        startMs: 2000,
        endMs: 3500,
        text: "Sentence 1.",
        confidence: 0.95,
        sentiment: 0.4,
        sentimentSource: "enriched",
      },
      {
        sequence: 2,
        speaker: "SPEAKER_1",
        speakerName: "Dana Whitfield",
        startMs: 4000,
        endMs: 5500,
        text: "Sentence 2.",
        confidence: 0.95,
        sentiment: -0.2,
        sentimentSource: "enriched",
      },
    ]);
    expect(call.summary).toEqual({
      callId: ID,
      symbol: "NWSC",
      points: ["Revenue grew 12%.", "Margins expanded.", "Guidance raised."],
      sentiment: 0.35,
      language: "en-US",
      createdAt: "2026-10-20T21:12:20.000Z",
      updatedAt: "2026-10-20T21:12:20.000Z",
    });
    expect(call.participants).toEqual([
      { name: "Dana Whitfield", role: "CFO", organization: "Northwind", mentions: 3, isHumanVerified: true },
    ]);
    expect(JSON.stringify(call)).not.toMatch(/Signature|Policy|http/);
  });

  it("maps a live call: lower-case status, no end, offsets from HH:MM:SS when start_ms is missing", () => {
    const live = {
      call_id: ID,
      symbol: "NWSC",
      name: "Northwind Semiconductor",
      start_time: "2026-10-20T21:00:00Z",
      end_time: null,
      duration: "65",
      status: "in_progress",
      transcripts: [{ type: "live", segments: [{ ...seg(0), start_ms: undefined, end_ms: "" }] }],
      summary: null,
      participants: [],
    };
    const call = callFromBody(live);
    expect(call.status).toBe("live");
    expect(call.endTime).toBeNull();
    expect(call.segments).toEqual([
      {
        sequence: 0,
        speaker: "OPERATOR",
        speakerName: null,
        startMs: 0,
        endMs: 1000,
        text: "Sentence 0.",
        confidence: 0.95,
        // The upstream scores only at enrichment: until then, the live bus's live estimate (no evidence here).
        sentiment: 0,
        sentimentSource: "live",
      },
    ]);
    // Read without audio=true: the flags follow the lifecycle (HLS once something was said, no MP3 while live).
    expect(call).toMatchObject({
      hasAudio: true,
      hasMp3: false,
      hasPdf: false,
      summary: null,
      title: "Northwind Semiconductor conference call",
    });
  });

  it("derives media flags from the lifecycle when links were not asked for, and from the links when they were", () => {
    const { recordings: _r, pdf: _p, ...withoutLinks } = enrichedCall;
    expect(callFromBody(withoutLinks)).toMatchObject({ hasAudio: true, hasMp3: true, hasPdf: true });
    expect(callFromBody({ ...withoutLinks, summary: null })).toMatchObject({ hasMp3: true, hasPdf: false });
    expect(
      callFromBody({
        ...enrichedCall,
        recordings: [{ formats: [enrichedCall.recordings[0]!.formats[0]] }],
        pdf: null,
      }),
    ).toMatchObject({ hasAudio: true, hasMp3: false, hasPdf: false });
  });

  it("maps a call with nothing said yet (STARTED, no transcripts)", () => {
    const call = callFromBody({
      call_id: ID,
      symbol: "NWSC",
      status: "STARTED",
      start_time: "2026-10-20T21:00:00Z",
    });
    expect(call).toMatchObject({
      hasAudio: false,
      status: "live",
      segments: [],
      participants: [],
      summary: null,
      name: "NWSC",
    });
  });
});

describe("segmentSentiment", () => {
  it("prefers the upstream's enriched score, else estimates from the words", () => {
    expect(segmentSentiment(0.25, "Demand was weak.")).toEqual({
      sentiment: 0.25,
      sentimentSource: "enriched",
    });
    const live = segmentSentiment(null, "Revenue grew 18% to a record $4.2 billion.");
    expect(live.sentimentSource).toBe("live");
    expect(live.sentiment).toBeGreaterThan(0.3);
    expect(segmentSentiment(null, "Demand was weak and margins disappointed.").sentiment).toBeLessThan(-0.3);
  });
});

describe("mediaLinksFromBody (toMediaLinks)", () => {
  it("finds HLS, MP3 and PDF links", () => {
    const links = mediaLinksFromBody(enrichedCall);
    expect(links.hls).toContain("/hls?");
    expect(links.mp3).toContain("/mp3?");
    expect(links.pdf).toContain("/pdf?");
    expect(links.isEnded).toBe(true);
  });

  it("tolerates a single `recording` object and a live call without MP3", () => {
    const links = mediaLinksFromBody({
      call_id: ID,
      symbol: "NWSC",
      status: "IN_PROGRESS",
      recording: {
        formats: [{ file_link: `${BASE}/x/hls?sig=1`, content_type: "application/vnd.apple.mpegurl" }],
      },
    });
    expect(links).toEqual({ hls: `${BASE}/x/hls?sig=1`, mp3: null, pdf: null, isEnded: false });
    const links2 = mediaLinksFromBody({
      call_id: ID,
      symbol: "NWSC",
      recordings: { formats: [{ file_link: `${BASE}/y.m3u8`, content_type: "" }] },
    });
    expect(links2.hls).toBe(`${BASE}/y.m3u8`);
  });
});

describe("summaryFromBody (toCallSummary)", () => {
  it("reads a bare summary and the tolerated {data: [summary]}", () => {
    const bare = summaryFromBody(enrichedCall.summary);
    const wrapped = summaryFromBody({ data: [enrichedCall.summary] });
    expect(bare).toEqual(wrapped);
    expect(bare?.points).toHaveLength(3);
    expect(summaryFromBody({ data: [] })).toBeNull();
  });
});

describe("callListFromBody", () => {
  it("reads items and the hit count", () => {
    const { items, hits } = callListFromBody({
      data: [{ ...enrichedCall, transcripts: undefined }],
      message: "Successfully fetched calls",
      pagination: { hits: 42, page: 1, page_count: 5, page_size: 10 },
    });
    expect(hits).toBe(42);
    expect(items).toEqual([
      {
        callId: ID,
        title: enrichedCall.call_title,
        headline: null,
        symbol: "NWSC",
        name: "Northwind Semiconductor",
        exchange: "NASDAQ",
        period: "Q3",
        year: 2026,
        startTime: "2026-10-20T21:00:00.000Z",
        endTime: "2026-10-20T21:12:00.000Z",
        durationSeconds: 720,
        status: "enriched",
      },
    ]);
  });

  it("reads a bare array and an empty list", () => {
    expect(callListFromBody([]).items).toEqual([]);
    expect(callListFromBody({ data: null }).hits).toBe(0);
  });
});
