package ui

// SearchView is one scheduling cycle's partial node search, as the
// engine's explain laid it out (ui/adapt copies it; nothing here counts):
// from 100 nodes kube-scheduler filters from a rotating start until it has
// Want feasible nodes, so some nodes are never looked at.
type SearchView struct {
	// Pod is the pod whose cycle this is.
	Pod string `json:"pod"`
	// Nodes is how many nodes the search walks; Evaluated how many it
	// filtered, Feasible how many of those fit.
	Nodes     int `json:"nodes"`
	Evaluated int `json:"evaluated"`
	Feasible  int `json:"feasible"`
	// Want is numFeasibleNodesToFind; Percentage the
	// percentageOfNodesToScore in force (0: adaptive).
	Want       int32 `json:"want"`
	Percentage int32 `json:"percentage"`
	// Start is where the search began; StoppedOn the feasible node past
	// Want that ended it.
	Start     string `json:"start"`
	StoppedOn string `json:"stoppedOn,omitempty"`
	// NotEvaluated are the nodes the search never reached.
	NotEvaluated map[string]bool `json:"-"`
	// CouldTake counts the nodes a search with several workers could
	// have chosen (timing decides which it finds); Tie the nodes that
	// shared the top total.
	CouldTake int      `json:"couldTake,omitempty"`
	Tie       []string `json:"tie,omitempty"`
}
