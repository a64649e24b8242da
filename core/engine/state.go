package engine

import (
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/queue"
)

// Scrubbing design: the browser asks for the cluster at event i many times
// a second, so the simulation keeps, while it runs, a compact row log:
// each event stores the rows (one per pod or node) it changed, and every K
// events a checkpoint stores all rows. StateAt copies the nearest earlier
// checkpoint and applies at most K deltas, so a frame costs O(K + rows)
// whatever i is. K grows with the cluster (max(64, rows)) so checkpoints
// never take more memory than the deltas between them, i.e. the log stays
// linear in the number of events. Rows are plain values: no pointers into
// the live simulation, which keeps changing.

// PodState is one pod as the UI draws it.
type PodState struct {
	Key           string   `json:"key"`
	Phase         PodPhase `json:"phase"`
	Node          string   `json:"node,omitempty"`
	NominatedNode string   `json:"nominatedNode,omitempty"`
	Priority      int32    `json:"priority"`
	// TerminatingUntil is when a graceful deletion or eviction ends.
	TerminatingUntil *Duration `json:"terminatingUntil,omitempty"`
	// Termination is the plan of that deletion or eviction, as the
	// kubelet times it (termination.KubeletPlan): the same plan that
	// schedules its SIGTERM, SIGKILL and end.
	Termination *Termination `json:"termination,omitempty"`
	// Queue is the sub-queue of a pending pod ("" while not queued).
	Queue string `json:"queue,omitempty"`
	// QueuePosition is the 0-based index in Queue's order.
	QueuePosition int `json:"queuePosition"`
	// BackoffRemaining is what is left of the backoff in backoffQ.
	BackoffRemaining Duration `json:"backoffRemaining,omitempty"`
	LastReason       string   `json:"lastReason,omitempty"`

	queuedAt     time.Time
	backoffUntil time.Time
}

// Termination is a pod's way out, in simulated time since the start.
type Termination struct {
	// Started is when the deletion or eviction began (for a pod deleted
	// before the scenario starts, its deletionTimestamp less its grace
	// period, or 0 when that is not known).
	Started Duration `json:"started"`
	// Sigterm is when the containers get SIGTERM: when the preStop hooks
	// end, or Started without hooks.
	Sigterm Duration `json:"sigterm"`
	// End is when the pod is gone and its resources free.
	End Duration `json:"end"`
	// PreStop is set while the preStop hooks still run (SIGTERM not sent).
	PreStop bool `json:"preStop,omitempty"`
	// Killed: a container outlives the grace period and gets SIGKILL at End.
	Killed bool `json:"killed,omitempty"`
	// Eviction marks a kubelet eviction (no deletionTimestamp is set).
	Eviction bool `json:"eviction,omitempty"`
}

// NodeState is one node as the UI draws it.
type NodeState struct {
	Name          string        `json:"name"`
	Allocatable   NodeResources `json:"allocatable"`
	Requested     NodeResources `json:"requested"`
	Unschedulable bool          `json:"unschedulable,omitempty"`
	Taints        []api.Taint   `json:"taints,omitempty"`
	removed       bool
}

// NodeResources is a node's amounts of the resources the UI draws: fields,
// not a map, because the log keeps two per node row per event (in the
// JSON, the keys of a map in their sorted order).
type NodeResources struct {
	// CPU is in millicores; Memory and EphemeralStorage in bytes.
	CPU              int64 `json:"cpu"`
	EphemeralStorage int64 `json:"ephemeral-storage"`
	Memory           int64 `json:"memory"`
	Pods             int64 `json:"pods"`
}

// QueueEntry is one pod in the queue view.
type QueueEntry struct {
	Pod string `json:"pod"`
	// BackoffRemaining is set in backoffQ.
	BackoffRemaining Duration `json:"backoffRemaining,omitempty"`
	// Reason is set for unschedulable pods: why the last cycle failed.
	Reason string `json:"reason,omitempty"`
}

// QueueState is the scheduling queue at an event.
type QueueState struct {
	ActiveQ       []QueueEntry `json:"activeQ"`
	BackoffQ      []QueueEntry `json:"backoffQ"`
	Unschedulable []QueueEntry `json:"unschedulable"`
	Gated         []QueueEntry `json:"gated"`
}

// State is the cluster right after one event.
type State struct {
	Seq   int         `json:"seq"`
	T     Duration    `json:"t"`
	Nodes []NodeState `json:"nodes"`
	Pods  []PodState  `json:"pods"`
	Queue QueueState  `json:"queue"`
}

