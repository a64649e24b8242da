// Package runtime runs a profile's plugins at each extension point, as
// upstream's pkg/scheduler/framework/runtime does, minus the parallelism:
// every loop runs in order, so results never depend on goroutine timing.
package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
)

// Nominator tells which pods are nominated to run on a node.
type Nominator interface {
	NominatedPodsForNode(nodeName string) []*framework.PodInfo
}

// nodeCountingNominator is a Nominator that can tell how many nodes have
// pods nominated to them (an upper bound will do). With none, filtering
// skips asking for every node.
type nodeCountingNominator interface {
	NumNominatedNodes() int
}

// Framework is one profile's plugins, ready to run.
type Framework struct {
	profileName              string
	percentageOfNodesToScore *int32
	pluginsMap               map[string]framework.Plugin

	preEnqueuePlugins []framework.PreEnqueuePlugin
	enqueueExtensions []framework.EnqueueExtensions
	preFilterPlugins  []framework.PreFilterPlugin
	filterPlugins     []framework.FilterPlugin
	postFilterPlugins []framework.PostFilterPlugin
	preScorePlugins   []framework.PreScorePlugin
	scorePlugins      []framework.ScorePlugin
	scoreWeights      map[string]int

	snapshot  *framework.Snapshot
	nominator Nominator
	// counting is nominator as a nodeCountingNominator (nil if it is not
	// one), asserted once rather than for every node filtered.
	counting nodeCountingNominator
	cluster  framework.ClusterLister
	rand     *rand.Rand
	// preemptionExecutor carries out DefaultPreemption's decisions.
	preemptionExecutor framework.PreemptionExecutor
	volumeBinder       framework.VolumeBinder
	reservePlugins     []framework.ReservePlugin
	preBindPlugins     []framework.PreBindPlugin

	// scoreScratch backs RunScorePlugins' per-plugin score lists.
	scoreScratch framework.NodeScoreList
	// totalsScratch backs RunScorePluginsTotals' result.
	totalsScratch []int64
	// scoreRun is the per-cycle plugin bookkeeping of runScorePlugins,
	// kept between cycles.
	scoreRun scoreRun
	// preFilterSkips and preScoreSkips keep the last cycle's skip sets.
	preFilterSkips, preScoreSkips skipMemo
	// listOwner marks the filter plugin lists this framework leaves in
	// cycle states.
	listOwner framework.ListOwner
	// decidedBuf backs RunFilterPluginsNodes' per-node marks.
	decidedBuf []bool
	// signers are the PreFilter, Filter, PreScore and Score plugins, each
	// once; unsigned names the first that cannot sign, which turns
	// signatures off for the profile.
	signers  []framework.SignPlugin
	unsigned string
	// signScratch collects a pod's fragments before they are keyed.
	signScratch []framework.SignFragment
}

// skipMemo builds a cycle's set of skipped plugins (by name, as
// CycleState.SkipFilterPlugins and SkipScorePlugins hold it), and hands
// out the previous cycle's set when the same plugins skipped: usually
// every cycle does. A set is never written after it is handed out (states
// and their clones only read it), so states may share it.
type skipMemo struct {
	// skipped lists this cycle's skipped plugin indexes so far; last is
	// what set was built from.
	skipped, last []int
	set           map[string]bool
	// filters is the PreFilter memo's list of unskipped filter plugins.
	filters []framework.FilterPlugin
}

func (m *skipMemo) start()     { m.skipped = m.skipped[:0] }
func (m *skipMemo) skip(i int) { m.skipped = append(m.skipped, i) }

// finishSkips makes m.set match m.skipped (indexes into plugins),
// building a new map only when the skipped plugins differ from the last
// cycle's, and reports whether it did.
func finishSkips[P framework.Plugin](m *skipMemo, plugins []P) bool {
	if m.set != nil && slices.Equal(m.skipped, m.last) {
		return false
	}
	set := make(map[string]bool, len(m.skipped))
	for _, i := range m.skipped {
		set[plugins[i].Name()] = true
	}
	m.set = set
	m.last = append(m.last[:0], m.skipped...)
	return true
}

// scoreRun holds, per score plugin that runs this cycle, its score list,
// name and weight.
type scoreRun struct {
	plugins []framework.ScorePlugin
	lists   []framework.NodeScoreList
	names   []string
	weights []int64
}

var _ framework.Handle = (*Framework)(nil)

// Options are the framework's collaborators.
type Options struct {
	Nominator Nominator
	Cluster   framework.ClusterLister
	// Rand is the seeded source for upstream's random choices (the
	// preemption dry run's starting node).
	Rand *rand.Rand
	// PreemptionExecutor carries out decided preemptions (nil: none is).
	PreemptionExecutor framework.PreemptionExecutor
	// VolumeBinder carries out VolumeBinding's PreBind (nil: none does).
	VolumeBinder framework.VolumeBinder
}

