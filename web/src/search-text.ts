// The sentences the details panel shows about a cycle's partial node search
// and where kube-scheduler's choice depends on timing or a tie. Every figure
// and node name comes from the engine's explain (search, tie); this only
// words them.
import type { Explanation } from "./bridge";

// At most this many node names are listed in a sentence.
const maxNames = 12;

function names(list: string[]): string {
  if (list.length <= maxNames) return list.join(", ");
  return `${list.slice(0, maxNames).join(", ")} and ${list.length - maxNames} more`;
}

export function searchLines(ex: Explanation): string[] {
  const out: string[] = [];
  const s = ex.search;
  if (s) {
    const pct = s.percentage ? `${s.percentage}%` : "adaptive";
    out.push(`Evaluated ${s.evaluated} of ${s.nodes} nodes, starting at ${s.start} (where the previous cycle stopped), ` +
      `until ${s.want} were feasible (percentageOfNodesToScore ${pct})` +
      (s.stoppedOn ? `; stopped on the next feasible node, ${s.stoppedOn}.` : "."));
    out.push(`Never looked at (dimmed on the canvas): ${s.notEvaluated.length} nodes: ${names(s.notEvaluated)}.`);
    const missed = (ex.selected ?? []).filter((n) => s.notEvaluated.includes(n));
    if (missed.length) out.push(`The best-scoring node overall, ${names(missed)}, was not among the nodes looked at.`);
    if (s.couldTake?.length) {
      out.push(`With kube-scheduler's default parallelism (16 workers) which ${s.want} feasible nodes are found first depends on timing; ` +
        `it could have taken any of ${s.couldTake.length}: ${names(s.couldTake)}.`);
    }
  }
  if (ex.tie) {
    out.push(`A tie at ${ex.tie.score}: ${names(ex.tie.nodes)}. Which one kube-scheduler takes depends on the order its filter found them in; this run took ${ex.tie.taken}.`);
  }
  return out;
}
