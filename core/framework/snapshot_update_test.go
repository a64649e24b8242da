package framework

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
)

func TestSnapshotUpdatePod(t *testing.T) {
	pod := func(name string, anti bool) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}, Spec: api.PodSpec{NodeName: "n1",
			Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.NewMilliQuantity(100)}}}}}}
		if anti {
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
				{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: "kubernetes.io/hostname"}}}}
		}
		return p
	}
	names := func(ps []*PodInfo) []string {
		var out []string
		for _, pi := range ps {
			out = append(out, pi.Pod.Name)
		}
		return out
	}
	deadline := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		update  func(pods []*api.Pod) (old, new *api.Pod)
		wantErr bool
	}{
		{
			name: "in place: deletionTimestamp set on the bound object",
			update: func(pods []*api.Pod) (*api.Pod, *api.Pod) {
				before := *pods[0]
				pods[0].DeletionTimestamp = &deadline
				return &before, pods[0]
			},
		},
		{
			name: "new object with the same key",
			update: func(pods []*api.Pod) (*api.Pod, *api.Pod) {
				p := *pods[0]
				p.Status.Conditions = []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue}}
				return pods[0], &p
			},
		},
		{
			name: "pod not on the node",
			update: func(pods []*api.Pod) (*api.Pod, *api.Pod) {
				p := pod("ghost", false)
				return p, p
			},
			wantErr: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pods := []*api.Pod{pod("a", true), pod("b", false), pod("c", true)}
			s := NewSnapshot(pods, []*api.Node{{ObjectMeta: api.ObjectMeta{Name: "n1"}}})
			ni, _ := s.Get("n1")
			gen, req := ni.Generation, ni.Requested
			oldPod, newPod := tc.update(pods)
			err := s.UpdatePod(oldPod, newPod)
			if (err != nil) != tc.wantErr {
				t.Fatalf("UpdatePod error %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				if ni.Generation != gen {
					t.Errorf("Generation moved from %d to %d on a failed update", gen, ni.Generation)
				}
				return
			}
			if ni.Generation <= gen {
				t.Errorf("Generation %d, want more than %d", ni.Generation, gen)
			}
			// The pod keeps its place, so the order every plugin sees is unchanged.
			if diff := cmp.Diff([]string{"a", "b", "c"}, names(ni.Pods)); diff != "" {
				t.Errorf("Pods (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"a", "c"}, names(ni.PodsWithRequiredAntiAffinity)); diff != "" {
				t.Errorf("PodsWithRequiredAntiAffinity (-want +got):\n%s", diff)
			}
			if ni.Pods[0].Pod != newPod || ni.PodsWithAffinity[0].Pod != newPod {
				t.Errorf("the node does not hold the new pod object")
			}
			if diff := cmp.Diff(req, ni.Requested); diff != "" {
				t.Errorf("Requested (-want +got):\n%s", diff)
			}
			if got := len(s.HavePodsWithRequiredAntiAffinityList()); got != 1 {
				t.Errorf("%d nodes with anti-affinity pods, want 1", got)
			}
		})
	}
}
