import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Note, NoteInput } from "@/lib/schemas/notes";
import type { SearchNotesResult, SearchQuery } from "@/lib/schemas/search";
import { searchNotes } from "../archive/note-search";
import type { Db } from "../db/database";
import { callNotes } from "../db/schema/workspace";
import { archiveCalls } from "../db/schema/archive";
import { rowId } from "../db/row-id";
import { LIMITS, limitReached, lockUserLimit } from "../db/user-limits";
import { AppError, notFound } from "../errors";
import type { LiveBus } from "../live/bus";
import { getUpstreamCall } from "../upstream/calls";
import type { Upstream } from "../upstream/client";

/**
 * Notes in the call room, per user and call: pinned to a moment (`atMs`), optionally highlighting a sentence whose
 * text is kept as the note's quote (the transcript may be replaced by the enriched one later; the quote stays what
 * the analyst saw). Found by the archive search (`/api/search`, server/archive/note-search.ts), their owner's only.
 */

type Row = typeof callNotes.$inferSelect;

function toNote(row: Row): Note {
  return {
    id: String(row.id),
    callId: row.callId,
    text: row.text,
    atMs: row.atMs,
    sequence: row.sequence,
    quote: row.quote,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/**
 * Control characters out: Postgres refuses NUL in text, and the search's highlight markers are control characters
 * (server/archive/search.ts). Tabs and line breaks stay.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clean = (value: string) => value.replace(CONTROL, "");

export class NotesRepository {
  /** `maxPerUser`: notes across all calls (`CALLROOM_NOTES_PER_USER`). */
  constructor(
    private readonly db: Db,
    readonly maxPerUser: number = LIMITS.notesPerUser,
  ) {}

  async list(userId: string, callId: string): Promise<Note[]> {
    const rows = await this.db
      .select()
      .from(callNotes)
      .where(and(eq(callNotes.userId, userId), eq(callNotes.callId, callId)))
      .orderBy(asc(callNotes.atMs), asc(callNotes.id));
    return rows.map(toNote);
  }

  /** `callId` must name a call (`assertCallExists`); the user's notes across all calls are capped. */
  async create(userId: string, callId: string, input: NoteInput): Promise<Note> {
    return this.db.transaction(async (tx) => {
      await lockUserLimit(tx as unknown as Db, "notes", userId);
      const [{ n }] = (await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(callNotes)
        .where(eq(callNotes.userId, userId))) as [{ n: number }];
      if (n >= this.maxPerUser)
        throw limitReached(
          `at most ${this.maxPerUser} notes per user (all calls together); delete some first`,
        );
      const [row] = await tx
        .insert(callNotes)
        .values({
          userId,
          callId,
          text: clean(input.text),
          atMs: input.atMs,
          sequence: input.sequence ?? null,
          quote: input.quote === undefined ? null : clean(input.quote),
        })
        .returning();
      return toNote(row!);
    });
  }

  /** Whether the archive holds the call (imported and completed calls live there, whatever the upstream says). */
  async isArchived(callId: string): Promise<boolean> {
    const rows = await this.db
      .select({ callId: archiveCalls.callId })
      .from(archiveCalls)
      .where(eq(archiveCalls.callId, callId))
      .limit(1);
    return rows.length > 0;
  }

  async remove(userId: string, callId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(callNotes)
      .where(and(eq(callNotes.id, rowId(id)), eq(callNotes.userId, userId), eq(callNotes.callId, callId)))
      .returning({ id: callNotes.id });
    if (deleted.length === 0) throw notFound(`No note ${id}.`);
  }

  /** The user's notes matching an archive search (`/api/search`'s query and filters), best first. */
  search(userId: string, query: SearchQuery): Promise<SearchNotesResult> {
    return searchNotes(this.db, userId, query);
  }
}

export interface CallLookup {
  live: Pick<LiveBus, "call">;
  upstream: Upstream;
  archived: (callId: string) => Promise<boolean>;
}

/**
 * A note needs a call: one the live bus carries, one the archive holds (imported calls included), or one the upstream
 * knows. Otherwise 404; when the upstream cannot say (failing), 503 rather than a note on a call that may not exist.
 */
export async function assertCallExists(
  lookup: CallLookup,
  callId: string,
  signal?: AbortSignal,
): Promise<void> {
  if (lookup.live.call(callId)) return;
  if (await lookup.archived(callId)) return;
  let found: boolean;
  try {
    found = (await getUpstreamCall(lookup.upstream, callId, { signal })).value !== null;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) found = false;
    else
      throw new AppError(
        "upstream_unavailable",
        "Cannot check that this call exists right now; retry shortly.",
        {
          retryAfterSeconds: 5,
        },
      );
  }
  if (!found) throw notFound(`No call ${callId}.`);
}

function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/**
 * One line of text as literal Markdown, escaped with backslashes (CommonMark honours one before any ASCII punctuation
 * mark): everything that makes a link, image, raw HTML, entity, emphasis, code, heading, table or strike-through
 * anywhere in a line, and the list, numbered-list and underline markers that only count at its start. Ordinary
 * punctuation (periods, hyphens inside words, quotes) stays readable in the file.
 */
export function escapeMarkdown(line: string): string {
  return line
    .replace(/[\\`*_[\]<>&#|~!]/g, (c) => `\\${c}`)
    .replace(/^(\s*)([-+=]|\d+(?=[.)]))/, (_, space: string, marker: string) =>
      /^\d/.test(marker) ? `${space}${marker}\\` : `${space}\\${marker}`,
    );
}

/**
 * A call's notes as Markdown: one section per note in call order, the moment as a link that opens the call room
 * there (`?t=` seconds), the highlighted sentence as a block quote. Everything that comes from a person or the
 * upstream (title, note, quote) is escaped.
 */
export function notesMarkdown(
  call: { callId: string; title: string; symbol: string },
  notes: readonly Note[],
  baseUrl: string,
): string {
  const callUrl = `${baseUrl}/calls/${encodeURIComponent(call.callId)}`;
  const lines = [
    `# Notes: ${escapeMarkdown(call.title)}`,
    "",
    `${escapeMarkdown(call.symbol)} · ${callUrl}`,
    "",
  ];
  for (const note of notes) {
    const link = `${callUrl}?t=${Math.floor(note.atMs / 1000)}`;
    lines.push(`## [${clock(note.atMs)}](${link})`, "");
    if (note.quote) lines.push(...note.quote.split("\n").map((l) => `> ${escapeMarkdown(l)}`), "");
    if (note.text) lines.push(...note.text.split("\n").map(escapeMarkdown), "");
  }
  if (notes.length === 0) lines.push("_No notes yet._", "");
  return lines.join("\n");
}
