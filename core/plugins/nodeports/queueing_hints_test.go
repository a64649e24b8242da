package nodeports

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestNodePortsPodDeletedHint(t *testing.T) {
	pl := &NodePorts{}
	pod := st.MakePod().Name("p").HostPort(8080, api.ProtocolTCP, "").Obj()
	for _, tt := range []struct {
		name    string
		deleted *api.Pod
		want    framework.QueueingHint
	}{
		{"bound pod on the same port", st.MakePod().Name("x").Node("n").HostPort(8080, api.ProtocolTCP, "").Obj(), framework.Queue},
		{"bound pod on another port", st.MakePod().Name("x").Node("n").HostPort(9090, api.ProtocolTCP, "").Obj(), framework.QueueSkip},
		{"bound pod without host ports", st.MakePod().Name("x").Node("n").Obj(), framework.QueueSkip},
		{"unscheduled pod on the same port", st.MakePod().Name("x").HostPort(8080, api.ProtocolTCP, "").Obj(), framework.QueueSkip},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := pl.isSchedulableAfterPodDeleted(pod, tt.deleted, nil); got != tt.want {
				t.Errorf("hint = %s, want %s", got, tt.want)
			}
		})
	}
}
