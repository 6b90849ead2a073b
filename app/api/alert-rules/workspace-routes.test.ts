import { describe, expect, it, vi } from "vitest";
import { GET as notesGet, POST as notesPost } from "../calls/[callId]/notes/route";
import { DELETE as deleteWatchlist, PATCH as patchWatchlist } from "../watchlists/[id]/route";
import { GET as listWatchlists, POST as createWatchlist } from "../watchlists/route";
import { PATCH as patchRule } from "./[id]/route";
import { GET as listRules, POST as createRule } from "./route";
import { body, CALL, ORIGIN, params, req, setUpTestWorkspace } from "@/test/support/workspace-routes";

/**
 * The workspace API through its route handlers, against an in-memory database: validation (a clear 400 and
 * nothing saved), the same-origin rule on mutations, per-user isolation, limits and rule edits. The inbox's routes:
 * app/api/alerts/inbox-routes.test.ts.
 */

const { workspace } = setUpTestWorkspace();

describe("alert rules: bad input", () => {
  it.each([
    ["an empty phrase", { kind: "keyword", phrase: "" }, "phrase must not be empty"],
    [
      "a 10,000-character phrase",
      { kind: "keyword", phrase: "x".repeat(10_000) },
      "phrase must be at most 200",
    ],
    ["a keyword rule without phrase", { kind: "keyword" }, "phrase is required for a keyword rule"],
    [
      "an http webhook",
      { kind: "keyword", phrase: "t", webhookUrl: "http://127.0.0.1/hook" },
      "must be an https URL",
    ],
    [
      "a loopback webhook",
      { kind: "keyword", phrase: "t", webhookUrl: "https://127.0.0.1/x" },
      "private or loopback",
    ],
    [
      "a file: webhook",
      { kind: "keyword", phrase: "t", webhookUrl: "file:///etc/passwd" },
      "must be an https URL",
    ],
    [
      "a sentiment rule without threshold",
      { kind: "sentiment" },
      "threshold is required for a sentiment rule",
    ],
    ["a threshold out of range", { kind: "sentiment", threshold: 3 }, "threshold must be between -1 and 1"],
    ["an unknown kind", { kind: "nope" }, "kind must be one of"],
    ["an unknown field", { kind: "keyword", phrase: "x", extra: 1 }, "extra"],
    [
      "a bad ticker",
      { kind: "keyword", phrase: "x", tickers: ["not a ticker!"] },
      "tickers must be ticker symbols",
    ],
  ])("refuses %s with a clear 400 and saves nothing", async (_name, input, message) => {
    const response = await createRule(req("/api/alert-rules", { method: "POST", body: input, user: "val" }));
    expect(response.status).toBe(400);
    const b = await body(response);
    expect(b.error?.code).toBe("invalid_parameter");
    expect(b.error?.message).toContain(message);
    expect((await body(await listRules(req("/api/alert-rules", { user: "val" })))).data).toEqual([]);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await createRule(req("/api/alert-rules", { method: "POST", body: "{", user: "val" }));
    expect(response.status).toBe(400);
    const form = new Request(`${ORIGIN}/api/alert-rules`, {
      method: "POST",
      headers: { host: "localhost:3000", "content-type": "application/x-www-form-urlencoded" },
      body: "kind=keyword",
    });
    expect((await createRule(form)).status).toBe(415);
  });

  it("accepts an allowlisted private webhook", async () => {
    const response = await createRule(
      req("/api/alert-rules", {
        method: "POST",
        body: { kind: "keyword", phrase: "Tariff", webhookUrl: "https://hooks.internal:8443/x" },
        user: "val2",
      }),
    );
    expect(response.status).toBe(201);
    expect((await body(response)).data).toMatchObject({
      kind: "keyword",
      phrase: "Tariff",
      webhookUrl: "https://hooks.internal:8443/x",
    });
  });
});

describe("same-origin rule on mutations", () => {
  it("refuses a cross-site request and accepts a script without Origin", async () => {
    const cross = await createWatchlist(
      req("/api/watchlists", {
        method: "POST",
        body: { name: "X" },
        user: "csrf",
        origin: "https://evil.example",
      }),
    );
    expect(cross.status).toBe(403);
    expect((await body(cross)).error?.code).toBe("cross_origin");
    const site = await createWatchlist(
      req("/api/watchlists", {
        method: "POST",
        body: { name: "X" },
        user: "csrf",
        origin: null,
        site: "cross-site",
      }),
    );
    expect(site.status).toBe(403);
    expect((await body(await listWatchlists(req("/api/watchlists", { user: "csrf" })))).data).toEqual([]);
    const script = await createWatchlist(
      req("/api/watchlists", { method: "POST", body: { name: "X" }, user: "csrf", origin: null }),
    );
    expect(script.status).toBe(201);
  });
});