// rows are the pods' and nodes' rows after some event. Pod rows are a
// slice in the order the log first met each pod (stateLog.podIndex), not a
// map: a PodState is too large for a map to hold in place (over 128
// bytes), so a map of them is one allocation per row, and a checkpoint
// copies 11,000 of them at 10,000 pending pods. Rows of pods met after the
// event are not in the slice.
type rows struct {
	pods  []PodState
	nodes map[string]NodeState
}

// clone copies the rows: the pods in one piece; the nodes with maps.Clone,
// which copies the map's groups as they are instead of hashing and placing
// every name again (string hashing is a byte loop in WebAssembly, which
// has no AES instructions to hash with).
func (r rows) clone() rows {
	return rows{pods: slices.Clone(r.pods), nodes: maps.Clone(r.nodes)}
}

// setPod stores a pod's row: in its place, or, for a pod met after the
// rows' event, at the end, which is its place when rows are brought
// forward event by event. It reports whether the pod is new to the rows.
func (r *rows) setPod(l *stateLog, p PodState) bool {
	i, ok := l.podIndex[p.Key]
	switch {
	case ok && i < len(r.pods):
		r.pods[i] = p
		return false
	case ok && i == len(r.pods):
		r.pods = append(r.pods, p)
		return true
	}
	panic("state log: pod " + p.Key + " out of the order it was logged in")
}

// pod returns a pod's row, if the rows have one.
func (r *rows) pod(l *stateLog, key string) (PodState, bool) {
	if i, ok := l.podIndex[key]; ok && i < len(r.pods) {
		return r.pods[i], true
	}
	return PodState{}, false
}

type delta struct {
	pods  []PodState
	nodes []NodeState
}

type checkpoint struct {
	seq  int
	rows rows
	// podOrder (indexes into rows.pods by key) and nodeNames are in key
	// order, when known (the start's: the simulation has them sorted
	// already).
	podOrder  []int
	nodeNames []string
}

type stateLog struct {
	cur rows
	// podIndex is each pod's place in rows.pods: the order the log first
	// met the pods (the start's in key order, then as events add them).
	// Every rows share it: a place never changes.
	podIndex map[string]int
	// curShared: cur are the start's checkpoint rows, not to be changed.
	curShared   bool
	deltas      []delta
	checkpoints []checkpoint
	// next is the first event that gets a checkpoint.
	next int
	// podRows and nodeRows hold the deltas' rows.
	podRows  arena[PodState]
	nodeRows arena[NodeState]
	// at is where the last StateAt left its rows: playback asks for the
	// next event again and again, which then costs a few deltas instead of
	// a checkpoint's copy.
	at stateCursor
}

// stateCursor is the rows after event seq, with their keys in order
// (rebuilt when a delta adds or removes one).
type stateCursor struct {
	seq  int
	rows rows
	// shared: rows are a checkpoint's, which stay as they are; the cursor
	// copies them before it applies a delta (own). Reading the state at a
	// checkpoint, the t=0 view above all, copies nothing.
	shared    bool
	podOrder  []int
	nodeNames []string
	keysStale bool
}

// seek moves the cursor to seq: forward by deltas from where it is when
// no checkpoint lies between, else from the nearest checkpoint at or
// before seq.
func (c *stateCursor) seek(l *stateLog, seq int) {
	cps := l.checkpoints
	i := sort.Search(len(cps), func(i int) bool { return cps[i].seq > seq }) - 1
	if c.rows.nodes == nil || seq < c.seq || cps[i].seq > c.seq {
		cp := &cps[i]
		c.rows, c.seq, c.shared, c.keysStale = cp.rows, cp.seq, true, cp.podOrder == nil
		if !c.keysStale {
			c.podOrder = append(c.podOrder[:0], cp.podOrder...)
			c.nodeNames = append(c.nodeNames[:0], cp.nodeNames...)
		}
	}
	if seq > c.seq {
		c.own()
	}
	for j := c.seq + 1; j <= seq; j++ {
		d := l.deltas[j]
		for _, p := range d.pods {
			if c.rows.setPod(l, p) {
				c.keysStale = true
			}
		}
		for _, n := range d.nodes {
			_, had := c.rows.nodes[n.Name]
			if n.removed {
				delete(c.rows.nodes, n.Name)
			} else {
				c.rows.nodes[n.Name] = n
			}
			if had == n.removed {
				c.keysStale = true
			}
		}
	}
	c.seq = seq
	if c.keysStale {
		c.podOrder = sortedPods(c.podOrder[:0], c.rows.pods)
		c.nodeNames = sortedKeys(c.nodeNames[:0], c.rows.nodes)
		c.keysStale = false
	}
}

