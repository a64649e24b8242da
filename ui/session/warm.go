package session

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// Warming: a browser runs a page's WebAssembly in quickly compiled
// baseline code first, and compiles a function optimized only once it has
// run often; on a fresh page, the first large paste ran in that code (and
// in memory not yet written), 0.9 to 1.3 s to its first frame against
// about 270 ms once warm. Warm has the session's own copy of the same
// work, a made-up cluster loaded, simulated and laid out, run early in
// idle time, so that the person's first large load finds its code warm.
// It is a session of its own: nothing shown, cached or answered changes.

// warmAspect is the screen shape the warm-up's scenes are laid out for.
const warmAspect = 16.0 / 9

// The made-up cluster's size. A browser compiles a function optimized
// once it has run some megabytes of its baseline code (V8: 13 MB), so
// the cluster must be large enough for the loader's per-object code and
// the scheduler's per-node code to get there; a third of this size
// leaves much of it in baseline code (figures in docs/performance-web.md).
const warmNodes, warmPods = 144, 480

// warmDraws is how many times the canvas draws the made-up cluster's first
// and last scenes where nothing shows them.
const warmDraws = 2

// Warm does the warm-up for about d (0: all of it) and reports whether it
// is all done. A load in steps under way comes first: Warm then does
// nothing and is not done.
func (s *Session) Warm(d time.Duration) bool {
	if s.warmed {
		return true
	}
	if s.loading != nil {
		return false
	}
	if s.warming == nil {
		var draw func(*ui.Scene, *ui.Layout)
		if s.canvas != nil {
			draw = s.canvas.WarmDraw
		}
		s.warming, s.stopWarming = iter.Pull(warmUp(s.budget, draw))
	}
	deadline := s.now().Add(d)
	for d <= 0 || s.now().Before(deadline) {
		if _, more := s.warming(); !more {
			s.stopWarming()
			s.warming, s.stopWarming, s.warmed = nil, nil, true
			return true
		}
	}
	return false
}

// warmUp is the warm-up's work, a step at a time: the made-up cluster
// read, its run prepared and simulated to the end, and its first and
// last scenes built and laid out.
func warmUp(b adapt.Budget, draw func(*ui.Scene, *ui.Layout)) iter.Seq[struct{}] {
	return func(yield func(struct{}) bool) {
		step := func() bool { return yield(struct{}{}) }
		var c scenario.Cache
		res := adapt.LoadYielding(&c, "warm.yaml", warmText(warmNodes, warmPods), b, func(int, int) bool { return step() })
		if !res.OK {
			return // cancelled (or, a bug, not loaded: the warm-up is only an aid)
		}
		first := res.Run.Base()
		firstLayout := ui.ArrangeYield(first, warmAspect, step)
		if firstLayout == nil {
			return
		}
		for !res.Run.Step(4) {
			if !step() {
				return
			}
		}
		last := res.Run.SceneAtYield(len(res.Run.Trace())-1, step)
		if last == nil {
			return
		}
		lastLayout := ui.ArrangeYield(last, warmAspect, step)
		if lastLayout == nil || draw == nil {
			return
		}
		for range warmDraws {
			draw(first, firstLayout)
			draw(last, lastLayout)
		}
	}
}

// warmText is a made-up cluster of the kinds people paste, written the
// ways they are written: nodes in 3 zones as kubectl prints them (one in
// 8 tainted), a PriorityClass, a Deployment spread over the zones with a
// PodDisruptionBudget, pods already bound, and pending pods in flow
// style as generated manifests have them.
func warmText(nodes, pods int) []byte {
	var w strings.Builder
	w.WriteString(`apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: warm-high
value: 1000
`)
	for i := range nodes {
		fmt.Fprintf(&w, `---
apiVersion: v1
kind: Node
metadata:
  name: warm-node-%d
  labels:
    kubernetes.io/hostname: warm-node-%d
    topology.kubernetes.io/zone: zone-%d
spec:
`, i, i, i%3)
		if i%8 == 7 {
			w.WriteString("  taints:\n  - key: dedicated\n    value: batch\n    effect: NoSchedule\n")
		}
		w.WriteString(`status:
  allocatable:
    cpu: "8"
    memory: 32Gi
    pods: "110"
`)
	}
	w.WriteString(`---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: warm-web
spec:
  replicas: 24
  selector:
    matchLabels: {app: warm-web}
  template:
    metadata:
      labels: {app: warm-web}
    spec:
      priorityClassName: warm-high
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels: {app: warm-web}
      containers:
      - name: web
        image: registry.example/web:1.0
        resources:
          requests: {cpu: 250m, memory: 256Mi}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: warm-web
spec:
  minAvailable: 20
  selector:
    matchLabels: {app: warm-web}
`)
	for i := range pods {
		if i%4 == 0 {
			fmt.Fprintf(&w, `---
apiVersion: v1
kind: Pod
metadata:
  name: warm-bound-%d
  labels:
    app: warm-app-%d
spec:
  nodeName: warm-node-%d
  tolerations:
  - key: dedicated
    operator: Exists
  containers:
  - name: c
    image: registry.example/app:1.0
    resources:
      requests:
        cpu: 500m
        memory: 1Gi
`, i, i%10, i%nodes)
			continue
		}
		fmt.Fprintf(&w, `---
apiVersion: v1
kind: Pod
metadata: {name: warm-pod-%d, labels: {app: warm-app-%d, tier: backend}}
spec:
  containers: [{name: c, image: registry.example/app-%d:1.0, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`, i, i%10, i%10)
	}
	return []byte(w.String())
}
