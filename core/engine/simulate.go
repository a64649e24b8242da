package engine

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/controllers"
	"github.com/schedplay/schedplay/core/disruption"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/framework/runtime"
	"github.com/schedplay/schedplay/core/plugins"
	"github.com/schedplay/schedplay/core/plugins/queuesort"
	"github.com/schedplay/schedplay/core/queue"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
	"github.com/schedplay/schedplay/core/termination"
)

// IdleFlushInterval is how far the clock jumps when nothing can happen:
// long enough for the unschedulable-pods flush to move every waiting pod.
const IdleFlushInterval = queue.DefaultPodMaxInUnschedulablePodsDuration

// DefaultMaxEvents bounds a run; a scenario that hits it likely loops.
const DefaultMaxEvents = 50_000

// Options tune a simulation.
type Options struct {
	// Seed feeds every random choice upstream makes (the preemption dry
	// run's starting node). The same seed always gives the same trace.
	Seed uint64
	// MaxEvents stops a run that produces more trace events (0: default).
	MaxEvents int
}

// ErrEventBudget is returned when a run exceeds Options.MaxEvents.
var ErrEventBudget = errors.New("event budget exhausted")

// PodPhase is a pod's fate in the contract's words.
type PodPhase string

// Phases.
const (
	PhasePending PodPhase = "Pending"
	PhaseRunning PodPhase = "Running"
	PhaseDeleted PodPhase = "Deleted"
	// PhaseFailed is a pod the kubelet evicted (the object stays, Failed
	// with reason Evicted, until the pod garbage collector removes it, past
	// --terminated-pod-gc-threshold, 12,500 terminated pods by default,
	// which no scenario reaches), or one the file gives as Failed.
	// PhaseSucceeded is one the file gives as Succeeded. The scheduler's
	// informer lists neither (status.phase field selector): its node and
	// the scheduler no longer count it.
	PhaseFailed    PodPhase = "Failed"
	PhaseSucceeded PodPhase = "Succeeded"
)

// finishedPhase is the phase of a pod the file gives as finished.
func finishedPhase(p *api.Pod) PodPhase {
	if p.Status.Phase == api.PodFailed {
		return PhaseFailed
	}
	return PhaseSucceeded
}

// finishedReason says what a finished pod is to the scheduler.
func finishedReason(sp *simPod) string {
	what := "completed (status.phase Succeeded)"
	if sp.phase == PhaseFailed {
		what = "failed (status.phase Failed)"
	}
	return what + ": kube-scheduler's informer does not list finished pods, so its requests, ports and labels count nowhere and it is no preemption victim"
}

// gone reports whether the pod no longer runs nor waits: deleted, or
// finished (the scheduler's informer drops terminated pods, and controllers
// do not count them as active).
func (sp *simPod) gone() bool {
	return sp.phase == PhaseDeleted || sp.phase == PhaseSucceeded || sp.phase == PhaseFailed
}

// PodResult is one pod at the end of a run (the contract's simulate JSON).
type PodResult struct {
	Namespace     string   `json:"namespace"`
	Name          string   `json:"name"`
	Phase         PodPhase `json:"phase"`
	Node          string   `json:"node"`
	NominatedNode string   `json:"nominatedNode"`
	// Reason is the status reason of a Failed pod (Evicted).
	Reason string `json:"reason,omitempty"`
	// Priority and PreemptionPolicy are what admission resolved (for
	// lessons; the CLI's result leaves them out).
	Priority         int32  `json:"-"`
	PreemptionPolicy string `json:"-"`
}

// Result is what `simulate --output json` prints.
type Result struct {
	Pods []PodResult `json:"pods"`
}

type simPod struct {
	pod *api.Pod
	// key is pod.Key(), kept: the key is a new string each time it is built.
	key   string
	phase PodPhase
	entry *queue.Entry
	// terminating is set while a graceful deletion runs; term is its plan.
	terminating bool
	term        *Termination
	// evicted marks a kubelet eviction (no deletionTimestamp: the pod ends Failed).
	evicted bool
}

type profileRunner struct {
	fwk   *runtime.Framework
	sched *scheduler.Scheduler
}

