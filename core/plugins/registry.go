// Package plugins assembles the in-tree plugin registry, as upstream's
// pkg/scheduler/framework/plugins/registry.go.
package plugins

import (
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/defaultbinder"
	"github.com/schedplay/schedplay/core/plugins/defaultpreemption"
	"github.com/schedplay/schedplay/core/plugins/dynamicresources"
	"github.com/schedplay/schedplay/core/plugins/imagelocality"
	"github.com/schedplay/schedplay/core/plugins/interpodaffinity"
	"github.com/schedplay/schedplay/core/plugins/names"
	"github.com/schedplay/schedplay/core/plugins/nodeaffinity"
	"github.com/schedplay/schedplay/core/plugins/nodedeclaredfeatures"
	"github.com/schedplay/schedplay/core/plugins/nodename"
	"github.com/schedplay/schedplay/core/plugins/nodeports"
	"github.com/schedplay/schedplay/core/plugins/noderesources"
	"github.com/schedplay/schedplay/core/plugins/nodeunschedulable"
	"github.com/schedplay/schedplay/core/plugins/nodevolumelimits"
	"github.com/schedplay/schedplay/core/plugins/podtopologyspread"
	"github.com/schedplay/schedplay/core/plugins/queuesort"
	"github.com/schedplay/schedplay/core/plugins/schedulinggates"
	"github.com/schedplay/schedplay/core/plugins/tainttoleration"
	"github.com/schedplay/schedplay/core/plugins/volumebinding"
	"github.com/schedplay/schedplay/core/plugins/volumerestrictions"
	"github.com/schedplay/schedplay/core/plugins/volumezone"
)

// NewInTreeRegistry maps every plugin of the default profile to its factory.
// A fresh map each call, so callers may add out-of-tree plugins.
func NewInTreeRegistry() framework.Registry {
	return framework.Registry{
		names.SchedulingGates:                 schedulinggates.New,
		names.PrioritySort:                    queuesort.New,
		names.NodeUnschedulable:               nodeunschedulable.New,
		names.NodeName:                        nodename.New,
		names.TaintToleration:                 tainttoleration.New,
		names.NodeAffinity:                    nodeaffinity.New,
		names.NodePorts:                       nodeports.New,
		names.NodeResourcesFit:                noderesources.NewFit,
		names.VolumeRestrictions:              volumerestrictions.New,
		names.NodeVolumeLimits:                nodevolumelimits.New,
		names.VolumeBinding:                   volumebinding.New,
		names.VolumeZone:                      volumezone.New,
		names.PodTopologySpread:               podtopologyspread.New,
		names.InterPodAffinity:                interpodaffinity.New,
		names.DynamicResources:                dynamicresources.New,
		names.DefaultPreemption:               defaultpreemption.New,
		names.NodeResourcesBalancedAllocation: noderesources.NewBalancedAllocation,
		names.ImageLocality:                   imagelocality.New,
		names.DefaultBinder:                   defaultbinder.New,
		names.NodeDeclaredFeatures:            nodedeclaredfeatures.New,
	}
}
