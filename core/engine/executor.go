package engine

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// actuation is a preemption DefaultPreemption decided on and handed to the
// simulation through its Handle.
type actuation struct {
	node    string
	victims *framework.Victims
}

var _ framework.PreemptionExecutor = (*Simulation)(nil)

// ActuatePodPreemption takes a preemption from DefaultPreemption's
// evaluator (upstream: Executor.actuatePodPreemption). The simulation
// carries it out once PostFilter has returned (see preempt), as upstream's
// asynchronous preemption (prepareCandidateAsync, on by default in v1.36)
// does its API calls after the cycle: lower-priority nominations on the
// node are cleared, then the victims are deleted, the last one alone. So
// a dry run (explain) that runs PostFilter changes nothing.
func (s *Simulation) ActuatePodPreemption(targetNode string, victims *framework.Victims, _ *api.Pod, _ string) *framework.Status {
	s.actuation = &actuation{node: targetNode, victims: victims}
	return nil
}
