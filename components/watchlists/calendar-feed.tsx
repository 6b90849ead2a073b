"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { plainMessage } from "@/lib/plain-errors";
import { sendJson } from "@/lib/queries/send-json";

/**
 * The calendar feed: a secret URL a calendar application subscribes to (the followed companies' reports, each
 * starting at its call once the call is known, linking to the call room). Only its hash is stored, so the URL is
 * shown once, right after it is made; making a new one revokes the old. The link is built from the address being
 * browsed (or `CALLROOM_PUBLIC_URL`); `webcal:` opens the subscription in the calendar application directly.
 */
export function CalendarFeed() {
  const [url, setUrl] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const issue = async () => {
    try {
      const { data } = await sendJson<{ data: { url: string } }>("POST", "/api/feeds");
      setUrl(data.url);
      setCopied(false);
      setStatus("New link made; any previous link stopped working.");
    } catch (error) {
      setStatus(plainMessage(error));
    }
  };
  const revoke = async () => {
    try {
      await sendJson("DELETE", "/api/feeds");
      setUrl(null);
      setStatus("The calendar link no longer works.");
    } catch (error) {
      setStatus(plainMessage(error));
    }
  };
  const copy = () => {
    if (!url) return;
    void navigator.clipboard?.writeText(url).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 2_000);
      },
      () => window.prompt("Copy this link", url),
    );
  };
  const webcal = url ? url.replace(/^https?:/, "webcal:") : null;
  return (
    <section aria-labelledby="feed-heading" className="border-line rounded border p-3 text-[13px]">
      <h2 id="feed-heading" className="mb-1 font-semibold">
        Calendar feed
      </h2>
      <p className="text-muted mb-2">
        Subscribe to your followed companies’ reports in Outlook, Google Calendar or Apple Calendar: once a
        call is known, its event starts at the call and opens the call room. The link is secret: anyone who
        has it sees your list.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void issue()}>{url ? "Make a new link" : "Make a calendar link"}</Button>
        <Button variant="ghost" onClick={() => void revoke()}>
          Revoke
        </Button>
        {url ? (
          <>
            <input
              readOnly
              value={url}
              aria-label="Calendar feed URL"
              data-testid="feed-url"
              className="border-line bg-surface h-7 min-w-0 flex-1 rounded border px-2 font-mono text-[12px]"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button onClick={copy} aria-live="polite">
              {copied ? "Copied" : "Copy link"}
            </Button>
            <a
              href={webcal!}
              className="text-accent hover:underline"
              data-testid="feed-webcal"
              title="Opens the subscription in your calendar application"
            >
              Subscribe (webcal:)
            </a>
          </>
        ) : null}
      </div>
      {status ? (
        <p className="text-muted mt-1" role="status">
          {status}
        </p>
      ) : null}
    </section>
  );
}
