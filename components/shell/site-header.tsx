"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { usePathname, useRouter } from "next/navigation";
import { lazy, Suspense, useRef, useState } from "react";
import { AlertsBell } from "@/components/alerts/alerts-bell";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Kbd } from "@/components/ui/kbd";
import { ThemeToggle } from "./theme-toggle";
import { TickerSearch } from "./ticker-search";
import { UserMenu } from "./user-menu";
import { isTypingTarget, useHotkeys } from "./use-hotkeys";

/** Loaded the first time `?` asks for it, not with every page. */
const ShortcutsDialog = lazy(() =>
  import("./shortcuts-dialog").then((m) => ({ default: m.ShortcutsDialog })),
);

export const NAV_ITEMS: readonly { href: string; label: string }[] = [
  { href: "/", label: "Overview" },
  { href: "/live", label: "Live" },
  { href: "/calls", label: "Calls" },
  { href: "/search", label: "Search" },
  { href: "/calendar/earnings", label: "Earnings" },
  { href: "/calendar/ma", label: "M&A" },
  { href: "/compare", label: "Compare" },
  { href: "/watchlists", label: "Watchlists" },
];

function isCurrent(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function SiteHeader({ isDemo }: { isDemo: boolean }) {
  const pathname = usePathname();
  const router = useRouter();
  const searchRef = useRef<HTMLInputElement>(null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  useHotkeys((event) => {
    const isSearchKey = (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey);
    if (isSearchKey) {
      event.preventDefault();
      searchRef.current?.focus();
      return;
    }
    if (isTypingTarget(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "/") {
      event.preventDefault();
      searchRef.current?.focus();
    } else if (event.key === "?") {
      event.preventDefault();
      setShortcutsOpen(true);
    }
  });

  return (
    <header className="border-line bg-canvas/95 sticky top-0 z-30 border-b backdrop-blur">
      <div className="mx-auto flex h-11 max-w-[1600px] items-center gap-2 px-3 sm:gap-3 sm:px-4">
        <IntentLink href="/" className="flex items-center gap-1.5 font-semibold tracking-tight">
          <span aria-hidden className="bg-accent inline-block size-2.5 rounded-full" />
          Callroom
        </IntentLink>
        {isDemo ? (
          <Badge
            tone="warn"
            title="The dashboard runs on the embedded market-data service: every company, figure and call is fictional."
          >
            Demo data
          </Badge>
        ) : null}
        <nav aria-label="Main" className="hidden flex-1 md:block">
          <NavLinks pathname={pathname} />
        </nav>
        <div className="ml-auto flex items-center gap-1.5">
          <TickerSearch
            inputRef={searchRef}
            className="w-36 sm:w-60"
            follow
            onSelect={(m) => router.push(`/companies/${encodeURIComponent(m.ticker)}`)}
            hint={
              <span className="hidden sm:inline">
                <Kbd>/</Kbd>
              </span>
            }
          />
          <Button
            variant="ghost"
            size="icon"
            // max-sm: variants sort after the button's own `inline-flex`, so this one wins (cn does not merge).
            className="max-sm:hidden"
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
            onClick={() => setShortcutsOpen(true)}
          >
            ?
          </Button>
          <AlertsBell />
          <ThemeToggle />
          <UserMenu className="max-md:hidden" />
        </div>
      </div>
      {/* Narrow screens: the links scroll in a row of their own, and sign-out sits at its end. */}
      <div className="border-line flex items-center border-t pr-2 md:hidden">
        <nav aria-label="Main" className="min-w-0 flex-1 overflow-x-auto px-1">
          <NavLinks pathname={pathname} />
        </nav>
        <UserMenu compact />
      </div>
      {shortcutsOpen ? (
        <Suspense fallback={null}>
          <ShortcutsDialog open onClose={() => setShortcutsOpen(false)} />
        </Suspense>
      ) : null}
    </header>
  );
}

function NavLinks({ pathname }: { pathname: string }) {
  return (
    <ul className="flex items-center gap-0.5 whitespace-nowrap">
      {NAV_ITEMS.map((item) => {
        const current = isCurrent(pathname, item.href);
        return (
          <li key={item.href}>
            <IntentLink
              href={item.href}
              aria-current={current ? "page" : undefined}
              className={cn(
                "inline-flex h-8 items-center rounded px-2 text-[13px]",
                current ? "bg-surface-2 text-fg font-semibold" : "text-muted hover:bg-surface hover:text-fg",
              )}
            >
              {item.label}
            </IntentLink>
          </li>
        );
      })}
    </ul>
  );
}
