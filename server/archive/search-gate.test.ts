import { describe, expect, it } from "vitest";
import { SearchGate } from "./search-gate";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("SearchGate: one search per user at a time", () => {
  it("runs a user's second search after the first, never beside it", async () => {
    const gate = new SearchGate();
    const first = deferred<string>();
    let running = 0;
    let most = 0;
    const track = async (p: Promise<string>) => {
      running += 1;
      most = Math.max(most, running);
      try {
        return await p;
      } finally {
        running -= 1;
      }
    };
    const a = gate.run("alice", undefined, () => track(first.promise));
    let secondStarted = false;
    const b = gate.run("alice", undefined, () => {
      secondStarted = true;
      return track(Promise.resolve("b"));
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(secondStarted).toBe(false);
    first.resolve("a");
    expect(await a).toBe("a");
    expect(await b).toBe("b");
    expect(most).toBe(1);
  });

  it("answers a waiting search 429 when a newer one of the same user replaces it", async () => {
    const gate = new SearchGate();
    const first = deferred<string>();
    const a = gate.run("alice", undefined, () => first.promise);
    const b = gate.run("alice", undefined, async () => "b");
    const c = gate.run("alice", undefined, async () => "c");
    await expect(b).rejects.toMatchObject({ status: 429, code: "search_superseded" });
    first.resolve("a");
    expect(await a).toBe("a");
    expect(await c).toBe("c");
  });

  it("lets different users search at once, and a failed search free its user", async () => {
    const gate = new SearchGate();
    const slow = deferred<string>();
    const alice = gate.run("alice", undefined, () => slow.promise);
    expect(await gate.run("bob", undefined, async () => "bob")).toBe("bob");
    slow.resolve("alice");
    await alice;
    await expect(gate.run("carol", undefined, () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(await gate.run("carol", undefined, async () => "again")).toBe("again");
  });

  it("drops a waiting search whose client went away", async () => {
    const gate = new SearchGate();
    const first = deferred<string>();
    const a = gate.run("alice", undefined, () => first.promise);
    const abort = new AbortController();
    let ran = false;
    const b = gate.run("alice", abort.signal, async () => {
      ran = true;
      return "b";
    });
    abort.abort();
    await expect(b).rejects.toMatchObject({ status: 429 });
    first.resolve("a");
    await a;
    expect(ran).toBe(false);
  });
});