// own gives the cursor rows of its own to change.
func (c *stateCursor) own() {
	if c.shared {
		c.rows, c.shared = c.rows.clone(), false
	}
}

// sortedPods appends to dst the indexes of pods in key order.
func sortedPods(dst []int, pods []PodState) []int {
	for i := range pods {
		dst = append(dst, i)
	}
	sort.Slice(dst, func(i, j int) bool { return pods[dst[i]].Key < pods[dst[j]].Key })
	return dst
}

func sortedKeys[V any](dst []string, m map[string]V) []string {
	for k := range m {
		dst = append(dst, k)
	}
	sort.Strings(dst)
	return dst
}

// Peaks is, over the t=0 state and the states after each event of the
// trace so far, the most
// pods each node held at once (running on it, terminating included, or
// not running with it as their nominated node) and the most pods that were
// neither running nor deleted at once. A view that makes room for these
// keeps its geometry while the trace plays. It walks the recorded deltas
// once, without building a state per event.
func (s *Simulation) Peaks() (nodes map[string]int, pending int) {
	nodes = map[string]int{}
	if len(s.trace) == 0 {
		return nodes, 0
	}
	var c stateCursor
	c.seek(&s.log, -1)
	c.own() // the walk below changes the rows
	held, waiting := map[string]int{}, 0
	place := func(p PodState, d int) {
		switch p.Phase {
		case PhaseRunning:
			held[p.Node] += d
			nodes[p.Node] = max(nodes[p.Node], held[p.Node])
		case PhaseDeleted, PhaseSucceeded, PhaseFailed:
		default:
			waiting += d
			pending = max(pending, waiting)
			if p.NominatedNode != "" {
				held[p.NominatedNode] += d
				nodes[p.NominatedNode] = max(nodes[p.NominatedNode], held[p.NominatedNode])
			}
		}
	}
	for _, p := range c.rows.pods {
		place(p, 1)
	}
	for j := 0; j < len(s.trace); j++ {
		// Every pod the event changed (one row each: its pod and its
		// victims) leaves its old place before any takes its new one: a
		// move is one state, never both places at once.
		d := s.log.deltas[j].pods
		for _, p := range d {
			if old, ok := c.rows.pod(&s.log, p.Key); ok {
				place(old, -1)
			}
		}
		for _, p := range d {
			c.rows.setPod(&s.log, p)
			place(p, 1)
		}
	}
	return nodes, pending
}

// podRow is the pod's row now, after e; prev is its last row.
func (s *Simulation) podRow(key string, prev PodState, e *Event) PodState {
	sp := s.pods[key]
	r := PodState{Key: key, Phase: sp.phase, Node: sp.pod.Spec.NodeName, NominatedNode: sp.pod.Status.NominatedNodeName,
		Priority: sp.pod.PriorityValue(), LastReason: prev.LastReason, Queue: prev.Queue, queuedAt: prev.queuedAt, backoffUntil: prev.backoffUntil}
	if e.Pod == key {
		r.LastReason = e.Reason
		if e.Queue != "" {
			r.Queue = e.Queue
		}
	}
	if sp.terminating && sp.term != nil {
		t := *sp.term // rows are values: later changes to the plan's state must not reach them
		r.Termination, r.TerminatingUntil = &t, &t.End
	}
	if r.LastReason == "" && (sp.phase == PhaseSucceeded || sp.phase == PhaseFailed) {
		r.LastReason = finishedReason(sp)
	}
	if sp.phase != PhasePending || sp.entry == nil {
		r.Queue = ""
	} else {
		r.queuedAt = sp.entry.Timestamp
		if r.Queue == string(queue.BackoffQ) {
			r.backoffUntil = s.queue.BackoffTime(sp.entry)
		}
	}
	return r
}

func (s *Simulation) nodeRow(name string) NodeState {
	ni, err := s.snap.Get(name)
	if err != nil {
		return NodeState{Name: name, removed: true}
	}
	n := ni.Node()
	return NodeState{Name: name, Unschedulable: n.Spec.Unschedulable, Taints: append([]api.Taint(nil), n.Spec.Taints...),
		Allocatable: NodeResources{CPU: ni.Allocatable.MilliCPU, Memory: ni.Allocatable.Memory, EphemeralStorage: ni.Allocatable.EphemeralStorage, Pods: int64(ni.Allocatable.AllowedPodNumber)},
		Requested:   NodeResources{CPU: ni.Requested.MilliCPU, Memory: ni.Requested.Memory, EphemeralStorage: ni.Requested.EphemeralStorage, Pods: int64(len(ni.Pods))}}
}

