/*
 * Plain links, not next/link: a not-found page is part of every page's client entry, and its own reference to the
 * link runtime put a second copy of it (3 kB gzip) in every page's first load (docs/performance.md, First-load JS).
 * Leaving a 404 with a full page load costs nothing worth keeping.
 */
/* eslint-disable @next/next/no-html-link-for-pages -- see above */
export default function CompanyNotFound() {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-start gap-2 py-16">
      <p className="text-2xs text-muted font-semibold uppercase">404 · Unknown ticker</p>
      <h1 className="text-xl font-semibold">No company with that ticker</h1>
      <p className="text-muted">
        The market-data service has no company under this symbol. Check the spelling, or search with{" "}
        <kbd className="font-mono">/</kbd>.
      </p>
      <p className="flex gap-3">
        <a href="/calendar/earnings" className="text-accent hover:underline">
          Browse the earnings calendar
        </a>
        <a href="/" className="text-accent hover:underline">
          Go to the overview
        </a>
      </p>
    </div>
  );
}