// NewFramework instantiates the plugins of profile (already merged with the
// default plugins, see MergeWithDefaults) from registry.
func NewFramework(registry framework.Registry, profile *config.Profile, opts Options) (*Framework, error) {
	f := &Framework{
		profileName:              profile.SchedulerName,
		percentageOfNodesToScore: profile.PercentageOfNodesToScore,
		pluginsMap:               map[string]framework.Plugin{},
		nominator:                opts.Nominator,
		cluster:                  opts.Cluster,
		rand:                     opts.Rand,
		preemptionExecutor:       opts.PreemptionExecutor,
		volumeBinder:             opts.VolumeBinder,
	}
	f.counting, _ = opts.Nominator.(nodeCountingNominator)
	if f.rand == nil {
		f.rand = rand.New(rand.NewPCG(0, 0))
	}
	if f.cluster == nil {
		f.cluster = &framework.Cluster{}
	}
	plugins := profile.Plugins
	if plugins == nil {
		plugins = &config.Plugins{}
	}
	for _, name := range pluginsNeeded(plugins) {
		factory, ok := registry[name]
		if !ok {
			return nil, fmt.Errorf("plugin %q does not exist", name)
		}
		p, err := factory(config.ArgsFor(profile, name), f)
		if err != nil {
			return nil, fmt.Errorf("initializing plugin %q: %w", name, err)
		}
		f.pluginsMap[name] = p
		f.fillEnqueueExtensions(p)
	}
	var err error
	if f.preEnqueuePlugins, err = buildList[framework.PreEnqueuePlugin](f, plugins.PreEnqueue, plugins.MultiPoint); err != nil {
		return nil, err
	}
	if f.preFilterPlugins, err = buildList[framework.PreFilterPlugin](f, plugins.PreFilter, plugins.MultiPoint); err != nil {
		return nil, err
	}
	if f.filterPlugins, err = buildList[framework.FilterPlugin](f, plugins.Filter, plugins.MultiPoint); err != nil {
		return nil, err
	}
	if f.postFilterPlugins, err = buildList[framework.PostFilterPlugin](f, plugins.PostFilter, plugins.MultiPoint); err != nil {
		return nil, err
	}
	if f.preScorePlugins, err = buildList[framework.PreScorePlugin](f, plugins.PreScore, plugins.MultiPoint); err != nil {
		return nil, err
	}
	if f.scorePlugins, err = buildList[framework.ScorePlugin](f, plugins.Score, plugins.MultiPoint); err != nil {
		return nil, err
	}
	if f.reservePlugins, err = buildList[framework.ReservePlugin](f, plugins.Reserve, plugins.MultiPoint); err != nil {
		return nil, err
	}
	if f.preBindPlugins, err = buildList[framework.PreBindPlugin](f, plugins.PreBind, plugins.MultiPoint); err != nil {
		return nil, err
	}
	f.computeBatchablePlugins()
	f.scoreWeights = map[string]int{}
	for _, p := range append(append([]config.Plugin(nil), plugins.Score.Enabled...), plugins.MultiPoint.Enabled...) {
		if _, ok := f.pluginsMap[p.Name].(framework.ScorePlugin); !ok {
			continue
		}
		if _, ok := f.scoreWeights[p.Name]; ok {
			continue // the Score extension point's weight wins over MultiPoint's
		}
		w := int(p.Weight)
		if w == 0 {
			w = 1 // a zero weight is not allowed; disable the plugin instead
		}
		f.scoreWeights[p.Name] = w
	}
	return f, nil
}

func pluginsNeeded(p *config.Plugins) []string {
	var out []string
	seen := map[string]bool{}
	for _, set := range []config.PluginSet{p.MultiPoint, p.PreEnqueue, p.QueueSort, p.PreFilter, p.Filter, p.PostFilter,
		p.PreScore, p.Score, p.Reserve, p.Permit, p.PreBind, p.Bind, p.PostBind} {
		for _, e := range set.Enabled {
			if !seen[e.Name] {
				seen[e.Name] = true
				out = append(out, e.Name)
			}
		}
	}
	return out
}

