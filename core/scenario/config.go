package scenario

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// upstreamPlugins are the in-tree plugin names of v1.36 (plugins/names).
var upstreamPlugins = []string{
	names.PrioritySort, names.DefaultBinder, names.DefaultPreemption, names.DynamicResources, "GangScheduling",
	names.ImageLocality, names.InterPodAffinity, names.NodeAffinity, names.NodeDeclaredFeatures, names.NodeName,
	names.NodePorts, names.NodeResourcesBalancedAllocation, names.NodeResourcesFit, names.NodeUnschedulable,
	names.NodeVolumeLimits, names.PodTopologySpread, names.SchedulingGates, names.TaintToleration,
	names.VolumeBinding, names.VolumeRestrictions, names.VolumeZone, "TopologyPlacementGenerator", "PodGroupPodsCount",
}

// Plugins whose args exist upstream but are not simulated.
var untypedArgs = map[string]bool{names.VolumeBinding: true, names.DynamicResources: true}

func knownPlugin(name string) bool {
	for _, n := range upstreamPlugins {
		if n == name {
			return true
		}
	}
	return false
}

// newArgs returns empty (not yet defaulted) args for a plugin with typed args.
func newArgs(name string) any {
	switch name {
	case names.NodeResourcesFit:
		return &config.NodeResourcesFitArgs{}
	case names.NodeResourcesBalancedAllocation:
		return &config.NodeResourcesBalancedAllocationArgs{}
	case names.PodTopologySpread:
		return &config.PodTopologySpreadArgs{}
	case names.InterPodAffinity:
		return &config.InterPodAffinityArgs{}
	case names.NodeAffinity:
		return &config.NodeAffinityArgs{}
	case names.DefaultPreemption:
		return &config.DefaultPreemptionArgs{}
	}
	return nil
}

// decodePluginConfig reads {name, args}: args are typed by the plugin name.
func (d *decoder) decodePluginConfig(n *ynode, v reflect.Value, path string) {
	if n.kind != yMap {
		d.errorf(n.pos, path, "write {name: <Plugin>, args: {...}}", "expected a mapping, got %s", n.describe())
		return
	}
	pc := config.PluginConfig{}
	var argsNode *ynode
	for i, k := range n.keys {
		switch k {
		case "name":
			d.decode(n.vals[i], reflect.ValueOf(&pc.Name).Elem(), join(path, k), false)
		case "args":
			argsNode = n.vals[i]
		default:
			d.unknownField(n.kpos[i], join(path, k), k, map[string]int{"name": 0, "args": 1}, nil)
		}
	}
	if argsNode != nil {
		ap := join(path, "args")
		d.pos[ap] = argsNode.pos
		switch args := newArgs(pc.Name); {
		case args != nil:
			d.decode(argsNode, reflect.ValueOf(args).Elem(), ap, false)
			pc.Args = args
		case untypedArgs[pc.Name]:
			d.l.warnAt(argsNode.pos, d.object, ap, fmt.Sprintf("args of %s are not simulated", pc.Name), "")
		case knownPlugin(pc.Name):
			d.errorf(argsNode.pos, ap, "remove args", "plugin %s takes no args", pc.Name)
		}
	}
	if pc.Name != "" && !knownPlugin(pc.Name) {
		hint := ""
		if c := closest(pc.Name, upstreamPlugins); c != "" {
			hint = fmt.Sprintf("did you mean %q?", c)
		}
		d.errorf(d.pos[join(path, "name")], join(path, "name"), hint, "unknown plugin %q", pc.Name)
	}
	v.Set(reflect.ValueOf(pc))
}

