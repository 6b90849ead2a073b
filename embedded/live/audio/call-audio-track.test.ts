import { describe, expect, it } from "vitest";
import {
  ENCODER_DELAY_SAMPLES,
  FRAMES_PER_SEGMENT,
  Mp3CallAudioTrack,
  SAMPLES_PER_FRAME,
} from "./call-audio-track";
import { readTransportStreamTimestamp, TIMESTAMP_OWNER } from "./id3";
import { listMp3Frames } from "./mp3-frames";

const RATE = 22_050;

/** A tone with a slow envelope: something for the encoder to chew on that is not silence. */
function tone(ms: number, freq = 220): Int16Array {
  const n = Math.round((ms * RATE) / 1000);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(6000 * Math.sin((2 * Math.PI * freq * i) / RATE));
  return out;
}

function filledTrack(seconds: number): Mp3CallAudioTrack {
  const track = new Mp3CallAudioTrack({ sampleRate: RATE });
  track.appendSilence(300);
  while (track.durationMs < seconds * 1000) {
    track.append(tone(1700));
    track.appendSilence(400);
  }
  return track;
}

const SEGMENT_MS = (FRAMES_PER_SEGMENT * SAMPLES_PER_FRAME * 1000) / RATE;

describe("Mp3CallAudioTrack", () => {
  it("hands out contiguous spans computed from sample counts", () => {
    const track = new Mp3CallAudioTrack({ sampleRate: RATE });
    const a = track.appendSilence(500);
    const b = track.append(tone(1234.5));
    const c = track.append(new Int16Array(7));
    const d = track.appendSilence(333);
    expect(a).toEqual({ startMs: 0, endMs: 500 });
    expect(b.startMs).toBe(a.endMs);
    expect(c.startMs).toBe(b.endMs);
    expect(d.startMs).toBe(c.endMs);
    expect(track.durationMs).toBe(d.endMs);
    const samples = Math.round(0.5 * RATE) + Math.round(1.2345 * RATE) + 7 + Math.round(0.333 * RATE);
    expect(d.endMs).toBe(Math.round((samples * 1000) / RATE));
  });

  it("cuts segments of whole frames, each ≤ 2.0 s and ≈ 2 s, behind an ID3 timestamp", () => {
    const track = filledTrack(9);
    const published = track.publishUntil(track.durationMs);
    expect(published.length).toBeGreaterThanOrEqual(3);
    let expectedTimestamp = 0;
    for (const info of published) {
      expect(info.durationMs).toBeLessThanOrEqual(2000);
      expect(info.durationMs).toBeGreaterThan(1900);
      const bytes = track.segment(info.index)!;
      expect(bytes.subarray(0, 3).toString("latin1")).toBe("ID3");
      expect(bytes.includes(Buffer.from(`${TIMESTAMP_OWNER}\0`, "latin1"))).toBe(true);
      const stamp = readTransportStreamTimestamp(bytes)!;
      expect(stamp.timestamp90k).toBe(Math.round(expectedTimestamp));
      const frames = listMp3Frames(bytes, stamp.tagLength);
      expect(frames.length).toBe(FRAMES_PER_SEGMENT);
      expect(
        frames.every((f) => f.sampleRate === RATE && f.kbps === 48 && f.samples === SAMPLES_PER_FRAME),
      ).toBe(true);
      const decodedMs = (frames.length * SAMPLES_PER_FRAME * 1000) / RATE;
      expect(decodedMs).toBeCloseTo(info.durationMs, 6);
      expect(info.startMs * 90).toBeCloseTo(expectedTimestamp, 6);
      expectedTimestamp += (info.durationMs / 1000) * 90_000;
    }
  });

  it("publishes only complete segments whose end is at or before untilMs", () => {
    const track = filledTrack(10);
    expect(track.publishUntil(SEGMENT_MS - 1)).toEqual([]);
    const first = track.publishUntil(SEGMENT_MS);
    expect(first.map((s) => s.index)).toEqual([0]);
    expect(track.publishUntil(SEGMENT_MS * 2.5).map((s) => s.index)).toEqual([1]);
    const rest = track.publishUntil(60_000);
    for (const s of rest) expect(s.startMs + s.durationMs).toBeLessThanOrEqual(track.durationMs);
    expect(track.publishedSegments.map((s) => s.index)).toEqual(track.publishedSegments.map((_, i) => i));
    expect(track.segment(track.publishedSegments.length)).toBeUndefined();
    expect(track.playlist((i) => `seg/${i}.mp3`)).not.toContain("#EXT-X-ENDLIST");
  });

  it("waits for audio appended past a segment's end before publishing it", () => {
    const track = new Mp3CallAudioTrack({ sampleRate: RATE });
    track.appendSilence(SEGMENT_MS + 10);
    // Not enough audio after the segment's end for the encoder to have produced its last frame…
    expect(track.publishUntil(10_000)).toEqual([]);
    track.appendSilence(200);
    // …but a little more is.
    expect(track.publishUntil(10_000).map((s) => s.index)).toEqual([0]);
  });

  it("builds an EVENT playlist that grows, then gets ENDLIST and the rest at finish", () => {
    const track = filledTrack(7);
    track.publishUntil(track.durationMs);
    const live = track.playlist((i) => `/calls/x/hls/${i}.mp3?sig=1`);
    const lines = live.trim().split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "#EXTM3U",
      "#EXT-X-VERSION:3",
      "#EXT-X-TARGETDURATION:2",
      "#EXT-X-MEDIA-SEQUENCE:0",
      "#EXT-X-PLAYLIST-TYPE:EVENT",
    ]);
    expect(lines).toContain("#EXTINF:1.98531,");
    expect(lines).toContain("/calls/x/hls/0.mp3?sig=1");
    const before = track.publishedSegments.length;

    track.finish();
    expect(track.isFinished).toBe(true);
    expect(track.publishUntil(Number.MAX_SAFE_INTEGER)).toEqual([]);
    const ended = track.playlist((i) => `${i}.mp3`);
    expect(ended.trim().endsWith("#EXT-X-ENDLIST")).toBe(true);
    expect(track.publishedSegments.length).toBeGreaterThan(before);
    const last = track.publishedSegments.at(-1)!;
    // Every sample of the timeline is in a segment; the last one holds no more than the timeline's last frame.
    expect(last.startMs + last.durationMs).toBeGreaterThanOrEqual(track.durationMs);
    expect(last.startMs + last.durationMs - track.durationMs).toBeLessThan((SAMPLES_PER_FRAME * 1000) / RATE);
    const extinf = ended.match(/#EXTINF:([\d.]+),/g)!.map((l) => Number(l.slice(8, -1)));
    expect(extinf.length).toBe(track.publishedSegments.length);
    expect(extinf.every((d) => d > 0 && d <= 2)).toBe(true);
    track.finish();
    expect(track.publishedSegments.at(-1)).toBe(last);
  });

  it("gives the whole call as one MP3 whose decoded length matches the timeline", () => {
    const track = filledTrack(12);
    expect(() => track.mp3()).toThrow(/finished/);
    track.publishUntil(5_000);
    track.finish();
    const mp3 = track.mp3();
    const frames = listMp3Frames(mp3);
    const decodedMs = (frames.length * SAMPLES_PER_FRAME * 1000) / RATE;
    expect(decodedMs).toBeGreaterThanOrEqual(track.durationMs);
    expect(decodedMs - track.durationMs).toBeLessThan(27);
    // The segments are exactly the file's frames, in order.
    const fromSegments = Buffer.concat(
      track.publishedSegments.map((s) => {
        const bytes = track.segment(s.index)!;
        return bytes.subarray(readTransportStreamTimestamp(bytes)!.tagLength);
      }),
    );
    expect(fromSegments.equals(mp3)).toBe(true);
    // 48 kbps.
    expect((mp3.length * 8) / (decodedMs / 1000)).toBeCloseTo(48_000, -3);
  });

  it("serves the same segment bytes while live and once finished, and holds the finished call's audio once", () => {
    const track = filledTrack(9);
    const live = track.publishUntil(6_000).map((s) => track.segment(s.index)!);
    expect(live.length).toBeGreaterThanOrEqual(2);
    track.finish();
    live.forEach((bytes, index) => expect(track.segment(index)!.equals(bytes)).toBe(true));
    // One buffer, not a new copy per request (an audio element asks for many ranges of it).
    expect(track.mp3()).toBe(track.mp3());
  });

  it("drops the encoder delay from the start of the timeline", () => {
    expect(ENCODER_DELAY_SAMPLES).toBe(1105);
    const track = new Mp3CallAudioTrack({ sampleRate: RATE });
    track.appendSilence(20);
    track.append(tone(5000));
    track.finish();
    const frames = listMp3Frames(track.mp3());
    expect(frames.length).toBe(Math.ceil(Math.round(5.02 * RATE) / SAMPLES_PER_FRAME));
  });

  it("refuses audio after finish and sample rates MP3 frames cannot carry at 576 samples", () => {
    const track = new Mp3CallAudioTrack({ sampleRate: RATE });
    track.finish();
    expect(() => track.appendSilence(10)).toThrow(/finished/);
    expect(() => new Mp3CallAudioTrack({ sampleRate: 44_100 })).toThrow(/sample rate/);
  });
});