// buildList fills one extension point: the explicitly enabled plugins, then
// MultiPoint expanded as upstream's expandMultiPointPlugins orders it
// (explicit overrides of MultiPoint plugins first, then MultiPoint plugins,
// then the other explicit ones).
func buildList[T framework.Plugin](f *Framework, set, multiPoint config.PluginSet) ([]T, error) {
	var explicit []string
	seen := map[string]bool{}
	for _, e := range set.Enabled {
		p, ok := f.pluginsMap[e.Name]
		if !ok {
			return nil, fmt.Errorf("plugin %q does not exist", e.Name)
		}
		if _, ok := p.(T); !ok {
			return nil, fmt.Errorf("plugin %q does not extend %T", e.Name, *new(T))
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("plugin %q already registered", e.Name)
		}
		seen[e.Name] = true
		explicit = append(explicit, e.Name)
	}
	disabled := map[string]bool{}
	for _, d := range set.Disabled {
		disabled[d.Name] = true
	}
	if disabled["*"] {
		return collect[T](f, explicit), nil
	}
	override := map[string]bool{}
	var fromMulti []string
	multiSeen := map[string]bool{}
	for _, e := range multiPoint.Enabled {
		p, ok := f.pluginsMap[e.Name]
		if !ok {
			return nil, fmt.Errorf("plugin %q does not exist", e.Name)
		}
		if _, ok := p.(T); !ok || disabled[e.Name] {
			continue
		}
		if seen[e.Name] {
			override[e.Name] = true
			continue
		}
		if multiSeen[e.Name] {
			return nil, fmt.Errorf("plugin %q already registered", e.Name)
		}
		multiSeen[e.Name] = true
		fromMulti = append(fromMulti, e.Name)
	}
	var order []string
	for _, n := range explicit {
		if override[n] {
			order = append(order, n)
		}
	}
	order = append(order, fromMulti...)
	for _, n := range explicit {
		if !override[n] {
			order = append(order, n)
		}
	}
	return collect[T](f, order), nil
}

func collect[T framework.Plugin](f *Framework, names []string) []T {
	out := make([]T, 0, len(names))
	for _, n := range names {
		out = append(out, f.pluginsMap[n].(T))
	}
	return out
}

// MergeWithDefaults merges a profile's plugin sets with the default ones as
// the v1 config defaulting (mergePlugins) does: a custom enabled plugin that
// is also a default replaces it in place, disabled plugins (or "*") drop
// defaults, other custom plugins are appended.
func MergeWithDefaults(custom *config.Plugins) *config.Plugins {
	def := &config.Plugins{MultiPoint: config.PluginSet{Enabled: config.DefaultMultiPoint()}}
	if custom == nil {
		return def
	}
	out := *custom
	out.MultiPoint = mergePluginSet(def.MultiPoint, custom.MultiPoint)
	for _, ps := range []*config.PluginSet{&out.PreEnqueue, &out.QueueSort, &out.PreFilter, &out.Filter, &out.PostFilter,
		&out.PreScore, &out.Score, &out.Reserve, &out.Permit, &out.PreBind, &out.Bind, &out.PostBind} {
		*ps = mergePluginSet(config.PluginSet{}, *ps)
	}
	return &out
}

func mergePluginSet(def, custom config.PluginSet) config.PluginSet {
	disabled := map[string]bool{}
	var out config.PluginSet
	for _, d := range custom.Disabled {
		out.Disabled = append(out.Disabled, config.Plugin{Name: d.Name})
		disabled[d.Name] = true
	}
	for _, d := range def.Disabled {
		out.Disabled = append(out.Disabled, config.Plugin{Name: d.Name})
		disabled[d.Name] = true
	}
	customIdx := map[string]int{}
	for i, e := range custom.Enabled {
		customIdx[e.Name] = i
	}
	replaced := map[int]bool{}
	if !disabled["*"] {
		for _, e := range def.Enabled {
			if disabled[e.Name] {
				continue
			}
			if i, ok := customIdx[e.Name]; ok {
				e = custom.Enabled[i]
				replaced[i] = true
			}
			out.Enabled = append(out.Enabled, e)
		}
	}
	for i, e := range custom.Enabled {
		if !replaced[i] {
			out.Enabled = append(out.Enabled, e)
		}
	}
	return out
}

// fillEnqueueExtensions records the events that may lift a rejection by p.
// Only plugins that can reject (PreEnqueue, PreFilter, Filter) count; one
// without EnqueueExtensions is woken by every event.
func (f *Framework) fillEnqueueExtensions(p framework.Plugin) {
	switch p.(type) {
	case framework.PreEnqueuePlugin, framework.PreFilterPlugin, framework.FilterPlugin:
	default:
		return
	}
	if ext, ok := p.(framework.EnqueueExtensions); ok {
		f.enqueueExtensions = append(f.enqueueExtensions, ext)
		return
	}
	f.enqueueExtensions = append(f.enqueueExtensions, defaultEnqueueExtension{name: p.Name()})
}

type defaultEnqueueExtension struct{ name string }

func (d defaultEnqueueExtension) Name() string { return d.name }
func (d defaultEnqueueExtension) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return framework.UnrollWildCardResource(), nil
}

