"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { sendJson } from "@/lib/queries/send-json";

/**
 * The calendar feed: a secret URL a calendar application subscribes to (upcoming reports of followed companies).
 * Only its hash is stored, so the URL is shown once, right after it is made; making a new one revokes the old.
 */
export function CalendarFeed() {
  const [url, setUrl] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const issue = async () => {
    try {
      const { data } = await sendJson<{ data: { url: string } }>("POST", "/api/feeds");
      setUrl(data.url);
      setStatus("New link made; any previous link stopped working.");
    } catch (error) {
      setStatus(error instanceof Error ? error.message : String(error));
    }
  };
  const revoke = async () => {
    await sendJson("DELETE", "/api/feeds").catch(() => {});
    setUrl(null);
    setStatus("The calendar link no longer works.");
  };
  return (
    <section aria-labelledby="feed-heading" className="border-line rounded border p-3 text-[13px]">
      <h2 id="feed-heading" className="mb-1 font-semibold">
        Calendar feed
      </h2>
      <p className="text-muted mb-2">
        Subscribe to your followed companies’ upcoming reports in Outlook, Google Calendar or Apple Calendar.
        The link is secret: anyone who has it sees your list.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void issue()}>{url ? "Make a new link" : "Make a calendar link"}</Button>
        <Button variant="ghost" onClick={() => void revoke()}>
          Revoke
        </Button>
        {url ? (
          <input
            readOnly
            value={url}
            aria-label="Calendar feed URL"
            className="border-line bg-surface h-7 min-w-0 flex-1 rounded border px-2 font-mono text-[12px]"
            onFocus={(e) => e.currentTarget.select()}
          />
        ) : null}
      </div>
      {status ? <p className="text-muted mt-1">{status}</p> : null}
    </section>
  );
}
