// Package contract holds the JSON shapes of docs/contract.md in the
// repository (the `explain` and `simulate` outputs). It has no Kubernetes dependency so that
// the compare tool can parse both sides with it.
package contract

// Explain is the output of `explain FILE --pod NS/NAME --output json`.
type Explain struct {
	Pod        string       `json:"pod"`
	Nodes      []NodeResult `json:"nodes"`
	Selected   []string     `json:"selected"`
	Message    string       `json:"message"`
	Preemption *Preemption  `json:"preemption"`
	// Skipped (an addition) names the plugins whose PreFilter or PreScore
	// returned Skip, in profile order; compared when upstream's side has it.
	Skipped *Skipped `json:"skipped,omitempty"`
}

// Skipped are an explain's skip sets: Filter plugins whose PreFilter
// returned Skip, Score plugins whose PreScore returned Skip.
type Skipped struct {
	Filter []string `json:"filter,omitempty"`
	Score  []string `json:"score,omitempty"`
}

// NodeResult is one node of an explain run.
type NodeResult struct {
	Name     string           `json:"name"`
	Feasible bool             `json:"feasible"`
	Plugin   string           `json:"plugin,omitempty"`
	Reasons  []string         `json:"reasons,omitempty"`
	Scores   map[string]int64 `json:"scores,omitempty"`
	// Weighted (an addition): each plugin's normalized score times its
	// weight; compared when upstream's side has it.
	Weighted map[string]int64 `json:"weighted,omitempty"`
	Total    *int64           `json:"total,omitempty"`
}

// Preemption is the dry run of DefaultPreemption over every candidate node.
type Preemption struct {
	Candidates map[string]Candidate `json:"candidates"`
	Nominated  []string             `json:"nominated"`
}

// Candidate is one node on which preemption would let the pod fit.
type Candidate struct {
	Victims       []string `json:"victims"`
	PDBViolations int      `json:"pdbViolations"`
}

// Simulate is the output of `simulate FILE --output json`.
type Simulate struct {
	Pods []SimPod `json:"pods"`
	// Ambiguities (upstream harness only, an extra field): the cycles in which upstream
	// chose at random. A scenario with any is not determined by the contract.
	Ambiguities []string `json:"ambiguities,omitempty"`
}

// SimPod is the final state of one input pod.
type SimPod struct {
	Namespace     string `json:"namespace"`
	Name          string `json:"name"`
	Phase         string `json:"phase"`
	Node          string `json:"node"`
	NominatedNode string `json:"nominatedNode"`
}

// Phases used in SimPod.Phase.
const (
	PhaseRunning = "Running"
	PhasePending = "Pending"
	PhaseDeleted = "Deleted"
	// A pod the scenario gives as finished (status.phase) stays so: the scheduler
	// never lists it.
	PhaseSucceeded = "Succeeded"
	PhaseFailed    = "Failed"
)
