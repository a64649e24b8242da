package upstream

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"

	"github.com/schedplay/schedplay/conformance/contract"
	"github.com/schedplay/schedplay/conformance/internal/scenario"
)

// TieSamples is how many times SelectCandidate is asked to choose between the best
// preemption candidate and another one to find out whether the two tie (upstream's
// final tie-break is Go map iteration order, see pickOneNodeForPreemption).
var TieSamples = 200

// Explain runs one scheduling cycle for the pending pod podKey against the t=0 cluster.
func Explain(sc *scenario.Scenario, podKey string) (*contract.Explain, error) {
	target := sc.Pod(podKey)
	if target == nil {
		return nil, &scenario.InputError{File: sc.File, Msg: fmt.Sprintf("no pod %q in the scenario", podKey)}
	}
	if finished(target) {
		return nil, &scenario.InputError{File: sc.File, Msg: fmt.Sprintf("pod %s/%s has finished (status.phase %s)", target.Namespace, target.Name, target.Status.Phase)}
	}
	if target.Spec.NodeName != "" {
		return nil, &scenario.InputError{File: sc.File, Msg: fmt.Sprintf("pod %s/%s is already bound to %s", target.Namespace, target.Name, target.Spec.NodeName)}
	}
	env, err := newEnv(sc, initialObjects(sc))
	if err != nil {
		return nil, err
	}
	defer env.Close()
	ctx := env.Ctx
	for _, p := range pendingPods(sc) {
		if _, err := env.CS.CoreV1().Pods(p.Namespace).Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			return nil, err
		}
	}
	if err := env.waitCacheHolds(); err != nil {
		return nil, err
	}
	// Every pending pod must have reached the queue (that is where the nominator lives).
	if !waitFor(20*time.Second, func() bool {
		for _, p := range pendingPods(sc) {
			if p.DeletionTimestamp == nil && p.Spec.SchedulerName == target.Spec.SchedulerName && !env.inQueue(p) {
				return false
			}
		}
		return true
	}) {
		return nil, fmt.Errorf("pending pods did not reach the scheduling queue")
	}
	schedFwk, ok := env.Sched.Profiles[target.Spec.SchedulerName]
	if !ok {
		return nil, &scenario.InputError{File: env.SC.File, Msg: fmt.Sprintf("pod %s/%s: schedulerName %q matches no profile", target.Namespace, target.Name, target.Spec.SchedulerName)}
	}
	pod, err := env.Factory.Core().V1().Pods().Lister().Pods(target.Namespace).Get(target.Name)
	if err != nil {
		return nil, err
	}
	return explainCycle(env, schedFwk, pod.DeepCopy(), true)
}

