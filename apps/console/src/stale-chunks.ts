const RELOADED_AT = "orderline.chunkReloadAt";
/** A second failure this soon after the reload is not a stale deployment: the page says so. */
const ONCE_WITHIN_MS = 60_000;

/**
 * After a deployment the open console still names the old build's chunks, which now answer 404:
 * the first page opened whose code was not loaded yet would fail. Vite reports that as
 * `vite:preloadError`; the console then reloads once, getting the new build, on the same page
 * and session. Offline, a reload would show the browser's own error page instead: the page's
 * boundary (page-boundary.tsx) says what happened and retries when asked. So does a failure
 * right after such a reload (no reload loop).
 */
export const reloadOnStaleChunks = (): void => {
  window.addEventListener("vite:preloadError", (event) => {
    if (!navigator.onLine) return;
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < ONCE_WITHIN_MS) return;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    event.preventDefault();
    window.location.reload();
  });
};
