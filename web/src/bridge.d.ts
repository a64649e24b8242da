// The object the wasm build publishes as window.schedplay inside the stage
// frame (wasm/main.go hands each call to ui/session). Every method takes strings and returns a JSON string;
// a failure or a recovered Go panic comes back as {"ok": false, "error": ...}.

export interface Diagnostic {
  line: number; // 1-based; 0 when the problem has no position
  col: number; // 1-based
  severity: "error" | "warning";
  object?: string;
  field?: string;
  msg: string;
  hint?: string;
}

export interface LoadReply {
  ok: boolean;
  gen: number; // generation now on the canvas (unchanged on failure)
  diagnostics: Diagnostic[];
  partial?: boolean; // refused for its size: only its nodes are shown (stopped says so)
  cancelled?: boolean; // loadInSteps stopped by cancelLoad or a newer load: nothing changed
  kept?: boolean; // the edit changed no object: the run so far is kept, with the new positions
  summary: { nodes: number; pods: number; pending: number };
  error?: string;
  stopped?: string; // set when the scenario is over the budget
  budget: { nodes: number; pods: number; events: number };
  lesson?: import("./captions").Lesson; // the scenario's Lesson document
}

export interface TraceEvent {
  seq: number; t: number; kind: string; pod?: string; node?: string; reason: string;
  victims?: string[]; queue?: string; until?: number;
}

export interface SimulateReply {
  ok: boolean; done: boolean; events: number; end: number; stopped?: string;
  // held: the engine is done for now; an open question holds the rest back.
  held?: boolean;
}

export interface NodeResult {
  name: string; feasible: boolean; plugin?: string; reasons?: string[]; code?: string;
  // Each score plugin's score at upstream's three steps: what Score
  // returned (raw), after NormalizeScore (scores), times the weight
  // (weighted, the addends of total).
  scores?: Record<string, number>; raw?: Record<string, number>; weighted?: Record<string, number>; total?: number;
}

export interface Explanation {
  pod: string; nodes: NodeResult[]; selected: string[]; message: string; nominatedNode?: string;
  weights?: Record<string, number>;
  preemption: null | {
    candidates: Record<string, { victims: string[]; pdbViolations: number }>;
    nominated: string[]; criterion?: string;
  };
  // Several nodes shared the top total.
  tie?: { nodes: string[]; score: number; taken: string };
  // The partial node search (from 100 nodes) of the real cycle.
  search?: {
    nodes: number; percentage: number; want: number; start: string; evaluated: number; feasible: number;
    stoppedOn?: string; notEvaluated: string[]; couldTake?: string[];
  };
  signature?: string;
  // Plugins that did nothing for this pod: PreFilter (filter) or PreScore
  // (score) returned Skip, so their Filter or Score never ran.
  skipped?: { filter?: string[]; score?: string[] };
}

// One scheduling cycle of a pod: number of of, ended by event seq, against
// the cluster as it was after event before (-1: as loaded).
export interface Attempt { seq: number; t: number; number: number; of: number; before: number; explanation: Explanation }

// A DoNotSchedule spread constraint as PodTopologySpread counted it (the
// engine's answer): eligible domains, the global minimum, and the skew
// Filter computes for each node with the key.
export interface SpreadConstraint {
  key: string; maxSkew: number; min: number; default?: boolean;
  domains: { name: string; count: number; skew: number }[];
  nodeDomain: Record<string, string>; nodeSkew: Record<string, number>;
}

export interface Resources { milliCPU: number; memory: number; pods: number }

export interface Pod {
  namespace: string; name: string; node?: string; priorityClass?: string; priority: number;
  phase?: string; nominatedNode?: string; requests: Resources; reason?: string;
  queue?: string; backoffUntil?: number; ghost?: boolean;
  termination?: { started: number; stage: string; next: string; stageEnds: number; ends: number; eviction?: boolean };
}

export interface Node {
  name: string; zone?: string; allocatable: Resources; unschedulable?: boolean;
  taints?: { key: string; value?: string; effect: string }[]; pods?: Pod[]; ghosts?: Pod[];
  used?: Resources; labels?: Record<string, string>;
}

export interface ClaimState {
  volume: string; claim: string; missing?: boolean; phase?: string; class?: string; bindingMode?: string;
  accessModes?: string[]; size?: string; pv?: string; pinned?: string; zones?: string[]; note?: string;
}

// PodStorage is the engine's account of a pod's claims (core/engine/storage_answer.go).
export interface PodStorage { claims?: ClaimState[]; other?: string[]; zones?: string[] }

