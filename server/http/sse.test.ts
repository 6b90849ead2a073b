import { describe, expect, it } from "vitest";
import { encodeComment, encodeMessage, encodePreamble, frameChunk } from "./sse";

const A = "a".repeat(24);

describe("SSE encoding", () => {
  it("writes id, event and one-line JSON data", () => {
    const text = encodeMessage(
      {
        event: "sentence",
        data: {
          callId: A,
          sequence: 0,
          text: "Line one\nline two",
          speaker: "OPERATOR",
          startMs: 0,
          endMs: 5,
          confidence: 0.9,
        },
      },
      "1-7",
    ).text;
    expect(text).toBe(
      `id: 1-7\nevent: sentence\ndata: {"callId":"${A}","sequence":0,"text":"Line one\\nline two","speaker":"OPERATOR","startMs":0,"endMs":5,"confidence":0.9}\n\n`,
    );
    expect(text.split("\n").filter((l) => l.startsWith("data:"))).toHaveLength(1);
  });

  it("writes comments on one line, and the preamble with retry and the join cursor", () => {
    expect(encodeComment("a\nb")).toBe(": a b\n\n");
    expect(encodePreamble("1-0")).toBe("retry: 3000\nid: 1-0\n\n");
    expect(encodePreamble(null)).toBe("retry: 3000\n\n");
  });
});

describe("HTTP chunk framing", () => {
  it("counts bytes, not characters, in hexadecimal", () => {
    expect(frameChunk(Buffer.from("é")).toString("utf8")).toBe("2\r\né\r\n");
    expect(frameChunk(Buffer.alloc(255, 120)).subarray(0, 4).toString("latin1")).toBe("ff\r\n");
  });

  it("refuses an empty chunk, which would end the body", () => {
    expect(() => frameChunk(Buffer.alloc(0))).toThrow(/end the response/);
  });

  it("frames each event once and hands every subscriber the same buffer", () => {
    const message = {
      event: "sentence",
      data: {
        callId: A,
        sequence: 1,
        text: "Umsatz über Plan",
        speaker: "CFO",
        startMs: 0,
        endMs: 1,
        confidence: 1,
      },
    };
    const encoded = encodeMessage(message, "1-8");
    const chunk = encoded.chunk;
    expect(encodeMessage(message, "1-8")).toBe(encoded);
    expect(encodeMessage(message, "1-8").chunk).toBe(chunk);
    expect(chunk.toString("utf8")).toBe(`${encoded.bytes.length.toString(16)}\r\n${encoded.text}\r\n`);
  });
});