// EnqueueExtensions returns the event registrations of the plugins that can
// reject a pod, in the order the plugins were instantiated.
func (f *Framework) EnqueueExtensions() []framework.EnqueueExtensions { return f.enqueueExtensions }

// ProfileName returns the scheduler name of the profile.
func (f *Framework) ProfileName() string { return f.profileName }

// PercentageOfNodesToScore is the profile's setting (nil: use the global one).
func (f *Framework) PercentageOfNodesToScore() *int32 { return f.percentageOfNodesToScore }

// SetSnapshot sets the snapshot for the next cycle.
func (f *Framework) SetSnapshot(s *framework.Snapshot) { f.snapshot = s }

// SetNominator sets where nominated pods are looked up.
func (f *Framework) SetNominator(n Nominator) {
	f.nominator = n
	f.counting, _ = n.(nodeCountingNominator)
}

// SnapshotSharedLister implements framework.Handle.
func (f *Framework) SnapshotSharedLister() framework.SharedLister { return f.snapshot }

// Rand returns the seeded random source plugins draw from.
func (f *Framework) Rand() *rand.Rand { return f.rand }

// Cluster implements framework.Handle.
func (f *Framework) Cluster() framework.ClusterLister { return f.cluster }

// PreemptionExecutor implements framework.Handle.
func (f *Framework) PreemptionExecutor() framework.PreemptionExecutor { return f.preemptionExecutor }

// VolumeBinder returns what carries out VolumeBinding's PreBind.
func (f *Framework) VolumeBinder() framework.VolumeBinder { return f.volumeBinder }

// RunReservePluginsReserve runs the Reserve plugins in order; on a failure
// it unreserves every Reserve plugin in reverse, as upstream's
// schedulingCycle does, and returns the failure.
func (f *Framework) RunReservePluginsReserve(state *framework.CycleState, pod *api.Pod, nodeName string) *framework.Status {
	for _, pl := range f.reservePlugins {
		if st := pl.Reserve(state, pod, nodeName); !st.IsSuccess() {
			f.RunReservePluginsUnreserve(state, pod, nodeName)
			return framework.AsStatus(fmt.Errorf("running Reserve plugin %q: %w", pl.Name(), st.AsError())).WithPlugin(pl.Name())
		}
	}
	return nil
}

// RunReservePluginsUnreserve runs every Reserve plugin's Unreserve in reverse order.
func (f *Framework) RunReservePluginsUnreserve(state *framework.CycleState, pod *api.Pod, nodeName string) {
	for i := len(f.reservePlugins) - 1; i >= 0; i-- {
		f.reservePlugins[i].Unreserve(state, pod, nodeName)
	}
}

// RunPreBindPlugins runs the PreBind plugins in order; the first failure
// ends the binding cycle (upstream wraps it the same way).
func (f *Framework) RunPreBindPlugins(state *framework.CycleState, pod *api.Pod, nodeName string) *framework.Status {
	for _, pl := range f.preBindPlugins {
		st := pl.PreBind(state, pod, nodeName)
		if st.IsSkip() || st.IsSuccess() {
			continue
		}
		return framework.AsStatus(fmt.Errorf("running PreBind plugin %q: %w", pl.Name(), st.AsError())).WithPlugin(pl.Name())
	}
	return nil
}

// NominatedPodsForNode implements framework.Handle.
func (f *Framework) NominatedPodsForNode(nodeName string) []*framework.PodInfo {
	if f.nominator == nil {
		return nil
	}
	return f.nominator.NominatedPodsForNode(nodeName)
}

// PluginNames lists the plugins of an extension point, in order ("PreFilter", "Filter", ...).
func (f *Framework) PluginNames(point string) []string {
	switch point {
	case "PreEnqueue":
		return namesOf(f.preEnqueuePlugins)
	case "PreFilter":
		return namesOf(f.preFilterPlugins)
	case "Filter":
		return namesOf(f.filterPlugins)
	case "PostFilter":
		return namesOf(f.postFilterPlugins)
	case "PreScore":
		return namesOf(f.preScorePlugins)
	case "Score":
		return namesOf(f.scorePlugins)
	}
	return nil
}

func namesOf[T framework.Plugin](ps []T) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Name())
	}
	return out
}

// Plugin returns an instantiated plugin by name (nil if not enabled).
func (f *Framework) Plugin(name string) framework.Plugin { return f.pluginsMap[name] }

// ScoreWeight returns a score plugin's weight.
func (f *Framework) ScoreWeight(name string) int { return f.scoreWeights[name] }

// HasPostFilterPlugins reports whether any PostFilter plugin is enabled.
func (f *Framework) HasPostFilterPlugins() bool { return len(f.postFilterPlugins) > 0 }

