package scenario

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/api"
)

// Timeline documents schedule actions over simulated time (docs/timeline.md):
//
//	apiVersion: schedplay.dev/v1alpha1
//	kind: Timeline
//	spec:
//	  actions:
//	  - {at: 30s, cordon: node-a}
//	  - {at: 1m, delete: {kind: Pod, namespace: default, name: x}}
const (
	TimelineAPIVersion = "schedplay.dev/v1alpha1"
	TimelineKind       = "Timeline"
)

// Action kinds (the one key besides "at" an action carries).
const (
	ActionCreate     = "create"
	ActionDelete     = "delete"
	ActionCordon     = "cordon"
	ActionUncordon   = "uncordon"
	ActionAddNode    = "addNode"
	ActionRemoveNode = "removeNode"
	ActionScale      = "scale"
	ActionPressure   = "pressure"
)

// timelineKeys are a Timeline's own fields.
var timelineKeys = []string{"apiVersion", "kind", "metadata", "spec"}

var actionKinds = []string{ActionCreate, ActionDelete, ActionCordon, ActionUncordon, ActionAddNode, ActionRemoveNode, ActionScale, ActionPressure}

// creatable are the kinds a create action may hold.
var creatable = []string{"Pod", "Node", "Deployment", "ReplicaSet", "StatefulSet", "PodDisruptionBudget"}

// Action is one timeline step.
type Action struct {
	// At is the offset from T0.
	At   time.Duration
	Kind string
	Pos  Pos
	// Object is what create and addNode make (*api.Pod, *api.Node, ...).
	Object any
	// Ref names the object of delete and scale (Kind, Namespace, Name), and
	// the node of cordon, uncordon and removeNode (Name).
	Ref      ObjectRef
	Replicas int32
	Pressure *Pressure
	// GracePeriodSeconds is a pod delete's own grace period (DeleteOptions),
	// which replaces the pod's terminationGracePeriodSeconds; nil: none.
	GracePeriodSeconds *int64
}

// ObjectRef names an object.
type ObjectRef struct{ Kind, Namespace, Name string }

func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Pressure thresholds.
const (
	ThresholdSoft = "soft"
	ThresholdHard = "hard"
)

// Pressure raises a kubelet eviction signal on a node.
type Pressure struct {
	Node string
	// Resource is memory or ephemeral-storage.
	Resource api.ResourceName
	// Threshold is soft or hard.
	Threshold string
	// Limit is the most the pods on the node may use together before the
	// threshold is crossed (capacity minus the eviction threshold).
	Limit api.Quantity
	// Usage is each pod's usage ("namespace/name" or "name" in default);
	// pods not listed use nothing.
	Usage map[string]api.Quantity
	// MaxPodGracePeriod is the kubelet's evictionMaxPodGracePeriod (soft only; default 0).
	MaxPodGracePeriod int64
}

// readTimeline reads a Timeline document into l.timeline.
func (l *loader) readTimeline(n *ynode, apiVersion string, an *ynode) {
	const obj = "Timeline"
	if !l.ownAPIVersion(n, obj, apiVersion, an) {
		return
	}
	for i, k := range n.keys {
		if !contains(timelineKeys, k) {
			l.errorAt(n.kpos[i], obj, k, fmt.Sprintf("unknown field %q", k), "a Timeline has apiVersion, kind, metadata and spec.actions")
		}
	}
	spec := n.get("spec")
	if spec == nil || spec.kind != yMap {
		l.errorAt(n.pos, obj, "spec", "Required value: spec.actions lists the timeline's actions", "")
		return
	}
	acts := spec.get("actions")
	if acts == nil || acts.kind == yNull {
		return
	}
	if acts.kind != ySeq {
		l.errorAt(acts.pos, obj, "spec.actions", "expected a list of actions, got "+acts.describe(), "")
		return
	}
	for i, a := range acts.items {
		if act := l.readAction(a, fmt.Sprintf("spec.actions[%d]", i)); act != nil {
			l.timeline = append(l.timeline, act)
		}
	}
}

