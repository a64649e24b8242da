package podtopologyspread

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestIsSchedulableAfterNodeChange(t *testing.T) {
	zoneAndNode := st.MakePod().Name("p").Label("foo", "").
		SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
		SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj()
	node := func(labels map[string]string) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: labels}}
		return n
	}
	tainted := func(n *api.Node) *api.Node { n.Spec.Taints = []api.Taint{noSchedule}; return n }
	both := map[string]string{"zone": "z1", "node": "n"}
	tests := []struct {
		name     string
		old, new *api.Node
		want     bool
	}{
		{name: "update changes a topology key's value", old: node(both), new: node(map[string]string{"zone": "z2", "node": "n"}), want: true},
		{name: "update of a non-related label on a matching node", old: node(both), new: node(map[string]string{"zone": "z1", "node": "n", "x": "y"}), want: false},
		{name: "update of a node lacking keys", old: node(map[string]string{"x": "1"}), new: node(map[string]string{"x": "2"}), want: false},
		{name: "update gains the last missing key", old: node(map[string]string{"zone": "z1"}), new: node(both), want: true},
		{name: "update with only one key stays irrelevant", old: node(map[string]string{"zone": "z1"}), new: node(map[string]string{"zone": "z2"}), want: false},
		{name: "taint change on a matching node", old: node(both), new: tainted(node(both)), want: true},
		{name: "taint change on a node lacking a key", old: node(map[string]string{"zone": "z1"}), new: tainted(node(map[string]string{"zone": "z1"})), want: false},
		{name: "add node with all keys", new: node(both), want: true},
		{name: "add node with one key", new: node(map[string]string{"zone": "z1"}), want: false},
		{name: "delete node with all keys", old: node(both), want: true},
		{name: "delete node with unrelated labels", old: node(map[string]string{"x": "1"}), want: false},
	}
	pl := newPlugin(t, nil, st.NewHandle(nil, nil))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pl.IsSchedulableAfterNodeChange(zoneAndNode, tt.old, tt.new)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("queue = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestIsSchedulableAfterPodChange(t *testing.T) {
	pod := st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj()
	honoring := st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).Obj()
	bound := func(labels map[string]string) *api.Pod {
		return st.MakePod().Name("q").Labels(labels).Node("n").Obj()
	}
	withToleration := func(p *api.Pod) *api.Pod {
		c := *p
		c.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists}}
		return &c
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		old, new *api.Pod
		want     bool
	}{
		{name: "add bound pod matching the selector", pod: pod, new: bound(map[string]string{"foo": ""}), want: true},
		{name: "add unscheduled pod", pod: pod, new: st.MakePod().Name("q").Label("foo", "").Obj(), want: false},
		{name: "add pod in another namespace", pod: pod, new: st.MakePod().Name("q").Namespace("ns1").Label("foo", "").Node("n").Obj(), want: false},
		{name: "add pod not matching", pod: pod, new: bound(map[string]string{"bar": ""}), want: false},
		{name: "delete matching pod", pod: pod, old: bound(map[string]string{"foo": ""}), want: true},
		{name: "delete nominated matching pod", pod: pod, old: st.MakePod().Name("q").Label("foo", "").NominatedNodeName("n").Obj(), want: true},
		{name: "delete pod not matching", pod: pod, old: bound(map[string]string{"bar": ""}), want: false},
		{name: "update of a non-related label", pod: pod, old: bound(map[string]string{"foo": "", "x": "1"}), new: bound(map[string]string{"foo": "", "x": "2"}), want: false},
		{name: "update adds the matching label", pod: pod, old: bound(nil), new: bound(map[string]string{"foo": ""}), want: true},
		{name: "update removes the matching label", pod: pod, old: bound(map[string]string{"foo": ""}), new: bound(nil), want: true},
		{name: "update changes the matching label's value", pod: pod, old: bound(map[string]string{"foo": "a"}), new: bound(map[string]string{"foo": "b"}), want: false},
		{name: "the pod itself gets a toleration with a Honor constraint", pod: honoring, old: honoring, new: withToleration(honoring), want: true},
		{name: "the pod itself gets a toleration without a Honor constraint", pod: pod, old: pod, new: withToleration(pod), want: false},
	}
	pl := newPlugin(t, nil, st.NewHandle(nil, nil))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pl.IsSchedulableAfterPodChange(tt.pod, tt.old, tt.new)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("queue = %v, want %v", got, tt.want)
			}
		})
	}
}
