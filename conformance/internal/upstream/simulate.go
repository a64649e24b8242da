package upstream

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"

	"github.com/schedplay/schedplay/conformance/contract"
	"github.com/schedplay/schedplay/conformance/internal/scenario"
)

// MaxCycles bounds a simulation (scheduling cycles + clock moves).
var MaxCycles = 20000

// FlushStep is how far the clock moves when nothing can be tried and nothing is terminating.
const FlushStep = 5 * time.Minute

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
var pdbsGVR = schema.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"}

// sim is the "API server + kubelet" side of a simulation: reactors on the fake
// clientset implement pod binding and graceful deletion as the API server does, and
// a tiny kubelet removes terminating pods when their grace period has elapsed on the
// fake clock.
type sim struct {
	env     *Env
	tracker k8stesting.ObjectTracker // bumps resourceVersion on every write
	actions atomic.Int64

	preemptors []*defaultpreemption.DefaultPreemption
	// ambiguities lists the cycles in which upstream chose at random (equal top
	// scores, or equally good preemption candidates).
	ambiguities []string

	mu       sync.Mutex
	lastNode map[string]string // ns/name -> node it was bound to
	// instant is the simulated time of the contract's time model: T0, then each end of
	// a graceful termination and each idle flush. The fake clock runs ahead of it by
	// 1µs per scheduling cycle (queue order); start times and deletion deadlines use the
	// instant, so pods preempted in the same instant end their grace periods together,
	// as they do in schedplay and, at the API's second precision, in a real cluster.
	instant time.Time
	nodes   map[string]*v1.Node
	// batch ages OpportunisticBatch's stored rankings on the instant.
	batch *batchClock
	// cycleDelay is wall-clock time added to every cycle (tests: a slow
	// machine must not change the result).
	cycleDelay time.Duration
}

// Simulate runs the real scheduler (scheduler.New + ScheduleOne) to quiescence under
// the contract's time model and returns the final state of every input pod.
func Simulate(sc *scenario.Scenario) (*contract.Simulate, error) {
	return simulate(sc, 0)
}

func simulate(sc *scenario.Scenario, cycleDelay time.Duration) (*contract.Simulate, error) {
	s := &sim{lastNode: map[string]string{}, nodes: map[string]*v1.Node{}, batch: newBatchClock(), cycleDelay: cycleDelay}
	for _, n := range sc.Nodes {
		s.nodes[n.Name] = n
	}
	pending := pendingPods(sc)
	// The clock starts just before T0 and moves 1µs per pending pod as the pods are
	// created in document order, so queue timestamps follow the document order.
	start := sc.T0.Add(-time.Duration(len(pending)) * time.Microsecond)
	env, err := newEnvWith(sc, initialObjects(sc), start, s.install)
	if err != nil {
		return nil, err
	}
	defer env.Close()
	s.env = env
	for _, prof := range env.Sched.Profiles {
		for _, pl := range prof.PreEnqueuePlugins() {
			if dp, ok := pl.(*defaultpreemption.DefaultPreemption); ok {
				s.preemptors = append(s.preemptors, dp)
			}
		}
	}
	for _, p := range sc.Pods {
		if p.Spec.NodeName != "" {
			s.lastNode[key(p)] = p.Spec.NodeName
		}
	}
	if err := env.waitCacheHolds(); err != nil {
		return nil, err
	}
	orig := env.Sched.SchedulePod
	env.Sched.SchedulePod = func(ctx context.Context, f framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		s.detectRandomChoice(f, podInfo.Pod)
		time.Sleep(s.cycleDelay)
		s.batch.beforeCycle(f, s.now())
		res, err := orig(ctx, f, state, podInfo)
		if trace {
			fmt.Fprintf(os.Stderr, "[%s] SchedulePod %s -> %q err=%v\n", env.Clock.Now().Sub(env.SC.T0), key(podInfo.Pod), res.SuggestedHost, err)
		}
		return res, err
	}
	for _, p := range pending {
		env.Clock.Step(time.Microsecond)
		if _, err := env.CS.CoreV1().Pods(p.Namespace).Create(env.Ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			return nil, err
		}
		if _, ok := env.Sched.Profiles[p.Spec.SchedulerName]; !ok || p.DeletionTimestamp != nil {
			continue
		}
		if !waitFor(20*time.Second, func() bool { return env.inQueue(p) }) {
			return nil, fmt.Errorf("pod %s did not reach the scheduling queue", key(p))
		}
	}
	s.setInstant(sc.T0)
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.result(sc)
}

