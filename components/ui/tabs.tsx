"use client";

import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "./cn";

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  /** What a screen reader hears when the label is not enough ("Notes, 3"). */
  ariaLabel?: string;
  panel: ReactNode;
}

/**
 * Tabs after the WAI-ARIA pattern: a tablist of buttons (arrow keys, Home and End move between them), one panel
 * shown. Every panel stays mounted, only hidden, so a half-written note or a panel's scroll position survives a
 * switch. `panelClassName` lets a layout make the panel the part that scrolls.
 */
export function Tabs<K extends string>({
  items,
  selected,
  onSelect,
  label,
  className,
  panelClassName,
}: {
  items: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  label: string;
  className?: string;
  panelClassName?: string;
}) {
  const id = useId();
  const tabRefs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.key === selected);
    let next = -1;
    if (event.key === "ArrowRight") next = (index + 1) % items.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + items.length) % items.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    if (next < 0) return;
    event.preventDefault();
    const key = items[next]!.key;
    onSelect(key);
    tabRefs.current.get(key)?.focus();
  };
  return (
    <div className={cn("flex min-w-0 flex-col", className)}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="border-line flex shrink-0 gap-0.5 overflow-x-auto border-b"
      >
        {items.map((item) => {
          const isSelected = item.key === selected;
          return (
            <button
              key={item.key}
              ref={(node) => {
                if (node) tabRefs.current.set(item.key, node);
                else tabRefs.current.delete(item.key);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.key}`}
              aria-selected={isSelected}
              aria-controls={`${id}-panel-${item.key}`}
              aria-label={item.ariaLabel}
              tabIndex={isSelected ? 0 : -1}
              data-tab={item.key}
              onClick={() => onSelect(item.key)}
              className={cn(
                "-mb-px flex h-8 shrink-0 items-center gap-1 border-b-2 px-2.5 text-[13px] whitespace-nowrap",
                isSelected
                  ? "border-accent text-fg font-semibold"
                  : "text-muted hover:text-fg border-transparent",
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.key}
          role="tabpanel"
          id={`${id}-panel-${item.key}`}
          aria-labelledby={`${id}-tab-${item.key}`}
          hidden={item.key !== selected}
          data-panel={item.key}
          className={cn("min-w-0 pt-3", panelClassName)}
        >
          {item.panel}
        </div>
      ))}
    </div>
  );
}
