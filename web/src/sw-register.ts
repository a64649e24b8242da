// registerWorker installs the service worker (src/sw.ts) once the page has
// loaded, so its download of the app shell does not compete with the
// page's own. Failing to register (a host that blocks storage in frames,
// file:// pages) only loses the offline copy: nothing is logged.
export function registerWorker(): void {
  if (!("serviceWorker" in navigator) || !isSecureContext) return;
  const go = () => navigator.serviceWorker.register("sw.js").catch(() => undefined);
  if (document.readyState === "complete") go();
  else addEventListener("load", go, { once: true });
}