// ownAPIVersion reports a schedplay kind written with another apiVersion.
func (l *loader) ownAPIVersion(n *ynode, kind, apiVersion string, an *ynode) bool {
	if apiVersion == TimelineAPIVersion {
		return true
	}
	p := n.pos
	if an != nil {
		p = an.pos
	}
	l.errorAt(p, kind, "apiVersion", fmt.Sprintf("no kind %s in version %q", kind, apiVersion), "use apiVersion: "+TimelineAPIVersion)
	return false
}

func (l *loader) readAction(n *ynode, path string) *Action {
	const obj = "Timeline"
	errAt := func(p Pos, field, msg, hint string) { l.errorAt(p, obj, field, msg, hint) }
	if n.kind != yMap {
		errAt(n.pos, path, "an action must be a mapping, got "+n.describe(), "write {at: 30s, cordon: node-a}")
		return nil
	}
	act := &Action{Pos: n.pos}
	var body *ynode
	for i, k := range n.keys {
		switch {
		case k == "at":
			d, ok := parseAt(n.vals[i])
			if !ok {
				msg := fmt.Sprintf("invalid time %s", n.vals[i].describe())
				if f, err := strconv.ParseFloat(n.vals[i].text, 64); (err == nil || errors.Is(err, strconv.ErrRange)) && !(f < 0) {
					// A number however the YAML reader typed it (goccy
					// reads 1e10 as a string, 1e3 as a number).
					msg = fmt.Sprintf("invalid time %s seconds: a time is a finite number of seconds up to about 292 years (what a time.Duration holds)", n.vals[i].text)
				}
				errAt(n.vals[i].pos, path+".at", msg, `write a duration from the start such as "30s", "1m30s" or a number of seconds`)
				return nil
			}
			act.At = d
		case contains(actionKinds, k):
			if act.Kind != "" {
				errAt(n.kpos[i], path+"."+k, fmt.Sprintf("an action does one thing; this one already has %s", act.Kind), "split it into two actions")
				return nil
			}
			act.Kind, body = k, n.vals[i]
		default:
			hint := "use one of " + strings.Join(actionKinds, ", ")
			if c := closest(k, append([]string{"at"}, actionKinds...)); c != "" {
				hint = fmt.Sprintf("did you mean %q?", c)
			}
			errAt(n.kpos[i], path+"."+k, fmt.Sprintf("unknown action %q", k), hint)
			return nil
		}
	}
	if act.Kind == "" {
		errAt(n.pos, path, "the action does nothing", "add one of "+strings.Join(actionKinds, ", "))
		return nil
	}
	bpath := path + "." + act.Kind
	switch act.Kind {
	case ActionCreate, ActionAddNode:
		if body.kind != yMap {
			errAt(body.pos, bpath, "expected a Kubernetes object, got "+body.describe(), "")
			return nil
		}
		before := len(l.objs)
		l.readObject(body)
		if len(l.objs) == before {
			return nil // readObject reported why
		}
		o := l.objs[len(l.objs)-1]
		l.objs = l.objs[:len(l.objs)-1]
		if act.Kind == ActionAddNode && o.kind != "Node" || !contains(creatable, o.kind) {
			want := creatable
			if act.Kind == ActionAddNode {
				want = []string{"Node"}
			}
			errAt(body.pos, bpath, fmt.Sprintf("cannot %s a %s", act.Kind, o.kind), "use one of "+strings.Join(want, ", "))
			return nil
		}
		l.created = append(l.created, o)
		act.Object = o.val
	case ActionCordon, ActionUncordon, ActionRemoveNode:
		if body.kind != yScalar || body.text == "" {
			errAt(body.pos, bpath, "expected a node name, got "+body.describe(), "")
			return nil
		}
		act.Ref = ObjectRef{Kind: "Node", Name: body.text}
	case ActionDelete, ActionScale:
		ref, ok := l.readRef(body, bpath, act.Kind == ActionScale)
		if !ok {
			return nil
		}
		act.Ref = ref
		if g, gn := scalarAt(body, "gracePeriodSeconds"); gn != nil {
			v, err := strconv.ParseInt(g, 10, 64)
			if err != nil || v < 0 || ref.Kind != "Pod" {
				errAt(gn.pos, bpath+".gracePeriodSeconds", "expected the grace period of a pod's delete, in whole seconds (0 or more), got "+gn.describe(), "as kubectl delete --grace-period; only a Pod's delete takes one")
				return nil
			}
			act.GracePeriodSeconds = &v
		}
		if act.Kind == ActionScale {
			r, rn := scalarAt(body, "replicas")
			v, err := strconv.ParseInt(r, 10, 32)
			if rn == nil || err != nil || v < 0 {
				p := body.pos
				if rn != nil {
					p = rn.pos
				}
				errAt(p, bpath+".replicas", "replicas must be a whole number >= 0", "")
				return nil
			}
			act.Replicas = int32(v)
			l.scaleTo(ref.Kind+"/"+ref.Namespace+"/"+ref.Name, int(v), rn.pos, obj, bpath+".replicas")
		}
	case ActionPressure:
		p, ok := l.readPressure(body, bpath)
		if !ok {
			return nil
		}
		act.Pressure = p
	}
	return act
}