func (s *sim) now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.instant
}

func (s *sim) setInstant(t time.Time) {
	s.mu.Lock()
	s.instant = t
	s.mu.Unlock()
}

// moveTo makes t the current instant and sets the fake clock to it (the clock is at
// most a few µs past the previous instant, and t is seconds later).
func (s *sim) moveTo(t time.Time) {
	if t.After(s.now()) {
		s.setInstant(t)
	}
	if d := t.Sub(s.env.Clock.Now()); d > 0 {
		s.env.Clock.Step(d)
	}
}

// trace (SCHEDPLAY_TRACE=1) logs every step of a simulation on stderr.
var trace = os.Getenv("SCHEDPLAY_TRACE") != ""

func podNames(ps []*v1.Pod) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func key(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

func (s *sim) install(cs *fake.Clientset, tr k8stesting.ObjectTracker) {
	s.tracker = tr
	cs.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(k8stesting.CreateAction).GetObject().(*v1.Binding)
		return true, b, s.bind(a.GetNamespace(), b)
	})
	cs.PrependReactor("delete", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		da := a.(k8stesting.DeleteActionImpl)
		return s.delete(da)
	})
	// Installed last, so it runs first: counts every API call.
	cs.PrependReactor("*", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		s.actions.Add(1)
		if trace && a.GetVerb() != "get" && a.GetVerb() != "list" && a.GetVerb() != "watch" {
			extra := ""
			switch act := a.(type) {
			case k8stesting.CreateActionImpl:
				if b, ok := act.Object.(*v1.Binding); ok {
					extra = b.Name + " -> " + b.Target.Name
				} else if p, ok := act.Object.(*v1.Pod); ok {
					extra = p.Name
				}
			case k8stesting.DeleteActionImpl:
				extra = act.Name
			case k8stesting.PatchActionImpl:
				extra = act.Name + " " + string(act.Patch)
			case k8stesting.UpdateActionImpl:
				if o, ok := act.Object.(metav1.Object); ok {
					extra = o.GetName()
				}
			}
			fmt.Fprintf(os.Stderr, "[%s] %s %s/%s %s\n", s.env.Clock.Now().Sub(s.env.SC.T0), a.GetVerb(), a.GetResource().Resource, a.GetSubresource(), extra)
		}
		return false, nil, nil
	})
}

// bind does what the API server's pods/binding does (pkg/registry/core/pod/storage
// setPodNodeAndMetadata, with PodTopologyLabelsAdmission and
// ClearingNominatedNodeNameAfterBinding on by default in v1.36), then what a kubelet
// does right away in this time model: the pod runs and is Ready.
func (s *sim) bind(ns string, b *v1.Binding) error {
	obj, err := s.tracker.Get(podsGVR, ns, b.Name)
	if err != nil {
		return err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	if pod.DeletionTimestamp != nil {
		return apierrors.NewConflict(podsGVR.GroupResource(), b.Name, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", pod.Name))
	}
	if pod.Spec.NodeName != "" {
		return apierrors.NewConflict(podsGVR.GroupResource(), b.Name, fmt.Errorf("pod %v is already assigned to node %q", pod.Name, pod.Spec.NodeName))
	}
	if b.UID != "" && b.UID != pod.UID {
		return apierrors.NewConflict(podsGVR.GroupResource(), b.Name, fmt.Errorf("uid mismatch"))
	}
	node := b.Target.Name
	pod.Spec.NodeName = node
	pod.Status.NominatedNodeName = ""
	// PodTopologyLabels admission on the binding: the node's zone/region labels.
	if n, ok := s.nodes[node]; ok {
		for _, l := range []string{v1.LabelTopologyZone, v1.LabelTopologyRegion} {
			if v, ok := n.Labels[l]; ok {
				if pod.Labels == nil {
					pod.Labels = map[string]string{}
				}
				pod.Labels[l] = v
			}
		}
	}
	podutil.UpdatePodCondition(&pod.Status, &v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue})
	// Kubelet: running and ready at once.
	now := metav1.NewTime(s.now())
	pod.Status.Phase = v1.PodRunning
	pod.Status.StartTime = &now
	podutil.UpdatePodCondition(&pod.Status, &v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionTrue})
	s.mu.Lock()
	s.lastNode[key(pod)] = node
	s.mu.Unlock()
	return s.tracker.Update(podsGVR, pod, ns)
}

