import { describe, expect, it } from "vitest";
import { DELETE as deleteRule } from "../alert-rules/[id]/route";
import { POST as createRule } from "../alert-rules/route";
import { POST as readAlert } from "./[id]/read/route";
import { DELETE as unmute } from "./mutes/[id]/route";
import { GET as listMutes, POST as mute } from "./mutes/route";
import { POST as readAlerts } from "./read/route";
import { GET as listAlerts } from "./route";
import { body, CALL, params, req, setUpTestWorkspace } from "@/test/support/workspace-routes";

/** The alerts inbox through its route handlers, against an in-memory database: listing, reading, filters, mutes. */

const { workspace } = setUpTestWorkspace();

describe("alerts inbox", () => {
  it("lists alerts newest first, marks them read, and deletes rules", async () => {
    const created = await createRule(
      req("/api/alert-rules", { method: "POST", body: { kind: "keyword", phrase: "tariff" }, user: "inbox" }),
    );
    const rule = (await body(created)).data as { id: string };
    const { alerts } = await workspace().repositories();
    const candidate = {
      userId: "inbox",
      rules: [
        { ruleId: rule.id, kind: "keyword" as const, label: "“tariff”", matched: ["Tariffs"], detail: null },
      ],
      subject: CALL,
      callId: CALL,
      symbol: "NWSC",
      startMs: 5_000,
      text: "Tariffs.",
    };
    const first = await alerts.recordFiring({ ...candidate, sequence: 1 });
    await alerts.recordFiring({ ...candidate, sequence: 2, text: "More tariffs." });
    const inbox = await listAlerts(req("/api/alerts", { user: "inbox" }));
    const data = (await inbox.json()) as { data: { text: string; read: boolean }[]; unread: number };
    expect(data.data.map((a) => a.text)).toEqual(["More tariffs.", "Tariffs."]);
    expect(data.unread).toBe(2);
    const read = await readAlert(
      req(`/api/alerts/${first!.id}/read`, { method: "POST", user: "inbox" }),
      params({ id: first!.id }),
    );
    expect(((await body(read)).data as { read: boolean }).read).toBe(true);
    expect(
      (
        await readAlert(
          req(`/api/alerts/${first!.id}/read`, { method: "POST", user: "other" }),
          params({ id: first!.id }),
        )
      ).status,
    ).toBe(404);
    expect((await listAlerts(req("/api/alerts?limit=0", { user: "inbox" }))).status).toBe(400);
    expect(
      (
        await deleteRule(
          req(`/api/alert-rules/${rule.id}`, { method: "DELETE", user: "inbox" }),
          params({ id: rule.id }),
        )
      ).status,
    ).toBe(204);
    // The alerts it fired stay in the inbox, still saying which rule fired them.
    const after = (await (await listAlerts(req("/api/alerts", { user: "inbox" }))).json()) as {
      data: { rules: { ruleId: string; label: string }[] }[];
    };
    expect(after.data.map((a) => a.rules.map((r) => [r.ruleId, r.label]))).toEqual([
      [[rule.id, "“tariff”"]],
      [[rule.id, "“tariff”"]],
    ]);
  });
});

describe("marking the inbox read", () => {
  it("marks the user's alerts read up to the one named, leaves newer ones and other users' alone", async () => {
    const { alerts } = await workspace().repositories();
    const ruleOf = async (user: string) =>
      (
        (
          await body(
            await createRule(
              req("/api/alert-rules", { method: "POST", body: { kind: "keyword", phrase: "margin" }, user }),
            ),
          )
        ).data as { id: string }
      ).id;
    const fire = async (user: string, ruleId: string, sequence: number) =>
      (await alerts.recordFiring({
        userId: user,
        rules: [{ ruleId, kind: "keyword", label: "“margin”", matched: [], detail: null }],
        subject: CALL,
        callId: CALL,
        symbol: "NWSC",
        sequence,
        startMs: sequence * 1_000,
        text: `Margin ${sequence}.`,
      }))!.id;
    const mine = await ruleOf("reader");
    const theirs = await ruleOf("bystander");
    const ids = [await fire("reader", mine, 1), await fire("reader", mine, 2), await fire("reader", mine, 3)];
    await fire("bystander", theirs, 1);
    const post = (payload: unknown, init: { user?: string; origin?: string; site?: string } = {}) =>
      readAlerts(req("/api/alerts/read", { method: "POST", body: payload, user: "reader", ...init }));

    // Up to the second: the third, newer than what the reader saw, stays unread.
    const first = await post({ upTo: ids[1] });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ data: { marked: 2 }, unread: 1 });
    const inbox = (await (await listAlerts(req("/api/alerts", { user: "reader" }))).json()) as {
      data: { id: string; read: boolean }[];
    };
    expect(inbox.data.map((a) => [a.id, a.read])).toEqual([
      [ids[2], false],
      [ids[1], true],
      [ids[0], true],
    ]);
    // Without upTo: everything; again: nothing left to mark.
    expect(await (await post({})).json()).toEqual({ data: { marked: 1 }, unread: 0 });
    expect(await (await post({})).json()).toEqual({ data: { marked: 0 }, unread: 0 });
    expect(await alerts.unreadCount("bystander")).toBe(1);

    // Bad input: a clear 400, nothing marked; a cross-site request: refused.
    await fire("reader", mine, 4);
    for (const bad of [{ upTo: "abc" }, { upto: ids[2] }, []]) {
      const response = await post(bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect((await body(response)).error?.code).toBe("invalid_parameter");
    }
    const crossSite = await post({}, { origin: "https://evil.example", site: "cross-site" });
    expect(crossSite.status).toBe(403);
    expect(await alerts.unreadCount("reader")).toBe(1);
  });
});

