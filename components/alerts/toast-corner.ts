/**
 * The classes a page's first header takes so the alert toasts' corner (components/alerts/alert-toasts.tsx) covers
 * none of its controls at lg and wider: its right end kept free, and tall enough that what follows starts below a
 * toast.
 */
export const TOAST_CORNER = "lg:min-h-[5.75rem] lg:pr-[25.5rem]";