// Simulation runs a scenario on a discrete-event clock.
type Simulation struct {
	sc        *scenario.Scenario
	opts      Options
	now       time.Time
	pods      map[string]*simPod
	order     []string
	snap      *framework.Snapshot
	nominated Nominations
	lister    *framework.Cluster
	queue     *queue.PriorityQueue
	profiles  map[string]*profileRunner
	timers    timerHeap
	timerSeq  int64
	trace     []Event
	changes   int
	rng       *rand.Rand
	pdbScale  disruption.ScaleLookup
	// nodes and pdbs are the simulation's own lists (the timeline changes them).
	nodes    []*api.Node
	pdbs     []*api.PodDisruptionBudget
	wl       workloads
	pressure map[string]*pressureState
	log      stateLog
	// flushMark is s.changes at the last idle flush; finished ends the run.
	flushMark int
	// errorMark is s.changes when pods backing off after an error last
	// went back to activeQ (retryAfterError).
	errorMark int
	// errorChange is s.changes when each pod last failed with an error:
	// while it is current, a retry would fail the same way.
	errorChange map[string]int
	finished    bool
	// beforeCycle, when set, sees each pod just before its cycle runs; true
	// stops the run there (ExplainAt uses it to look at a past cycle).
	beforeCycle func(p *api.Pod, r *profileRunner) bool
	// cycleState serves every cycle in turn (Reset keeps its map's room):
	// nothing holds a cycle's state once the cycle is over.
	cycleState *framework.CycleState
	// actuation is the preemption PostFilter handed over in this cycle.
	actuation *actuation
	// storage holds the claims and volumes (nil without any); storageLog
	// keeps each version for PodStorageAt.
	storage    *framework.Storage
	storageLog []storageVersion
	// cycles counts the pods popped for a cycle, as upstream's queue
	// numbers scheduling cycles (opportunistic batching reads it).
	cycles int64
	// waiting are the pending pods StartSimulation has not queued yet, of
	// waitingAll in the file; queued is set once all are. Until queued a
	// waiting pod's pod is the scenario's own, which nothing changes
	// before the pod is queued (only queueing runs until then, and the
	// answers read): it is copied as it enters the queue, into waitingCopies.
	waiting       []*simPod
	waitingAll    int
	waitingCopies []api.Pod
	queued        bool
}

// NewSimulation prepares a run: bound pods on their nodes, pending pods in
// the queue in document order, terminations already under way on the clock.
func NewSimulation(sc *scenario.Scenario, opts Options) (*Simulation, error) {
	s, err := StartSimulation(sc, opts)
	if err != nil {
		return nil, err
	}
	s.enqueueWaiting(len(s.waiting))
	return s, nil
}

