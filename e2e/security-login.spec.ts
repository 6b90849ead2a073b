import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { freePort } from "../test/support/free-port";

/**
 * The login flow in a real browser. The suite's web server runs without users (sign-in off), so this spec starts
 * its own instance with a users file and a session secret, on its own port, from the suite's build (the same
 * NEXT_DIST_DIR: the build is fresh by the time specs run, so the launcher does not rebuild).
 */
const USER = "analyst";
const PASSWORD = "correct horse battery staple";
const SECRET = "e2e-session-secret-0123456789abcdefghijklmnop";

let app: ChildProcess | undefined;
let dir = "";
let origin = "";
const output: string[] = [];

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app?.exitCode !== null && app?.exitCode !== undefined) {
      throw new Error(`the app exited with ${app.exitCode}:\n${output.join("").slice(-4000)}`);
    }
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no healthy app at ${url} after ${timeoutMs} ms:\n${output.join("").slice(-4000)}`);
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = mkdtempSync(join(tmpdir(), "callroom-login-"));
  const usersFile = join(dir, "users");
  const added = spawnSync(process.execPath, ["scripts/user.mjs", "add", USER], {
    input: `${PASSWORD}\n`,
    env: { ...process.env, CALLROOM_USERS_FILE: usersFile },
    encoding: "utf8",
  });
  expect(added.status, added.stderr).toBe(0);

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  app = spawn(process.execPath, ["scripts/launch.mjs", "start"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      CALLROOM_USERS_FILE: usersFile,
      CALLROOM_SESSION_SECRET: SECRET,
      EMBEDDED_PORT: "0",
      EMBEDDED_LIVE_CALLS: "0",
      UPSTREAM_BASE_URL: "",
      ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so afterAll stops the launcher and the children it started (next, embedded).
    detached: true,
  });
  app.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  app.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  await waitForHealth(`${origin}/api/health`, 240_000);
});

test.afterAll(async () => {
  if (app?.pid && app.exitCode === null) {
    const exited = new Promise((r) => app!.once("exit", r));
    process.kill(-app.pid, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8_000))]);
    if (app.exitCode === null && app.signalCode === null) process.kill(-app.pid, "SIGKILL");
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function signIn(page: Page, password: string) {
  await page.getByLabel("User name").fill(USER);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a page asked for without a session redirects to the login form", async ({ page }) => {
  const response = await page.goto(`${origin}/calendar/ma?range=all`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/login\?next=%2Fcalendar%2Fma%3Frange%3Dall$/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  // The API refuses too, with our error envelope rather than a redirect.
  const api = await page.request.get(`${origin}/api/calendar/ma`);
  expect(api.status()).toBe(401);
  expect(await api.json()).toMatchObject({ error: { code: "unauthenticated" } });
});

test("a wrong password shows an error and keeps the reader on the login page", async ({ page }) => {
  await page.goto(`${origin}/compare`);
  await signIn(page, "not the password");
  // (Next's route announcer is an empty alert too.)
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("Wrong user name or password.");
  await expect(page).toHaveURL(/\/login\?error=invalid_credentials&next=%2Fcompare$/);
  await expect(page.getByLabel("User name")).toHaveAttribute("aria-invalid", "true");
  expect((await page.context().cookies()).some((c) => c.name === "callroom_session")).toBe(false);
});

test("the right password lands on the page asked for, with an HttpOnly session cookie, and sign-out returns to the login", async ({
  page,
}, testInfo) => {
  await page.goto(`${origin}/calendar/ma?range=all`);
  await signIn(page, PASSWORD);
  await expect(page).toHaveURL(`${origin}/calendar/ma?range=all`);
  await expect(page.getByTestId("ma-table")).toBeVisible();

  const cookie = (await page.context().cookies()).find((c) => c.name === "callroom_session");
  expect(cookie).toBeDefined();
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  expect(await page.evaluate(() => document.cookie)).not.toContain("callroom_session");

  // The shell names the user and offers the way out.
  const header = page.getByRole("banner");
  await expect(header.getByTestId("signed-in-user")).toHaveText(`Signed in as ${USER}`);
  await page.screenshot({ path: testInfo.outputPath("signed-in-1440.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(header.getByRole("button", { name: "Sign out" })).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("signed-in-390.png") });

  await header.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${origin}/login`);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name === "callroom_session")).toBe(false);
  // Signed out for real: pages send the reader back to the login form.
  await page.goto(`${origin}/compare`);
  await expect(page).toHaveURL(/\/login\?next=%2Fcompare$/);
});

test("the login page loads under the CSP without console errors, in both themes and at 390 px", async ({
  page,
}, testInfo) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  const response = await page.goto(`${origin}/login?error=invalid_credentials`);
  expect(response?.headers()["content-security-policy"]).toMatch(/script-src[^;]*'nonce-/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("login-light-1440.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.screenshot({ path: testInfo.outputPath("login-dark-1440.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  const box = await page.getByRole("button", { name: "Sign in" }).boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await page.screenshot({ path: testInfo.outputPath("login-dark-390.png") });
  expect(problems).toEqual([]);
});
