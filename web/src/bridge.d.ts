// The object the wasm build publishes as window.schedplay inside the stage
// frame (wasm/main.go). Every method takes strings and returns a JSON string;
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
  summary: { nodes: number; pods: number; pending: number };
  error?: string;
}

export interface Resources { milliCPU: number; memory: number; pods: number }

export interface Pod {
  namespace: string; name: string; node?: string; priorityClass?: string; priority: number;
  phase?: string; nominatedNode?: string; requests: Resources; reason?: string;
}

export interface Node {
  name: string; zone?: string; allocatable: Resources; unschedulable?: boolean;
  taints?: { key: string; value?: string; effect: string }[]; pods?: Pod[];
}

export interface DetailsReply { ok: boolean; kind: "pod" | "node"; pod?: Pod; node?: Node; error?: string }

export type BridgeEvent =
  | { type: "select"; kind: "" | "pod" | "node"; key: string }
  | { type: "drawn"; gen: number }
  | { type: "panic"; message: string; stack?: string }
  | { type: "fatal"; message: string };

export interface Bridge {
  load(name: string, text: string): string; // LoadReply
  setTheme(theme: "light" | "dark"): string;
  select(kind: "" | "pod" | "node", key: string): string;
  details(kind: "pod" | "node", key: string): string; // DetailsReply
  locate(kind: "pod" | "node", key: string): string; // {ok, x, y, w, h} in CSS px of the frame
  setListener(fn: (eventJSON: string) => void): void;
}