// validateConfig checks a KubeSchedulerConfiguration as upstream's
// ValidateKubeSchedulerConfiguration and plugin-args validation do. It runs
// before config.SetDefaults, so it applies the v1 defaults it depends on.
func (v *validator) validateConfig(c *config.KubeSchedulerConfiguration) {
	_, explicitInitial := v.o.path("podInitialBackoffSeconds")
	_, explicitMax := v.o.path("podMaxBackoffSeconds")
	initial, maxb := c.PodInitialBackoffSeconds, c.PodMaxBackoffSeconds
	if !explicitInitial {
		initial = 1
	}
	if !explicitMax {
		maxb = 10
	}
	if initial <= 0 {
		v.err("podInitialBackoffSeconds", fmt.Sprintf("Invalid value: %d: must be greater than 0", initial), "")
	}
	if maxb < initial {
		v.err("podMaxBackoffSeconds", fmt.Sprintf("Invalid value: %d: must be greater than or equal to PodInitialBackoffSeconds", maxb), "")
	}
	v.percentage("percentageOfNodesToScore", c.PercentageOfNodesToScore)
	profileNames := map[string]int{}
	for i := range c.Profiles {
		p := &c.Profiles[i]
		path := fmt.Sprintf("profiles[%d]", i)
		if p.SchedulerName == "" && len(c.Profiles) > 1 {
			v.err(path+".schedulerName", "Required value", "give every profile a schedulerName")
		}
		name := p.SchedulerName
		if name == "" {
			name = config.DefaultSchedulerName
		}
		if j, dup := profileNames[name]; dup {
			v.err(path+".schedulerName", fmt.Sprintf("Duplicate value: profiles[%d].schedulerName", j), "scheduler names must be unique")
		}
		profileNames[name] = i
		v.percentage(path+".percentageOfNodesToScore", p.PercentageOfNodesToScore)
		if p.Plugins != nil {
			v.plugins(path+".plugins", p.Plugins)
		}
		seen := map[string]bool{}
		for j := range p.PluginConfig {
			pc := &p.PluginConfig[j]
			pp := fmt.Sprintf("%s.pluginConfig[%d]", path, j)
			if seen[pc.Name] {
				v.err(pp, fmt.Sprintf("Duplicate value: %q", pc.Name), "give each plugin one pluginConfig entry")
			}
			seen[pc.Name] = true
			if pc.Args != nil {
				v.args(pp+".args", pc.Args)
			}
		}
	}
}

func (v *validator) percentage(path string, p *int32) {
	if p != nil && (*p < 0 || *p > 100) {
		v.err(path, fmt.Sprintf("Invalid value: %d: not in valid range [0-100]", *p), "")
	}
}

func (v *validator) plugins(path string, ps *config.Plugins) {
	rv := reflect.ValueOf(ps).Elem()
	for i := 0; i < rv.NumField(); i++ {
		set := rv.Field(i).Interface().(config.PluginSet)
		point := fieldName(rv.Type().Field(i))
		for _, list := range []struct {
			name    string
			plugins []config.Plugin
		}{{"enabled", set.Enabled}, {"disabled", set.Disabled}} {
			for j, pl := range list.plugins {
				p := fmt.Sprintf("%s.%s.%s[%d].name", path, point, list.name, j)
				if pl.Name == "*" && list.name == "disabled" {
					continue
				}
				if !knownPlugin(pl.Name) {
					hint := ""
					if c := closest(pl.Name, upstreamPlugins); c != "" {
						hint = fmt.Sprintf("did you mean %q?", c)
					}
					v.err(p, fmt.Sprintf("unknown plugin %q", pl.Name), hint)
				}
			}
		}
		if point == "queueSort" && len(set.Enabled) > 1 {
			v.err(path+".queueSort.enabled", fmt.Sprintf("Invalid value: %d: only one queue sort plugin can be enabled", len(set.Enabled)), "")
		}
	}
}

