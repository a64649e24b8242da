// Names like a mistyped one, for "did you mean" in the messages about a
// lesson or example the address names but the site does not have (the
// playground's ?lesson=, the embed's ?example=), and the list they are
// shown as. The embed bundles it: its one import is fastest-levenshtein
// (about 1 KB).

import { distance } from "fastest-levenshtein";

// similarNames lists up to max of names that share a word of four letters
// or more with name, or nearly (one letter apart: a typo), words being what
// the names' hyphens part, whatever the case name is typed in; the closest
// to name come first (fewest letters to change), then in the order names
// has them. "topology-spread" finds the topology spread lessons,
// "preemption-basc" finds preemption-basic first, "Preemtion-Basic" finds
// it too.
export function similarNames(name: string, names: readonly string[], max = 3): string[] {
  const asked = name.toLowerCase();
  const words = asked.split("-").filter((w) => w.length >= 4);
  const near = (w: string) => (c: string) => c === w || (c.length >= 4 && distance(w, c) <= 1);
  return names
    .filter((n) => n !== name && words.some((w) => n.split("-").some(near(w))))
    .map((n, i) => ({ n, i, d: distance(asked, n) }))
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, max)
    .map((x) => x.n);
}

// A list of names as the page's language writes one (Intl.ListFormat):
// "or" lists are the alternatives of a question ("a, b, or c"; Chinese
// "a、b或c"), "plain" lists an enumeration after a colon ("a, b, c";
// Chinese "a、b、c"). Intl's "unit" lists would be plainer still, but
// Chinese writes those with no separator at all.
export type ListKind = "or" | "plain";

function listFormat(lang: string, kind: ListKind): Intl.ListFormat {
  return kind === "or"
    ? new Intl.ListFormat(lang, { type: "disjunction", style: "long" })
    : new Intl.ListFormat(lang, { type: "conjunction", style: "narrow" });
}

// joinNames joins names into one string.
export function joinNames(names: readonly string[], lang: string, kind: ListKind): string {
  return listFormat(lang, kind).format(names);
}

// listParts is the same list in pieces, for a list whose names are links:
// each name in the order given, and the separators between them.
export function listParts(names: readonly string[], lang: string, kind: ListKind): { name: boolean; text: string }[] {
  return listFormat(lang, kind).formatToParts(names).map((p) => ({ name: p.type === "element", text: p.value }));
}