// StartSimulation is NewSimulation up to the cluster as loaded (StateAt(-1)
// and the objects): the pending pods enter the queue as the run's first
// steps (Step, Run), one event each, so that a caller showing the t=0 view
// first does not wait for their queue entries and events (at 5,000 pods
// most of starting a run). Its trace is at every step a prefix of
// NewSimulation's, and the same once the pods are queued.
func StartSimulation(sc *scenario.Scenario, opts Options) (*Simulation, error) {
	if opts.MaxEvents == 0 {
		opts.MaxEvents = DefaultMaxEvents
	}
	s := &Simulation{
		sc:          sc,
		opts:        opts,
		now:         sc.T0,
		pods:        make(map[string]*simPod, len(sc.Pods)),
		order:       make([]string, 0, len(sc.Pods)),
		nominated:   Nominations{},
		profiles:    map[string]*profileRunner{},
		rng:         rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15)),
		pdbScale:    disruption.WithReplicationControllers(disruption.WorkloadScales(sc.ReplicaSets, sc.StatefulSets, sc.Deployments), sc.ReplicationControllers),
		nodes:       append([]*api.Node(nil), sc.Nodes...),
		pdbs:        append([]*api.PodDisruptionBudget(nil), sc.PDBs...),
		pressure:    map[string]*pressureState{},
		flushMark:   -1,
		errorMark:   -1,
		errorChange: map[string]int{},
	}
	s.lister = &framework.Cluster{
		Namespaces: sc.Namespaces, ServiceList: sc.Services, ReplicationControllerL: sc.ReplicationControllers,
		ReplicaSetList: sc.ReplicaSets, StatefulSetList: sc.StatefulSets,
	}
	var initialVolumes []controllers.VolumeChange
	s.storage, initialVolumes = InitialStorage(sc)
	s.lister.StorageObjects = s.storage
	s.queue = queue.New((&queuesort.PrioritySort{}).Less,
		termination.Seconds(sc.Config.PodInitialBackoffSeconds), termination.Seconds(sc.Config.PodMaxBackoffSeconds))
	s.queue.OrderByPriority() // PrioritySort's order: activeQ may compare cached keys
	var bound []*api.Pod
	var pending []*simPod
	// The pods' records and their keys are made in one piece each, and so
	// are the copies of the pods not pending (the pending ones' as they
	// enter the queue, enqueueWaiting): a few allocations at 5,000 pods
	// instead of 15,000 (the collector's work, in the browser most of
	// starting a run).
	sps := make([]simPod, len(sc.Pods))
	keys := api.PodKeys(sc.Pods)
	var copies []api.Pod
	for i, p := range sc.Pods {
		key := keys[i]
		sp := &sps[i]
		*sp = simPod{pod: p, key: key, phase: PhasePending}
		s.pods[key] = sp
		s.order = append(s.order, key)
		if p.Spec.NodeName == "" && p.DeletionTimestamp == nil && !p.Finished() {
			pending = append(pending, sp)
			continue
		}
		if copies == nil {
			copies = make([]api.Pod, 0, len(sc.Pods)-i)
		}
		copies = append(copies, *p) // the simulation changes its own copies only
		sp.pod = &copies[len(copies)-1]
		switch {
		case p.Finished():
			sp.phase = finishedPhase(p)
		case p.Spec.NodeName != "":
			sp.phase = PhaseRunning
			bound = append(bound, sp.pod)
		default:
			sp.phase = PhaseDeleted // an unbound pod is deleted at once
		}
	}
	sort.Strings(s.order)
	s.snap = framework.NewSnapshot(bound, s.nodes)
	// In key order, not the map's: pods deleted at the same instant end in
	// the order their timers were added, and a run must replay the same.
	for _, key := range s.order {
		sp := s.pods[key]
		if sp.phase == PhaseRunning && sp.pod.DeletionTimestamp != nil {
			sp.terminating = true
			at := *sp.pod.DeletionTimestamp
			if at.Before(s.now) {
				at = s.now
			}
			end := Duration(at.Sub(s.now))
			sp.term = &Termination{End: end}
			if g := sp.pod.DeletionGracePeriodSeconds; g != nil {
				sp.term.Started = end - Duration(time.Duration(*g)*time.Second)
			}
			sp.term.Sigterm = sp.term.Started
			s.addTimer(at, timerEnd, sp.pod.Key(), false)
		}
	}
	// Room for the pending pods' events is made when they start entering
	// the queue (enqueueWaiting), after a caller has shown the t=0 view.
	s.trace = make([]Event, 0, len(initialVolumes))
	s.log.deltas = make([]delta, 0, len(initialVolumes))
	s.log.start(s)
	s.logStorage()
	for _, c := range initialVolumes {
		s.emit(Event{Kind: EvVolume, Reason: c.What})
	}
	s.waiting, s.waitingAll = pending, len(pending)
	s.enqueueWaiting(0)
	return s, nil
}

// enqueueWaiting puts the next n pending pods of the file into the queue
// (NewSimulation's order: each with its nominated node, then its Queued
// event); after the last it starts the workloads and the timeline.
func (s *Simulation) enqueueWaiting(n int) {
	if s.queued {
		return
	}
	n = min(n, len(s.waiting))
	if n > 0 && len(s.waiting) == s.waitingAll {
		// Each pending pod makes at least two events (queued, then bound
		// or not): room for them up front spares the trace and the log
		// the copies of growing step by step. Made here, not when the run
		// starts: at 5,000 pods 2 MB that the t=0 view does not need.
		s.trace = slices.Grow(s.trace, 2*s.waitingAll)
		s.log.deltas = slices.Grow(s.log.deltas, cap(s.trace)-len(s.log.deltas))
		s.waitingCopies = make([]api.Pod, s.waitingAll)
	}
	for _, sp := range s.waiting[:n] {
		// The simulation changes its own copies only.
		cp := &s.waitingCopies[s.waitingAll-len(s.waiting)]
		*cp = *sp.pod
		sp.pod = cp
		p := sp.pod
		if nnn := p.Status.NominatedNodeName; nnn != "" {
			s.nominated[nnn] = append(s.nominated[nnn], framework.NewPodInfo(p))
		}
		s.enqueue(sp, scenario.QueueTime(s.sc.T0, s.waitingAll-len(s.waiting), s.waitingAll))
		s.waiting = s.waiting[1:]
	}
	if len(s.waiting) == 0 {
		s.waiting, s.waitingCopies, s.queued = nil, nil, true
		s.initWorkloads()
	}
}

