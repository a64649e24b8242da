// Package ui draws a cluster on an ebiten canvas: zones as regions, nodes as
// cards with resource bars, pods as chips coloured by PriorityClass, and the
// pending pods in a queue lane.
//
// The only input of drawing is a Scene, a read-only view model built from
// whatever the engine reports; layout, camera, hit testing and animation are
// plain Go (tested natively), and the ebiten files (build tag js or ebiten)
// only turn their results into pixels.
package ui

import (
	"sort"
	"strconv"
)

// Resources is an amount of the three resources a node card shows.
type Resources struct {
	MilliCPU int64 `json:"milliCPU"`
	Memory   int64 `json:"memory"`
	Pods     int64 `json:"pods"`
}

// Add returns r+o.
func (r Resources) Add(o Resources) Resources {
	return Resources{MilliCPU: r.MilliCPU + o.MilliCPU, Memory: r.Memory + o.Memory, Pods: r.Pods + o.Pods}
}

// Taint is a node taint as shown on a card.
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	Effect string `json:"effect"`
}

// String renders the taint the way kubectl describe does: key=value:Effect.
func (t Taint) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	return s + ":" + t.Effect
}

// Pod is one pod of the scene, bound or pending.
type Pod struct {
	Namespace     string    `json:"namespace"`
	Name          string    `json:"name"`
	Node          string    `json:"node,omitempty"`
	PriorityClass string    `json:"priorityClass,omitempty"`
	Priority      int32     `json:"priority"`
	Phase         string    `json:"phase,omitempty"`
	NominatedNode string    `json:"nominatedNode,omitempty"`
	Requests      Resources `json:"requests"`
	// Reason says why a pending pod is pending, when the engine knows.
	Reason string `json:"reason,omitempty"`
	// Queue is the sub-queue of a pending pod: QueueActive, QueueBackoff,
	// QueueUnschedulable or QueueGated ("" before the simulation runs).
	Queue string `json:"queue,omitempty"`
	// BackoffUntil is when a pod in backoffQ may be tried again, in seconds
	// of simulated time.
	BackoffUntil float64 `json:"backoffUntil,omitempty"`
	// Termination is set while the pod is being deleted or evicted.
	Termination *Termination `json:"termination,omitempty"`
	// Ghost marks the reservation a nominated pod holds on its node's card.
	Ghost bool `json:"ghost,omitempty"`
}

// Finished reports a Succeeded or Failed pod: it holds nothing on its
// node and is drawn dimmed.
func (p *Pod) Finished() bool { return p.Phase == "Succeeded" || p.Phase == "Failed" }

// Sub-queues of the scheduling queue, as the engine names them.
const (
	QueueActive        = "activeQ"
	QueueBackoff       = "backoffQ"
	QueueUnschedulable = "unschedulable"
	QueueGated         = "gated"
)

// Termination is a pod's way out: the grace period's stages (preStop hook,
// then SIGTERM, then SIGKILL when the containers outlive the grace period).
type Termination struct {
	// Started is when the deletion or eviction began, in simulated seconds.
	Started float64 `json:"started"`
	// Stage is what runs now: "preStop" or "SIGTERM".
	Stage string `json:"stage"`
	// Next is what comes at StageEnds: "SIGTERM", "SIGKILL" or "gone".
	Next      string  `json:"next"`
	StageEnds float64 `json:"stageEnds"`
	// Ends is when the pod is gone and its resources free.
	Ends float64 `json:"ends"`
	// Eviction marks a kubelet eviction rather than a preemption or delete.
	Eviction bool `json:"eviction,omitempty"`
}

// Countdown is the label of a terminating pod at simulated time now in
// words w, for example "SIGTERM · SIGKILL in 12s".
func (t *Termination) Countdown(now float64, w *Words) string {
	w = wordsOr(w)
	return fill(w.Countdown, "stage", t.Stage, "next", t.NextWord(w), "left", FormatSeconds(max(t.StageEnds-now, 0)))
}

// NextWord is Next in words w: the signals are their names in any
// language, the pod's end is a word.
func (t *Termination) NextWord(w *Words) string {
	if t.Next == "gone" {
		return wordsOr(w).Gone
	}
	return t.Next
}

// Remaining is the share of the termination still to run, 1 to 0.
func (t *Termination) Remaining(now float64) float64 {
	if t.Ends <= t.Started {
		return 0
	}
	f := (t.Ends - now) / (t.Ends - t.Started)
	return min(max(f, 0), 1)
}

// Key returns namespace/name, the pod's identity on the canvas.
func (p *Pod) Key() string { return p.Namespace + "/" + p.Name }