// HasFilterPlugins reports whether any Filter plugin is enabled.
func (f *Framework) HasFilterPlugins() bool { return len(f.filterPlugins) > 0 }

// HasScorePlugins reports whether any Score plugin is enabled.
func (f *Framework) HasScorePlugins() bool { return len(f.scorePlugins) > 0 }

// RunPreEnqueuePlugins reports the first PreEnqueue rejection.
func (f *Framework) RunPreEnqueuePlugins(pod *api.Pod) *framework.Status {
	for _, pl := range f.preEnqueuePlugins {
		if s := pl.PreEnqueue(pod); !s.IsSuccess() {
			return s.WithPlugin(pl.Name())
		}
	}
	return nil
}

// RunPreFilterPlugins runs PreFilter as upstream: Skip turns off the
// plugin's Filter; UnschedulableAndUnresolvable stops at once; Unschedulable
// is remembered while the rest still run; node-name results are intersected
// and an empty intersection rejects every node.
func (f *Framework) RunPreFilterPlugins(state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status, map[string]bool) {
	memo := &f.preFilterSkips
	memo.start()
	defer func() {
		if finishSkips(memo, f.preFilterPlugins) {
			memo.filters = f.unskippedFilterPlugins(memo.set)
		}
		state.SkipFilterPlugins = memo.set
		state.SetFilterPlugins(&f.listOwner, memo.filters)
	}()
	nodes := f.snapshot.List()
	var result *framework.PreFilterResult
	withNodes := map[string]bool{}
	var returnStatus *framework.Status
	for i, pl := range f.preFilterPlugins {
		r, s := pl.PreFilter(state, pod, nodes)
		if s.IsSkip() {
			memo.skip(i)
			continue
		}
		if !s.IsSuccess() {
			s.WithPlugin(pl.Name())
			switch s.Code() {
			case framework.UnschedulableAndUnresolvable:
				return nil, s, nil
			case framework.Unschedulable:
				returnStatus = s
				continue
			}
			return nil, framework.AsStatus(fmt.Errorf("running PreFilter plugin %q: %w", pl.Name(), s.AsError())).WithPlugin(pl.Name()), nil
		}
		if !r.AllNodes() {
			withNodes[pl.Name()] = true
		}
		result = result.Merge(r)
		if !result.AllNodes() && len(result.NodeNames) == 0 {
			names := sortedKeys(withNodes)
			msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", names)
			if len(names) == 1 {
				msg = fmt.Sprintf("node(s) didn't satisfy plugin %v", names[0])
			}
			return result, framework.NewStatus(framework.UnschedulableAndUnresolvable, msg), withNodes
		}
	}
	return result, returnStatus, withNodes
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// RunFilterPlugins returns the first rejection, with its plugin.
func (f *Framework) RunFilterPlugins(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	plugins, ok := state.FilterPlugins(&f.listOwner)
	if !ok {
		plugins = f.unskippedFilterPlugins(state.SkipFilterPlugins)
	}
	for _, pl := range plugins {
		if s := pl.Filter(state, pod, nodeInfo); !s.IsSuccess() {
			if !s.IsRejected() {
				s = framework.AsStatus(fmt.Errorf("running %q filter plugin: %w", pl.Name(), s.AsError()))
			}
			return s.WithPlugin(pl.Name())
		}
	}
	return nil
}

// RunFilterPluginsNodes is RunFilterPlugins for each node, plugin by
// plugin: statuses[i] (all nil on entry, as long as nodes) gets what
// RunFilterPlugins returns for nodes[i]. Each plugin filters only the
// nodes the earlier ones let through, as RunFilterPlugins does, and a
// BatchFilterPlugin does so in one call.
func (f *Framework) RunFilterPluginsNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, statuses []*framework.Status) {
	plugins, ok := state.FilterPlugins(&f.listOwner)
	if !ok {
		plugins = f.unskippedFilterPlugins(state.SkipFilterPlugins)
	}
	// decided marks the nodes a plugin rejected so far; a status set by the
	// current plugin is one on a node not yet marked.
	decided := f.decidedBuf[:0]
	for range nodes {
		decided = append(decided, false)
	}
	f.decidedBuf = decided
	for _, pl := range plugins {
		if bp, ok := pl.(framework.BatchFilterPlugin); ok {
			bp.FilterNodes(state, pod, nodes, statuses)
		} else {
			for i, ni := range nodes {
				if statuses[i] == nil {
					if s := pl.Filter(state, pod, ni); !s.IsSuccess() {
						statuses[i] = s
					}
				}
			}
		}
		for i, s := range statuses {
			if s == nil || decided[i] {
				continue
			}
			decided[i] = true
			if !s.IsRejected() {
				s = framework.AsStatus(fmt.Errorf("running %q filter plugin: %w", pl.Name(), s.AsError()))
			}
			statuses[i] = s.WithPlugin(pl.Name())
		}
	}
}

