import { describe, expect, it } from "vitest";
import { callMediaResource, signPath, verifySignedRequest } from "./signing";

const secret = "test-secret";
const now = Date.UTC(2026, 9, 21, 14, 0, 0);
const callA = "65f1c2a9b4e0d3f7a1c2b3d4";
const callB = "65f1c2a9b4e0d3f7a1c2b3d5";
const hls = (id: string) => `/api/v1/transcripts/calls/${id}/hls`;

function decodePolicy(query: string): { resource: string; expires: number } {
  return JSON.parse(Buffer.from(new URLSearchParams(query).get("Policy")!, "base64url").toString("utf8"));
}

describe("signed media links", () => {
  it("signs a path into Key-Pair-Id, Policy and Signature that verify", () => {
    const query = signPath(hls(callA), { ttlSeconds: 900, now, secret });
    const params = new URLSearchParams(query);
    expect([...params.keys()]).toEqual(["Key-Pair-Id", "Policy", "Signature"]);
    expect(decodePolicy(query)).toEqual({ resource: hls(callA), expires: now / 1000 + 900 });
    expect(verifySignedRequest(hls(callA), query, { now, secret })).toBe("ok");
    expect(verifySignedRequest(hls(callA), params, { now: now + 899_000, secret })).toBe("ok");
    expect(verifySignedRequest(hls(callA), Object.fromEntries(params), { now, secret })).toBe("ok");
  });

  it("answers expired once the policy's time is past", () => {
    const query = signPath(hls(callA), { ttlSeconds: 900, now, secret });
    expect(verifySignedRequest(hls(callA), query, { now: now + 900_000, secret })).toBe("expired");
  });

  it("answers forged for a wrong signature, another secret or missing parameters", () => {
    const query = new URLSearchParams(signPath(hls(callA), { ttlSeconds: 900, now, secret }));
    const signature = query.get("Signature")!;
    query.set("Signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
    expect(verifySignedRequest(hls(callA), query, { now, secret })).toBe("forged");
    const genuine = signPath(hls(callA), { ttlSeconds: 900, now, secret });
    expect(verifySignedRequest(hls(callA), genuine, { now, secret: "other" })).toBe("forged");
    expect(verifySignedRequest(hls(callA), "", { now, secret })).toBe("forged");
    const noSig = new URLSearchParams(genuine);
    noSig.delete("Signature");
    expect(verifySignedRequest(hls(callA), noSig, { now, secret })).toBe("forged");
    const twice = `${genuine}&Signature=${new URLSearchParams(genuine).get("Signature")}`;
    expect(verifySignedRequest(hls(callA), twice, { now, secret })).toBe("forged");
  });

  it("answers forged for a tampered policy (longer expiry, wider resource) or key pair id", () => {
    const query = new URLSearchParams(signPath(hls(callA), { ttlSeconds: 900, now, secret }));
    const later = { resource: hls(callA), expires: now / 1000 + 999_999 };
    query.set("Policy", Buffer.from(JSON.stringify(later)).toString("base64url"));
    expect(verifySignedRequest(hls(callA), query, { now: now + 1_000_000, secret })).toBe("forged");
    const wider = new URLSearchParams(signPath(hls(callA), { ttlSeconds: 900, now, secret }));
    wider.set(
      "Policy",
      Buffer.from(JSON.stringify({ resource: "/*", expires: now / 1000 + 900 })).toString("base64url"),
    );
    expect(verifySignedRequest(hls(callB), wider, { now, secret })).toBe("forged");
    const swapped = new URLSearchParams(signPath(hls(callA), { ttlSeconds: 900, now, secret }));
    swapped.set("Key-Pair-Id", "K-OTHER");
    expect(verifySignedRequest(hls(callA), swapped, { now, secret, keyPairId: "K-OTHER" })).toBe("forged");
  });

  it("does not open another call's media, with an exact path or with the call's prefix", () => {
    const exact = signPath(hls(callA), { ttlSeconds: 900, now, secret });
    expect(verifySignedRequest(hls(callB), exact, { now, secret })).toBe("forged");
    expect(verifySignedRequest(`${hls(callA)}/0.mp3`, exact, { now, secret })).toBe("forged");

    const prefix = signPath(hls(callA), { ttlSeconds: 900, now, secret, resource: callMediaResource(callA) });
    expect(verifySignedRequest(hls(callA), prefix, { now, secret })).toBe("ok");
    expect(verifySignedRequest(`${hls(callA)}/17.mp3`, prefix, { now, secret })).toBe("ok");
    expect(verifySignedRequest(`/api/v1/transcripts/calls/${callA}/mp3`, prefix, { now, secret })).toBe("ok");
    expect(verifySignedRequest(hls(callB), prefix, { now, secret })).toBe("forged");
    expect(verifySignedRequest(`/api/v1/transcripts/calls/${callA}x/hls`, prefix, { now, secret })).toBe(
      "forged",
    );
    expect(
      verifySignedRequest(`/api/v1/transcripts/calls/${callA}/../${callB}/hls`, prefix, { now, secret }),
    ).toBe("forged");
    expect(verifySignedRequest(`/api/v1/transcripts/calls/${callA}/%2e%2e/x`, prefix, { now, secret })).toBe(
      "forged",
    );
  });

  it("refuses to sign a path outside the given resource", () => {
    expect(() =>
      signPath(hls(callB), { ttlSeconds: 60, now, secret, resource: callMediaResource(callA) }),
    ).toThrow();
  });
});