describe("inbox triage: filters and mutes", () => {
  it("filters by ticker and rule, mutes a call (marking its alerts read) and unmutes", async () => {
    const { alerts } = await workspace().repositories();
    const ruleId = (
      (
        await body(
          await createRule(
            req("/api/alert-rules", {
              method: "POST",
              body: { kind: "keyword", phrase: "x" },
              user: "triage",
            }),
          ),
        )
      ).data as { id: string }
    ).id;
    const other = "e".repeat(24);
    for (const [callId, symbol, sequence] of [
      [CALL, "NWSC", 1],
      [CALL, "NWSC", 2],
      [other, "ACME", 1],
    ] as const)
      await alerts.recordFiring({
        userId: "triage",
        rules: [{ ruleId, kind: "keyword", label: "“x”", matched: ["x"], detail: null }],
        subject: callId,
        callId,
        symbol,
        sequence,
        startMs: 0,
        text: `${symbol} ${sequence}`,
      });
    const list = async (query: string) =>
      (await (await listAlerts(req(`/api/alerts${query}`, { user: "triage" }))).json()) as {
        data: { text: string }[];
        unread: number;
        facets?: { symbols: { symbol: string }[] };
      };
    expect((await list("?ticker=acme")).data.map((a) => a.text)).toEqual(["ACME 1"]);
    expect((await list(`?ruleId=${ruleId}`)).data).toHaveLength(3);
    expect((await list("")).facets?.symbols.map((s) => s.symbol)).toEqual(["ACME", "NWSC"]);
    expect((await listAlerts(req("/api/alerts?ticker=not a ticker", { user: "triage" }))).status).toBe(400);

    const muted = await mute(
      req("/api/alerts/mutes", {
        method: "POST",
        body: { scope: "call", callId: CALL, symbol: "NWSC" },
        user: "triage",
      }),
    );
    expect(muted.status).toBe(201);
    const answer = (await muted.json()) as {
      data: { id: string; scope: string };
      marked: number;
      unread: number;
    };
    expect(answer).toMatchObject({ data: { scope: "call" }, marked: 2, unread: 1 });
    expect((await list("?unread=true")).data.map((a) => a.text)).toEqual(["ACME 1"]);
    const mutes = (await body(await listMutes(req("/api/alerts/mutes", { user: "triage" })))).data;
    expect(mutes).toMatchObject([{ scope: "call", callId: CALL }]);
    expect((await body(await listMutes(req("/api/alerts/mutes", { user: "someone" })))).data).toEqual([]);

    const bad = await mute(
      req("/api/alerts/mutes", { method: "POST", body: { scope: "forever" }, user: "triage" }),
    );
    expect(bad.status).toBe(400);
    expect(
      (
        await unmute(
          req(`/api/alerts/mutes/${answer.data.id}`, { method: "DELETE", user: "someone" }),
          params({ id: answer.data.id }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await unmute(
          req(`/api/alerts/mutes/${answer.data.id}`, { method: "DELETE", user: "triage" }),
          params({ id: answer.data.id }),
        )
      ).status,
    ).toBe(204);
    expect((await body(await listMutes(req("/api/alerts/mutes", { user: "triage" })))).data).toEqual([]);
  });
});
