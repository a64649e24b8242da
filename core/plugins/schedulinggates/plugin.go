// Package schedulinggates keeps a pod out of the active queue while it has
// spec.schedulingGates.
package schedulinggates

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.SchedulingGates

// SchedulingGates is the plugin.
type SchedulingGates struct{}

var _ framework.PreEnqueuePlugin = (*SchedulingGates)(nil)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &SchedulingGates{}, nil
}

// Name returns the plugin's name.
func (pl *SchedulingGates) Name() string { return Name }

// PreEnqueue gates a pod with scheduling gates. The message lists the gate
// names the way upstream formats a []string with %v: "[a b]".
func (pl *SchedulingGates) PreEnqueue(pod *api.Pod) *framework.Status {
	if len(pod.Spec.SchedulingGates) == 0 {
		return nil
	}
	gates := make([]string, 0, len(pod.Spec.SchedulingGates))
	for _, g := range pod.Spec.SchedulingGates {
		gates = append(gates, g.Name)
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("waiting for scheduling gates: %v", gates))
}
