// The sentences the details panel shows about a cycle's partial node search
// and where kube-scheduler's choice depends on timing or a tie. Every figure
// and node name comes from the engine's explain (search, tie); this only
// words them.
import type { Explanation } from "./bridge";
import { t } from "./i18n";

// At most this many node names are listed in a sentence.
const maxNames = 12;

function names(list: string[]): string {
  if (list.length <= maxNames) return list.join(", ");
  return t("search.more", { names: list.slice(0, maxNames).join(", "), n: list.length - maxNames });
}

export function searchLines(ex: Explanation): string[] {
  const out: string[] = [];
  const s = ex.search;
  if (s) {
    const pct = s.percentage ? `${s.percentage}%` : t("search.adaptive");
    out.push(t(s.stoppedOn ? "search.evaluatedStopped" : "search.evaluated",
      { evaluated: s.evaluated, nodes: s.nodes, start: s.start, want: s.want, pct, stoppedOn: s.stoppedOn ?? "" }));
    out.push(t("search.never", { n: s.notEvaluated.length, names: names(s.notEvaluated) }, s.notEvaluated.length));
    const missed = (ex.selected ?? []).filter((n) => s.notEvaluated.includes(n));
    if (missed.length) out.push(t("search.missed", { names: names(missed) }));
    if (s.couldTake?.length) out.push(t("search.couldTake", { want: s.want, n: s.couldTake.length, names: names(s.couldTake) }));
  }
  if (ex.tie) out.push(t("search.tie", { score: ex.tie.score, names: names(ex.tie.nodes), taken: ex.tie.taken }));
  return out;
}
