package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/framework/runtime"
	"github.com/schedplay/schedplay/core/plugins"
	"github.com/schedplay/schedplay/core/plugins/podtopologyspread"
)

// SpreadView is PodTopologySpread's answer for one pod against the cluster
// right after one event: what its PreFilter counted (per constraint, the
// matching pods of each eligible domain and the global minimum) and, per
// node, the skew Filter computes and Filter's verdict. The playground's
// spread overlay shows it; nothing above the engine recounts.
type SpreadView struct {
	// Constraints are the DoNotSchedule constraints Filter enforces (the
	// pod's own, or the profile's default constraints for a pod that
	// declares none); empty when the plugin skips the pod.
	Constraints []podtopologyspread.ConstraintReport
	// Nodes are the cluster's nodes by name.
	Nodes []SpreadNode
}

// SpreadNode is one node's verdict.
type SpreadNode struct {
	Name string
	// Skews are Filter's skew per constraint (in Constraints' order). When
	// pods of at least the pod's priority are nominated to the node, Filter
	// runs twice, with them counted as running there and without, and the
	// node must pass both: the skew is then the larger of the two.
	Skews []podtopologyspread.NodeSkew
	// Fits is Filter's verdict as the framework runs it
	// (RunFilterPluginsWithNominatedPods); Reason is its message when the
	// node is rejected.
	Fits   bool
	Reason string
}

// SpreadAt runs PodTopologySpread's PreFilter and Filter for pod key
// against the cluster right after event seq (-1: as loaded), with the
// plugin configured as the pod's profile configures it. It returns nil
// when the pod does not exist then, or when its profile does not run the
// plugin's Filter. The simulation is not touched: the plugin runs in a
// framework of its own over a snapshot built from the state at seq.
func (s *Simulation) SpreadAt(key string, seq int) (*SpreadView, error) {
	st := s.StateAt(seq)
	c, pod := s.clusterAt(st, key)
	if pod == nil {
		return nil, nil
	}
	runner, err := s.profile(pod.Spec.SchedulerName)
	if err != nil || !slices.Contains(runner.fwk.PluginNames("Filter"), podtopologyspread.Name) {
		return nil, nil //nolint:nilerr // a pod no profile schedules has no spread to show
	}
	prof, err := ProfileFor(s.sc.Config, pod.Spec.SchedulerName)
	if err != nil {
		return nil, err
	}
	only := config.PluginSet{Enabled: []config.Plugin{{Name: podtopologyspread.Name}}}
	p := config.Profile{SchedulerName: prof.SchedulerName, PluginConfig: prof.PluginConfig,
		Plugins: &config.Plugins{PreFilter: only, Filter: only}}
	fwk, err := runtime.NewFramework(plugins.NewInTreeRegistry(), &p, runtime.Options{Nominator: c.Nominated, Cluster: c.Lister})
	if err != nil {
		return nil, fmt.Errorf("building %s for %s: %w", podtopologyspread.Name, key, err)
	}
	fwk.SetSnapshot(c.Snapshot)
	state := framework.NewCycleState()
	if _, status, _ := fwk.RunPreFilterPlugins(state, pod); !status.IsSuccess() {
		return nil, fmt.Errorf("%s PreFilter for %s: %w", podtopologyspread.Name, key, status.AsError())
	}
	v := &SpreadView{}
	r := podtopologyspread.ReportFromState(state, len(pod.Spec.TopologySpreadConstraints) > 0)
	if r == nil {
		return v, nil
	}
	v.Constraints = r.Constraints
	for _, ni := range c.Snapshot.List() {
		name := ni.Node().Name
		n := SpreadNode{Name: name, Skews: podtopologyspread.NodeSkews(state, ni)}
		added, withNominated, _, err := fwk.AddGENominatedPods(pod, state, ni)
		if err != nil {
			return nil, fmt.Errorf("%s with the pods nominated to %s: %w", key, name, err)
		}
		if added {
			for i, sk := range podtopologyspread.NodeSkews(withNominated, ni) {
				n.Skews[i].Skew = max(n.Skews[i].Skew, sk.Skew)
			}
		}
		status := fwk.RunFilterPluginsWithNominatedPods(state, pod, ni)
		n.Fits, n.Reason = status.IsSuccess(), status.Message()
		v.Nodes = append(v.Nodes, n)
	}
	return v, nil
}

// clusterAt is the scheduler's view of state (pods on their nodes then,
// terminating ones with a deletionTimestamp unless evicted, nominations)
// and the pod key as it was then (nil if it did not exist).
func (s *Simulation) clusterAt(st *State, key string) (*ClusterAt, *api.Pod) {
	var pods []*api.Pod
	var target *api.Pod
	for i := range st.Pods {
		row := &st.Pods[i]
		obj := s.PodObject(row.Key)
		if obj == nil || row.Phase == PhaseDeleted || row.Phase == PhaseFailed {
			continue
		}
		p := *obj
		p.Spec.NodeName, p.Status.NominatedNodeName = "", ""
		switch row.Phase {
		case PhaseRunning:
			p.Spec.NodeName = row.Node
		case PhasePending:
			p.Status.NominatedNodeName = row.NominatedNode
		}
		if t := row.Termination; t == nil || t.Eviction {
			p.DeletionTimestamp = nil
		} else if p.DeletionTimestamp == nil {
			at := s.sc.T0.Add(time.Duration(t.End))
			p.DeletionTimestamp = &at
		}
		if row.Key == key {
			target = &p
		}
		pods = append(pods, &p)
	}
	var nodes []*api.Node
	for _, ns := range st.Nodes {
		obj := s.nodeEver(ns.Name)
		if obj == nil {
			continue
		}
		n := *obj
		n.Spec.Unschedulable, n.Spec.Taints = ns.Unschedulable, ns.Taints
		nodes = append(nodes, &n)
	}
	var bound []*api.Pod
	nominated := Nominations{}
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			bound = append(bound, p)
		} else if nnn := p.Status.NominatedNodeName; nnn != "" {
			nominated[nnn] = append(nominated[nnn], framework.NewPodInfo(p))
		}
	}
	return &ClusterAt{Snapshot: framework.NewSnapshot(bound, nodes), Nominated: nominated, Lister: s.lister}, target
}

// nodeEver is the node object named name: one the simulation has now, else
// one the scenario or its timeline brought (a removed node's labels).
func (s *Simulation) nodeEver(name string) *api.Node {
	if n := s.NodeObject(name); n != nil {
		return n
	}
	for _, n := range s.sc.Nodes {
		if n.Name == name {
			return n
		}
	}
	for _, a := range s.sc.Timeline {
		if n, ok := a.Object.(*api.Node); ok && n.Name == name {
			return n
		}
	}
	return nil
}
