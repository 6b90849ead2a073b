import type { ButtonHTMLAttributes, Ref } from "react";
import { cn } from "./cn";

export type ButtonVariant = "default" | "ghost" | "primary";

const VARIANTS: Record<ButtonVariant, string> = {
  default: "border border-line bg-canvas hover:bg-surface-2",
  ghost: "border border-transparent hover:bg-surface-2",
  primary: "border border-accent bg-accent text-canvas hover:opacity-90",
};

export type ButtonSize = "default" | "icon";

export function buttonClass(
  variant: ButtonVariant = "default",
  className?: string,
  size: ButtonSize = "default",
): string {
  return cn(
    "inline-flex h-7 shrink-0 items-center justify-center gap-1.5 rounded text-[13px] font-medium whitespace-nowrap",
    // Padding is chosen here, never overridden by callers: two padding utilities on one element fight by CSS order.
    size === "icon" ? "w-7 px-0" : "px-2.5",
    "disabled:cursor-not-allowed disabled:opacity-50",
    VARIANTS[variant],
    className,
  );
}

export function Button({
  variant = "default",
  size = "default",
  className,
  type = "button",
  ref,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  ref?: Ref<HTMLButtonElement>;
}) {
  return <button ref={ref} type={type} className={buttonClass(variant, className, size)} {...props} />;
}
