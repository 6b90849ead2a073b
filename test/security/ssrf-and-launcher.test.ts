import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as audioMp3 } from "@/app/api/calls/[callId]/audio.mp3/route";
import { GET as playlist } from "@/app/api/calls/[callId]/audio/playlist.m3u8/route";
import { GET as segment } from "@/app/api/calls/[callId]/audio/segments/[segment]/route";
import { GET as transcriptPdf } from "@/app/api/calls/[callId]/transcript.pdf/route";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { emptyUsersPath, SECRET, writeUsersFile } from "./helpers";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe("media routes never fetch a URL the client chose", () => {
  let embedded: TestEmbedded;
  let canary: Server;
  let hits = 0;
  let evil = "";
  beforeAll(async () => {
    embedded = await startTestEmbedded();
    canary = createServer((_req, res) => {
      hits += 1;
      res.end("#EXTM3U\n");
    });
    await new Promise<void>((r) => canary.listen(0, "127.0.0.1", r));
    evil = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    setUpstreamEnv({
      UPSTREAM_BASE_URL: embedded.url,
      UPSTREAM_API_KEY: embedded.key,
      UPSTREAM_MODE: "embedded",
    });
  });
  afterAll(async () => {
    await new Promise((r) => canary.close(r));
    await embedded.close();
    clearUpstreamEnv();
  });

  it("rejects encoded URLs, traversal and query parameters in every media path (400/404), with no outbound request", async () => {
    const before = (await embedded.stats()).restRequests.total;
    const hostile = [
      evil,
      `${evil}/x.m3u8`,
      encodeURIComponent(evil),
      `//127.0.0.1:${new URL(evil).port}`,
      "../../../../etc/passwd",
      "..%2F..%2Fapi%2Fv1",
      "%2e%2e%2f%2e%2e%2f",
      "..\\..\\windows",
      "0123456789abcdef01234567/../../x",
      "0123456789abcdef0123456\u0000",
      "file:///etc/passwd",
      "0123456789abcdef01234567?url=" + encodeURIComponent(evil),
    ];
    const routes: [string, Handler, (id: string, extra: string) => Record<string, string>][] = [
      ["playlist.m3u8", playlist as Handler, (id) => ({ callId: id })],
      ["audio.mp3", audioMp3 as Handler, (id) => ({ callId: id })],
      ["transcript.pdf", transcriptPdf as Handler, (id) => ({ callId: id })],
      ["segments/[segment]", segment as Handler, (id, extra) => ({ callId: id, segment: extra })],
    ];
    for (const [name, handler, params] of routes) {
      for (const value of hostile) {
        const cases: [string, string][] = [[value, "0.mp3"]];
        if (name.startsWith("segments")) cases.push(["0123456789abcdef01234567", value]);
        for (const [id, extra] of cases) {
          const response = await handler(new Request(`http://localhost/api/calls/x/${name}`), {
            params: Promise.resolve(params(id, extra)),
          });
          expect([400, 404], `${name} ${id} ${extra}`).toContain(response.status);
        }
      }
      // Query parameters cannot steer the proxy either.
      const withQuery = await handler(
        new Request(
          `http://localhost/api/calls/x/${name}?url=${encodeURIComponent(evil)}&src=${encodeURIComponent(evil)}`,
        ),
        { params: Promise.resolve(params("0123456789abcdef01234567", "0.mp3")) },
      );
      expect(withQuery.status, name).toBe(400);
    }
    expect(hits).toBe(0);
    // Validation happens before any upstream request.
    expect((await embedded.stats()).restRequests.total).toBe(before);
  });
});

describe("the launcher", () => {
  const launch = (env: Record<string, string>) =>
    spawnSync(process.execPath, ["scripts/launch.mjs", "start"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        NEXT_DIST_DIR: ".next-hardening",
        ...env,
      } as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 20_000,
    });

  it("refuses to start on HOST=0.0.0.0 without users and a session secret (exit 1, clear message)", () => {
    const result = launch({ HOST: "0.0.0.0", CALLROOM_USERS_FILE: emptyUsersPath() });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refusing to start on HOST=0.0.0.0");
    expect(result.stderr).toContain("no users in");
    expect(result.stderr).toContain("CALLROOM_SESSION_SECRET");
    expect(result.stdout).not.toContain("embedded");
  });

  it("refuses beyond loopback with a secret but no users, and on loopback with users but no secret", async () => {
    const noUsers = launch({
      HOST: "0.0.0.0",
      CALLROOM_USERS_FILE: emptyUsersPath(),
      CALLROOM_SESSION_SECRET: SECRET,
    });
    expect(noUsers.status).toBe(1);
    expect(noUsers.stderr).toContain("no users in");
    const users = await writeUsersFile({ alice: "correct horse battery" });
    const noSecret = launch({
      HOST: "127.0.0.1",
      CALLROOM_USERS_FILE: users,
      CALLROOM_SESSION_SECRET: "short",
    });
    expect(noSecret.status).toBe(1);
    expect(noSecret.stderr).toContain("at least 32 characters");
  });
});
