import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col items-start justify-center gap-2 px-4">
      <p className="text-2xs text-muted font-semibold uppercase">404</p>
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="text-muted">There is nothing at this address.</p>
      <Link href="/" className="text-accent hover:underline">
        Go to the overview
      </Link>
    </main>
  );
}
