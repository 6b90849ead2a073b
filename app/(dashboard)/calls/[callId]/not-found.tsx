import Link from "next/link";

export default function CallNotFound() {
  return (
    <div role="status" className="flex flex-col items-center gap-2 px-4 py-16 text-center">
      <h1 className="text-lg font-semibold">No such call</h1>
      <p className="text-muted max-w-prose">
        The market-data service knows no call with this id. It may have been mistyped, or the link is from
        another deployment.
      </p>
      <p className="flex gap-3">
        <Link href="/calls" className="text-accent hover:underline">
          Browse calls
        </Link>
        <Link href="/live" className="text-accent hover:underline">
          Live now
        </Link>
      </p>
    </div>
  );
}
