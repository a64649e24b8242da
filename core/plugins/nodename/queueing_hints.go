package nodename

import "github.com/schedplay/schedplay/core/framework"

var _ framework.EnqueueExtensions = (*NodeName)(nil)

// EventsToRegister: only the named node appearing can help; there is no
// hint, so every node addition requeues.
func (pl *NodeName) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add}},
	}, nil
}