func (s *Simulation) profile(schedulerName string) (*profileRunner, error) {
	prof, err := ProfileFor(s.sc.Config, schedulerName)
	if err != nil {
		return nil, err
	}
	if r, ok := s.profiles[prof.SchedulerName]; ok {
		return r, nil
	}
	p := *prof
	p.Plugins = runtime.MergeWithDefaults(prof.Plugins)
	fwk, err := runtime.NewFramework(plugins.NewInTreeRegistry(), &p, runtime.Options{Nominator: s.nominated, Cluster: s.lister, Rand: s.rng, PreemptionExecutor: s, VolumeBinder: s})
	if err != nil {
		return nil, fmt.Errorf("building profile %q: %w", prof.SchedulerName, err)
	}
	var global int32
	if g := s.sc.Config.PercentageOfNodesToScore; g != nil {
		global = *g
	}
	r := &profileRunner{fwk: fwk, sched: &scheduler.Scheduler{Framework: fwk, PercentageOfNodesToScore: global}}
	s.profiles[prof.SchedulerName] = r
	return r, nil
}

// Trace returns the events so far.
func (s *Simulation) Trace() []Event { return s.trace }

// Now returns the simulated time since the start.
func (s *Simulation) Now() time.Duration { return s.now.Sub(s.sc.T0) }

func (s *Simulation) emit(e Event) {
	e.Seq = len(s.trace)
	e.T = Duration(s.now.Sub(s.sc.T0))
	s.trace = append(s.trace, e)
	s.log.record(s, &s.trace[len(s.trace)-1])
}

// Run plays the scenario until nothing more can happen: pods are tried
// while the queue has any; then the clock moves to the next end of a
// termination; then it moves IdleFlushInterval and flushes the
// unschedulable pods; a flush that changes nothing ends the run.
func (s *Simulation) Run() error {
	for {
		if done, err := s.advance(); done || err != nil {
			return err
		}
	}
}

// advance does one step of Run: one cycle, one instant of timers or one
// flush. It reports done when nothing more can happen.
func (s *Simulation) advance() (done bool, err error) {
	if s.finished {
		return true, nil
	}
	if !s.queued {
		s.enqueueWaiting(1) // StartSimulation's pods, one a step
		return false, nil
	}
	if len(s.trace) > s.opts.MaxEvents {
		return true, s.budgetError()
	}
	s.reconcile()
	if e, _ := s.queue.Pop(); e != nil {
		s.cycle(e)
		if s.cycles%yieldEvery == 0 {
			goruntime.Gosched()
		}
		return s.finished, nil
	}
	if s.retryAfterError() {
		return false, nil
	}
	if s.timers.Len() > 0 {
		// Everything due at the same instant happens before the next cycle.
		t := heap.Pop(&s.timers).(*timer)
		if t.at.After(s.now) {
			s.now = t.at
		}
		s.fire(t)
		for s.timers.Len() > 0 && !s.timers[0].at.After(s.now) {
			s.fire(heap.Pop(&s.timers).(*timer))
		}
		return false, nil
	}
	if s.queue.UnschedulableLen() == 0 || s.flushMark == s.changes {
		s.finished = true
		return true, nil
	}
	s.flushMark = s.changes
	s.now = s.now.Add(IdleFlushInterval)
	moved := s.queue.FlushUnschedulableLeftover(s.now)
	s.emit(Event{Kind: EvFlush, Reason: fmt.Sprintf("nothing else can happen: %d unschedulable pod(s) are moved back after %v", len(moved), IdleFlushInterval)})
	return false, nil
}

