"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps, FocusEvent, MouseEvent, TouchEvent } from "react";

/**
 * A Link that prefetches its page when the reader shows intent to follow it (pointer over it, finger down on it,
 * keyboard focus), never merely because it scrolled into view.
 *
 * Decision: every page of the dashboard is rendered per request (dynamic), and a tables' worth of ticker and call
 * links prefetched on sight meant dozens of server renders (each with its upstream calls) fired by every page load,
 * right while the page hydrates: on a phone and on the server alike that work competes with what the reader sees.
 * The page a reader is about to open is still warm: hover or touch comes a few hundred milliseconds before the
 * click, about what a prefetch of a dynamic page saves anyway.
 */
export function IntentLink({
  href,
  onMouseEnter,
  onTouchStart,
  onFocus,
  ...props
}: Omit<ComponentProps<typeof Link>, "href" | "prefetch"> & { href: string }) {
  const router = useRouter();
  const warm = () => router.prefetch(href);
  return (
    <Link
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        onMouseEnter?.(event);
        warm();
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        onTouchStart?.(event);
        warm();
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        onFocus?.(event);
        warm();
      }}
    />
  );
}
