package framework

import "testing"

func TestFitErrorMessage(t *testing.T) {
	tests := []struct {
		name     string
		numNodes int
		statuses map[string]*Status
		absent   *Status
		preMsg   string
		postMsg  string
		want     string
	}{
		{
			name:     "reasons are counted and sorted lexically, so 10 sorts before 2",
			numNodes: 12,
			statuses: func() map[string]*Status {
				m := map[string]*Status{}
				for i := 0; i < 10; i++ {
					m[string(rune('a'+i))] = NewStatus(Unschedulable, "node(s) had untolerated taint {a: b}")
				}
				m["x"] = NewStatus(Unschedulable, "Insufficient cpu")
				m["y"] = NewStatus(Unschedulable, "Insufficient cpu", "Insufficient memory")
				return m
			}(),
			want: "0/12 nodes are available: 1 Insufficient memory, 10 node(s) had untolerated taint {a: b}, 2 Insufficient cpu.",
		},
		{
			name:     "post-filter message follows without a dot of its own",
			numNodes: 3,
			statuses: map[string]*Status{"a": NewStatus(Unschedulable, "Insufficient cpu"), "b": NewStatus(Unschedulable, "Insufficient cpu"), "c": NewStatus(Unschedulable, "Insufficient cpu")},
			postMsg:  "no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
			want:     "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
		},
		{
			name:     "absent nodes take the absent status",
			numNodes: 3,
			statuses: map[string]*Status{"a": NewStatus(Unschedulable, "No preemption victims found for incoming pod")},
			absent:   NewStatus(UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"),
			want:     "0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
		},
		{
			name:     "a PreFilter rejection hides the per-node histogram",
			numNodes: 2,
			statuses: map[string]*Status{"a": NewStatus(UnschedulableAndUnresolvable, "x"), "b": NewStatus(UnschedulableAndUnresolvable, "x")},
			preMsg:   "node(s) didn't satisfy plugin(s) [NodeAffinity]",
			want:     "0/2 nodes are available: node(s) didn't satisfy plugin(s) [NodeAffinity].",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewDefaultNodeToStatus()
			for n, s := range tt.statuses {
				m.Set(n, s)
			}
			if tt.absent != nil {
				m.SetAbsentNodesStatus(tt.absent)
			}
			fe := &FitError{NumAllNodes: tt.numNodes, Diagnosis: Diagnosis{NodeToStatus: m, PreFilterMsg: tt.preMsg, PostFilterMsg: tt.postMsg}}
			if got := fe.Error(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
