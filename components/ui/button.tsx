import type { ButtonHTMLAttributes, Ref } from "react";
import { cn } from "./cn";

export type ButtonVariant = "default" | "ghost" | "primary";

const VARIANTS: Record<ButtonVariant, string> = {
  default: "border border-line bg-canvas hover:bg-surface-2",
  ghost: "border border-transparent hover:bg-surface-2",
  primary: "border border-accent bg-accent text-canvas hover:opacity-90",
};

export function buttonClass(variant: ButtonVariant = "default", className?: string): string {
  return cn(
    "inline-flex h-7 shrink-0 items-center justify-center gap-1.5 rounded px-2.5 text-[13px] font-medium whitespace-nowrap",
    "disabled:cursor-not-allowed disabled:opacity-50",
    VARIANTS[variant],
    className,
  );
}

export function Button({
  variant = "default",
  className,
  type = "button",
  ref,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; ref?: Ref<HTMLButtonElement> }) {
  return <button ref={ref} type={type} className={buttonClass(variant, className)} {...props} />;
}