// budgetError says which budget ran out, what the run was doing (the kinds
// of its last events and how many pods they were about) and what to change.
func (s *Simulation) budgetError() error {
	recent := s.trace[max(0, len(s.trace)-1000):]
	kinds := map[string]int{}
	pods := map[string]bool{}
	for _, e := range recent {
		kinds[e.Kind]++
		if e.Pod != "" {
			pods[e.Pod] = true
		}
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if kinds[names[i]] != kinds[names[j]] {
			return kinds[names[i]] > kinds[names[j]]
		}
		return names[i] < names[j]
	})
	doing := make([]string, len(names))
	for i, k := range names {
		doing[i] = fmt.Sprintf("%d %s", kinds[k], k)
	}
	return fmt.Errorf("%w: the run stopped at its budget of %d events at t=%v; the last %d events were %s, about %d pod(s); raise the budget (the CLI's --max-events) or simulate fewer pods, and if the same pods repeat the same events the scenario loops (for example pods preempting each other)",
		ErrEventBudget, s.opts.MaxEvents, s.Now(), len(recent), strings.Join(doing, ", "), len(pods))
}

// retryAfterError moves the pods whose backoff after an error (no node at
// all, a plugin error) completes before the next timer back to activeQ,
// at that time, as upstream's flushBackoffQCompleted does every second.
// Upstream retries them forever; here, when nothing changed since they
// last went back, the same cycle would fail the same way, so they wait for
// the next change (a timer) instead of retrying at the same instant until
// the event budget.
//
// The retries upstream makes in the meantime fail the same way and back
// the pods off longer each time (up to the maximum), which decides when
// they come back after the next change: those are counted without cycles
// or events (queue.RepeatErrorBackoff) up to the next timer, so a pod
// whose last node went away comes back on upstream's schedule after a new
// node is added, not at the instant it is added.
func (s *Simulation) retryAfterError() bool {
	at, ok := s.queue.NextErrorBackoff()
	if ok && s.errorMark == s.changes && s.timers.Len() > 0 {
		s.queue.RepeatErrorBackoff(s.timers[0].at, func(e *queue.Entry) bool {
			return s.errorChange[e.Pod.Key()] == s.changes
		})
	}
	if !ok || s.errorMark == s.changes || s.timers.Len() > 0 && s.timers[0].at.Before(at) {
		return false
	}
	s.errorMark = s.changes
	if at.After(s.now) {
		s.now = at
	}
	for _, key := range s.queue.FlushErrorBackoff(s.now) {
		s.emit(Event{Kind: EvRequeued, Pod: key, Queue: string(queue.ActiveQ), Reason: "its backoff after a scheduling error completed"})
	}
	return true
}

// Result is the final state in the contract's shape.
func (s *Simulation) Result() *Result {
	r := &Result{Pods: []PodResult{}}
	for _, k := range s.order {
		sp := s.pods[k]
		pr := PodResult{Namespace: sp.pod.Namespace, Name: sp.pod.Name, Phase: sp.phase, Node: sp.pod.Spec.NodeName, NominatedNode: sp.pod.Status.NominatedNodeName, Reason: sp.statusReason(), Priority: sp.pod.PriorityValue()}
		if pp := sp.pod.Spec.PreemptionPolicy; pp != nil {
			pr.PreemptionPolicy = string(*pp)
		}
		r.Pods = append(r.Pods, pr)
	}
	sort.Slice(r.Pods, func(i, j int) bool {
		if r.Pods[i].Namespace != r.Pods[j].Namespace {
			return r.Pods[i].Namespace < r.Pods[j].Namespace
		}
		return r.Pods[i].Name < r.Pods[j].Name
	})
	return r
}

func (s *Simulation) refreshPDBs() {
	if len(s.pdbs) == 0 {
		s.lister.PDBs = nil
		return
	}
	var live []*api.Pod
	for _, k := range s.order {
		if sp := s.pods[k]; !sp.gone() {
			live = append(live, sp.pod)
		}
	}
	s.lister.PDBs = s.lister.PDBs[:0]
	for _, pdb := range s.pdbs {
		c := *pdb
		c.Status = disruption.ComputeStatusWith(pdb, live, disruption.Options{Now: s.now, Scale: s.pdbScale})
		s.lister.PDBs = append(s.lister.PDBs, &c)
	}
}

