import { cn } from "./cn";

/** A placeholder block of the final content's size, so nothing moves when data arrives. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden className={cn("bg-surface-2 block animate-pulse rounded", className)} />;
}
