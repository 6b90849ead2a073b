import { expect, test, type APIRequestContext } from "@playwright/test";

/** A completed call of the demo service (the notes and the calls list need no archive backfill). */
async function completedCall(request: APIRequestContext): Promise<{ callId: string; symbol: string }> {
  const list = (await (await request.get("/api/calls?status=completed&pageSize=1")).json()) as {
    data: { callId: string; symbol: string }[];
  };
  const call = list.data[0];
  if (!call) throw new Error("the demo service lists no completed call");
  return call;
}

test("a note the analyst wrote is found by the search, and opens the call room at its moment", async ({
  page,
}) => {
  const { callId } = await completedCall(page.request);
  // A word no transcript holds, unique to this run.
  const word = `kestrel${Date.now().toString(36)}`;
  const created = await page.request.post(`/api/calls/${callId}/notes`, {
    data: { text: `Ask about ${word} pricing next quarter`, atMs: 65_000 },
  });
  expect(created.status()).toBe(201);

  await page.goto(`/search?q=${word}`);
  const notes = page.getByTestId("search-notes");
  await expect(notes).toBeVisible();
  await expect(notes.getByRole("heading", { name: /Your notes/ })).toBeVisible();
  await expect(notes.locator("mark")).toHaveText([word]);
  await expect(page.getByTestId("search-summary")).toContainText("1 of your notes");

  await notes.getByTestId("search-note-link").first().click();
  await expect(page).toHaveURL(new RegExp(`/calls/${callId}\\?t=65$`));
});

test("the calls list puts a followed company's calls first, in a section of their own", async ({ page }) => {
  const { symbol } = await completedCall(page.request);
  const made = await page.request.post("/api/watchlists", {
    data: { name: `Followed ${Date.now().toString(36)}`, tickers: [symbol] },
  });
  expect(made.status()).toBe(201);
  const { data: list } = (await made.json()) as { data: { id: string } };
  try {
    // In the first HTML (the server reads the watchlists), so nothing moves when the page hydrates.
    const html = await (await page.request.get("/calls?status=completed")).text();
    expect(html).toContain('data-testid="followed-calls-table"');
    await page.goto("/calls?status=completed");
    const section = page.getByTestId("followed-calls");
    await expect(section.getByRole("heading", { name: "Your companies" })).toBeVisible();
    const rows = page.getByTestId("followed-calls-table").getByTestId("call-row");
    await expect(rows.first()).toBeVisible();
    // Other specs share the local user and follow companies of their own: the section holds followed companies
    // only, this one's calls among them.
    const count = await rows.count();
    for (let i = 0; i < count; i += 1)
      await expect(rows.nth(i).getByRole("button", { name: /^Follow / })).toHaveAttribute(
        "aria-pressed",
        "true",
      );
    const ours = rows.filter({ hasText: symbol });
    await expect(ours.first()).toBeVisible();
    await expect(ours.first().getByRole("button", { name: `Follow ${symbol}`, exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
  } finally {
    // Other specs follow companies of their own: leave the user's watchlists as they were.
    await page.request.delete(`/api/watchlists/${list.id}`);
  }
});
