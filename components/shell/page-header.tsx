import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { TOAST_CORNER } from "@/components/alerts/toast-corner";

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className={cn("mb-3 flex flex-wrap content-start items-end justify-between gap-2", TOAST_CORNER)}>
      <div className="min-w-0">
        <h1 className="text-lg font-semibold tracking-tight">{title}</h1>
        {description ? <p className="text-muted text-[13px]">{description}</p> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}
