// The service worker (sw.js): it keeps one deployment's files (SW_SHELL, the
// pages, the hashed scripts and styles, the engine and the examples) in a
// cache named after SW_VERSION, a hash of all of them (web/build.mjs), so
// the playground, the lessons and embeds reopen offline and start without
// downloading the engine again.
//
// Versions never mix: hashed files are looked up by their own names (a page
// can only ask for the engine its scripts were built with), pages come from
// the network while it answers and from this version's cache when it does
// not, and nothing fetched from the network is put in the cache (a newer
// deployment's page must not land beside this version's engine). A new
// deployment changes sw.js, so the browser installs the new worker, which
// fills its own cache; once it takes over it deletes the older caches.
declare const SW_VERSION: string;
declare const SW_SHELL: string[];

const sw = self as unknown as {
  registration: { scope: string };
  addEventListener(type: string, fn: (e: any) => void): void; // eslint-disable-line @typescript-eslint/no-explicit-any
};
const CACHE = `schedplay-${SW_VERSION}`;
const scope = new URL(sw.registration.scope);
const shell = new Set(SW_SHELL);
// Pages and other files of stable name; the rest of the shell is hashed.
const stable = (path: string) => /\.(html|yaml|json)$/.test(path) || path === "";

sw.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SW_SHELL.map((f) => new URL(f, scope).href))));
});

sw.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) =>
    Promise.all(keys.filter((k) => k.startsWith("schedplay-") && k !== CACHE).map((k) => caches.delete(k)))));
});

sw.addEventListener("fetch", (e) => {
  const req = e.request as Request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const path = decodeURIComponent(url.pathname.slice(scope.pathname.length));
  if (path !== "" && !shell.has(path)) return;
  const cached = () => caches.open(CACHE).then((c) => c.match(path === "" ? new URL("index.html", scope).href : url.href, { ignoreSearch: true }));
  if (stable(path)) {
    e.respondWith(fetch(req).catch(async (err) => (await cached()) ?? Promise.reject(err)));
  } else {
    e.respondWith(cached().then((r) => r ?? fetch(req)));
  }
});
