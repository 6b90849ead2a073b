import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from "react";
import { cn } from "./cn";

const CONTROL =
  "h-7 rounded border border-line bg-canvas px-2 text-[13px] text-fg placeholder:text-muted disabled:opacity-50";

/** A visible label above its control (labels are never placeholders only). */
export function Field({
  label,
  htmlFor,
  children,
  className,
}: {
  label: string;
  htmlFor: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col gap-0.5", className)}>
      <label htmlFor={htmlFor} className="text-2xs text-muted font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(CONTROL, "pr-6", className)} {...props} />;
}

export function Input({
  className,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input ref={ref} className={cn(CONTROL, className)} {...props} />;
}
