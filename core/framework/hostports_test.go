package framework

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
)

func TestGetHostPorts(t *testing.T) {
	always := api.ContainerRestartPolicyAlways
	pod := &api.Pod{Spec: api.PodSpec{
		InitContainers: []api.Container{
			{Name: "plain-init", Ports: []api.ContainerPort{{ContainerPort: 1, HostPort: 1}}},
			{Name: "sidecar", RestartPolicy: &always, Ports: []api.ContainerPort{
				{ContainerPort: 2, HostPort: 2},
				{ContainerPort: 3}, // no host port
			}},
		},
		Containers: []api.Container{
			{Name: "a", Ports: []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolUDP, HostIP: "127.0.0.1"}}},
			{Name: "b", Ports: []api.ContainerPort{{ContainerPort: 81}}},
		},
	}}
	want := []api.ContainerPort{
		{ContainerPort: 2, HostPort: 2},
		{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolUDP, HostIP: "127.0.0.1"},
	}
	if diff := cmp.Diff(want, GetHostPorts(pod)); diff != "" {
		t.Errorf("GetHostPorts (-want +got):\n%s", diff)
	}
	ni := NewNodeInfo(pod)
	if !ni.UsedPorts.CheckConflict("", "TCP", 2) {
		t.Error("sidecar host port 2 not accounted in NodeInfo.UsedPorts")
	}
	if ni.UsedPorts.CheckConflict("", "TCP", 1) {
		t.Error("plain init container host port 1 accounted in NodeInfo.UsedPorts")
	}
}
