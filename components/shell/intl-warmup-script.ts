/**
 * Inline script for <head>: builds one date and one number formatter in a task of its own right after the first
 * paint, while the page's code is still downloading.
 *
 * The first Intl formatter of a page loads the browser's locale data: ≈ 70–90 ms of main thread on a phone-class
 * CPU (measured at 4× slowdown). Paid by whichever component first formats a date or a figure, it lengthened a
 * hydration task that blocks input; every dashboard page formats both, so the work is never wasted, and on its own
 * after the first frame it neither delays the paint nor adds to a longer task. (An idle callback would be the
 * natural tool, but browsers grant none while a page loads.) Never throws.
 */
export const INTL_WARMUP_SCRIPT = `(function(){function w(){try{new Intl.DateTimeFormat("en-US",{timeZone:"America/New_York",month:"short",day:"numeric",hour:"numeric",timeZoneName:"short"}).format(0);new Intl.NumberFormat("en-US",{minimumFractionDigits:2,maximumFractionDigits:2}).format(1);}catch(e){}}requestAnimationFrame(function(){setTimeout(w,0);});})();`;
