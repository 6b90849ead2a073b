import "server-only";
import { Gauge, type Registry } from "prom-client";
import type { Archive, ArchiveProgress } from "./indexer";

/**
 * The archive in `/api/health` and `/api/metrics`: how big it is, whether this instance indexes, and how far the
 * backfill got (a deploy's first start shows it climbing).
 */

export interface ArchiveHealth {
  state: ArchiveProgress["state"];
  driver: ArchiveProgress["driver"];
  isIndexer: boolean;
  calls: number;
  sentences: number;
  backfill: { done: number; total: number | null; failed: number; finishedAt: string | null };
}

/** From memory: health never waits on the database (issue 26). */
export function archiveHealth(archive: Archive): ArchiveHealth {
  const p = archive.progress();
  return {
    state: p.state,
    driver: p.driver,
    isIndexer: p.isIndexer,
    calls: p.archived.calls,
    sentences: p.archived.segments,
    backfill: {
      done: p.backfill.done,
      total: p.backfill.total,
      failed: p.backfill.failed,
      finishedAt: p.backfill.finishedAt,
    },
  };
}

const installed = new WeakSet<Registry>();

export function installArchiveCollectors(registry: Registry, archive: Archive): void {
  if (installed.has(registry)) return;
  installed.add(registry);
  const read = () => archive.progress();
  const gauge = (name: string, help: string, value: (p: ArchiveProgress) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value(read()));
      },
    });
  gauge("callroom_archive_calls", "Calls stored in the transcript archive.", (p) => p.archived.calls);
  gauge(
    "callroom_archive_sentences",
    "Sentences stored (and searchable) in the archive.",
    (p) => p.archived.segments,
  );
  gauge("callroom_archive_indexer", "1 when this instance runs the archive indexer.", (p) =>
    p.isIndexer ? 1 : 0,
  );
  gauge("callroom_archive_backfill_done", "Calls the current backfill has handled.", (p) => p.backfill.done);
  gauge(
    "callroom_archive_backfill_total",
    "Calls the current backfill will handle (0 = not known yet).",
    (p) => p.backfill.total ?? 0,
  );
  gauge(
    "callroom_archive_backfill_failed",
    "Calls the current backfill could not read.",
    (p) => p.backfill.failed,
  );
  gauge(
    "callroom_archive_live_sentences",
    "Live sentences indexed as they were spoken since this instance became the indexer.",
    (p) => p.live.sentences,
  );
}