// unskippedFilterPlugins lists the filter plugins not in skip, in order.
func (f *Framework) unskippedFilterPlugins(skip map[string]bool) []framework.FilterPlugin {
	out := make([]framework.FilterPlugin, 0, len(f.filterPlugins))
	for _, pl := range f.filterPlugins {
		if !skip[pl.Name()] {
			out = append(out, pl)
		}
	}
	return out
}

// RunFilterPluginsWithNominatedPods filters twice when the node has
// nominated pods of equal or higher priority: once with them counted as
// running, and, if that passes, once without them (affinity may need them
// absent). Both must pass.
func (f *Framework) RunFilterPluginsWithNominatedPods(state *framework.CycleState, pod *api.Pod, info *framework.NodeInfo) *framework.Status {
	if f.NoNominatedPods() {
		// No node has nominated pods: the loop below would add none and
		// filter once, as this does.
		return f.RunFilterPlugins(state, pod, info)
	}
	var status *framework.Status
	podsAdded := false
	for i := 0; i < 2; i++ {
		stateToUse, infoToUse := state, info
		if i == 0 {
			var err error
			podsAdded, stateToUse, infoToUse, err = f.addGENominatedPods(pod, state, info)
			if err != nil {
				return framework.AsStatus(err)
			}
		} else if !podsAdded || !status.IsSuccess() {
			break
		}
		status = f.RunFilterPlugins(stateToUse, pod, infoToUse)
		if !status.IsSuccess() && !status.IsRejected() {
			return status
		}
	}
	return status
}

// NoNominatedPods reports that RunFilterPluginsWithNominatedPods would
// filter every node once, as RunFilterPlugins: there is no nominator, or
// it counts no node with nominated pods. The answer holds until the
// nominations change, so a node search may ask once and then call
// RunFilterPlugins for each node.
func (f *Framework) NoNominatedPods() bool {
	return f.nominator == nil || f.counting != nil && f.counting.NumNominatedNodes() == 0
}

// AddGENominatedPods is what Filter's first pass sees for a node: a clone
// of state and info with the node's nominated pods of at least the pod's
// priority added (added false: none, and state and info come back as
// they are). For views that explain a verdict (engine.SpreadAt).
func (f *Framework) AddGENominatedPods(pod *api.Pod, state *framework.CycleState, info *framework.NodeInfo) (added bool, _ *framework.CycleState, _ *framework.NodeInfo, _ error) {
	return f.addGENominatedPods(pod, state, info)
}

func (f *Framework) addGENominatedPods(pod *api.Pod, state *framework.CycleState, info *framework.NodeInfo) (bool, *framework.CycleState, *framework.NodeInfo, error) {
	nominated := f.NominatedPodsForNode(info.Node().Name)
	if len(nominated) == 0 {
		return false, state, info, nil
	}
	infoOut := info.Clone()
	stateOut := state.Clone()
	added := false
	for _, pi := range nominated {
		if pi.Pod.PriorityValue() >= pod.PriorityValue() && pi.Pod.Key() != pod.Key() {
			infoOut.AddPodInfo(pi)
			if s := f.RunPreFilterExtensionAddPod(stateOut, pod, pi, infoOut); !s.IsSuccess() {
				return false, state, info, s.AsError()
			}
			added = true
		}
	}
	return added, stateOut, infoOut, nil
}

// RunPreFilterExtensionAddPod tells every non-skipped PreFilter plugin a pod was added.
func (f *Framework) RunPreFilterExtensionAddPod(state *framework.CycleState, podToSchedule *api.Pod, podInfoToAdd *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	for _, pl := range f.preFilterPlugins {
		if pl.PreFilterExtensions() == nil || state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		if s := pl.PreFilterExtensions().AddPod(state, podToSchedule, podInfoToAdd, nodeInfo); !s.IsSuccess() {
			return framework.AsStatus(fmt.Errorf("running AddPod on PreFilter plugin %q: %w", pl.Name(), s.AsError()))
		}
	}
	return nil
}

// RunPreFilterExtensionRemovePod tells every non-skipped PreFilter plugin a pod was removed.
func (f *Framework) RunPreFilterExtensionRemovePod(state *framework.CycleState, podToSchedule *api.Pod, podInfoToRemove *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	for _, pl := range f.preFilterPlugins {
		if pl.PreFilterExtensions() == nil || state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		if s := pl.PreFilterExtensions().RemovePod(state, podToSchedule, podInfoToRemove, nodeInfo); !s.IsSuccess() {
			return framework.AsStatus(fmt.Errorf("running RemovePod on PreFilter plugin %q: %w", pl.Name(), s.AsError()))
		}
	}
	return nil
}

