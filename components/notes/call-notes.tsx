"use client";

import { useQuery } from "@tanstack/react-query";
import { useImperativeHandle, useRef, useState, type FormEvent, type Ref } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { useAddNote, useDeleteNote, noteQueries } from "@/lib/queries/notes";
import type { Segment } from "@/lib/schemas/calls";

function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const mmss = `${String(Math.floor((total % 3600) / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

export interface CallNotesHandle {
  /** Opens the note box pinned to `ms` (the `n` key): focus moves there without scrolling anything else. */
  startAt: (ms: number) => void;
}

/**
 * The analyst's notes on a call: each is pinned to the moment it was written at (the audio's position), and may
 * highlight the sentence being spoken, quoting it. Clicking a note's time seeks there; the notes export as Markdown
 * with the quotes and links to their moments. Ctrl+Enter saves; Escape leaves the box (and `n` comes back to it).
 */
export function CallNotes({
  callId,
  segments,
  currentMs,
  activeIndex,
  onSeek,
  ref,
}: {
  callId: string;
  segments: readonly Segment[];
  currentMs: number;
  /** The sentence at the playhead (−1 when nothing plays yet). */
  activeIndex: number;
  onSeek: (ms: number) => void;
  ref?: Ref<CallNotesHandle>;
}) {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const { data } = useQuery(noteQueries.call(callId));
  const add = useAddNote(callId);
  const remove = useDeleteNote(callId);
  const [text, setText] = useState("");
  // The moment is taken when the analyst starts typing, not when they press Save a minute later.
  const [pinnedMs, setPinnedMs] = useState<number | null>(null);
  const atMs = Math.max(0, Math.round(pinnedMs ?? currentMs));
  useImperativeHandle(
    ref,
    () => ({
      startAt: (ms: number) => {
        setPinnedMs((pinned) => (pinned !== null && text !== "" ? pinned : ms));
        const box = textareaRef.current;
        if (!box) return;
        box.focus({ preventScroll: true });
        // Where the notes have their own scrolling column this moves nothing; on a phone, just enough to see the box.
        box.scrollIntoView({ block: "nearest" });
      },
    }),
    [text],
  );
  const active = activeIndex >= 0 ? segments[activeIndex] : (segments.at(-1) ?? undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    add.mutate({ text: text.trim(), atMs }, { onSuccess: () => (setText(""), setPinnedMs(null)) });
  };
  const highlight = () => {
    if (!active) return;
    add.mutate(
      { text: text.trim(), atMs: Math.round(active.startMs), sequence: active.sequence, quote: active.text },
      {
        onSuccess: () => (setText(""), setPinnedMs(null)),
      },
    );
  };

  const notes = data?.data ?? [];
  return (
    <section aria-labelledby="notes-heading" className="flex flex-col gap-2" data-testid="call-notes">
      <div className="flex items-center justify-between">
        <h2 id="notes-heading" className="text-sm font-semibold">
          Notes
        </h2>
        {notes.length > 0 ? (
          <a
            className={buttonClass("ghost")}
            href={`/api/calls/${encodeURIComponent(callId)}/notes?format=md`}
            download
          >
            Export Markdown
          </a>
        ) : null}
      </div>
      <form onSubmit={submit} className="flex flex-col gap-1.5">
        <label htmlFor="note-text" className="text-2xs text-muted">
          Note at <span className="tabular-nums">{clock(atMs)}</span>
          {pinnedMs !== null ? " · pinned to this moment" : " · press n anywhere to start one here"}
        </label>
        <textarea
          id="note-text"
          ref={textareaRef}
          value={text}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            } else if (e.key === "Escape") {
              e.currentTarget.blur();
            }
          }}
          onChange={(e) => {
            if (pinnedMs === null) setPinnedMs(currentMs);
            setText(e.target.value);
            if (e.target.value === "") setPinnedMs(null);
          }}
          rows={2}
          maxLength={5000}
          className="border-line bg-canvas rounded border px-2 py-1 text-[13px]"
          placeholder="What matters here… (Ctrl+Enter saves)"
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={add.isPending || !text.trim()}>
            Save note
          </Button>
          <Button
            onClick={highlight}
            disabled={add.isPending || !active}
            title="Highlight the sentence being spoken"
          >
            Highlight sentence
          </Button>
        </div>
        {add.error ? (
          <p role="alert" className="text-neg text-[13px]">
            {add.error.message}
          </p>
        ) : null}
      </form>
      {notes.length > 0 ? (
        <ol className="divide-line flex flex-col divide-y text-[13px]">
          {notes.map((note) => (
            <li key={note.id} className="flex items-start gap-2 py-1.5">
              <button
                type="button"
                className="text-accent shrink-0 tabular-nums hover:underline"
                onClick={() => onSeek(note.atMs)}
                aria-label={`Play from ${clock(note.atMs)}`}
              >
                {clock(note.atMs)}
              </button>
              <div className="min-w-0 flex-1">
                {note.quote ? (
                  <blockquote className="border-accent text-muted border-l-2 pl-2 italic">
                    {note.quote}
                  </blockquote>
                ) : null}
                {note.text ? <p>{note.text}</p> : null}
              </div>
              <button
                type="button"
                className="text-muted hover:text-fg text-2xs"
                onClick={() => remove.mutate(note.id)}
                aria-label="Delete note"
              >
                ×
              </button>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
