import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database";
import { testDatabase } from "./test-db";
import { WatchlistRepository } from "./watchlists";

let database: Database;
let repo: WatchlistRepository;

beforeAll(async () => {
  database = await testDatabase();
  repo = new WatchlistRepository(database.db);
}, 60_000);
afterAll(() => database?.close());

describe("WatchlistRepository", () => {
  it("creates ordered lists per user and keeps ticker order", async () => {
    const a = await repo.create("ann", { name: "Semis", tickers: ["NWSC", "ACME", "ZZZ"] });
    const b = await repo.create("ann", { name: "Banks", tickers: [] });
    await repo.create("ben", { name: "Other", tickers: ["QQQ"] });
    expect((await repo.list("ann")).map((l) => [l.name, l.position, l.tickers])).toEqual([
      ["Semis", 0, ["NWSC", "ACME", "ZZZ"]],
      ["Banks", 1, []],
    ]);
    expect(a.id).not.toBe(b.id);
  });

  it("adds and removes single tickers without losing concurrent changes", async () => {
    const wl = await repo.create("cat", { name: "Follow", tickers: ["AAA"] });
    await Promise.all([
      repo.update("cat", wl.id, { add: ["BBB"] }),
      repo.update("cat", wl.id, { add: ["CCC"] }),
    ]);
    const after = await repo.update("cat", wl.id, { remove: ["AAA"], add: ["BBB"] });
    expect(after.tickers.sort()).toEqual(["BBB", "CCC"]);
    expect((await repo.update("cat", wl.id, { tickers: ["ZZZ"], name: "Renamed" })).tickers).toEqual(["ZZZ"]);
    expect(await repo.followed("cat")).toEqual(["ZZZ"]);
  });

  it("answers 404 for another user's list, as for a missing one", async () => {
    const wl = await repo.create("dan", { name: "Mine", tickers: ["AAA"] });
    await expect(repo.update("eve", wl.id, { add: ["BBB"] })).rejects.toMatchObject({ status: 404 });
    await expect(repo.remove("eve", wl.id)).rejects.toMatchObject({ status: 404 });
    await expect(repo.remove("dan", "999999")).rejects.toMatchObject({ status: 404 });
    expect((await repo.get("dan", wl.id)).tickers).toEqual(["AAA"]);
    await repo.remove("dan", wl.id);
    expect(await repo.list("dan")).toEqual([]);
  });
});