describe("watchlists", () => {
  it("creates, follows, unfollows and deletes, per user", async () => {
    const created = await createWatchlist(
      req("/api/watchlists", {
        method: "POST",
        body: { name: " Semis ", tickers: ["nwsc", "acme", "NWSC"] },
        user: "wl",
      }),
    );
    expect(created.status).toBe(201);
    const list = (await body(created)).data as { id: string; name: string; tickers: string[] };
    expect(list).toMatchObject({ name: "Semis", tickers: ["NWSC", "ACME"] });
    const patched = await patchWatchlist(
      req(`/api/watchlists/${list.id}`, {
        method: "PATCH",
        body: { add: ["zzz"], remove: ["ACME"] },
        user: "wl",
      }),
      params({ id: list.id }),
    );
    expect(((await body(patched)).data as { tickers: string[] }).tickers).toEqual(["NWSC", "ZZZ"]);
    const other = await patchWatchlist(
      req(`/api/watchlists/${list.id}`, { method: "PATCH", body: { add: ["QQQ"] }, user: "intruder" }),
      params({ id: list.id }),
    );
    expect(other.status).toBe(404);
    const empty = await patchWatchlist(
      req(`/api/watchlists/${list.id}`, { method: "PATCH", body: {}, user: "wl" }),
      params({ id: list.id }),
    );
    expect(empty.status).toBe(400);
    expect(
      (
        await deleteWatchlist(
          req(`/api/watchlists/${list.id}`, { method: "DELETE", user: "wl" }),
          params({ id: list.id }),
        )
      ).status,
    ).toBe(204);
    expect((await body(await listWatchlists(req("/api/watchlists", { user: "wl" })))).data).toEqual([]);
  });
});

describe("notes", () => {
  it("saves timestamped notes and highlights, and refuses bad ones", async () => {
    const post = (b: unknown) =>
      notesPost(
        req(`/api/calls/${CALL}/notes`, { method: "POST", body: b, user: "nt" }),
        params({ callId: CALL }),
      );
    expect((await post({ text: "Pricing question", atMs: 61_000 })).status).toBe(201);
    expect((await post({ text: "", atMs: 5_000, sequence: 1, quote: "Tariffs." })).status).toBe(201);
    expect((await post({ text: "", atMs: 5_000 })).status).toBe(400);
    expect((await post({ text: "x", atMs: -1 })).status).toBe(400);
    expect((await post({ text: "x".repeat(5_001), atMs: 0 })).status).toBe(400);
    const bad = await notesPost(
      req(`/api/calls/nope/notes`, { method: "POST", body: { text: "x", atMs: 0 }, user: "nt" }),
      params({ callId: "bad id!" }),
    );
    expect(bad.status).toBe(400);
    const listed = (
      await body(await notesGet(req(`/api/calls/${CALL}/notes`, { user: "nt" }), params({ callId: CALL })))
    ).data as { atMs: number }[];
    expect(listed.map((n) => n.atMs)).toEqual([5_000, 61_000]);
  });
});

describe("per-user limits answer 409 with what to do, and save nothing", () => {
  it("tickers across all of a user's watchlists", async () => {
    const tickers = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const create = (name: string, list: string[]) =>
      createWatchlist(req("/api/watchlists", { method: "POST", body: { name, tickers: list }, user: "lim" }));
    expect((await create("A", tickers("A", 500))).status).toBe(201);
    expect((await create("B", tickers("B", 495))).status).toBe(201);
    const refused = await create("C", tickers("C", 6));
    expect(refused.status).toBe(409);
    const b = await body(refused);
    expect(b.error?.code).toBe("limit_reached");
    expect(b.error?.message).toContain("at most 1000 tickers across your watchlists");
    const created = await create("C", tickers("C", 5));
    expect(created.status).toBe(201);
    const id = ((await body(created)).data as { id: string }).id;
    const add = await patchWatchlist(
      req(`/api/watchlists/${id}`, { method: "PATCH", body: { add: ["NEW"] }, user: "lim" }),
      params({ id }),
    );
    expect(add.status).toBe(409);
    const lists = (await body(await listWatchlists(req("/api/watchlists", { user: "lim" })))).data as {
      tickers: string[];
    }[];
    expect(lists.map((l) => l.tickers.length)).toEqual([500, 495, 5]);
  });

  it("alert rules", async () => {
    for (let i = 0; i < 100; i++)
      expect(
        (
          await createRule(
            req("/api/alert-rules", {
              method: "POST",
              body: { kind: "keyword", phrase: `p${i}` },
              user: "rl",
            }),
          )
        ).status,
      ).toBe(201);
    const refused = await createRule(
      req("/api/alert-rules", { method: "POST", body: { kind: "keyword", phrase: "one more" }, user: "rl" }),
    );
    expect(refused.status).toBe(409);
    expect((await body(refused)).error?.message).toContain("at most 100 alert rules per user");
  });
});

