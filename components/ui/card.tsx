import type { ReactNode, Ref } from "react";
import { cn } from "./cn";

/** A titled section. Borders only where they separate; no decoration. */
export function Section({
  title,
  actions,
  children,
  className,
  id,
  ref,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
  ref?: Ref<HTMLElement>;
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section ref={ref} aria-labelledby={headingId} id={id} className={cn("min-w-0", className)}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold">
          {title}
        </h2>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
