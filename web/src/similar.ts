// Names like a mistyped one, for "did you mean" in the messages about a
// lesson or example the address names but the site does not have (the
// playground's ?lesson=, the embed's ?example=). No imports: the embed
// bundles it.

// similarNames lists up to max of names that share a word of four letters
// or more with name (words are what the names' hyphens part), in the
// order names has them, whatever the case name is typed in:
// "topology-spread" finds the topology spread lessons, "Preemtion-Basic"
// finds preemption-basic.
export function similarNames(name: string, names: readonly string[], max = 3): string[] {
  const words = name.toLowerCase().split("-").filter((w) => w.length >= 4);
  return names.filter((n) => n !== name && n.split("-").some((w) => words.includes(w))).slice(0, max);
}