// HasKey reports whether k is the pod's key, without building the key.
func (p *Pod) HasKey(k string) bool {
	n := len(p.Namespace)
	return len(k) == n+1+len(p.Name) && k[:n] == p.Namespace && k[n] == '/' && k[n+1:] == p.Name
}

// Node is one node card.
type Node struct {
	Name string `json:"name"`
	// Zone is the node's value of the scene's zone key; empty when unlabelled.
	Zone          string    `json:"zone,omitempty"`
	Allocatable   Resources `json:"allocatable"`
	Taints        []Taint   `json:"taints,omitempty"`
	Unschedulable bool      `json:"unschedulable,omitempty"`
	// Pods are the pods bound to the node, in the order to draw them.
	Pods []Pod `json:"pods,omitempty"`
	// Ghosts are pending pods nominated to the node: the room preemption
	// reserves for them, drawn after the node's pods.
	Ghosts []Pod `json:"ghosts,omitempty"`
	// Used, when set, is the engine's requested total (it counts what the
	// scheduler counts); otherwise Requested sums Pods.
	Used *Resources `json:"used,omitempty"`
	// Labels are the node's labels, for the topology overlay and details.
	Labels map[string]string `json:"labels,omitempty"`
}

// Requested sums the requests of the node's pods; pods counts one per pod,
// as the scheduler's NodeInfo does.
func (n *Node) Requested() Resources {
	if n.Used != nil {
		return *n.Used
	}
	var r Resources
	for i := range n.Pods {
		r = r.Add(Resources{MilliCPU: n.Pods[i].Requests.MilliCPU, Memory: n.Pods[i].Requests.Memory})
		r.Pods++
	}
	return r
}

// PriorityClass is an entry of the legend.
type PriorityClass struct {
	Name  string `json:"name"`
	Value int32  `json:"value"`
}

// Scene is everything the canvas shows at one moment.
type Scene struct {
	// ZoneKey is the node label that groups nodes into regions.
	ZoneKey string          `json:"zoneKey"`
	Nodes   []Node          `json:"nodes"`
	Pending []Pod           `json:"pending"`
	Classes []PriorityClass `json:"classes"`
	// Event is the trace event the scene shows the outcome of; nil at t=0
	// before anything ran.
	Event *SceneEvent `json:"event,omitempty"`
	// Spread is the topology spread overlay of the selected pod.
	Spread []SpreadConstraint `json:"spread,omitempty"`
	// Search is the node search of the selected pod's explained cycle:
	// the canvas dims the nodes it never looked at.
	Search *SearchView `json:"search,omitempty"`
	// Notice is a line the canvas shows on top (for example a budget).
	Notice string `json:"notice,omitempty"`
	// Room is what the layout makes room for beyond the scene's own chips
	// (nil: nothing), shared by the scenes of one run.
	Room *Room `json:"-"`
}

// Room is the most chips each card (by node name) and the queue lane hold
// at any event of a run: cards and lane sized for these keep the layout's
// geometry while the run plays, so that only the pods move. Sized to each
// scene instead, a card that gained a row of chips pushed every card below
// it, and the whole cluster was refitted, at nearly every event.
type Room struct {
	Cards   map[string]int
	Pending int
}

// card is the chips node's card makes room for.
func (r *Room) card(node *Node) int {
	n := len(node.Pods) + len(node.Ghosts)
	if r != nil {
		n = max(n, r.Cards[node.Name])
	}
	return n
}

// SceneEvent is the trace event just played: the canvas marks its pod and
// node and captions it.
type SceneEvent struct {
	Seq     int      `json:"seq"`
	T       float64  `json:"t"`
	Kind    string   `json:"kind"`
	Pod     string   `json:"pod,omitempty"`
	Node    string   `json:"node,omitempty"`
	Victims []string `json:"victims,omitempty"`
	Reason  string   `json:"reason"`
	// FocusNodes and FocusPods are what the event involves, for the
	// camera that follows the action: its node (where a pod lands, the
	// nominated node, a victim's node) and its pods (the pod, the victims).
	FocusNodes []string `json:"focusNodes,omitempty"`
	FocusPods  []string `json:"focusPods,omitempty"`
}

// Caption is the line of the canvas's caption bar: the event just played,
// or at t=0 the words' Start (w nil: English).
func (s *Scene) Caption(w *Words) string {
	if s.Event == nil {
		return "t=0s  " + wordsOr(w).Start
	}
	return s.Event.Caption()
}

