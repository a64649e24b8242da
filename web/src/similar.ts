// Names like a mistyped one, for "did you mean" in the messages about a
// lesson or example the address names but the site does not have (the
// playground's ?lesson=, the embed's ?example=), and the list they are
// shown as. No imports: the embed bundles it.

// similarNames lists up to max of names that share a word of four letters
// or more with name (words are what the names' hyphens part), in the
// order names has them, whatever the case name is typed in:
// "topology-spread" finds the topology spread lessons, "Preemtion-Basic"
// finds preemption-basic.
export function similarNames(name: string, names: readonly string[], max = 3): string[] {
  const words = name.toLowerCase().split("-").filter((w) => w.length >= 4);
  return names.filter((n) => n !== name && n.split("-").some((w) => words.includes(w))).slice(0, max);
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
