/** Storage key of the user's theme choice: "light", "dark" or "system" (absent = system). */
export const THEME_STORAGE_KEY = "callroom-theme";

/**
 * Inline, render-blocking script for <head>: applies the stored or system theme before first paint.
 * Kept tiny and dependency-free; it must never throw (private mode can forbid localStorage).
 */
export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=t==="dark"||(t!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d);}catch(e){}})();`;