// RunPostFilterPlugins runs PostFilter plugins until one succeeds; otherwise
// their reasons are joined in profile order.
func (f *Framework) RunPostFilterPlugins(state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	var result *framework.PostFilterResult
	var reasons []string
	var rejector string
	for _, pl := range f.postFilterPlugins {
		r, s := pl.PostFilter(state, pod, m)
		switch {
		case s.IsSuccess():
			return r, s
		case s.Code() == framework.UnschedulableAndUnresolvable:
			return r, s.WithPlugin(pl.Name())
		case !s.IsRejected():
			return nil, framework.AsStatus(s.AsError()).WithPlugin(pl.Name())
		case r != nil && r.Mode() != framework.ModeNoop:
			result = r
		}
		reasons = append(reasons, s.Reasons()...)
		if rejector == "" {
			rejector = pl.Name()
		}
	}
	return result, framework.NewStatus(framework.Unschedulable, reasons...).WithPlugin(rejector)
}

// RunPreScorePlugins runs PreScore; Skip turns off the plugin's Score.
func (f *Framework) RunPreScorePlugins(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	memo := &f.preScoreSkips
	memo.start()
	defer func() {
		finishSkips(memo, f.preScorePlugins)
		state.SkipScorePlugins = memo.set
	}()
	for i, pl := range f.preScorePlugins {
		s := pl.PreScore(state, pod, nodes)
		if s.IsSkip() {
			memo.skip(i)
			continue
		}
		if !s.IsSuccess() {
			return framework.AsStatus(fmt.Errorf("running PreScore plugin %q: %w", pl.Name(), s.AsError()))
		}
	}
	return nil
}

// PluginScore is one plugin's score on a node at each of upstream's
// three steps: what Score returned, what NormalizeScore made of it, and
// that times the plugin's weight (upstream's PluginScore.Score, which
// goes into the total).
type PluginScore struct {
	Name string
	// Raw is what the plugin's Score returned, before NormalizeScore.
	Raw int64
	// Normalized is the score after NormalizeScore, before the weight
	// (Raw for a plugin without ScoreExtensions).
	Normalized int64
	// Score is Normalized times the plugin's weight.
	Score int64
}

// NodePluginScores are all plugins' scores on a node.
type NodePluginScores struct {
	Name       string
	Scores     []PluginScore
	TotalScore int64
}

// RunScorePlugins scores, normalizes and weights, as upstream's
// RunScorePlugins: Score of every plugin not skipped on every node, then
// NormalizeScore per plugin, then the range check and the weight per node
// and plugin. It keeps each plugin's score as Score returned it too.
func (f *Framework) RunScorePlugins(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) ([]NodePluginScores, *framework.Status) {
	var raw []int64
	lists, st := f.scoreLists(state, pod, nodes, &raw)
	if st != nil {
		return nil, st
	}
	names, weights := f.scoreRun.names, f.scoreRun.weights
	if st := checkScoreRanges(names, lists, len(nodes)); st != nil {
		return nil, st
	}
	out := make([]NodePluginScores, len(nodes))
	all := make([]PluginScore, len(nodes)*len(lists))
	for j, ni := range nodes {
		nps := NodePluginScores{Name: ni.Node().Name, Scores: all[j*len(lists) : (j+1)*len(lists) : (j+1)*len(lists)]}
		for i := range lists {
			s, w := lists[i][j].Score, weights[i]
			nps.Scores[i] = PluginScore{Name: names[i], Raw: raw[i*len(nodes)+j], Normalized: s, Score: s * w}
			nps.TotalScore += s * w
		}
		out[j] = nps
	}
	return out, nil
}

// RunScorePluginsTotals is RunScorePlugins reduced to each node's total,
// in the order of nodes: choosing a node needs only the totals, and the
// breakdown is most of what a cycle allocates. The result lives in storage
// the next call reuses, so a caller must not keep it.
func (f *Framework) RunScorePluginsTotals(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) ([]int64, *framework.Status) {
	lists, st := f.scoreLists(state, pod, nodes, nil)
	if st != nil {
		return nil, st
	}
	n := len(nodes)
	if cap(f.totalsScratch) < n {
		f.totalsScratch = make([]int64, n)
	}
	totals := f.totalsScratch[:n]
	clear(totals)
	// Plugin by plugin, each list is read in order; every node's total is
	// the same sum, added in the same order, as node by node. The range
	// check rides along; only a failure walks the lists again, to name the
	// plugin upstream would.
	inRange := true
	for i, list := range lists {
		w := f.scoreRun.weights[i]
		sums := totals[:len(list)] // one bounds check per list, not per node
		for j := range list {
			s := list[j].Score
			if s > framework.MaxNodeScore || s < framework.MinNodeScore {
				inRange = false
			}
			sums[j] += s * w
		}
	}
	if !inRange {
		return nil, checkScoreRanges(f.scoreRun.names, lists, n)
	}
	return totals, nil
}