// start logs the rows of the cluster as loaded, before any event: the
// checkpoint of seq -1, which StateAt(-1) reads.
func (l *stateLog) start(s *Simulation) {
	l.cur = rows{pods: make([]PodState, len(s.order)), nodes: make(map[string]NodeState, s.snap.NumNodes())}
	l.podIndex = make(map[string]int, len(s.order))
	var none Event // no event: podRow only reads it
	for i, k := range s.order {
		l.podIndex[k] = i
		l.cur.pods[i] = s.podRow(k, PodState{}, &none)
	}
	for _, ni := range s.snap.List() {
		l.cur.nodes[ni.Node().Name] = s.nodeRow(ni.Node().Name)
	}
	// The checkpoint shares the rows until the first event changes them
	// (own), which comes after a load's t=0 view.
	// s.order is sorted (NewSimulation): the pods' places are in key order.
	order := make([]int, len(s.order))
	for i := range order {
		order[i] = i
	}
	l.checkpoints = append(l.checkpoints, checkpoint{seq: -1, rows: l.cur,
		podOrder: order, nodeNames: sortedKeys(nil, l.cur.nodes)})
	l.curShared = true
	l.next = l.checkpointEvery() - 1
}

// own gives the log current rows of its own to change.
func (l *stateLog) own() {
	if l.curShared {
		l.cur, l.curShared = l.cur.clone(), false
	}
}

