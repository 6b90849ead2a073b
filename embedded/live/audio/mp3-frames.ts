/**
 * MPEG audio frame headers (Layer III): enough to cut an encoder's byte stream at frame boundaries and to let tests
 * check that every HLS segment holds whole frames.
 */

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
const MPEG2_L3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160] as const;
const SAMPLE_RATES: Record<number, readonly number[]> = {
  3: [44_100, 48_000, 32_000], // MPEG-1
  2: [22_050, 24_000, 16_000], // MPEG-2
  0: [11_025, 12_000, 8_000], // MPEG-2.5
};

export interface Mp3FrameHeader {
  /** Whole frame length in bytes, header included. */
  length: number;
  sampleRate: number;
  kbps: number;
  /** PCM samples the frame decodes to (per channel). */
  samples: number;
}

/** Parses the Layer III frame header at `offset`, or answers undefined when there is none there. */
export function parseMp3FrameHeader(bytes: Uint8Array, offset: number): Mp3FrameHeader | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const b1 = bytes[offset]!;
  const b2 = bytes[offset + 1]!;
  const b3 = bytes[offset + 2]!;
  if (b1 !== 0xff || (b2 & 0xe0) !== 0xe0) return undefined;
  const version = (b2 >> 3) & 0b11;
  const layer = (b2 >> 1) & 0b11;
  if (version === 1 || layer !== 0b01) return undefined;
  const bitrateIndex = b3 >> 4;
  const rateIndex = (b3 >> 2) & 0b11;
  const padding = (b3 >> 1) & 1;
  const kbps = (version === 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[bitrateIndex];
  const sampleRate = SAMPLE_RATES[version]?.[rateIndex];
  if (!kbps || !sampleRate) return undefined;
  const samples = version === 3 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding;
  return { length, sampleRate, kbps, samples };
}

/**
 * Splits a byte stream into whole frames as they complete; bytes of an unfinished frame wait for the next push.
 * Bytes that are not a frame (an encoder's stray padding) are skipped up to the next sync word.
 */
export class Mp3FrameSplitter {
  private pending = Buffer.alloc(0);

  push(chunk: Uint8Array): Buffer[] {
    if (chunk.length === 0) return [];
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    let offset = 0;
    while (offset + 4 <= this.pending.length) {
      const header = parseMp3FrameHeader(this.pending, offset);
      if (!header) {
        offset++;
        continue;
      }
      if (offset + header.length > this.pending.length) break;
      frames.push(Buffer.from(this.pending.subarray(offset, offset + header.length)));
      offset += header.length;
    }
    this.pending = this.pending.subarray(offset);
    return frames;
  }

  /** Bytes held back because they do not (yet) form a whole frame. */
  get pendingBytes(): number {
    return this.pending.length;
  }
}

/** Every frame of a buffer of concatenated frames; throws if the bytes are not whole frames back to back. */
export function listMp3Frames(bytes: Uint8Array, from = 0): Mp3FrameHeader[] {
  const frames: Mp3FrameHeader[] = [];
  let offset = from;
  while (offset < bytes.length) {
    const header = parseMp3FrameHeader(bytes, offset);
    if (!header || offset + header.length > bytes.length)
      throw new Error(`no whole MP3 frame at byte ${offset}`);
    frames.push(header);
    offset += header.length;
  }
  return frames;
}
