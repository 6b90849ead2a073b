import { describe, expect, it } from "vitest";
import {
  decideAdmission,
  forwardedAddresses,
  isLoopbackAddress,
  listensBeyondLoopback,
  type AdmissionInput,
} from "./exposure";

const ALL_INTERFACES = { address: "::", family: "IPv6", port: 3000 };
const LOOPBACK = { address: "127.0.0.1", family: "IPv4", port: 3000 };

const input = (over: Partial<AdmissionInput>): AdmissionInput => ({
  listening: ALL_INTERFACES,
  remoteAddress: "127.0.0.1",
  forwarded: {},
  ...over,
});
const noAccounts = () => false;
const accounts = () => true;

describe("exposure", () => {
  it("knows loopback addresses in every spelling, and nothing else", () => {
    for (const a of ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) {
      expect(isLoopbackAddress(a), a).toBe(true);
    }
    for (const a of [
      "10.0.0.1",
      "::",
      "0.0.0.0",
      "::ffff:10.0.0.1",
      "fe80::1",
      "128.0.0.1",
      "localhost",
      "",
      undefined,
    ]) {
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    }
  });

  it("reads the real listening address: every interface and public addresses are beyond loopback", () => {
    expect(listensBeyondLoopback(ALL_INTERFACES)).toBe(true);
    expect(listensBeyondLoopback({ address: "0.0.0.0", family: "IPv4", port: 1 })).toBe(true);
    expect(listensBeyondLoopback({ address: "192.0.2.10", family: "IPv4", port: 1 })).toBe(true);
    expect(listensBeyondLoopback(LOOPBACK)).toBe(false);
    expect(listensBeyondLoopback("/run/callroom.sock")).toBe(false);
  });

  it("without accounts refuses a peer beyond this machine, whatever HOST said (next start listens on ::)", () => {
    expect(decideAdmission(input({ remoteAddress: "192.0.2.7" }), noAccounts)).toEqual({
      admit: false,
      reason: "remote_peer",
      client: "192.0.2.7",
    });
    expect(decideAdmission(input({ remoteAddress: "::ffff:198.51.100.2" }), noAccounts).admit).toBe(false);
    // A socket already gone has no address: not known to be local, so refused.
    expect(decideAdmission(input({ remoteAddress: undefined }), noAccounts).admit).toBe(false);
  });

  it("without accounts admits this machine's clients, also on a server listening everywhere", () => {
    expect(decideAdmission(input({ remoteAddress: "127.0.0.1" }), noAccounts)).toEqual({ admit: true });
    expect(decideAdmission(input({ remoteAddress: "::ffff:127.0.0.1" }), noAccounts)).toEqual({
      admit: true,
    });
    expect(
      decideAdmission(input({ listening: "/run/c.sock", remoteAddress: undefined }), noAccounts),
    ).toEqual({
      admit: true,
    });
  });

  it("with users and a secret admits everyone to the gate, which asks for a session", () => {
    expect(decideAdmission(input({ remoteAddress: "192.0.2.7" }), accounts)).toEqual({ admit: true });
    expect(decideAdmission(input({ forwarded: { xForwardedFor: "203.0.113.9" } }), accounts)).toEqual({
      admit: true,
    });
  });

  it("never admits on a forwarding header's word: one naming an outside client refuses a loopback peer", () => {
    // A reverse proxy on this machine relaying the outside world.
    for (const forwarded of [
      { xForwardedFor: "203.0.113.9" },
      { xForwardedFor: "127.0.0.1, 203.0.113.9" },
      { forwarded: 'for="[2001:db8::7]:4711";proto=https' },
      { forwarded: "for=unknown" },
      { xRealIp: "203.0.113.9" },
    ]) {
      expect(decideAdmission(input({ forwarded }), noAccounts), JSON.stringify(forwarded)).toMatchObject({
        admit: false,
        reason: "forwarded_client",
      });
    }
    // A remote peer claiming to be local is still a remote peer.
    expect(
      decideAdmission(
        input({ remoteAddress: "192.0.2.7", forwarded: { xForwardedFor: "127.0.0.1" } }),
        noAccounts,
      ).admit,
    ).toBe(false);
    expect(
      decideAdmission(input({ forwarded: { xForwardedFor: "127.0.0.1:5555, ::1" } }), noAccounts),
    ).toEqual({
      admit: true,
    });
  });

  it("reads every address the forwarding headers name", () => {
    expect(
      forwardedAddresses({
        xForwardedFor: " 198.51.100.1:80 , 2001:db8::1 ",
        forwarded: 'for=192.0.2.60;proto=http, For="[2001:db8:cafe::17]:4711"',
        xRealIp: "10.1.1.1",
      }),
    ).toEqual(["198.51.100.1", "2001:db8::1", "10.1.1.1", "192.0.2.60", "[2001:db8:cafe::17]"]);
  });
});
