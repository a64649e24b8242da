// Package queuesort holds PrioritySort, the default queue order.
package queuesort

import (
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.PrioritySort

// PrioritySort orders the active queue by priority, then by queue timestamp.
type PrioritySort struct{}

var _ framework.QueueSortPlugin = (*PrioritySort)(nil)

// New builds the plugin.
func New(any, framework.Handle) (framework.Plugin, error) { return &PrioritySort{}, nil }

// Name returns the plugin's name.
func (pl *PrioritySort) Name() string { return Name }

// Less puts higher priority first and, among equals, the pod queued earlier.
func (pl *PrioritySort) Less(a, b *framework.QueuedPodInfo) bool {
	p1, p2 := a.Pod.PriorityValue(), b.Pod.PriorityValue()
	return p1 > p2 || (p1 == p2 && a.Timestamp.Before(b.Timestamp))
}