// CaptionAt is the caption bar's line for s shown as gen: gen 0 is the
// empty scene a canvas shows before anything loaded (the scenario has
// errors, or is still loading), which is no cluster as loaded.
func CaptionAt(s *Scene, gen int, w *Words) string {
	if gen == 0 {
		return wordsOr(w).NoCluster
	}
	return s.Caption(w)
}

// Caption is the one-line story of the event, for the canvas's caption bar.
func (e *SceneEvent) Caption() string {
	s := "t=" + FormatSeconds(e.T) + "  " + e.Kind
	if e.Pod != "" {
		s += " " + e.Pod
	}
	if e.Node != "" {
		s += " → " + e.Node
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// SpreadConstraint is one DoNotSchedule topology spread constraint of the
// selected pod as PodTopologySpread counted it over the cluster the scene
// shows (the engine's answer; nothing here recounts).
type SpreadConstraint struct {
	Key     string `json:"key"`
	MaxSkew int32  `json:"maxSkew"`
	// Default marks one of the profile's default constraints (the pod
	// declares none).
	Default bool `json:"default,omitempty"`
	// Min is the global minimum the skew is measured against: the least
	// count over the eligible domains (0 while fewer than minDomains).
	Min int `json:"min"`
	// Domains are the eligible domains: nodes with every constraint's key
	// that pass the node inclusion policies form them.
	Domains []SpreadDomain `json:"domains"`
	// NodeDomain maps each node to its domain (absent: no such label).
	NodeDomain map[string]string `json:"nodeDomain"`
	// NodeSkew is the skew Filter computes for each node with the label.
	NodeSkew map[string]int `json:"nodeSkew"`
}

// SpreadFits is the overlay's verdict for a node: every constraint's key
// is on it and its skew is within maxSkew, which is Filter's rule.
func SpreadFits(cs []SpreadConstraint, node string) bool {
	for i := range cs {
		skew, ok := cs[i].NodeSkew[node]
		if !ok || skew > int(cs[i].MaxSkew) {
			return false
		}
	}
	return true
}

// SpreadDomain is one value of the constraint's topology key.
type SpreadDomain struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	// Skew is what the skew would be with the pod placed in this domain:
	// count + (1 if the pod matches the selector) - min.
	Skew int `json:"skew"`
}

// Domain returns the named domain of the constraint.
func (c *SpreadConstraint) Domain(name string) (SpreadDomain, bool) {
	for _, d := range c.Domains {
		if d.Name == name {
			return d, true
		}
	}
	return SpreadDomain{}, false
}

// Label is the overlay text for a domain in words w: "3 matching · skew
// 1"; the canvas draws a check or a cross after it (Within), as the font
// has neither symbol.
func (d SpreadDomain) Label(w *Words) string {
	return fill(wordsOr(w).Spread, "count", strconv.Itoa(d.Count), "skew", strconv.Itoa(d.Skew))
}

// Within reports whether the domain's skew is within maxSkew.
func (d SpreadDomain) Within(maxSkew int32) bool { return d.Skew <= int(maxSkew) }

// Zone is a region of the canvas and the nodes in it.
type Zone struct {
	// Name is the zone label value; empty for the region of unlabelled nodes.
	Name  string
	Nodes []*Node
}

// Zones groups the scene's nodes by zone, zones in name order and nodes in
// scene order within a zone; unlabelled nodes come last, in a region of their
// own.
func (s *Scene) Zones() []Zone {
	index := map[string]int{}
	var zones []Zone
	for i := range s.Nodes {
		n := &s.Nodes[i]
		j, ok := index[n.Zone]
		if !ok {
			j = len(zones)
			index[n.Zone] = j
			zones = append(zones, Zone{Name: n.Zone})
		}
		zones[j].Nodes = append(zones[j].Nodes, n)
	}
	sort.SliceStable(zones, func(a, b int) bool {
		za, zb := zones[a].Name, zones[b].Name
		if (za == "") != (zb == "") {
			return zb == ""
		}
		return za < zb
	})
	return zones
}

// FindPod returns the pod with the given key, bound or pending.
func (s *Scene) FindPod(key string) (*Pod, bool) {
	for i := range s.Pending {
		if s.Pending[i].Key() == key {
			return &s.Pending[i], true
		}
	}
	for i := range s.Nodes {
		for j := range s.Nodes[i].Pods {
			if s.Nodes[i].Pods[j].Key() == key {
				return &s.Nodes[i].Pods[j], true
			}
		}
	}
	return nil, false
}

// FindNode returns the node with the given name.
func (s *Scene) FindNode(name string) (*Node, bool) {
	for i := range s.Nodes {
		if s.Nodes[i].Name == name {
			return &s.Nodes[i], true
		}
	}
	return nil, false
}