// delete implements the API server's graceful pod deletion (pod strategy
// CheckGracefulDelete): a bound, non-terminal pod gets deletionTimestamp = now + grace
// (DeleteOptions.gracePeriodSeconds, else spec.terminationGracePeriodSeconds, else 30)
// and stays until the kubelet removes it; other pods go at once.
func (s *sim) delete(a k8stesting.DeleteActionImpl) (bool, runtime.Object, error) {
	obj, err := s.tracker.Get(podsGVR, a.GetNamespace(), a.Name)
	if err != nil {
		return false, nil, nil // default reaction returns NotFound
	}
	pod := obj.(*v1.Pod).DeepCopy()
	var grace int64 = v1.DefaultTerminationGracePeriodSeconds
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	if a.DeleteOptions.GracePeriodSeconds != nil {
		grace = *a.DeleteOptions.GracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == v1.PodFailed || pod.Status.Phase == v1.PodSucceeded {
		grace = 0
	}
	if pod.DeletionTimestamp != nil {
		// Already terminating: the API server only ever shortens the grace period.
		end := pod.DeletionTimestamp.Time
		newEnd := s.now().Add(time.Duration(grace) * time.Second)
		if grace == 0 || !newEnd.Before(end) {
			if grace != 0 {
				return true, pod, nil
			}
		} else {
			pod.DeletionTimestamp = &metav1.Time{Time: newEnd}
			pod.DeletionGracePeriodSeconds = &grace
			return true, pod, s.tracker.Update(podsGVR, pod, pod.Namespace)
		}
	}
	if grace <= 0 {
		return false, nil, nil // the default reaction deletes it
	}
	end := metav1.NewTime(s.now().Add(time.Duration(grace) * time.Second))
	pod.DeletionTimestamp = &end
	pod.DeletionGracePeriodSeconds = &grace
	return true, pod, s.tracker.Update(podsGVR, pod, pod.Namespace)
}

func (s *sim) listPods() []*v1.Pod {
	objs, err := s.tracker.List(podsGVR, v1.SchemeGroupVersion.WithKind("Pod"), "")
	if err != nil {
		return nil
	}
	var out []*v1.Pod
	for _, p := range objs.(*v1.PodList).Items {
		out = append(out, p.DeepCopy())
	}
	return out
}

// terminationEnd is when the kubelet removes a terminating pod: its deletionTimestamp
// (pods terminating at t=0 whose deadline already passed go at t=0); a pending pod
// marked for deletion goes at once.
func (s *sim) terminationEnd(p *v1.Pod) time.Time {
	if p.Spec.NodeName == "" {
		return time.Time{}
	}
	return p.DeletionTimestamp.Time
}

// kubelet removes every terminating pod whose grace period is over. It reports how many.
func (s *sim) kubelet() int {
	now := s.now()
	n := 0
	for _, p := range s.listPods() {
		if p.DeletionTimestamp == nil || s.terminationEnd(p).After(now) {
			continue
		}
		if err := s.tracker.Delete(podsGVR, p.Namespace, p.Name); err == nil {
			n++
		}
	}
	return n
}

// nextTermination is the earliest end of a graceful termination, if any.
func (s *sim) nextTermination() (time.Time, bool) {
	var best time.Time
	found := false
	for _, p := range s.listPods() {
		if p.DeletionTimestamp == nil {
			continue
		}
		t := s.terminationEnd(p)
		if !found || t.Before(best) {
			best, found = t, true
		}
	}
	return best, found
}

// syncPDBs is the disruption controller: PDB status follows the pods.
func (s *sim) syncPDBs() {
	objs, err := s.tracker.List(pdbsGVR, policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"), "")
	if err != nil {
		return
	}
	pods := s.listPods()
	for _, item := range objs.(*policyv1.PodDisruptionBudgetList).Items {
		pdb := item.DeepCopy()
		before := pdb.Status.DeepCopy()
		scenario.ComputePDBStatus([]*policyv1.PodDisruptionBudget{pdb}, pods, s.env.SC.ScaleLookup())
		if !apiequality.Semantic.DeepEqual(*before, pdb.Status) {
			_ = s.tracker.Update(pdbsGVR, pdb, pdb.Namespace)
		}
	}
}

// settled reports whether the informers, the scheduler cache and the queue have caught
// up with the fake API server and no scheduling or binding is in flight.
func (s *sim) caughtUp() bool {
	env := s.env
	if len(env.Sched.SchedulingQueue.InFlightPods()) > 0 {
		return false
	}
	// Async preemption (SchedulerAsyncPreemption, on by default) runs its API calls in a
	// goroutine; wait until no preemptor is still preempting.
	for _, p := range s.listPods() {
		for _, dp := range s.preemptors {
			if dp.Executor.IsPodRunningPreemption(p.UID) {
				return false
			}
		}
	}
	lister := env.Factory.Core().V1().Pods().Lister()
	pods := s.listPods()
	bound, listed := 0, 0
	for _, p := range pods {
		if finished(p) {
			continue // the scheduler's informer does not list it
		}
		listed++
		got, err := lister.Pods(p.Namespace).Get(p.Name)
		if err != nil || got.ResourceVersion != p.ResourceVersion {
			return false
		}
		if p.Spec.NodeName != "" {
			bound++
			if ok, err := env.Sched.Cache.IsAssumedPod(p); err != nil || ok {
				return false
			}
		} else if _, ok := env.Sched.Profiles[p.Spec.SchedulerName]; ok && p.DeletionTimestamp == nil {
			if !env.inQueue(p) {
				return false
			}
		}
	}
	all, err := lister.List(labelsEverything())
	if err != nil || len(all) != listed {
		return false
	}
	n, err := env.Sched.Cache.PodCount()
	return err == nil && n == bound
}

// settle waits until the asynchronous parts (binding goroutines, async preemption,
// informer deliveries, PDB status) have finished: caught up and no API call for a while.
func (s *sim) settle() error {
	deadline := time.Now().Add(30 * time.Second)
	stable := 0
	last := int64(-1)
	for time.Now().Before(deadline) {
		s.syncPDBs()
		n := s.actions.Load()
		if n == last && s.caughtUp() {
			stable++
			if stable >= 6 {
				return nil
			}
		} else {
			stable = 0
		}
		last = n
		time.Sleep(250 * time.Microsecond)
	}
	return fmt.Errorf("simulation did not settle")
}

func (s *sim) fingerprint() string {
	var parts []string
	for _, p := range s.listPods() {
		parts = append(parts, fmt.Sprintf("%s|%s|%s|%v", key(p), p.Spec.NodeName, p.Status.NominatedNodeName, p.DeletionTimestamp != nil))
	}
	sort.Strings(parts)
	return strings.Join(parts, "\n")
}

func (s *sim) run() error {
	env := s.env
	logger := klog.FromContext(env.Ctx)
	q := env.Sched.SchedulingQueue
	lastFlush := ""
	flushed := false
	for i := 0; i < MaxCycles; i++ {
		if err := s.settle(); err != nil {
			return err
		}
		if len(q.PodsInActiveQ()) > 0 || len(q.PodsInBackoffQ()) > 0 {
			if trace {
				fmt.Fprintf(os.Stderr, "[%s] cycle: activeQ=%v backoffQ=%v\n", env.Clock.Now().Sub(env.SC.T0), podNames(q.PodsInActiveQ()), podNames(q.PodsInBackoffQ()))
			}
			// A cycle takes no simulated time, but 1µs keeps queue timestamps in attempt
			// order, as in a real cluster (equal timestamps would make the activeQ order of
			// equal-priority pods depend on event delivery order).
			env.Clock.Step(time.Microsecond)
			env.Sched.ScheduleOne(env.Ctx)
			continue
		}
		if s.kubelet() > 0 {
			continue
		}
		if t, ok := s.nextTermination(); ok {
			s.moveTo(t)
			s.kubelet()
			continue
		}
		fp := s.fingerprint()
		if flushed && fp == lastFlush {
			return nil
		}
		lastFlush, flushed = fp, true
		s.moveTo(s.now().Add(FlushStep))
		q.MoveAllToActiveOrBackoffQueue(logger, framework.EventUnschedulableTimeout, nil, nil, nil)
	}
	return fmt.Errorf("simulation did not end within %d steps", MaxCycles)
}

// detectRandomChoice runs a side-effect-free explain of the cycle about to happen and
// records whether upstream will pick at random (several nodes with the top score, or
// several equally good preemption candidates).
func (s *sim) detectRandomChoice(f framework.Framework, pod *v1.Pod) {
	ex, err := explainCycle(s.env, f, pod.DeepCopy(), false)
	if err != nil {
		return
	}
	at := s.env.Clock.Now().Sub(s.env.SC.T0)
	// With one worker the filter walks the nodes in order, so the feasible list and the
	// score heap's tie-break (no extenders: every Randomizer is 0) are the same in every
	// run: equal top scores are no random choice then.
	if len(ex.Selected) > 1 && s.env.SC.Config.Parallelism != 1 {
		s.ambiguities = append(s.ambiguities, fmt.Sprintf("at %s %s: equal top scores on %s", at, key(pod), strings.Join(ex.Selected, ",")))
	}
	if len(ex.Selected) == 0 && ex.Preemption != nil && len(ex.Preemption.Nominated) > 1 {
		s.ambiguities = append(s.ambiguities, fmt.Sprintf("at %s %s: equally good preemption candidates %s", at, key(pod), strings.Join(ex.Preemption.Nominated, ",")))
	}
}

func (s *sim) result(sc *scenario.Scenario) (*contract.Simulate, error) {
	now := map[string]*v1.Pod{}
	for _, p := range s.listPods() {
		now[key(p)] = p
	}
	out := &contract.Simulate{Pods: []contract.SimPod{}, Ambiguities: s.ambiguities}
	for _, p := range sc.Pods {
		sp := contract.SimPod{Namespace: p.Namespace, Name: p.Name}
		cur, ok := now[key(p)]
		switch {
		case finished(p):
			// Never in the fake API server (see initialObjects): as the file gave it.
			sp.Phase = string(p.Status.Phase)
			sp.Node = p.Spec.NodeName
		case !ok:
			sp.Phase = contract.PhaseDeleted
			s.mu.Lock()
			sp.Node = s.lastNode[key(p)]
			s.mu.Unlock()
		case cur.Spec.NodeName != "":
			sp.Phase = contract.PhaseRunning
			sp.Node = cur.Spec.NodeName
			sp.NominatedNode = cur.Status.NominatedNodeName
		default:
			sp.Phase = contract.PhasePending
			sp.NominatedNode = cur.Status.NominatedNodeName
		}
		out.Pods = append(out.Pods, sp)
	}
	sort.Slice(out.Pods, func(i, j int) bool {
		a, b := out.Pods[i], out.Pods[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out, nil
}
