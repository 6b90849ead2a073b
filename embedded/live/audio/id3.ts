/**
 * The ID3v2.4 tag that opens every packed-audio HLS segment (RFC 8216 §3.4): a PRIV frame owned by
 * `com.apple.streaming.transportStreamTimestamp` holding the 33-bit 90 kHz timestamp of the segment's first sample
 * as 8 bytes, big-endian.
 */

export const TIMESTAMP_OWNER = "com.apple.streaming.transportStreamTimestamp";
const TIMESTAMP_MODULO = 2n ** 33n;

function syncsafe(n: number): Buffer {
  return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
}

export function transportStreamTimestampTag(timestamp90k: number): Buffer {
  const payload = Buffer.alloc(TIMESTAMP_OWNER.length + 1 + 8);
  payload.write(TIMESTAMP_OWNER, 0, "latin1");
  payload.writeBigUInt64BE(BigInt(Math.round(timestamp90k)) % TIMESTAMP_MODULO, TIMESTAMP_OWNER.length + 1);
  const frame = Buffer.concat([
    Buffer.from("PRIV", "latin1"),
    syncsafe(payload.length),
    Buffer.from([0, 0]),
    payload,
  ]);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00]), syncsafe(frame.length), frame]);
}

/** Reads the timestamp back from a segment that starts with such a tag; undefined if it does not. */
export function readTransportStreamTimestamp(
  segment: Uint8Array,
): { timestamp90k: number; tagLength: number } | undefined {
  const b = Buffer.from(segment.buffer, segment.byteOffset, segment.byteLength);
  if (b.length < 10 || b.toString("latin1", 0, 3) !== "ID3") return undefined;
  const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
  const end = 10 + size;
  let offset = 10;
  while (offset + 10 <= end) {
    const id = b.toString("latin1", offset, offset + 4);
    const frameSize =
      ((b[offset + 4]! & 0x7f) << 21) |
      ((b[offset + 5]! & 0x7f) << 14) |
      ((b[offset + 6]! & 0x7f) << 7) |
      (b[offset + 7]! & 0x7f);
    const body = b.subarray(offset + 10, offset + 10 + frameSize);
    if (id === "PRIV" && body.toString("latin1", 0, TIMESTAMP_OWNER.length + 1) === `${TIMESTAMP_OWNER}\0`) {
      return { timestamp90k: Number(body.readBigUInt64BE(TIMESTAMP_OWNER.length + 1)), tagLength: end };
    }
    offset += 10 + frameSize;
  }
  return undefined;
}
