package framework

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
)

func resList(kv ...string) api.ResourceList {
	out := api.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
	}
	return out
}

func container(req api.ResourceList) api.Container {
	return api.Container{Name: "c", Resources: api.ResourceRequirements{Requests: req}}
}

// The facts follow upstream's PodInfo.CalculateResource: Requested is the
// plain pod request; Non0 substitutes 100m cpu / 200Mi memory for absent
// container requests, and with pod-level requests only for a resource the
// pod total never mentions.
func TestCalculatePodResource(t *testing.T) {
	const mi = 1 << 20
	tests := []struct {
		name    string
		spec    api.PodSpec
		wantRes Resource
		wantCPU int64
		wantMem int64
	}{
		{
			name:    "best effort pod gets both defaults",
			spec:    api.PodSpec{Containers: []api.Container{container(nil)}},
			wantCPU: 100, wantMem: 200 * mi,
		},
		{
			name:    "explicit zero is not missing",
			spec:    api.PodSpec{Containers: []api.Container{container(resList("cpu", "0"))}},
			wantCPU: 0, wantMem: 200 * mi,
		},
		{
			name:    "defaults apply per container",
			spec:    api.PodSpec{Containers: []api.Container{container(resList("cpu", "500m")), container(nil)}},
			wantRes: Resource{MilliCPU: 500},
			wantCPU: 600, wantMem: 400 * mi,
		},
		{
			// app phase 100m+100m; init phase 100m: the sum wins.
			name: "init containers get defaults too",
			spec: api.PodSpec{
				InitContainers: []api.Container{container(nil)},
				Containers:     []api.Container{container(nil), container(nil)},
			},
			wantCPU: 200, wantMem: 400 * mi,
		},
		{
			name: "sidecar without requests adds a default",
			spec: func() api.PodSpec {
				always := api.ContainerRestartPolicyAlways
				sc := container(nil)
				sc.RestartPolicy = &always
				return api.PodSpec{InitContainers: []api.Container{sc}, Containers: []api.Container{container(resList("memory", "1Gi"))}}
			}(),
			wantRes: Resource{Memory: 1 << 30},
			wantCPU: 200, wantMem: 1<<30 + 200*mi,
		},
		{
			name:    "overhead adds on top of the defaults",
			spec:    api.PodSpec{Containers: []api.Container{container(nil)}, Overhead: resList("cpu", "100m", "memory", "10")},
			wantRes: Resource{MilliCPU: 100, Memory: 10},
			wantCPU: 200, wantMem: 200*mi + 10,
		},
		{
			// cpu comes from the pod level; memory is absent everywhere, so each
			// container gets the 200Mi default.
			name: "pod-level cpu, memory defaulted per container",
			spec: api.PodSpec{
				Containers: []api.Container{container(nil), container(nil)},
				Resources:  &api.ResourceRequirements{Requests: resList("cpu", "2")},
			},
			wantRes: Resource{MilliCPU: 2000},
			wantCPU: 2000, wantMem: 400 * mi,
		},
		{
			name: "pod-level memory, cpu absent: default per container",
			spec: api.PodSpec{
				Containers: []api.Container{container(nil), container(nil)},
				Resources:  &api.ResourceRequirements{Requests: resList("memory", "1Gi")},
			},
			wantRes: Resource{Memory: 1 << 30},
			wantCPU: 200, wantMem: 1 << 30,
		},
		{
			name: "pod-level memory, a container's explicit zero cpu blocks the default",
			spec: api.PodSpec{
				Containers: []api.Container{container(resList("cpu", "0")), container(nil)},
				Resources:  &api.ResourceRequirements{Requests: resList("memory", "1Gi")},
			},
			wantRes: Resource{Memory: 1 << 30},
			wantCPU: 0, wantMem: 1 << 30,
		},
		{
			name: "pod-level memory, overhead cpu blocks the default",
			spec: api.PodSpec{
				Containers: []api.Container{container(nil)},
				Resources:  &api.ResourceRequirements{Requests: resList("memory", "1Gi")},
				Overhead:   resList("cpu", "50m"),
			},
			wantRes: Resource{MilliCPU: 50, Memory: 1 << 30},
			wantCPU: 50, wantMem: 1 << 30,
		},
		{
			name: "unsupported pod-level resource does not count as pod-level requests",
			spec: api.PodSpec{
				Containers: []api.Container{container(resList("cpu", "0"))},
				Resources:  &api.ResourceRequirements{Requests: resList("ephemeral-storage", "1Gi")},
			},
			wantCPU: 0, wantMem: 200 * mi,
		},
		{
			name: "extended resources and hugepages land in scalar resources",
			spec: api.PodSpec{Containers: []api.Container{container(resList("cpu", "1", "example.com/gpu", "2", "hugepages-2Mi", "4Mi", "ephemeral-storage", "1Gi"))}},
			wantRes: Resource{MilliCPU: 1000, EphemeralStorage: 1 << 30,
				ScalarResources: map[api.ResourceName]int64{"example.com/gpu": 2, "hugepages-2Mi": 4 * mi}},
			wantCPU: 1000, wantMem: 200 * mi,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, cpu, mem := CalculatePodResource(&api.Pod{Spec: tt.spec})
			if diff := cmp.Diff(tt.wantRes, res); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if cpu != tt.wantCPU || mem != tt.wantMem {
				t.Errorf("non-zero cpu/memory = %d/%d, want %d/%d", cpu, mem, tt.wantCPU, tt.wantMem)
			}
		})
	}
}