// cycle runs one scheduling cycle for a popped pod and applies its outcome.
func (s *Simulation) cycle(e *queue.Entry) {
	key := e.Pod.Key()
	sp := s.pods[key]
	if sp == nil || sp.phase != PhasePending {
		return
	}
	runner, err := s.profile(sp.pod.Spec.SchedulerName)
	if err != nil {
		return
	}
	e.Attempts++
	s.cycles++
	s.refreshPDBs()
	if s.beforeCycle != nil && s.beforeCycle(sp.pod, runner) {
		s.finished = true
		return
	}
	if s.cycleState == nil {
		s.cycleState = framework.NewCycleState()
	}
	state := s.cycleState
	state.Reset()
	res, err := runner.sched.SchedulePod(scheduler.Cycle{Count: s.cycles, Now: s.now}, state, sp.pod, s.snap)
	if err == nil && hasClaims(sp.pod) {
		// Reserve and PreBind do nothing for a pod without claims.
		err = s.bindVolumes(runner, state, sp.pod, res.SuggestedHost)
	}
	if err == nil {
		s.bind(sp, res)
		return
	}
	var fitErr *framework.FitError
	if !errors.As(err, &fitErr) {
		where := s.queue.AddUnschedulable(e, s.now, false)
		s.errorChange[key] = s.changes
		s.emit(Event{Kind: EvUnschedulable, Pod: key, Reason: err.Error(), Queue: string(where)})
		return
	}
	e.UnschedulablePlugins = fitErr.Diagnosis.UnschedulablePlugins
	e.PendingPlugins = fitErr.Diagnosis.PendingPlugins
	if runner.fwk.HasPostFilterPlugins() {
		s.actuation = nil
		result, st := runner.fwk.RunPostFilterPlugins(state, sp.pod, fitErr.Diagnosis.NodeToStatus)
		fitErr.Diagnosis.PostFilterMsg = st.Message()
		if result.Mode() == framework.ModeOverride {
			if a := s.actuation; a != nil && a.node == result.NominatedNodeName {
				s.preempt(sp, runner, a)
			} else {
				s.nominate(sp, result.NominatedNodeName)
			}
		}
	}
	where := s.queue.AddUnschedulable(e, s.now, false)
	s.emit(Event{Kind: EvUnschedulable, Pod: key, Reason: fitErr.Error(), Queue: string(where)})
}

func (s *Simulation) bind(sp *simPod, res scheduler.ScheduleResult) {
	p := sp.pod
	node := res.SuggestedHost
	s.setNomination(sp, "") // the API server clears it on binding
	p.Spec.NodeName = node
	start := s.now
	p.Status.StartTime = &start
	p.Status.Phase = api.PodRunning
	// PodTopologyLabels: the binding copies the node's zone and region.
	if ni, err := s.snap.Get(node); err == nil {
		for _, k := range []string{api.LabelTopologyZone, api.LabelTopologyRegion} {
			if v, ok := ni.Node().Labels[k]; ok {
				labels := make(map[string]string, len(p.Labels)+1)
				for lk, lv := range p.Labels {
					labels[lk] = lv
				}
				labels[k] = v
				p.Labels = labels
			}
		}
	}
	sp.phase = PhaseRunning
	sp.entry = nil
	if err := s.snap.AddPod(p); err != nil {
		panic(fmt.Sprintf("binding %s: %v", sp.key, err)) // the node came from this snapshot
	}
	s.changes++
	reason := bindReason(node, res)
	e := Event{Kind: EvScheduled, Pod: sp.key, Node: node, Reason: reason, Ties: res.Tied}
	if len(res.Tied) > 0 && res.TiedCount > len(res.Tied) {
		e.TieCount = res.TiedCount
	}
	s.emit(e)
	s.requeue(assignedPodAdd, p)
}

// BatchedReason ends the reason of a pod placed by opportunistic batching.
const BatchedReason = "placed by batching: reused the ranking of the previous pod"

