package defaultpreemption

import (
	"testing"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// fitHandle is a Handle whose filter is a plain cpu and pod-count check,
// so these tests do not depend on other plugins. Nominated pods of equal
// or higher priority count as placed, as RunFilterPluginsWithNominatedPods.
type fitHandle struct {
	*st.Handle
	filterCalls int
	actuated    actuated
}

// actuated records what the evaluator handed its PreemptionExecutor.
type actuated []actuation

type actuation struct {
	node      string
	victims   *framework.Victims
	preemptor string
}

func (a *actuated) ActuatePodPreemption(node string, victims *framework.Victims, preemptor *api.Pod, _ string) *framework.Status {
	*a = append(*a, actuation{node, victims, preemptor.Key()})
	return nil
}

func (h *fitHandle) RunFilterPluginsWithNominatedPods(_ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	h.filterCalls++
	info := ni
	for _, pi := range h.Nominated[ni.Node().Name] {
		if pi.Pod.PriorityValue() >= pod.PriorityValue() && pi.Pod.Key() != pod.Key() {
			if info == ni {
				info = ni.Clone()
			}
			info.AddPodInfo(pi)
		}
	}
	var reasons []string
	if len(info.Pods)+1 > info.Allocatable.AllowedPodNumber {
		reasons = append(reasons, "Too many pods")
	}
	req, _, _ := framework.CalculatePodResource(pod)
	if req.MilliCPU > info.Allocatable.MilliCPU-info.Requested.MilliCPU {
		reasons = append(reasons, "Insufficient cpu")
	}
	if len(reasons) > 0 {
		return framework.NewStatus(framework.Unschedulable, reasons...).WithPlugin("NodeResourcesFit")
	}
	return nil
}

func (h *fitHandle) RunPreFilterExtensionAddPod(*framework.CycleState, *api.Pod, *framework.PodInfo, *framework.NodeInfo) *framework.Status {
	return nil
}

func (h *fitHandle) RunPreFilterExtensionRemovePod(*framework.CycleState, *api.Pod, *framework.PodInfo, *framework.NodeInfo) *framework.Status {
	return nil
}

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// at is t0 plus n minutes.
func at(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }

func node(name, cpu string) *api.Node {
	return st.MakeNode().Name(name).Capacity(map[string]string{"cpu": cpu, "pods": "10"}).Obj()
}

// victim is a bound pod asking for cpu, started at minute start.
func victim(name, nodeName string, prio int32, cpu string, start int) *st.PodWrapper {
	return st.MakePod().Name(name).Node(nodeName).Priority(prio).Req(map[string]string{"cpu": cpu}).StartTime(at(start))
}

func preemptor(prio int32, cpu string) *st.PodWrapper {
	return st.MakePod().Name("preemptor").Priority(prio).Req(map[string]string{"cpu": cpu})
}

func pdbFor(sel *api.LabelSelector, allowed int32) *api.PodDisruptionBudget {
	p := &api.PodDisruptionBudget{Spec: api.PodDisruptionBudgetSpec{Selector: sel}}
	p.Name, p.Namespace = "pdb", "default"
	p.Status.DisruptionsAllowed = allowed
	return p
}

func newPlugin(t *testing.T, pods []*api.Pod, nodes []*api.Node, pdbs []*api.PodDisruptionBudget, args *config.DefaultPreemptionArgs) (*DefaultPreemption, *fitHandle) {
	t.Helper()
	h := &fitHandle{Handle: st.NewHandle(pods, nodes)}
	h.Lister.PDBs = pdbs
	h.Executor = &h.actuated
	p, err := New(args, h)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p.(*DefaultPreemption), h
}

// statuses marks every node Unschedulable ("Insufficient cpu") except
// those listed as unresolvable.
func statuses(nodes []*api.Node, unresolvable ...string) *framework.NodeToStatus {
	m := framework.NewDefaultNodeToStatus()
	for _, n := range nodes {
		m.Set(n.Name, framework.NewStatus(framework.Unschedulable, "Insufficient cpu"))
	}
	for _, n := range unresolvable {
		m.Set(n, framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector"))
	}
	return m
}

func podNames(pods []*api.Pod) []string {
	out := []string{}
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}
