package adapt

import (
	"errors"
	"fmt"
	"slices"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui"
)

// Budget bounds what the page simulates, so that a scenario from a link
// cannot freeze or exhaust the tab.
type Budget struct {
	Nodes  int `json:"nodes"`
	Pods   int `json:"pods"`
	Events int `json:"events"`
}

// DefaultBudget is what the playground allows: the loader's limits
// (scenario.DefaultLimits, which refuse a bigger scenario while reading
// it) and an event budget.
var DefaultBudget = Budget{Nodes: scenario.DefaultLimits.Nodes, Pods: scenario.DefaultLimits.Pods, Events: 100000}

// Run is a scenario being simulated for playback: the simulation grows its
// trace a few events at a time (Step), and SceneAt turns the state after any
// event so far into the canvas's scene.
type Run struct {
	sc      *scenario.Scenario
	sim     *engine.Simulation
	base    *ui.Scene
	zoneKey string
	classes []ui.PriorityClass
	// byPod indexes the trace by pod: the events of each pod, in order.
	byPod   map[string][]int
	indexed int
	// views caches what SceneAt reads off the simulation's objects, which
	// only change while it steps: the pod chips' fixed fields by object,
	// and the node objects by name (NodeObject scans every node).
	views struct {
		// pods index list (a map of small values: at 5,000 pods a map of
		// chips allocated each one apart).
		pods  map[*api.Pod]int32
		list  []ui.Pod
		nodes map[string]*api.Node
	}
	// buf is what SceneAt reuses from build to build, bufYield
	// SceneAtYield's; last is the last scene either built.
	buf, bufYield sceneBuf
	last          *ui.Scene
	// fileKeys are the scenario's pods' keys in the file's order, made
	// when a scene first has pods in no queue (the t=0 view has them).
	fileKeys []string
	// room is what every scene makes room for once the run is done.
	room *ui.Room
	// Stopped explains why the run ended early or never ran ("" if not).
	Stopped string
	done    bool
	// over: the scenario is over the budget; its simulation shows the t=0
	// state only and its trace (the queue's first events) is not played.
	over   bool
	budget Budget
}

// NewRun prepares playback of a loaded scenario. A scenario over the
// budget's nodes or pods is not simulated: Stopped says so and the scene
// stays the t=0 view. Every scene, the t=0 one too, is built from the
// engine's state (Simulation.StateAt).
func NewRun(sc *scenario.Scenario, b Budget) (*Run, error) { return newRun(sc, b, nil) }

// errRunCancelled is newRun stopped by its yield hook.
var errRunCancelled = errors.New("preparing the run was cancelled")

// newRun is NewRun calling yield (nil: never) after starting the
// simulation and every few hundred pods of the t=0 scene, which at 5,000
// pods takes as long as the start (a page that loads in steps returns to
// its event loop there); when yield returns false it stops with
// errRunCancelled.
func newRun(sc *scenario.Scenario, b Budget, yield func() bool) (*Run, error) {
	r := &Run{sc: sc, byPod: map[string][]int{}, budget: b, zoneKey: ZoneKey(sc), classes: classes(sc)}
	// The pods enter the queue as the run's first steps, after the t=0
	// view is on screen (StartSimulation).
	sim, err := engine.StartSimulation(sc, engine.Options{MaxEvents: b.Events})
	if err != nil {
		return nil, fmt.Errorf("starting the simulation: %w", err)
	}
	r.sim = sim
	if pods := len(sc.Pods); len(sc.Nodes) > b.Nodes || pods > b.Pods {
		r.Stopped = fmt.Sprintf("not simulated: the scenario has %d nodes and %d pods; the playground simulates at most %d nodes and %d pods", len(sc.Nodes), pods, b.Nodes, b.Pods)
		r.done, r.over = true, true
	}
	if yield != nil && !yield() {
		return nil, errRunCancelled
	}
	if r.base = r.sceneAt(-1, &r.buf, yield); r.base == nil {
		return nil, errRunCancelled
	}
	// The trace (its pods entering the queue) is indexed by the first
	// Step or PodEvents, after the t=0 view is on screen.
	return r, nil
}