export interface DetailsReply {
  ok: boolean; kind: "pod" | "node"; pod?: Pod; node?: Node; error?: string;
  events?: TraceEvent[]; attempt?: Attempt; explainError?: string; spread?: SpreadConstraint[]; spreadError?: string;
  storage?: PodStorage;
}

// The shown scene as text (ui/adapt.Outline), read at the shown time.
export interface OutlinePod {
  key: string; node?: string; phase: string; priority: number; priorityClass?: string;
  queue?: string; nominatedNode?: string; terminating?: string; evicted?: boolean; reason?: string;
}
export interface OutlineNode {
  name: string; cpu: string; memory: string; pods: string; cordoned?: boolean; taints?: string[];
  nominated?: string[]; bound: OutlinePod[];
}
export interface Outline {
  ok: boolean; t: number; caption: string; zoneKey: string;
  zones: { name: string; nodes: OutlineNode[] }[]; pending: OutlinePod[];
}

export type BridgeEvent =
  | { type: "select"; kind: "" | "pod" | "node"; key: string }
  | { type: "drawn"; gen: number }
  | { type: "focus"; kind: "" | "pod" | "node"; key: string } // the arrow keys moved the canvas's focus
  | { type: "loadProgress"; done: number; total: number } // a loadInSteps under way: done of total steps
  | { type: "panic"; message: string; stack?: string }
  | { type: "fatal"; message: string };

export interface Bridge {
  load(name: string, text: string): string; // LoadReply
  // LoadReply, in slices of some 30 ms between which the page runs (with
  // loadProgress events); a newer load or cancelLoad makes it cancelled.
  loadInSteps(name: string, text: string): Promise<string>;
  cancelLoad(): string; // {ok}
  simulate(ms: string): string; // SimulateReply: grows the trace for about ms milliseconds
  trace(from: string): string; // {ok, events: TraceEvent[]} from index from on
  seek(seq: string, t: string): string; // {ok, gen}: show the state after event seq (-1: t=0) at time t
  setTheme(theme: "light" | "dark"): string;
  // {ok}: the words the canvas draws around the engine's facts (a JSON
  // object of the canvas.* messages without the prefix: canvasWords)
  setWords(words: string): string;
  setMotion(mode: "reduce" | "full"): string; // reduce: state changes cut instead of glide
  select(kind: "" | "pod" | "node", key: string): string;
  // DetailsReply; for a pod, attempt (1-based, "0" or absent: the last) picks the cycle to explain
  details(kind: "pod" | "node", key: string, attempt?: string): string;
  // {ok, x, y, w, h, labelPx}: where it is drawn and the size of its name, in CSS px of the frame
  locate(kind: "pod" | "node", key: string): string;
  // "true": each event's camera frames what it involves; "false": the whole cluster
  setFollow(on: string): string;
  setPresenter(on: "true" | "false"): string; // presenter mode: names of 18 CSS px where chips have room, a closer fit
  outline(): string; // Outline: the shown scene as text
  collect(): string; // {ok, collected}: collect garbage now if much waits (as playback starts)
  prefetch(seq: string, ms: string): string; // {ok, done}: build the scene after event seq ahead of its seek, for up to ms; call again until done
  // prepare does ahead the copying the next load of similar text needs
  // (call it when idle), for about milliseconds (none: all of it); the
  // reply's done says whether it is all done.
  prepare(milliseconds?: string): string;
  // warm runs the warm-up (a made-up cluster loaded, simulated and laid
  // out on a session of its own, nothing shown) for about milliseconds
  // (none: all of it); done says whether it is all done. Call it when idle.
  warm(milliseconds?: string): string;
  question(id: string): string; // QuestionReply: where playback stops to ask (ready once the run got there)
  answer(id: string, given: string, reveal?: "true" | "false"): string; // AnswerReply: the run's answer and whether given matches it; right or reveal closes the question
  setQuiz(on: "true" | "false"): string; // course lessons: the trace stops before an open question's answer until it is answered
  setListener(fn: (eventJSON: string) => void): void;
}

// WarmReport is what the warm-up worker (warm-worker.ts, started by the
// stage frame's schedplayWarm) reports: the time its warm-up took in Go
// and the memory its instance had then, or why it did not run.
export interface WarmReport { ok: boolean; ms?: number; sysMB?: number; error?: string }

export interface QuestionReply { ok: boolean; ready: boolean; seq: number; t: number; nodes: string[]; pods: string[]; error?: string }
export interface Answer { question: string; ask: string; nodes: string[] | null; pods?: string[]; t?: number; seq: number; why: string; criterion?: string }
export interface AnswerReply { ok: boolean; ready: boolean; right: boolean; answer?: Answer; error?: string }