func TestNodeInfoAccountsNonZeroRequested(t *testing.T) {
	ni := NewNodeInfo(
		&api.Pod{ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{container(nil)}}},
		&api.Pod{ObjectMeta: api.ObjectMeta{Name: "b", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{container(resList("cpu", "1", "memory", "1Gi"))}}},
	)
	want := []int64{1000, 1 << 30, 1100, 1<<30 + 200<<20}
	got := []int64{ni.Requested.MilliCPU, ni.Requested.Memory, ni.NonZeroRequested.MilliCPU, ni.NonZeroRequested.Memory}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requested cpu, memory, non-zero cpu, memory (-want +got):\n%s", diff)
	}
}

// CalculatePodResource skips the second sum when every container names cpu
// and memory; over app, init and sidecar containers with each request
// present, zero or absent, and with overhead, the non-zero figures must
// equal the general sum with the stand-ins filled in.
func TestCalculatePodResourceShortcutMatchesGeneralSum(t *testing.T) {
	requests := []api.ResourceList{
		resList("cpu", "250m", "memory", "64Mi"),
		resList("cpu", "0", "memory", "0"),
		resList("cpu", "3"),
		resList("memory", "1Gi"),
		nil,
	}
	always := api.ContainerRestartPolicyAlways
	defaults := api.ResourceList{
		api.ResourceCPU:    api.NewMilliQuantity(DefaultMilliCPURequest),
		api.ResourceMemory: api.NewQuantity(DefaultMemoryRequest),
	}
	n := 0
	for _, app := range requests {
		for _, app2 := range append([]api.ResourceList{nil}, requests...) {
			for _, initReq := range append([]api.ResourceList{nil}, requests...) {
				for _, sidecar := range []bool{false, true} {
					for _, overhead := range []api.ResourceList{nil, resList("cpu", "10m", "memory", "1Mi")} {
						spec := api.PodSpec{Containers: []api.Container{container(app)}, Overhead: overhead}
						if app2 != nil {
							spec.Containers = append(spec.Containers, container(app2))
						}
						if initReq != nil {
							c := container(initReq)
							if sidecar {
								c.RestartPolicy = &always
							}
							spec.InitContainers = []api.Container{c}
						}
						pod := &api.Pod{Spec: spec}
						_, cpu, mem := CalculatePodResource(pod)
						want := api.PodRequests(pod, api.PodRequestsOptions{NonMissingContainerRequests: defaults})
						if cpu != want[api.ResourceCPU] || mem != want[api.ResourceMemory] {
							t.Errorf("app %v, app2 %v, init %v (sidecar %v), overhead %v: non-zero cpu/memory = %d/%d, want %d/%d",
								app, app2, initReq, sidecar, overhead, cpu, mem, want[api.ResourceCPU], want[api.ResourceMemory])
						}
						n++
					}
				}
			}
		}
	}
	if n != 5*6*6*2*2 {
		t.Fatalf("ran %d cases", n)
	}
}