// Base is the t=0 scene, before anything runs.
func (r *Run) Base() *ui.Scene { return r.base }

// Scenario is the scenario being played.
func (r *Run) Scenario() *scenario.Scenario { return r.sc }

// Sim is the simulation (never stepped when the scenario is over budget).
func (r *Run) Sim() *engine.Simulation { return r.sim }

// Done reports whether the trace is complete (or stopped at a budget).
func (r *Run) Done() bool { return r.done }

// Trace returns the events so far (none when over the budget).
func (r *Run) Trace() []engine.Event {
	if r.over {
		return nil
	}
	return r.sim.Trace()
}

// Step simulates about n more events; it reports done at the end.
func (r *Run) Step(n int) bool {
	if r.done {
		return true
	}
	done, err := r.sim.Step(n)
	r.index()
	r.views.pods, r.views.list, r.views.nodes = nil, nil, nil // stepping may update objects
	if err != nil {
		r.Stopped = fmt.Sprintf("stopped at t=%v after %d events: ", r.sim.Now(), len(r.sim.Trace()))
		if errors.Is(err, engine.ErrEventBudget) {
			r.Stopped += fmt.Sprintf("the playground's budget is %d events; the trace so far can be played", r.budget.Events)
		} else {
			r.Stopped += err.Error()
		}
	}
	r.done = done
	if done {
		// From now on every scene, the t=0 one too, makes room for the
		// most each card and the lane hold over the whole trace.
		cards, pending := r.sim.Peaks()
		r.room = &ui.Room{Cards: cards, Pending: pending}
		b := *r.base
		b.Room = r.room
		r.base = &b
	}
	return done
}

func (r *Run) index() {
	tr := r.Trace()
	for ; r.indexed < len(tr); r.indexed++ {
		e := &tr[r.indexed]
		if e.Pod != "" {
			r.byPod[e.Pod] = append(r.byPod[e.Pod], e.Seq)
		}
	}
}

// PodEvents returns the seqs of the events about pod key, up to seq.
func (r *Run) PodEvents(key string, seq int) []int {
	r.index()
	var out []int
	for _, i := range r.byPod[key] {
		if i > seq {
			break
		}
		out = append(out, i)
	}
	return out
}

func seconds(d engine.Duration) float64 { return float64(d) / 1e9 }

// SceneAt is the cluster right after event seq; seq < 0 is the t=0 view
// (Base).
func (r *Run) SceneAt(seq int) *ui.Scene { return r.sceneAt(seq, &r.buf, nil) }

// SceneAtYield is SceneAt for building a scene in slices between frames:
// it calls yield every few hundred pods and gives up (nil) when yield
// returns false. It fills a state of its own, so that SceneAt calls made
// while it waits in yield leave it undisturbed.
func (r *Run) SceneAtYield(seq int, yield func() bool) *ui.Scene {
	return r.sceneAt(seq, &r.bufYield, yield)
}

// sceneBuf is what one way of building scenes reuses from build to build:
// the engine's state and the pods of every card before they are sorted out
// (see sceneAt). A scene keeps nothing of it.
type sceneBuf struct {
	state *engine.State
	bound []ui.Pod
}

// yieldEvery is how many pods SceneAtYield handles between yields: well
// under a millisecond in the browser.
const yieldEvery = 512