func (v *validator) args(path string, args any) {
	switch a := args.(type) {
	case *config.DefaultPreemptionArgs:
		_, pctSet := v.o.path(path + ".minCandidateNodesPercentage")
		_, absSet := v.o.path(path + ".minCandidateNodesAbsolute")
		if pctSet && absSet && a.MinCandidateNodesPercentage == 0 && a.MinCandidateNodesAbsolute == 0 {
			v.err(path+".minCandidateNodesPercentage", "Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute", "set one of them above zero")
			return
		}
		v.explicitZero(path, "minCandidateNodesPercentage", a.MinCandidateNodesPercentage, 10)
		v.explicitZero(path, "minCandidateNodesAbsolute", a.MinCandidateNodesAbsolute, 100)
		if a.MinCandidateNodesPercentage < 0 || a.MinCandidateNodesPercentage > 100 {
			v.err(path+".minCandidateNodesPercentage", fmt.Sprintf("Invalid value: %d: not in valid range [0, 100]", a.MinCandidateNodesPercentage), "")
		}
		if a.MinCandidateNodesAbsolute < 0 {
			v.err(path+".minCandidateNodesAbsolute", fmt.Sprintf("Invalid value: %d: not in valid range [0, inf)", a.MinCandidateNodesAbsolute), "")
		}
	case *config.InterPodAffinityArgs:
		v.explicitZero(path, "hardPodAffinityWeight", a.HardPodAffinityWeight, 1)
		if a.HardPodAffinityWeight < 0 || a.HardPodAffinityWeight > 100 {
			v.err(path+".hardPodAffinityWeight", fmt.Sprintf("Invalid value: %d: not in valid range [0, 100]", a.HardPodAffinityWeight), "")
		}
	case *config.NodeAffinityArgs:
		v.nodeAffinity(path+".addedAffinity", a.AddedAffinity)
	case *config.PodTopologySpreadArgs:
		dt := a.DefaultingType
		if dt == "" {
			dt = config.SystemDefaulting
		}
		if v.enum(path+".defaultingType", string(dt), enumOf[config.PodTopologySpreadConstraintsDefaulting]()...) && dt == config.SystemDefaulting && len(a.DefaultConstraints) > 0 {
			v.err(path+".defaultingType", "Invalid value: \"System\": when .defaultConstraints are not empty", "set defaultingType: List to use defaultConstraints")
		}
		for i, c := range a.DefaultConstraints {
			if c.LabelSelector != nil {
				v.err(fmt.Sprintf("%s.defaultConstraints[%d].labelSelector", path, i), "Forbidden: constraint must not define a selector, as they deduced for each pod", "remove the labelSelector")
			}
		}
		v.spreadConstraints(path+".defaultConstraints", a.DefaultConstraints, false)
	case *config.NodeResourcesBalancedAllocationArgs:
		seen := map[string]bool{}
		for i, r := range a.Resources {
			p := fmt.Sprintf("%s.resources[%d]", path, i)
			if seen[r.Name] {
				v.err(p+".name", fmt.Sprintf("Duplicate value: %q", r.Name), "")
			}
			seen[r.Name] = true
			// Weight 0 is "unset" in core/config and defaults to 1.
			if r.Weight != 1 && r.Weight != 0 {
				v.err(p+".weight", fmt.Sprintf("Invalid value: %d: must be 1", r.Weight), "")
			}
		}
	case *config.NodeResourcesFitArgs:
		for i, g := range a.IgnoredResourceGroups {
			if strings.Contains(g, "/") {
				v.err(fmt.Sprintf("%s.ignoredResourceGroups[%d]", path, i), fmt.Sprintf("Invalid value: %q: resource group name can't contain '/'", g), "")
			}
		}
		s := a.ScoringStrategy
		if s == nil {
			return
		}
		sp := path + ".scoringStrategy"
		t := s.Type
		if t == "" {
			t = config.LeastAllocated
		}
		if v.enum(sp+".type", string(t), enumOf[config.ScoringStrategyType]()...) {
			if t == config.RequestedToCapacityRatio && s.RequestedToCapacityRatio == nil {
				v.err(sp+".requestedToCapacityRatio", "Required value: must be specified when type is RequestedToCapacityRatio", "add requestedToCapacityRatio: {shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]}")
			}
			if t != config.RequestedToCapacityRatio && s.RequestedToCapacityRatio != nil {
				v.err(sp+".requestedToCapacityRatio", "Forbidden: must be nil when type is not RequestedToCapacityRatio", "")
			}
		}
		for i, r := range s.Resources {
			if r.Weight < 0 || r.Weight > 100 {
				v.err(fmt.Sprintf("%s.resources[%d].weight", sp, i), fmt.Sprintf("Invalid value: %d: resource weight of %s not in valid range (0, 100]", r.Weight, r.Name), "")
			}
		}
		if r := s.RequestedToCapacityRatio; r != nil {
			shp := sp + ".requestedToCapacityRatio.shape"
			if len(r.Shape) == 0 {
				v.err(shp, "Required value: at least one point must be specified", "")
			}
			for i := 1; i < len(r.Shape); i++ {
				if r.Shape[i-1].Utilization >= r.Shape[i].Utilization {
					v.err(fmt.Sprintf("%s[%d].utilization", shp, i), fmt.Sprintf("Invalid value: %d: values must be sorted in increasing order", r.Shape[i].Utilization), "")
					break
				}
			}
			for i, pt := range r.Shape {
				if pt.Utilization < 0 || pt.Utilization > 100 {
					v.err(fmt.Sprintf("%s[%d].utilization", shp, i), fmt.Sprintf("Invalid value: %d: not in valid range [0, 100]", pt.Utilization), "")
				}
				if pt.Score < 0 || pt.Score > 10 {
					v.err(fmt.Sprintf("%s[%d].score", shp, i), fmt.Sprintf("Invalid value: %d: not in valid range [0, 10]", pt.Score), "")
				}
			}
		}
	}
}

// explicitZero warns about an explicit 0 that core/config cannot tell from
// "unset": upstream keeps the 0 (v1 pointer fields), the engine uses the default.
func (v *validator) explicitZero(path, field string, val int32, def int32) {
	p := path + "." + field
	if _, ok := v.o.path(p); ok && val == 0 {
		v.warn(p, fmt.Sprintf("an explicit 0 is treated as unset and defaults to %d", def), "set a non-zero value")
	}
}