// bindReason is the reason of the Scheduled event binding a pod to node:
// "bound to NODE: " and why that node. It runs for every binding, so each
// form is made in one allocation: one concatenation, or for a tie (nearly
// every binding on a cluster of equal nodes) one builder.
func bindReason(node string, res scheduler.ScheduleResult) string {
	const bound = "bound to "
	switch {
	case res.Nominated:
		return bound + node + ": its nominated node passed the filters"
	case res.Batched:
		return bound + node + ": " + BatchedReason
	case res.FeasibleNodes == 1:
		return bound + node + ": the only feasible node"
	}
	score := strconv.FormatInt(res.TopScore, 10)
	if len(res.Tied) < 2 {
		return bound + node + ": highest score " + score + " among " + strconv.Itoa(res.FeasibleNodes) + " feasible nodes"
	}
	const took = " each; which one kube-scheduler takes depends on the order its parallel filter found them in, this run took "
	size := len(bound) + len(node) + len(took) + 2*len(score) + len(res.SuggestedHost) + 96 // 96: the other words and counts
	for _, n := range res.Tied {
		size += len(n) + 2
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(bound)
	b.WriteString(node)
	b.WriteString(": highest score ")
	b.WriteString(score)
	b.WriteString(" among ")
	b.WriteString(strconv.Itoa(res.FeasibleNodes))
	b.WriteString(" feasible nodes, a tie: ")
	more := res.TiedCount > len(res.Tied)
	if more {
		b.WriteString(strconv.Itoa(res.TiedCount))
		b.WriteString(" nodes (")
	}
	for i, n := range res.Tied {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	if more {
		b.WriteString(", ...)")
	}
	b.WriteString(" scored ")
	b.WriteString(score)
	b.WriteString(took)
	b.WriteString(res.SuggestedHost)
	return b.String()
}

// setNomination records status.nominatedNodeName and the nominator.
func (s *Simulation) setNomination(sp *simPod, node string) {
	old := sp.pod.Status.NominatedNodeName
	if old == node {
		return
	}
	if old != "" {
		list := s.nominated[old]
		for i, pi := range list {
			if pi.Pod.Key() == sp.pod.Key() {
				s.nominated[old] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(s.nominated[old]) == 0 {
			delete(s.nominated, old)
		}
	}
	sp.pod.Status.NominatedNodeName = node
	if node != "" {
		s.nominated[node] = append(s.nominated[node], framework.NewPodInfo(sp.pod))
	}
	s.changes++
}

// terminate stops a running pod: a graceful delete through the API server
// (with the delete's own grace period when requested is set), or with
// override set a kubelet eviction (the kill's grace period; the pod object
// gets no deletionTimestamp and ends Failed).
func (s *Simulation) terminate(sp *simPod, kind, reason string, requested, override *int64) {
	p := sp.pod
	grace := termination.GracePeriod(p, requested)
	plan := termination.KubeletPlan(p, grace, override)
	if override == nil {
		before := *p
		deadline := s.now.Add(termination.Seconds(grace))
		p.DeletionTimestamp = &deadline
		p.DeletionGracePeriodSeconds = &grace
		s.podUpdated(&before, p)
		s.requeue(assignedPodUpdate, &before, p)
	} else {
		grace = plan.GracePeriod
		sp.evicted = true
	}
	sp.terminating = true
	started := Duration(s.now.Sub(s.sc.T0))
	sp.term = &Termination{Started: started, Sigterm: started + Duration(plan.Sigterm), End: started + Duration(plan.End),
		PreStop: plan.PreStop > 0, Killed: plan.Killed, Eviction: override != nil}
	s.changes++
	until := sp.term.End
	s.emit(Event{Kind: kind, Pod: p.Key(), Node: p.Spec.NodeName, Until: &until,
		Reason: fmt.Sprintf("%s: grace period %ds; it keeps its resources until it is gone", reason, grace)})
	if plan.End == 0 {
		s.deletePod(sp, "deleted at once (grace period 0)")
		return
	}
	if plan.PreStop > 0 {
		s.addTimer(s.now.Add(plan.Sigterm), timerSigterm, p.Key(), false)
	}
	s.addTimer(s.now.Add(plan.End), timerEnd, p.Key(), plan.Killed)
}

// podUpdated tells the snapshot that a bound pod was changed in place, as
// the cache hears of every pod update: the node's generation moves, so
// nothing cached for the node (spread counts) outlives the change.
func (s *Simulation) podUpdated(old, p *api.Pod) {
	if err := s.snap.UpdatePod(old, p); err != nil {
		panic(fmt.Sprintf("updating %s: %v", p.Key(), err)) // only bound pods are updated
	}
}

func (s *Simulation) fire(t *timer) {
	switch t.kind {
	case timerAction:
		s.apply(s.sc.Timeline[t.action])
		return
	case timerRelief:
		s.relieve(t.pod)
		return
	}
	sp := s.pods[t.pod]
	if sp == nil || sp.gone() {
		return
	}
	switch t.kind {
	case timerSigterm:
		if sp.term != nil {
			t := *sp.term
			t.PreStop = false
			sp.term = &t
		}
		s.emit(Event{Kind: EvPreStopDone, Pod: t.pod, Node: sp.pod.Spec.NodeName, Reason: "preStop hook finished; containers get SIGTERM"})
	case timerEnd:
		if t.killed {
			s.emit(Event{Kind: EvKilled, Pod: t.pod, Node: sp.pod.Spec.NodeName, Reason: "grace period over: containers still running get SIGKILL"})
		}
		if sp.evicted {
			s.failPod(sp)
			return
		}
		s.deletePod(sp, "graceful termination finished; its resources are free")
	}
}

// failPod ends a kubelet eviction as the eviction manager's evictPod does
// (pkg/kubelet/eviction/eviction_manager.go, v1.36): the kill's status
// function sets phase Failed, reason Evicted. The object stays; the
// scheduler's pod informer excludes Failed pods (status.phase field
// selector), so to the scheduler the pod is deleted and its resources free.
func (s *Simulation) failPod(sp *simPod) {
	s.removePod(sp, PhaseFailed, "evicted: the kubelet killed its containers; the pod stays Failed (reason Evicted) until garbage collection, and its resources are free")
	sp.pod.Status.Phase = api.PodFailed
}

// ReasonEvicted is the status reason of a pod the kubelet evicted
// (eviction.Reason upstream).
const ReasonEvicted = "Evicted"

// statusReason is the pod's status.reason at the end of the run.
func (sp *simPod) statusReason() string {
	if sp.phase == PhaseFailed && sp.evicted {
		return ReasonEvicted
	}
	return ""
}

func (s *Simulation) deletePod(sp *simPod, reason string) {
	s.removePod(sp, PhaseDeleted, reason)
}

// removePod takes a pod out of the cluster's running or waiting pods: it
// ends in phase (Deleted or Failed) and the event says why.
func (s *Simulation) removePod(sp *simPod, phase PodPhase, reason string) {
	p := sp.pod
	gone := *p // as the delete event carries it (a pending pod keeps its nomination)
	if sp.phase == PhaseRunning {
		if err := s.snap.RemovePod(p); err != nil {
			panic(fmt.Sprintf("deleting %s: %v", p.Key(), err))
		}
	}
	if sp.phase == PhasePending {
		s.setNomination(sp, "")
		if sp.entry != nil {
			s.queue.Delete(p.Key())
		}
	}
	sp.phase = phase
	sp.terminating = false
	s.changes++
	kind := EvDeleted
	if phase == PhaseFailed {
		kind = EvFailed
	}
	s.emit(Event{Kind: kind, Pod: p.Key(), Node: p.Spec.NodeName, Reason: reason})
	s.requeue(assignedPodDelete, &gone)
	if ps := s.pressure[p.Spec.NodeName]; ps != nil && ps.evicting == p.Key() {
		s.evictStep(p.Spec.NodeName)
	}
}

type timerKind int

const (
	timerSigterm timerKind = iota
	timerEnd
	timerAction
	timerRelief
)

type timer struct {
	at   time.Time
	seq  int64
	kind timerKind
	// pod is the pod's key (a node's name for timerRelief).
	pod    string
	killed bool
	action int
}

func (s *Simulation) addActionTimer(at time.Time, action int) {
	s.timerSeq++
	heap.Push(&s.timers, &timer{at: at, seq: s.timerSeq, kind: timerAction, action: action})
}

func (s *Simulation) addTimer(at time.Time, kind timerKind, pod string, killed bool) {
	s.timerSeq++
	heap.Push(&s.timers, &timer{at: at, seq: s.timerSeq, kind: kind, pod: pod, killed: killed})
}

// timerHeap orders timers by (time, insertion), so ties resolve the same way every run.
type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(*timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Simulate runs a scenario to the end.
func Simulate(sc *scenario.Scenario, opts Options) (*Simulation, error) {
	s, err := NewSimulation(sc, opts)
	if err != nil {
		return nil, err
	}
	return s, s.Run()
}

// yieldEvery is how many cycles a run goes between yields to the Go
// scheduler. Where nothing preempts a goroutine (WebAssembly has one
// thread and no preemption), a garbage collection started during a long
// run could only mark by assists and would stay in its mark phase, with
// write barriers on, until the run ends; a yield lets its background
// worker take its share. Natively a yield every few milliseconds costs
// nothing measurable.
const yieldEvery = 64