// parseAt reads an action's time: a duration or a number of seconds, 0 or
// more. NaN, infinities and numbers past what a time.Duration holds (about
// 292 years) are refused rather than wrapped into an earlier time.
func parseAt(n *ynode) (time.Duration, bool) {
	if n.kind != yScalar {
		return 0, false
	}
	if f, err := strconv.ParseFloat(n.text, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if err != nil || math.IsNaN(f) || f < 0 || f >= math.MaxInt64/float64(time.Second) {
			return 0, false
		}
		return time.Duration(f * float64(time.Second)), true
	}
	d, err := time.ParseDuration(n.text)
	return d, err == nil && d >= 0
}

func (l *loader) readRef(n *ynode, path string, scale bool) (ObjectRef, bool) {
	allowed := []string{"Pod", "Node", "Deployment", "ReplicaSet", "StatefulSet", "PodDisruptionBudget"}
	if scale {
		allowed = []string{"Deployment", "ReplicaSet", "StatefulSet"}
	}
	if n.kind != yMap {
		l.errorAt(n.pos, "Timeline", path, "expected {kind, namespace, name}, got "+n.describe(), "")
		return ObjectRef{}, false
	}
	for i, k := range n.keys {
		if k != "kind" && k != "namespace" && k != "name" && !(scale && k == "replicas") && !(!scale && k == "gracePeriodSeconds") {
			l.errorAt(n.kpos[i], "Timeline", path+"."+k, fmt.Sprintf("unknown field %q", k), "")
			return ObjectRef{}, false
		}
	}
	kind, kn := scalarAt(n, "kind")
	if !contains(allowed, kind) {
		p := n.pos
		if kn != nil {
			p = kn.pos
		}
		l.errorAt(p, "Timeline", path+".kind", fmt.Sprintf("cannot %s kind %q", map[bool]string{true: "scale", false: "delete"}[scale], kind), "use one of "+strings.Join(allowed, ", "))
		return ObjectRef{}, false
	}
	name, _ := scalarAt(n, "name")
	if name == "" {
		l.errorAt(n.pos, "Timeline", path+".name", "Required value: name", "")
		return ObjectRef{}, false
	}
	ns, _ := scalarAt(n, "namespace")
	if kinds[kind].namespaced && ns == "" {
		ns = "default"
	}
	return ObjectRef{Kind: kind, Namespace: ns, Name: name}, true
}