// explainCycle runs one cycle for pod with the profile's framework. With runPostFilter
// false it has no side effect (used by simulate to detect upstream's random choices).
func explainCycle(env *Env, schedFwk framework.Framework, pod *v1.Pod, runPostFilter bool) (*contract.Explain, error) {
	ctx := env.Ctx
	logger := klog.FromContext(ctx)
	snap, ok := schedFwk.SnapshotSharedLister().(*internalcache.Snapshot)
	if !ok {
		return nil, fmt.Errorf("unexpected snapshot type %T", schedFwk.SnapshotSharedLister())
	}
	if err := env.Sched.Cache.UpdateSnapshot(logger, snap); err != nil {
		return nil, err
	}
	allNodes, err := snap.NodeInfos().List()
	if err != nil {
		return nil, err
	}

	out := &contract.Explain{Pod: pod.Namespace + "/" + pod.Name, Selected: []string{}}
	results := map[string]*contract.NodeResult{}
	for _, ni := range allNodes {
		results[ni.Node().Name] = &contract.NodeResult{Name: ni.Node().Name}
	}

	state := framework.NewCycleState()
	state.Write(framework.PodsToActivateKey, framework.NewPodsToActivate())
	diagnosis := framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}

	reject := func(name string, st *fwk.Status, plugin string) {
		r := results[name]
		r.Feasible = false
		r.Plugin = plugin
		if r.Plugin == "" {
			r.Plugin = st.Plugin()
		}
		r.Reasons = append([]string{}, st.Reasons()...)
	}

	var feasible []fwk.NodeInfo
	nominatedPasses := false
	preRes, s, unschedPlugins := schedFwk.RunPreFilterPlugins(ctx, state, pod)
	diagnosis.UnschedulablePlugins = unschedPlugins
	if !s.IsSuccess() {
		if !s.IsRejected() {
			return nil, s.AsError()
		}
		diagnosis.NodeToStatus.SetAbsentNodesStatus(s)
		diagnosis.PreFilterMsg = s.Message()
		diagnosis.AddPluginStatus(s)
		plugin := s.Plugin()
		if plugin == "" && unschedPlugins.Len() > 0 {
			plugin = strings.Join(sets.List(unschedPlugins), ",")
		}
		for _, ni := range allNodes {
			reject(ni.Node().Name, s, plugin)
		}
	} else {
		out.Skipped = &contract.Skipped{Filter: skippedIn(schedFwk.ListPlugins().Filter.Enabled, state.GetSkipFilterPlugins())}
		// schedule_one.go evaluateNominatedNode: the nominated node alone first.
		if nnn := pod.Status.NominatedNodeName; nnn != "" {
			if ni, err := snap.NodeInfos().Get(nnn); err == nil {
				st := schedFwk.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni)
				if st.Code() == fwk.Error {
					return nil, st.AsError()
				}
				nominatedPasses = st.IsSuccess()
			}
		}
		nodes := allNodes
		if !preRes.AllNodes() {
			nodes = nil
			absent := fwk.NewStatus(fwk.UnschedulableAndUnresolvable, fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sets.List(unschedPlugins)))
			diagnosis.NodeToStatus.SetAbsentNodesStatus(absent)
			for _, ni := range allNodes {
				if preRes.NodeNames.Has(ni.Node().Name) {
					nodes = append(nodes, ni)
				} else {
					reject(ni.Node().Name, absent, strings.Join(sets.List(unschedPlugins), ","))
				}
			}
		}
		for _, ni := range nodes {
			st := schedFwk.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni)
			if st.Code() == fwk.Error {
				return nil, st.AsError()
			}
			if st.IsSuccess() {
				feasible = append(feasible, ni)
				results[ni.Node().Name].Feasible = true
				continue
			}
			diagnosis.NodeToStatus.Set(ni.Node().Name, st)
			diagnosis.AddPluginStatus(st)
			reject(ni.Node().Name, st, "")
		}
	}

	if len(feasible) > 0 {
		// prioritizeNodes: upstream skips scoring when exactly one node is feasible; the
		// contract reports scores for every feasible node, so score them all.
		if st := schedFwk.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
			return nil, st.AsError()
		}
		scores, st := schedFwk.RunScorePlugins(ctx, state, pod, feasible)
		if !st.IsSuccess() {
			return nil, st.AsError()
		}
		out.Skipped.Score = skippedIn(schedFwk.ListPlugins().Score.Enabled, state.GetSkipScorePlugins())
		weights := scoreWeights(schedFwk.ListPlugins())
		var best int64 = -1
		for _, ns := range scores {
			r := results[ns.Name]
			r.Scores = map[string]int64{}
			r.Weighted = map[string]int64{}
			for _, ps := range ns.Scores {
				r.Weighted[ps.Name] = ps.Score
				w := weights[ps.Name]
				if w == 0 {
					w = 1
				}
				r.Scores[ps.Name] = ps.Score / w
			}
			t := ns.TotalScore
			r.Total = &t
			if t > best {
				best = t
			}
		}
		for _, ns := range scores {
			if ns.TotalScore == best {
				out.Selected = append(out.Selected, ns.Name)
			}
		}
		sort.Strings(out.Selected)
		if nominatedPasses {
			out.Selected = []string{pod.Status.NominatedNodeName}
		}
	} else {
		fitErr := &framework.FitError{Pod: pod, NumAllNodes: len(allNodes), Diagnosis: diagnosis}
		pre, err := dryRunPreemption(env, schedFwk, state, pod, diagnosis.NodeToStatus)
		if err != nil {
			return nil, err
		}
		out.Preemption = pre
		if runPostFilter && schedFwk.HasPostFilterPlugins() {
			// The real PostFilter plugins (DynamicResources, DefaultPreemption, ...) for
			// the message. Their side effects go to the fake clientset, which is discarded.
			_, pst := schedFwk.RunPostFilterPlugins(ctx, state, pod, diagnosis.NodeToStatus)
			fitErr.Diagnosis.PostFilterMsg = pst.Message()
		}
		out.Message = fitErr.Error()
	}

	for _, ni := range allNodes {
		out.Nodes = append(out.Nodes, *results[ni.Node().Name])
	}
	sort.Slice(out.Nodes, func(i, j int) bool { return out.Nodes[i].Name < out.Nodes[j].Name })
	return out, nil
}

