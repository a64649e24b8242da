// Package upstream runs scenarios through the real kube-scheduler code
// (k8s.io/kubernetes v1.36) and reports results in the contract's JSON shapes.
package upstream

import (
	"context"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/profile"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/schedplay/schedplay/conformance/internal/scenario"
)

// Env is a fake cluster (client-go fake clientset + informers) with a real
// scheduler built by scheduler.New on top of it.
type Env struct {
	SC    *scenario.Scenario
	Clock *testingclock.FakeClock
	CS    *fake.Clientset
	// Tracker is the clientset's object store; writes through it bump resourceVersion.
	Tracker k8stesting.ObjectTracker
	Factory informers.SharedInformerFactory
	Sched   *scheduler.Scheduler
	Ctx     context.Context
	cancel  context.CancelFunc
}

// Close stops the informers and the scheduler's goroutines.
func (e *Env) Close() { e.cancel() }

func init() {
	// The scheduler logs through klog; keep stdout/stderr clean.
	klog.SetLogger(logr.Discard())
}

// newEnv builds the cluster. Objects in `initial` exist before the informers start;
// pending pods are added later by the caller (explain: all at once, simulate: one by one).
func newEnv(sc *scenario.Scenario, initial []runtime.Object) (*Env, error) {
	return newEnvWith(sc, initial, sc.T0, nil)
}

// newEnvWith is newEnv with the clock's start and a hook that installs reactors on the
// fake clientset before anything watches it.
func newEnvWith(sc *scenario.Scenario, initial []runtime.Object, start time.Time, setup func(*fake.Clientset, k8stesting.ObjectTracker)) (*Env, error) {
	cs, tracker, err := newClientset(initial...)
	if err != nil {
		return nil, fmt.Errorf("creating the fake API server: %w", err)
	}
	// The PV controller's reactors go first, so that setup's reactors
	// (installed after, so run before) see every call.
	if err := installVolumes(cs, tracker); err != nil {
		return nil, fmt.Errorf("settling volumes: %w", err)
	}
	if setup != nil {
		setup(cs, tracker)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ctx = klog.NewContext(ctx, klog.Background())
	clk := testingclock.NewFakeClock(start)
	factory := scheduler.NewInformerFactory(cs, 0)
	cfg := sc.Config
	opts := []scheduler.Option{
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithParallelism(cfg.Parallelism),
		scheduler.WithExtenders(cfg.Extenders...),
		scheduler.WithClock(clk),
	}
	recorders := profile.RecorderFactory(func(string) events.EventRecorderLogger { return &events.FakeRecorder{} })
	sched, err := scheduler.New(ctx, cs, factory, nil, recorders, opts...)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("building the scheduler: %w", err)
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	return &Env{SC: sc, Clock: clk, CS: cs, Tracker: tracker, Factory: factory, Sched: sched, Ctx: ctx, cancel: cancel}, nil
}

// initialObjects returns every object of the scenario except the pending pods and the
// finished ones. kube-scheduler's pod informer selects status.phase!=Succeeded,
// status.phase!=Failed (newPodInformer), a field selector client-go's fake clientset
// ignores; nothing else in the harness reads a finished pod, so it is left out of the
// fake API server and simulate reports it from the file.
func initialObjects(sc *scenario.Scenario) []runtime.Object {
	objs := sc.Objects()
	for _, p := range sc.Pods {
		if p.Spec.NodeName != "" && !finished(p) {
			objs = append(objs, p.DeepCopy())
		}
	}
	return objs
}

// pendingPods are the pods that wait for a node: unbound and not finished.
func pendingPods(sc *scenario.Scenario) []*v1.Pod {
	var out []*v1.Pod
	for _, p := range sc.Pods {
		if p.Spec.NodeName == "" && !finished(p) {
			out = append(out, p)
		}
	}
	return out
}

// finished reports status.phase Succeeded or Failed: the scheduler's pod informer
// does not list such pods (see initialObjects).
func finished(p *v1.Pod) bool {
	return p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed
}

// waitFor polls cond (real time) until it holds or the timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// waitCacheHolds waits until the scheduler cache holds every node and bound pod
// (finished pods are not listed, so they never reach it).
func (e *Env) waitCacheHolds() error {
	bound := 0
	for _, p := range e.SC.Pods {
		if p.Spec.NodeName != "" && !finished(p) {
			bound++
		}
	}
	ok := waitFor(20*time.Second, func() bool {
		n, err := e.Sched.Cache.PodCount()
		return err == nil && n >= bound && e.Sched.Cache.NodeCount() >= len(e.SC.Nodes)
	})
	if !ok {
		return fmt.Errorf("scheduler cache did not receive the cluster")
	}
	return nil
}

// inQueue reports whether the scheduling queue knows the pod.
func (e *Env) inQueue(p *v1.Pod) bool {
	_, ok := e.Sched.SchedulingQueue.GetPod(p.Name, p.Namespace)
	return ok
}

func labelsEverything() labels.Selector { return labels.Everything() }
