package defaultpreemption

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// webAndBatch fills a 2-cpu node: "web" (app=web) is less important than "batch".
func webAndBatch() []*api.Pod {
	return []*api.Pod{
		victim("web", "n1", 1, "1", 0).Label("app", "web").Obj(),
		victim("batch", "n1", 2, "1", 0).Obj(),
	}
}

func TestSelectVictimsOnNode(t *testing.T) {
	web := st.LabelSelector(map[string]string{"app": "web"})
	tests := []struct {
		name           string
		nodeCPU        string
		pod            *api.Pod
		pods           []*api.Pod
		pdbs           []*api.PodDisruptionBudget
		wantVictims    []string
		wantViolations int
		wantStatus     *framework.Status
	}{
		{
			name:    "pods of equal or higher priority are never victims",
			nodeCPU: "3",
			pod:     preemptor(10, "1").Obj(),
			pods: []*api.Pod{
				victim("equal", "n1", 10, "1", 0).Obj(),
				victim("higher", "n1", 20, "1", 0).Obj(),
				victim("low", "n1", 1, "1", 0).Obj(),
			},
			// Only "low" can go, and it leaves room for the pod.
			wantVictims: []string{"low"},
			wantStatus:  framework.NewStatus(framework.Success),
		},
		{
			name:       "no lower-priority pods",
			nodeCPU:    "2",
			pod:        preemptor(10, "2").Obj(),
			pods:       []*api.Pod{victim("equal", "n1", 10, "2", 0).Obj()},
			wantStatus: framework.NewStatus(framework.UnschedulableAndUnresolvable, MsgNoVictims),
		},
		{
			name:       "the pod does not fit even with every victim gone",
			nodeCPU:    "3",
			pod:        preemptor(10, "2").Obj(),
			pods:       []*api.Pod{victim("high", "n1", 20, "2", 0).Obj(), victim("low", "n1", 1, "1", 0).Obj()},
			wantStatus: framework.NewStatus(framework.Unschedulable, "Insufficient cpu").WithPlugin("NodeResourcesFit"),
		},
		{
			name:    "most important pods are reprieved first; victims come sorted",
			nodeCPU: "4",
			pod:     preemptor(10, "2").Obj(),
			pods: []*api.Pod{
				victim("p1-late", "n1", 1, "1", 5).Obj(),
				victim("p2", "n1", 2, "1", 0).Obj(),
				victim("p1-early", "n1", 1, "1", 0).Obj(),
				victim("p3", "n1", 3, "1", 0).Obj(),
			},
			// p3 and p2 are put back; of the priority-1 pods the earlier
			// started one is more important, and both must go.
			wantVictims: []string{"p1-early", "p1-late"},
			wantStatus:  framework.NewStatus(framework.Success),
		},
		{
			name:        "without a PDB the more important pod is reprieved",
			nodeCPU:     "2",
			pod:         preemptor(10, "1").Obj(),
			pods:        webAndBatch(),
			wantVictims: []string{"web"},
			wantStatus:  framework.NewStatus(framework.Success),
		},
		{
			name:        "a PDB-protected pod is reprieved before more important ones",
			nodeCPU:     "2",
			pod:         preemptor(10, "1").Obj(),
			pods:        webAndBatch(),
			pdbs:        []*api.PodDisruptionBudget{pdbFor(web, 0)},
			wantVictims: []string{"batch"},
			wantStatus:  framework.NewStatus(framework.Success),
		},
		{
			name:           "evicting a protected pod counts as a violation",
			nodeCPU:        "2",
			pod:            preemptor(10, "2").Obj(),
			pods:           webAndBatch(),
			pdbs:           []*api.PodDisruptionBudget{pdbFor(web, 0)},
			wantVictims:    []string{"batch", "web"},
			wantViolations: 1,
			wantStatus:     framework.NewStatus(framework.Success),
		},
		{
			name:    "the budget covers the most important matching pod, not the next",
			nodeCPU: "3",
			pod:     preemptor(10, "3").Obj(),
			pods: []*api.Pod{
				victim("web-old", "n1", 1, "1", 0).Label("app", "web").Obj(),
				victim("web-new", "n1", 1, "1", 9).Label("app", "web").Obj(),
				victim("batch", "n1", 1, "1", 5).Obj(),
			},
			pdbs:           []*api.PodDisruptionBudget{pdbFor(web, 1)},
			wantVictims:    []string{"web-old", "batch", "web-new"},
			wantViolations: 1,
			wantStatus:     framework.NewStatus(framework.Success),
		},
		{
			name:    "an empty PDB selector protects nothing during preemption",
			nodeCPU: "2",
			pod:     preemptor(10, "1").Obj(),
			pods: []*api.Pod{
				victim("web", "n1", 1, "1", 0).Label("app", "web").Obj(),
				victim("batch", "n1", 2, "1", 0).Label("app", "batch").Obj(),
			},
			pdbs:        []*api.PodDisruptionBudget{pdbFor(&api.LabelSelector{}, 0)},
			wantVictims: []string{"web"},
			wantStatus:  framework.NewStatus(framework.Success),
		},
		{
			name:    "a PDB in another namespace does not protect",
			nodeCPU: "2",
			pod:     preemptor(10, "1").Obj(),
			pods:    webAndBatch(),
			pdbs: func() []*api.PodDisruptionBudget {
				p := pdbFor(web, 0)
				p.Namespace = "prod"
				return []*api.PodDisruptionBudget{p}
			}(),
			wantVictims: []string{"web"},
			wantStatus:  framework.NewStatus(framework.Success),
		},
		{
			name:    "a pod already in DisruptedPods is not charged to the budget",
			nodeCPU: "2",
			pod:     preemptor(10, "1").Obj(),
			pods:    webAndBatch(),
			pdbs: func() []*api.PodDisruptionBudget {
				p := pdbFor(web, 0)
				p.Status.DisruptedPods = map[string]time.Time{"web": t0}
				return []*api.PodDisruptionBudget{p}
			}(),
			wantVictims: []string{"web"},
			wantStatus:  framework.NewStatus(framework.Success),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := []*api.Node{node("n1", tt.nodeCPU)}
			pl, h := newPlugin(t, tt.pods, nodes, tt.pdbs, nil)
			ni, err := h.Snapshot.Get("n1")
			if err != nil {
				t.Fatal(err)
			}
			before := len(ni.Pods)
			victims, violations, status := pl.SelectVictimsOnNode(framework.NewCycleState(), tt.pod, ni.Clone(), tt.pdbs)
			if !status.Equal(tt.wantStatus) {
				t.Errorf("status = %v, want %v", status, tt.wantStatus)
			}
			var want []string
			if tt.wantVictims != nil {
				want = tt.wantVictims
			}
			var got []string
			if victims != nil {
				got = podNames(victims)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("victims (-want +got):\n%s", diff)
			}
			if violations != tt.wantViolations {
				t.Errorf("violations = %d, want %d", violations, tt.wantViolations)
			}
			if len(ni.Pods) != before {
				t.Errorf("the snapshot's NodeInfo changed: %d pods, had %d", len(ni.Pods), before)
			}
		})
	}
}

