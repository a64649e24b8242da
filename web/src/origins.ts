// The origins an embed may exchange messages with, from its origins=
// parameter. Nothing here touches the DOM: node's unit tests share it.

// parseOrigins reads "origins=A,B": each entry is kept as the exact origin
// it names ("https://docs.example.org", any path dropped) or "*"; an entry
// that is not an origin ("docs.example.org", "javascript:x") is dropped,
// since postMessage throws on a target it cannot parse and one bad entry
// would stop every message. Without a valid entry only self is allowed.
export function parseOrigins(param: string | null, self: string): string[] {
  const out: string[] = [];
  for (const raw of (param ?? "").split(",")) {
    const s = raw.trim();
    if (s === "*") {
      out.push(s);
      continue;
    }
    let origin: string;
    try {
      origin = new URL(s).origin;
    } catch {
      continue;
    }
    if (origin !== "null" && (origin.startsWith("https://") || origin.startsWith("http://")) && !out.includes(origin)) out.push(origin);
  }
  return out.length > 0 ? out : [self];
}
