/*
 * Plain links, not next/link: a not-found page is part of every page's client entry, and its own reference to the
 * link runtime put a second copy of it (3 kB gzip) in every page's first load (docs/performance.md, First-load JS).
 * Leaving a 404 with a full page load costs nothing worth keeping.
 */
/* eslint-disable @next/next/no-html-link-for-pages -- see above */
export default function CallNotFound() {
  return (
    <div role="status" className="flex flex-col items-center gap-2 px-4 py-16 text-center">
      <h1 className="text-lg font-semibold">No such call</h1>
      <p className="text-muted max-w-prose">
        The market-data service knows no call with this id. It may have been mistyped, or the link is from
        another deployment.
      </p>
      <p className="flex gap-3">
        <a href="/calls" className="text-accent hover:underline">
          Browse calls
        </a>
        <a href="/live" className="text-accent hover:underline">
          Live now
        </a>
      </p>
    </div>
  );
}