// record logs the rows an event changed: its pod, the victims, the nodes
// they are on, and, after node changes, every node.
func (l *stateLog) record(s *Simulation, e *Event) {
	l.own()
	var d delta
	// The nodes whose rows change: a pod event touches one or two, so they
	// are gathered in a list; only node changes need a set over all nodes.
	var few [4]string
	names := few[:0]
	addNode := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	pods := l.podRows.take(1 + len(e.Victims))
	pod := func(k string) {
		if sp := s.pods[k]; sp != nil {
			i, ok := l.podIndex[k]
			if !ok {
				i = len(l.cur.pods)
				l.podIndex[k] = i
				l.cur.pods = append(l.cur.pods, PodState{})
			}
			r := s.podRow(k, l.cur.pods[i], e)
			l.cur.pods[i] = r
			pods = append(pods, r)
			addNode(r.Node)
		}
	}
	if e.Pod != "" {
		pod(e.Pod)
	}
	for _, v := range e.Victims {
		pod(v)
	}
	addNode(e.Node)
	if e.Kind == EvAction || e.Kind == EvPressure {
		all := map[string]bool{}
		for _, n := range names {
			all[n] = true
		}
		for _, n := range s.nodes {
			all[n.Name] = true
		}
		for k := range l.cur.nodes {
			all[k] = true
		}
		names = names[:0]
		for n := range all {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	d.pods = l.podRows.keep(pods)
	nodes := l.nodeRows.take(len(names))
	for _, n := range names {
		r := s.nodeRow(n)
		if r.removed {
			if _, ok := l.cur.nodes[n]; !ok {
				continue
			}
			delete(l.cur.nodes, n)
		} else {
			l.cur.nodes[n] = r
		}
		nodes = append(nodes, r)
	}
	d.nodes = l.nodeRows.keep(nodes)
	l.deltas = append(l.deltas, d)
	if e.Seq >= l.next {
		l.checkpoints = append(l.checkpoints, checkpoint{seq: e.Seq, rows: l.cur.clone()})
		l.next = e.Seq + l.checkpointEvery()
	}
}

// checkpointEvery is how many events a checkpoint covers: at least as many
// as it has rows, so checkpoints take no more room than the deltas.
func (l *stateLog) checkpointEvery() int {
	return max(64, len(l.cur.pods)+len(l.cur.nodes))
}

// arena hands out the slices of the deltas' rows from shared blocks: one
// allocation per block instead of two per event. A slice it returns is
// capped at its length, so nothing appended to it later reaches a
// neighbour's rows.
type arena[T any] struct {
	block []T
}

// arenaBlock is how many rows a block holds.
const arenaBlock = 256

// take returns an empty slice with room for n rows, the free end of the
// current block when it has that room.
func (a *arena[T]) take(n int) []T {
	if n > arenaBlock/4 {
		return make([]T, 0, n)
	}
	if cap(a.block)-len(a.block) < n {
		a.block = make([]T, 0, arenaBlock)
	}
	return a.block[len(a.block):len(a.block)]
}

// keep ends the use of a slice from take: its rows stay in the block.
func (a *arena[T]) keep(rows []T) []T {
	if len(rows) == 0 {
		return nil
	}
	if n := len(a.block); cap(a.block) > n && &a.block[:n+1][n] == &rows[0] {
		a.block = a.block[:n+len(rows)]
	}
	return rows[:len(rows):len(rows)]
}

// StateAt returns the cluster right after event seq (clamped to the
// trace); seq -1 is the cluster as loaded, before the first event.
func (s *Simulation) StateAt(seq int) *State { return s.StateAtInto(seq, nil) }

// StateAtInto is StateAt writing into st's slices instead of new ones (st
// nil: new ones), for a caller that reads each state once and drops it
// (playback builds a scene per event from 5,000 pod rows). Whatever st
// held is overwritten: nothing may keep references into it.
func (s *Simulation) StateAtInto(seq int, st *State) *State {
	seq = min(max(seq, -1), len(s.trace)-1)
	c := &s.log.at
	c.seek(&s.log, seq)
	var t Duration
	if seq >= 0 {
		t = s.trace[seq].T
	}
	now := s.sc.T0.Add(time.Duration(t))
	if st == nil {
		st = &State{}
	}
	reuse := func(q []QueueEntry) []QueueEntry {
		if q == nil {
			return []QueueEntry{}
		}
		return q[:0]
	}
	nodes, pods := st.Nodes[:0], st.Pods[:0]
	if nodes == nil || cap(nodes) < len(c.nodeNames) { // never nil: JSON says [] for none
		nodes = make([]NodeState, 0, len(c.nodeNames))
	}
	if pods == nil || cap(pods) < len(c.podOrder) {
		pods = make([]PodState, 0, len(c.podOrder))
	}
	*st = State{Seq: seq, T: t, Queue: QueueState{ActiveQ: reuse(st.Queue.ActiveQ), BackoffQ: reuse(st.Queue.BackoffQ), Unschedulable: reuse(st.Queue.Unschedulable), Gated: reuse(st.Queue.Gated)},
		Nodes: nodes, Pods: pods}
	for _, name := range c.nodeNames {
		st.Nodes = append(st.Nodes, c.rows.nodes[name])
	}
	for _, i := range c.podOrder {
		st.Pods = append(st.Pods, c.rows.pods[i])
	}
	byQueue := map[string][]*PodState{}
	for i := range st.Pods {
		p := &st.Pods[i]
		if p.Queue != "" {
			byQueue[p.Queue] = append(byQueue[p.Queue], p)
		}
	}
	// activeQ in PrioritySort order; backoffQ by expiry; the rest by key.
	sort.SliceStable(byQueue[string(queue.ActiveQ)], func(i, j int) bool {
		a, b := byQueue[string(queue.ActiveQ)][i], byQueue[string(queue.ActiveQ)][j]
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		return a.queuedAt.Before(b.queuedAt)
	})
	sort.SliceStable(byQueue[string(queue.BackoffQ)], func(i, j int) bool {
		return byQueue[string(queue.BackoffQ)][i].backoffUntil.Before(byQueue[string(queue.BackoffQ)][j].backoffUntil)
	})
	for q, list := range byQueue {
		for i, p := range list {
			p.QueuePosition = i
			qe := QueueEntry{Pod: p.Key}
			switch queue.Where(q) {
			case queue.ActiveQ:
				st.Queue.ActiveQ = append(st.Queue.ActiveQ, qe)
			case queue.BackoffQ:
				if p.backoffUntil.After(now) {
					p.BackoffRemaining = Duration(p.backoffUntil.Sub(now))
				}
				qe.BackoffRemaining = p.BackoffRemaining
				st.Queue.BackoffQ = append(st.Queue.BackoffQ, qe)
			case queue.Unschedulable:
				qe.Reason = p.LastReason
				st.Queue.Unschedulable = append(st.Queue.Unschedulable, qe)
			case queue.Gated:
				qe.Reason = p.LastReason
				st.Queue.Gated = append(st.Queue.Gated, qe)
			}
		}
	}
	return st
}