// scoreLists runs Score (or ScoreNodes) and NormalizeScore of every plugin
// not skipped this cycle, leaving in f.scoreRun the plugins, names and
// weights that go with the returned lists. With raw set it also returns
// the scores as Score returned them, plugin-major (raw[i*len(nodes)+j]),
// copied before NormalizeScore rewrites the lists in place.
func (f *Framework) scoreLists(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, raw *[]int64) ([]framework.NodeScoreList, *framework.Status) {
	// The per-plugin lists and bookkeeping never leave a cycle, so their
	// storage is kept for the next one (a Framework runs one cycle at a
	// time).
	run := &f.scoreRun
	run.plugins, run.names, run.weights = run.plugins[:0], run.names[:0], run.weights[:0]
	for _, pl := range f.scorePlugins {
		if !state.SkipScorePlugins[pl.Name()] {
			run.plugins = append(run.plugins, pl)
			run.names = append(run.names, pl.Name())
			run.weights = append(run.weights, int64(f.scoreWeights[pl.Name()]))
		}
	}
	plugins := run.plugins
	n := len(nodes)
	if need := len(plugins) * n; cap(f.scoreScratch) < need {
		f.scoreScratch = make(framework.NodeScoreList, need)
	}
	run.lists = run.lists[:0]
	for i := range plugins {
		run.lists = append(run.lists, f.scoreScratch[i*n:(i+1)*n:(i+1)*n])
	}
	lists := run.lists
	for i, pl := range plugins {
		// Only NormalizeScore reads the names, and not every one does; the
		// totals take them from nodes.
		named := pl.ScoreExtensions() != nil
		if _, ok := pl.ScoreExtensions().(framework.NamelessNormalizer); ok {
			named = false
		}
		if bp, ok := pl.(framework.BatchScorePlugin); ok {
			if st := bp.ScoreNodes(state, pod, nodes, lists[i]); !st.IsSuccess() {
				return nil, framework.AsStatus(fmt.Errorf("running Score plugins: plugin %q failed with: %w", pl.Name(), st.AsError()))
			}
			if named {
				for j, ni := range nodes {
					lists[i][j].Name = ni.Node().Name
				}
			}
			continue
		}
		for j, ni := range nodes {
			s, st := pl.Score(state, pod, ni)
			if !st.IsSuccess() {
				return nil, framework.AsStatus(fmt.Errorf("running Score plugins: plugin %q failed with: %w", pl.Name(), st.AsError()))
			}
			if named {
				lists[i][j] = framework.NodeScore{Name: ni.Node().Name, Score: s}
			} else {
				lists[i][j].Score = s
			}
		}
	}
	if raw != nil {
		*raw = make([]int64, len(plugins)*n)
		for i, list := range lists {
			for j := range list {
				(*raw)[i*n+j] = list[j].Score
			}
		}
	}
	for i, pl := range plugins {
		if pl.ScoreExtensions() == nil {
			continue
		}
		if st := pl.ScoreExtensions().NormalizeScore(state, pod, lists[i]); !st.IsSuccess() {
			return nil, framework.AsStatus(fmt.Errorf("running Normalize on Score plugins: plugin %q failed with: %w", pl.Name(), st.AsError()))
		}
	}
	return lists, nil
}

// checkScoreRanges rejects a normalized score outside
// [MinNodeScore, MaxNodeScore], naming the plugin of the first such score
// in node-major order, as upstream's loop over nodes and then plugins
// would.
func checkScoreRanges(names []string, lists []framework.NodeScoreList, n int) *framework.Status {
	ok := true
	for _, list := range lists {
		for j := range list {
			if s := list[j].Score; s > framework.MaxNodeScore || s < framework.MinNodeScore {
				ok = false
			}
		}
	}
	if ok {
		return nil
	}
	for j := 0; j < n; j++ {
		for i, list := range lists {
			if s := list[j].Score; s > framework.MaxNodeScore || s < framework.MinNodeScore {
				return framework.AsStatus(fmt.Errorf("applying score defaultWeights on Score plugins: plugin %q returns an invalid score %v, it should in the range of [%v, %v] after normalizing",
					names[i], s, framework.MinNodeScore, framework.MaxNodeScore))
			}
		}
	}
	return nil
}