func TestPodEligibleToPreemptOthers(t *testing.T) {
	preempted := func(name string, prio int32) *st.PodWrapper {
		return victim(name, "n1", prio, "1", 0).Terminating(t0).Condition(api.DisruptionTarget, api.ConditionTrue, api.PodReasonPreempt)
	}
	tests := []struct {
		name         string
		pod          *api.Pod
		pods         []*api.Pod
		nominatedSt  *framework.Status
		wantEligible bool
		wantMsg      string
	}{
		{
			name:         "no nominated node",
			pod:          preemptor(10, "1").Obj(),
			wantEligible: true,
		},
		{
			name:    "preemptionPolicy Never",
			pod:     preemptor(10, "1").PreemptionPolicy(api.PreemptNever).Obj(),
			wantMsg: MsgPreemptionPolicyNever,
		},
		{
			name:    "a victim of the scheduler is still terminating on the nominated node",
			pod:     preemptor(10, "1").NominatedNodeName("n1").Obj(),
			pods:    []*api.Pod{preempted("v", 1).Obj()},
			wantMsg: MsgTerminatingOnNominated,
		},
		{
			name:         "the nominated node became unresolvable",
			pod:          preemptor(10, "1").NominatedNodeName("n1").Obj(),
			pods:         []*api.Pod{preempted("v", 1).Obj()},
			nominatedSt:  framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint"),
			wantEligible: true,
		},
		{
			name:         "a terminating pod not preempted by the scheduler",
			pod:          preemptor(10, "1").NominatedNodeName("n1").Obj(),
			pods:         []*api.Pod{victim("v", "n1", 1, "1", 0).Terminating(t0).Obj()},
			wantEligible: true,
		},
		{
			name:         "a preempted pod of equal priority is not this pod's victim",
			pod:          preemptor(10, "1").NominatedNodeName("n1").Obj(),
			pods:         []*api.Pod{preempted("v", 10).Obj()},
			wantEligible: true,
		},
		{
			name:         "the condition without a deletion timestamp",
			pod:          preemptor(10, "1").NominatedNodeName("n1").Obj(),
			pods:         []*api.Pod{victim("v", "n1", 1, "1", 0).Condition(api.DisruptionTarget, api.ConditionTrue, api.PodReasonPreempt).Obj()},
			wantEligible: true,
		},
		{
			name: "the first DisruptionTarget condition decides",
			pod:  preemptor(10, "1").NominatedNodeName("n1").Obj(),
			pods: []*api.Pod{victim("v", "n1", 1, "1", 0).Terminating(t0).
				Condition(api.DisruptionTarget, api.ConditionFalse, api.PodReasonPreempt).
				Condition(api.DisruptionTarget, api.ConditionTrue, api.PodReasonPreempt).Obj()},
			wantEligible: true,
		},
		{
			name:         "a nominated node that no longer exists",
			pod:          preemptor(10, "1").NominatedNodeName("gone").Obj(),
			wantEligible: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, _ := newPlugin(t, tt.pods, []*api.Node{node("n1", "4")}, nil, nil)
			ok, msg := pl.PodEligibleToPreemptOthers(tt.pod, tt.nominatedSt)
			if ok != tt.wantEligible || msg != tt.wantMsg {
				t.Errorf("got (%v, %q), want (%v, %q)", ok, msg, tt.wantEligible, tt.wantMsg)
			}
		})
	}
}
