import { NextRequest } from "next/server";
import { afterAll, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { captureLogs, SECRET, setSecurityEnv, writeUsersFile } from "./helpers";

/**
 * A calendar feed's URL is its only credential (calendar applications cannot sign in), so the access log must not
 * keep it (issue 27, item 8): the token is replaced in the logged path, whether the request was let through or not.
 */

const logs = captureLogs();
afterAll(() => {
  logs.restore();
  setSecurityEnv({});
});

describe("the access log", () => {
  it("keeps no calendar-feed token", async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: await writeUsersFile({ alice: "correct horse battery" }),
      CALLROOM_SESSION_SECRET: SECRET,
      CALLROOM_RATE_LIMIT: "0",
    });
    const token = "Zx9_Q-hM3k2v7PqR1sT8uW0yA4bC6dE5fG7hJ9kL2mN";
    for (const path of [`/api/feeds/${token}.ics`, `/api/feeds/${token}`, `/api/feeds/${token}.ics?x=1`]) {
      const response = await proxy(
        new NextRequest(`http://localhost:3000${path}`, { headers: { host: "localhost:3000" } }),
      );
      expect(response.status).toBeLessThan(500);
    }
    const lines = logs.lines.filter((l) => l.includes('"msg":"request"'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(logs.lines.join("\n")).not.toContain(token);
    expect(lines.some((l) => l.includes('"path":"/api/feeds/[token].ics"'))).toBe(true);
  });
});
