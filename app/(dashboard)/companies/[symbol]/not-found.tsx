import Link from "next/link";

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
        <Link href="/calendar/earnings" className="text-accent hover:underline">
          Browse the earnings calendar
        </Link>
        <Link href="/" className="text-accent hover:underline">
          Go to the overview
        </Link>
      </p>
    </div>
  );
}
