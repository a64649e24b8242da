// parseOrigins reads the embed's origins= parameter: a comma-separated list
// of origins ("https://docs.example.org") or "*". An entry that is not an
// origin (a path, a typo, "javascript:") is left out and listed in ignored,
// never thrown: a host's mistake must not break the embed.
export function parseOrigins(param: string): { allowed: string[]; ignored: string[] } {
  const allowed: string[] = [], ignored: string[] = [];
  for (const raw of param.split(",")) {
    const s = raw.trim();
    if (!s) continue;
    if (s === "*") {
      allowed.push(s);
      continue;
    }
    let u: URL | null = null;
    try {
      u = new URL(s);
    } catch {
      u = null;
    }
    // "https://docs.example.org/" names the origin too; a longer path does not.
    if (u && (u.protocol === "https:" || u.protocol === "http:") && (u.pathname === "/" || u.pathname === "") &&
        !u.search && !u.hash && !u.username && !u.password && !s.endsWith("?") && !s.endsWith("#")) {
      allowed.push(u.origin);
    } else {
      ignored.push(s);
    }
  }
  return { allowed, ignored };
}