func (r *Run) sceneAt(seq int, buf *sceneBuf, yield func() bool) *ui.Scene {
	tr := r.Trace()
	if (seq < 0 || len(tr) == 0) && r.base != nil {
		return r.base
	}
	seq = min(max(seq, -1), len(tr)-1)
	st := r.sim.StateAtInto(seq, buf.state)
	buf.state = st
	paused := func(i int) bool { return yield != nil && i%yieldEvery == yieldEvery-1 && !yield() }
	out := &ui.Scene{ZoneKey: r.zoneKey, Classes: r.classes, Nodes: make([]ui.Node, 0, len(st.Nodes)), Pending: []ui.Pod{}}
	nodeAt := make(map[string]int, len(st.Nodes))
	used := make([]ui.Resources, len(st.Nodes))
	for i, ns := range st.Nodes {
		used[i] = ui.Resources{MilliCPU: ns.Requested.CPU, Memory: ns.Requested.Memory, Pods: ns.Requested.Pods}
		vn := ui.Node{Name: ns.Name, Unschedulable: ns.Unschedulable,
			Allocatable: ui.Resources{MilliCPU: ns.Allocatable.CPU, Memory: ns.Allocatable.Memory, Pods: ns.Allocatable.Pods},
			Used:        &used[i]}
		if n := r.nodeObject(ns.Name); n != nil {
			vn.Labels, vn.Zone = n.Labels, n.Labels[r.zoneKey]
		}
		for _, t := range ns.Taints {
			vn.Taints = append(vn.Taints, ui.Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
		}
		nodeAt[ns.Name] = len(out.Nodes)
		out.Nodes = append(out.Nodes, vn)
	}
	// The cards' pods are gathered into one reused array, each node's part
	// sized by a count first; then a card whose pods are those of the last
	// scene built shares that scene's list, and only the others are copied
	// out (an event changes a few cards: copying 5,000 pods per scene was
	// most of playback's garbage, and so of the collector's pauses).
	counts := make([]int, len(out.Nodes)+1)
	for j, ps := range st.Pods {
		if paused(j) {
			return nil
		}
		if ps.Phase == engine.PhaseRunning || finishedOnNode(ps) {
			if i, ok := nodeAt[ps.Node]; ok {
				counts[i+1]++
			}
		}
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	buf.bound = slices.Grow(buf.bound[:0], counts[len(counts)-1])[:counts[len(counts)-1]]
	bound := buf.bound
	for i := range out.Nodes {
		out.Nodes[i].Pods = bound[counts[i]:counts[i]:counts[i+1]] // capped: appends stay in the node's part
	}
	// Every pod not on a card may wait in the lane: room for them up front
	// (at t=0, thousands) spares the map and the list growing step by step.
	waiting := len(st.Pods) - counts[len(counts)-1]
	pending := waitingPods{at: make(map[string]int32, waiting), pods: make([]ui.Pod, 0, waiting)}
	now := seconds(st.T)
	for j, ps := range st.Pods {
		if paused(j) {
			return nil
		}
		if ps.Phase == engine.PhaseDeleted || (ps.Phase == engine.PhaseSucceeded || ps.Phase == engine.PhaseFailed) && !finishedOnNode(ps) {
			continue // a deleted pod, or a finished one never bound: nothing to draw
		}
		vp, ok := r.podView(ps.Key, seq >= 0)
		if !ok {
			continue
		}
		if finishedOnNode(ps) {
			// Still on its node but holding nothing (the node's Used is
			// the engine's total): drawn dimmed, with why it ended.
			if i, ok := nodeAt[ps.Node]; ok {
				vp.Node, vp.Phase, vp.Priority, vp.Reason = ps.Node, string(ps.Phase), ps.Priority, ps.LastReason
				out.Nodes[i].Pods = append(out.Nodes[i].Pods, vp)
			}
			continue
		}
		vp.Node, vp.NominatedNode, vp.Phase, vp.Priority = ps.Node, ps.NominatedNode, string(ps.Phase), ps.Priority
		if ps.Phase == engine.PhaseRunning {
			if ps.Termination != nil {
				vp.Termination = termination(ps.Termination)
			}
			if i, ok := nodeAt[ps.Node]; ok {
				out.Nodes[i].Pods = append(out.Nodes[i].Pods, vp)
				continue
			}
			// Bound to a node the cluster does not have: it waits in the
			// lane, with the reason.
			vp.Reason = "bound to node " + ps.Node + ", which is not in the scenario"
			pending.put(ps.Key, vp)
			continue
		}
		vp.Queue, vp.Reason = ps.Queue, ps.LastReason
		if ps.Queue == ui.QueueBackoff {
			vp.BackoffUntil = now + seconds(ps.BackoffRemaining)
		}
		if ps.Queue == ui.QueueActive || ps.Queue == "" {
			vp.Reason = ""
		}
		if i, ok := nodeAt[ps.NominatedNode]; ok {
			g := vp
			g.Ghost = true
			out.Nodes[i].Ghosts = append(out.Nodes[i].Ghosts, g)
		}
		pending.put(ps.Key, vp)
	}
	last := r.last
	for i := range out.Nodes {
		n := &out.Nodes[i]
		if last != nil && i < len(last.Nodes) && last.Nodes[i].Name == n.Name && slices.Equal(last.Nodes[i].Pods, n.Pods) {
			n.Pods = last.Nodes[i].Pods
		} else {
			n.Pods = slices.Clip(slices.Clone(n.Pods))
		}
	}
	// The lane shows each sub-queue in the engine's order.
	for _, list := range [][]engine.QueueEntry{st.Queue.ActiveQ, st.Queue.BackoffQ, st.Queue.Unschedulable, st.Queue.Gated} {
		for _, qe := range list {
			pending.take(qe.Pod)
		}
	}
	// Pending in no queue: before their first attempt (at t=0 the pods
	// enter the queue one event each) or for no such scheduler. In the
	// file's order, the order they enter the queue, so that one entering
	// it moves no other chip; then any created since, by key.
	if len(pending.at) > 0 {
		if r.fileKeys == nil {
			r.fileKeys = api.PodKeys(r.sc.Pods)
		}
		for _, k := range r.fileKeys {
			pending.take(k)
		}
		for _, ps := range st.Pods {
			pending.take(ps.Key)
		}
	}
	out.Pending = pending.lane()
	out.Room = r.room
	if seq >= 0 {
		e := tr[seq]
		out.Event = &ui.SceneEvent{Seq: e.Seq, T: seconds(e.T), Kind: e.Kind, Pod: e.Pod, Node: e.Node, Victims: e.Victims, Reason: e.Reason}
		out.Event.FocusNodes, out.Event.FocusPods = focus(&e)
	}
	r.last = out
	return out
}

// waitingPods are a scene's chips for the lane by pod key, before they
// are put in the lane's order.
type waitingPods struct {
	at   map[string]int32 // index in pods
	pods []ui.Pod
	// order are the indexes in pods of the chips taken, in the lane's
	// order.
	order []int32
}

func (w *waitingPods) put(key string, vp ui.Pod) {
	w.at[key] = int32(len(w.pods))
	w.pods = append(w.pods, vp)
}

// take puts key's chip next in the lane, once.
func (w *waitingPods) take(key string) {
	i, ok := w.at[key]
	if !ok {
		return
	}
	delete(w.at, key)
	if w.order == nil {
		w.order = make([]int32, 0, len(w.pods))
	}
	w.order = append(w.order, i)
}

// lane is the chips taken, in the order taken. When every chip was taken
// (as sceneAt takes them) they are put in that order in place: a second
// list of 5,000 chips at t=0 was a megabyte for the collector.
func (w *waitingPods) lane() []ui.Pod {
	if len(w.order) != len(w.pods) {
		out := make([]ui.Pod, len(w.order))
		for k, i := range w.order {
			out[k] = w.pods[i]
		}
		return out
	}
	// pods[k] becomes pods[order[k]], one cycle of the permutation at a
	// time; a moved chip's order is marked -1.
	pods, order := w.pods, w.order
	for k := range order {
		if order[k] < 0 {
			continue
		}
		first, j := pods[k], k
		for {
			from := int(order[j])
			order[j] = -1
			if from == k {
				pods[j] = first
				break
			}
			pods[j] = pods[from]
			j = from
		}
	}
	return pods
}

// podView is pod() of the simulation's object for key, cached until the
// next Step when keep is set. The t=0 scene does not keep them: it is
// built once (Base), and the first Step, which makes the next scene's
// event, drops the cache (at 5,000 pods a megabyte of chips and a map
// for the collector before the first frame).
func (r *Run) podView(key string, keep bool) (ui.Pod, bool) {
	p := r.sim.PodObject(key)
	if p == nil {
		return ui.Pod{}, false
	}
	if !keep && r.views.pods == nil {
		return pod(p), true
	}
	if r.views.pods == nil {
		r.views.pods = make(map[*api.Pod]int32, len(r.sc.Pods))
		r.views.list = make([]ui.Pod, 0, len(r.sc.Pods))
	}
	if i, ok := r.views.pods[p]; ok {
		return r.views.list[i], true
	}
	vp := pod(p)
	r.views.pods[p] = int32(len(r.views.list))
	r.views.list = append(r.views.list, vp)
	return vp, true
}

// nodeObject is the simulation's NodeObject, cached until the next Step.
func (r *Run) nodeObject(name string) *api.Node {
	n, ok := r.views.nodes[name]
	if !ok {
		if r.views.nodes == nil {
			r.views.nodes = map[string]*api.Node{}
		}
		n = r.sim.NodeObject(name)
		r.views.nodes[name] = n
	}
	return n
}

// termination is the engine's plan of a pod's way out as the chip counts
// it down: the preStop hook until SIGTERM, then SIGTERM until the pod is
// gone or, when its containers outlive the grace period, SIGKILL.
func termination(t *engine.Termination) *ui.Termination {
	out := &ui.Termination{Started: seconds(t.Started), Stage: "SIGTERM", Next: "gone", StageEnds: seconds(t.End), Ends: seconds(t.End), Eviction: t.Eviction}
	if t.PreStop {
		out.Stage, out.Next, out.StageEnds = "preStop", "SIGTERM", seconds(t.Sigterm)
	} else if t.Killed {
		out.Next = "SIGKILL"
	}
	return out
}

// Spread is the selected pod's topology spread as PodTopologySpread
// counts it against the cluster right after event seq (-1: t=0): the
// engine's SpreadView (Simulation.SpreadAt) in the overlay's terms. Nil
// when the plugin has nothing to say about the pod.
func (r *Run) Spread(seq int, key string) ([]ui.SpreadConstraint, error) {
	v, err := r.sim.SpreadAt(key, seq)
	if err != nil || v == nil {
		return nil, err
	}
	var out []ui.SpreadConstraint
	for i, c := range v.Constraints {
		sc := ui.SpreadConstraint{Key: c.TopologyKey, MaxSkew: c.MaxSkew, Min: c.Min, Default: c.Default,
			NodeDomain: map[string]string{}, NodeSkew: map[string]int{}}
		for _, d := range c.Domains {
			sc.Domains = append(sc.Domains, ui.SpreadDomain{Name: d.Value, Count: d.Count, Skew: d.Skew})
		}
		for _, n := range v.Nodes {
			if sk := n.Skews[i]; sk.Has {
				sc.NodeDomain[n.Name], sc.NodeSkew[n.Name] = sk.Value, sk.Skew
			}
		}
		out = append(out, sc)
	}
	return out, nil
}

// finishedOnNode: a Succeeded or Failed pod still bound to a node (a
// completed Job pod in a dump, an evicted pod). The scheduler does not see
// it; the card shows it dimmed.
func finishedOnNode(ps engine.PodState) bool {
	return (ps.Phase == engine.PhaseSucceeded || ps.Phase == engine.PhaseFailed) && ps.Node != ""
}
