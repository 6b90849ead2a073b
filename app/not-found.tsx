/*
 * Plain links, not next/link: a not-found page is part of every page's client entry, and its own reference to the
 * link runtime put a second copy of it (3 kB gzip) in every page's first load (docs/performance.md, First-load JS).
 * Leaving a 404 with a full page load costs nothing worth keeping.
 */
/* eslint-disable @next/next/no-html-link-for-pages -- see above */
export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col items-start justify-center gap-2 px-4">
      <p className="text-2xs text-muted font-semibold uppercase">404</p>
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="text-muted">There is nothing at this address.</p>
      <a href="/" className="text-accent hover:underline">
        Go to the overview
      </a>
    </main>
  );
}
