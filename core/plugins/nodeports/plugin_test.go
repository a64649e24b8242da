package nodeports

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// ports parses "PROTO/IP/PORT" specs into host ports.
func ports(t *testing.T, specs ...string) []api.ContainerPort {
	t.Helper()
	var out []api.ContainerPort
	for _, s := range specs {
		parts := strings.Split(s, "/")
		port, err := strconv.Atoi(parts[2])
		if err != nil {
			t.Fatalf("bad port spec %q: %v", s, err)
		}
		out = append(out, api.ContainerPort{HostPort: int32(port), ContainerPort: int32(port), Protocol: api.Protocol(parts[0]), HostIP: parts[1]})
	}
	return out
}

func newPod(t *testing.T, name string, specs ...string) *api.Pod {
	p := st.MakePod().Name(name).Obj()
	p.Spec.Containers[0].Ports = ports(t, specs...)
	return p
}

func withInit(t *testing.T, sidecar bool, specs ...string) *api.Pod {
	p := st.MakePod().Name("p").InitReq(nil, sidecar).Obj()
	p.Spec.InitContainers[0].Ports = ports(t, specs...)
	return p
}

func TestPreFilterAndFilter(t *testing.T) {
	conflict := framework.NewStatus(framework.Unschedulable, ErrReason)
	tests := []struct {
		name          string
		pod           *api.Pod
		existing      *api.Pod
		wantPreFilter *framework.Status
		want          *framework.Status
	}{
		{name: "no host ports skips", pod: st.MakePod().Name("p").Obj(), wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "other port", pod: newPod(t, "p", "UDP/127.0.0.1/8080"), existing: newPod(t, "e", "UDP/127.0.0.1/9090")},
		{name: "same udp port", pod: newPod(t, "p", "UDP/127.0.0.1/8080"), existing: newPod(t, "e", "UDP/127.0.0.1/8080"), want: conflict},
		{name: "same tcp port", pod: newPod(t, "p", "TCP/127.0.0.1/8080"), existing: newPod(t, "e", "TCP/127.0.0.1/8080"), want: conflict},
		{name: "different host ip", pod: newPod(t, "p", "TCP/127.0.0.1/8080"), existing: newPod(t, "e", "TCP/127.0.0.2/8080")},
		{name: "different protocol", pod: newPod(t, "p", "UDP/127.0.0.1/8080"), existing: newPod(t, "e", "TCP/127.0.0.1/8080")},
		{name: "second port conflicts", pod: newPod(t, "p", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"), existing: newPod(t, "e", "UDP/127.0.0.1/8080"), want: conflict},
		{name: "wanted 0.0.0.0 conflicts with any ip", pod: newPod(t, "p", "TCP/0.0.0.0/8001"), existing: newPod(t, "e", "TCP/127.0.0.1/8001"), want: conflict},
		{name: "used 0.0.0.0 conflicts with a specific ip", pod: newPod(t, "p", "TCP/127.0.0.1/8001"), existing: newPod(t, "e", "TCP/0.0.0.0/8001"), want: conflict},
		{name: "0.0.0.0 with another protocol is fine", pod: newPod(t, "p", "UDP/127.0.0.1/8001"), existing: newPod(t, "e", "TCP/0.0.0.0/8001")},
		{name: "empty ip and protocol mean 0.0.0.0 and TCP", pod: newPod(t, "p", "/127.0.0.1/8001"), existing: newPod(t, "e", "TCP//8001"), want: conflict},
		{name: "plain init container host port is ignored", pod: withInit(t, false, "TCP/0.0.0.0/8001"), existing: newPod(t, "e", "TCP/0.0.0.0/8001"), wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "sidecar host port counts", pod: withInit(t, true, "TCP/0.0.0.0/8001"), existing: newPod(t, "e", "TCP/0.0.0.0/8001"), want: conflict},
		{name: "existing sidecar holds its port", pod: newPod(t, "p", "TCP/0.0.0.0/8001"), existing: withInit(t, true, "TCP/0.0.0.0/8001"), want: conflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ni := framework.NewNodeInfo()
			if tt.existing != nil {
				ni.AddPod(tt.existing)
			}
			ni.SetNode(st.MakeNode().Name("n").Obj())
			p, err := New(nil, nil)
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			pl := p.(*NodePorts)
			state := framework.NewCycleState()
			_, s := pl.PreFilter(state, tt.pod, nil)
			if diff := cmp.Diff(tt.wantPreFilter, s); diff != "" {
				t.Errorf("PreFilter status (-want +got):\n%s", diff)
			}
			if s.IsSkip() {
				if !Fits(tt.pod, ni) {
					t.Error("Fits = false for a pod PreFilter skipped")
				}
				return
			}
			got := pl.Filter(state, tt.pod, ni)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filter status (-want +got):\n%s", diff)
			}
			if Fits(tt.pod, ni) != got.IsSuccess() {
				t.Errorf("Fits disagrees with Filter (%v)", got)
			}
		})
	}
}

func TestFilterWithoutPreFilter(t *testing.T) {
	ni := framework.NewNodeInfo()
	ni.SetNode(st.MakeNode().Name("n").Obj())
	pl := &NodePorts{}
	if s := pl.Filter(framework.NewCycleState(), newPod(t, "p", "TCP/0.0.0.0/80"), ni); s.Code() != framework.Error {
		t.Errorf("Filter without PreFilter state: got %v, want Error", s)
	}
}