describe("the alert engine reloads its rules only when something a rule uses changes", () => {
  it("not for a new watchlist, a rename or a follow star on a list no rule uses; yes for a scoped list", async () => {
    let reloads = 0;
    const off = workspace().bus.onRulesChanged(() => (reloads += 1));
    try {
      const created = await createWatchlist(
        req("/api/watchlists", { method: "POST", body: { name: "Stars", tickers: ["AAA"] }, user: "rel" }),
      );
      const id = ((await body(created)).data as { id: string }).id;
      const patch = (b: unknown) =>
        patchWatchlist(
          req(`/api/watchlists/${id}`, { method: "PATCH", body: b, user: "rel" }),
          params({ id }),
        );
      expect((await patch({ add: ["BBB"] })).status).toBe(200);
      expect((await patch({ remove: ["AAA"] })).status).toBe(200);
      expect((await patch({ name: "Renamed" })).status).toBe(200);
      expect(reloads).toBe(0);
      // A rule scoped to the list: its scope is the list's tickers, so a follow star now matters.
      expect(
        (
          await createRule(
            req("/api/alert-rules", {
              method: "POST",
              body: { kind: "keyword", phrase: "tariff", watchlistId: id },
              user: "rel",
            }),
          )
        ).status,
      ).toBe(201);
      expect(reloads).toBe(1);
      expect((await patch({ name: "Again" })).status).toBe(200);
      expect(reloads).toBe(1);
      expect((await patch({ add: ["CCC"] })).status).toBe(200);
      expect(reloads).toBe(2);
      expect(
        (
          await deleteWatchlist(
            req(`/api/watchlists/${id}`, { method: "DELETE", user: "rel" }),
            params({ id }),
          )
        ).status,
      ).toBe(204);
      expect(reloads).toBe(3);
    } finally {
      off();
    }
  });

  it("reads one watchlist by its id, not by listing all of the user's", async () => {
    const { watchlists } = await workspace().repositories();
    const made = await watchlists.create("one", { name: "A", tickers: ["AAA"] });
    await watchlists.create("one", { name: "B", tickers: ["BBB"] });
    const list = vi.spyOn(watchlists, "list");
    try {
      expect((await watchlists.get("one", made.id)).tickers).toEqual(["AAA"]);
      await watchlists.update("one", made.id, { add: ["CCC"] });
      expect(list).not.toHaveBeenCalled();
    } finally {
      list.mockRestore();
    }
  });
});

describe("rules: pause and edit", () => {
  it("pauses, renames and edits a rule through PATCH, checking the result like a new rule", async () => {
    const created = await createRule(
      req("/api/alert-rules", {
        method: "POST",
        body: { kind: "keyword", phrase: "tariff" },
        user: "editor",
      }),
    );
    const id = ((await body(created)).data as { id: string }).id;
    const patch = (payload: unknown, user = "editor") =>
      patchRule(req(`/api/alert-rules/${id}`, { method: "PATCH", body: payload, user }), params({ id }));

    const paused = await patch({ paused: true, name: "Tariff talk" });
    expect(paused.status).toBe(200);
    expect((await body(paused)).data).toMatchObject({ paused: true, name: "Tariff talk", phrase: "tariff" });
    const edited = await patch({ phrase: "steel tariffs", tickers: ["nwsc"] });
    expect((await body(edited)).data).toMatchObject({
      paused: true,
      phrase: "steel tariffs",
      tickers: ["NWSC"],
    });

    const noPhrase = await patch({ phrase: null });
    expect(noPhrase.status).toBe(400);
    expect((await body(noPhrase)).error?.message).toMatch(/phrase is required/);
    expect((await patch({ colour: "red" })).status).toBe(400);
    expect((await patch({ paused: false }, "stranger")).status).toBe(404);
    const refused = await patchRule(
      req(`/api/alert-rules/${id}`, {
        method: "PATCH",
        body: { paused: false },
        user: "editor",
        origin: "https://evil.example",
      }),
      params({ id }),
    );
    expect(refused.status).toBe(403);

    const rules = (await body(await listRules(req("/api/alert-rules", { user: "editor" })))).data;
    expect(rules).toMatchObject([{ id, paused: true, phrase: "steel tariffs", name: "Tariff talk" }]);
  });
});