func (l *loader) readPressure(n *ynode, path string) (*Pressure, bool) {
	bad := func(p Pos, field, msg, hint string) (*Pressure, bool) {
		l.errorAt(p, "Timeline", path+field, msg, hint)
		return nil, false
	}
	if n.kind != yMap {
		return bad(n.pos, "", "expected {node, resource, threshold, limit, usage}, got "+n.describe(), "")
	}
	p := &Pressure{Usage: map[string]api.Quantity{}}
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "node":
			p.Node = v.text
		case "resource":
			if v.text != string(api.ResourceMemory) && v.text != string(api.ResourceEphemeralStorage) {
				return bad(v.pos, ".resource", fmt.Sprintf("unsupported resource %s", v.describe()), "use memory or ephemeral-storage")
			}
			p.Resource = api.ResourceName(v.text)
		case "threshold":
			if v.text != ThresholdSoft && v.text != ThresholdHard {
				return bad(v.pos, ".threshold", fmt.Sprintf("unsupported threshold %s", v.describe()), "use soft or hard")
			}
			p.Threshold = v.text
		case "limit":
			q, err := api.ParseQuantity(v.text)
			if v.kind != yScalar || err != nil {
				return bad(v.pos, ".limit", fmt.Sprintf("invalid quantity %s", v.describe()), `write a quantity such as "3Gi"`)
			}
			p.Limit = q
		case "evictionMaxPodGracePeriod":
			g, err := strconv.ParseInt(v.text, 10, 64)
			if v.kind != yScalar || err != nil {
				return bad(v.pos, ".evictionMaxPodGracePeriod", "expected whole seconds, got "+v.describe(), "")
			}
			p.MaxPodGracePeriod = g
		case "usage":
			if v.kind != yMap {
				return bad(v.pos, ".usage", "expected a mapping of pod name to quantity, got "+v.describe(), "")
			}
			for j, pk := range v.keys {
				q, err := api.ParseQuantity(v.vals[j].text)
				if v.vals[j].kind != yScalar || err != nil {
					return bad(v.vals[j].pos, ".usage["+pk+"]", fmt.Sprintf("invalid quantity %s", v.vals[j].describe()), `write a quantity such as "1Gi"`)
				}
				if !strings.Contains(pk, "/") {
					pk = "default/" + pk
				}
				p.Usage[pk] = q
			}
		default:
			return bad(n.kpos[i], "."+k, fmt.Sprintf("unknown field %q", k), "a pressure has node, resource, threshold, limit, usage and evictionMaxPodGracePeriod")
		}
	}
	switch {
	case p.Node == "":
		return bad(n.pos, ".node", "Required value: node", "")
	case p.Resource == "":
		return bad(n.pos, ".resource", "Required value: resource", "use memory or ephemeral-storage")
	case p.Threshold == "":
		return bad(n.pos, ".threshold", "Required value: threshold", "use soft or hard")
	case p.Threshold == ThresholdHard && p.MaxPodGracePeriod != 0:
		return bad(n.pos, ".evictionMaxPodGracePeriod", "evictionMaxPodGracePeriod applies to soft thresholds only (a hard threshold kills with a 1 s grace period)", "remove evictionMaxPodGracePeriod or use threshold: soft")
	}
	return p, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// assembleTimeline validates created objects, admits created pods against
// the loaded cluster and orders the actions by time (document order for ties).
func (l *loader) assembleTimeline(s *Scenario) {
	for _, o := range l.created {
		(&validator{l: l, o: o}).validate()
		m := objectMeta(o.val)
		if m.CreationTimestamp == nil {
			m.CreationTimestamp = ptr(s.T0)
		}
	}
	sort.SliceStable(l.timeline, func(i, j int) bool { return l.timeline[i].At < l.timeline[j].At })
	s.Timeline = l.timeline
}

// AdmitCreatedPod applies to a pod created while the simulation runs (by a
// controller or the timeline) what the API server applies at create: v1
// defaults, the matchLabelKeys merge and Priority admission.
func (s *Scenario) AdmitCreatedPod(p *api.Pod) error {
	defaultPodSpec(&p.Spec)
	mergeLabelKeys(p)
	var pc *api.PriorityClass
	for _, c := range s.PriorityClasses {
		switch {
		case p.Spec.PriorityClassName != "" && c.Name == p.Spec.PriorityClassName:
			pc = c
		case p.Spec.PriorityClassName == "" && c.GlobalDefault && (pc == nil || c.Value < pc.Value):
			pc = c
		}
	}
	if p.Spec.PriorityClassName != "" && pc == nil {
		return fmt.Errorf("creating pod %s: no PriorityClass with name %s was found", p.Key(), p.Spec.PriorityClassName)
	}
	var value int32
	policy := api.PreemptLowerPriority
	if pc != nil {
		p.Spec.PriorityClassName = pc.Name
		value = pc.Value
		if pc.PreemptionPolicy != nil {
			policy = *pc.PreemptionPolicy
		}
	}
	p.Spec.Priority = ptr(value)
	p.Spec.PreemptionPolicy = ptr(policy)
	return nil
}