// skippedIn returns the plugins of an extension point, in profile order,
// that are in skip (a cycle state's skip set).
func skippedIn(enabled []schedconfig.Plugin, skip sets.Set[string]) []string {
	var out []string
	for _, p := range enabled {
		if skip.Has(p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

func scoreWeights(p *schedconfig.Plugins) map[string]int64 {
	w := map[string]int64{}
	for _, pl := range p.Score.Enabled {
		w[pl.Name] = int64(pl.Weight)
	}
	return w
}

// dryRunPreemption runs DefaultPreemption's dry run over every node whose filter
// status is Unschedulable (no sampling, offset 0) and finds the best candidates with
// upstream's SelectCandidate. It returns nil when the profile has no DefaultPreemption
// or the pod is not eligible to preempt.
func dryRunPreemption(env *Env, schedFwk framework.Framework, state fwk.CycleState, pod *v1.Pod, m *framework.NodeToStatus) (*contract.Preemption, error) {
	ctx := env.Ctx
	hasDP := false
	for _, p := range schedFwk.ListPlugins().PostFilter.Enabled {
		if p.Name == names.DefaultPreemption {
			hasDP = true
		}
	}
	if !hasDP {
		return nil, nil
	}
	args, err := defaultPreemptionArgs(env.SC.Config, schedFwk.ProfileName())
	if err != nil {
		return nil, err
	}
	// A second instance of the plugin on the same framework handle: its Evaluator's
	// DryRunPreemption takes offset and count as arguments, so every node is tried.
	pl, err := defaultpreemption.New(ctx, args, schedFwk, plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
	if err != nil {
		return nil, err
	}
	if ok, _ := pl.PodEligibleToPreemptOthers(ctx, pod, m.Get(pod.Status.NominatedNodeName)); !ok {
		return nil, nil
	}
	out := &contract.Preemption{Candidates: map[string]contract.Candidate{}, Nominated: []string{}}
	potential, err := m.NodesForStatusCode(schedFwk.SnapshotSharedLister().NodeInfos(), fwk.Unschedulable)
	if err != nil {
		return nil, err
	}
	if len(potential) == 0 {
		return out, nil
	}
	pdbs, err := env.Factory.Policy().V1().PodDisruptionBudgets().Lister().List(labels.Everything())
	if err != nil {
		return nil, err
	}
	candidates, _, err := pl.Evaluator.DryRunPreemption(ctx, state, pod, potential, pdbs, 0, int32(len(potential)))
	if err != nil && len(candidates) == 0 {
		return nil, err
	}
	for _, c := range candidates {
		var victims []string
		for _, v := range c.Victims().Pods {
			victims = append(victims, v.Namespace+"/"+v.Name)
		}
		out.Candidates[c.Name()] = contract.Candidate{Victims: victims, PDBViolations: int(c.Victims().NumPDBViolations)}
	}
	out.Nominated = bestCandidates(ctx, pl.Evaluator, candidates)
	return out, nil
}

// bestCandidates returns every candidate that ties for best under upstream's ordering.
// SelectCandidate(all) gives one best candidate b. Upstream's last tie-break is the
// iteration order of a Go map, so another candidate c ties with b exactly when
// SelectCandidate({b, c}) can return c; it is asked TieSamples times.
func bestCandidates(ctx context.Context, ev *preemption.Evaluator, cands []preemption.Candidate) []string {
	if len(cands) == 0 {
		return []string{}
	}
	best := ev.SelectCandidate(ctx, cands)
	if best == nil {
		return []string{}
	}
	var bestC preemption.Candidate
	for _, c := range cands {
		if c.Name() == best.Name() {
			bestC = c
		}
	}
	out := []string{best.Name()}
	for _, c := range cands {
		if c.Name() == best.Name() {
			continue
		}
		for i := 0; i < TieSamples; i++ {
			pair := []preemption.Candidate{bestC, c}
			if i%2 == 1 {
				pair = []preemption.Candidate{c, bestC}
			}
			if got := ev.SelectCandidate(ctx, pair); got != nil && got.Name() == c.Name() {
				out = append(out, c.Name())
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

func defaultPreemptionArgs(cfg *schedconfig.KubeSchedulerConfiguration, profileName string) (*schedconfig.DefaultPreemptionArgs, error) {
	for _, p := range cfg.Profiles {
		if p.SchedulerName != profileName {
			continue
		}
		for _, pc := range p.PluginConfig {
			if pc.Name == names.DefaultPreemption {
				if a, ok := pc.Args.(*schedconfig.DefaultPreemptionArgs); ok {
					return a, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no DefaultPreemptionArgs in profile %q", profileName)
}
