package api

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
)

func rl(kv ...string) ResourceList {
	out := ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[ResourceName(kv[i])] = MustParseQuantity(kv[i+1])
	}
	return out
}

func ctr(req ResourceList) Container {
	return Container{Name: "c", Resources: ResourceRequirements{Requests: req}}
}

func sidecar(req ResourceList) Container {
	always := ContainerRestartPolicyAlways
	c := ctr(req)
	c.RestartPolicy = &always
	return c
}

func TestPodRequests(t *testing.T) {
	tests := []struct {
		name string
		spec PodSpec
		opts PodRequestsOptions
		want Requests
	}{
		{
			name: "app containers add up",
			spec: PodSpec{Containers: []Container{ctr(rl("cpu", "1", "memory", "1Gi")), ctr(rl("cpu", "500m", "example.com/gpu", "2"))}},
			want: Requests{"cpu": 1500, "memory": 1 << 30, "example.com/gpu": 2},
		},
		{
			// Init containers run one at a time: the largest one is a floor.
			name: "init containers set a floor per resource",
			spec: PodSpec{
				InitContainers: []Container{ctr(rl("cpu", "2", "memory", "1G")), ctr(rl("cpu", "2", "memory", "3G"))},
				Containers:     []Container{ctr(rl("cpu", "2", "memory", "1G")), ctr(rl("cpu", "1", "memory", "1G"))},
			},
			want: Requests{"cpu": 3000, "memory": 3e9},
		},
		{
			// init1 runs alone (1), the sidecar keeps running (2), init2 runs beside
			// the sidecar (5+2=7); the app phase is 1+2=3. max(7, 3) = 7.
			name: "sidecar runs beside later init containers and the app containers",
			spec: PodSpec{
				InitContainers: []Container{ctr(rl("cpu", "1")), sidecar(rl("cpu", "2")), ctr(rl("cpu", "5"))},
				Containers:     []Container{ctr(rl("cpu", "1"))},
			},
			want: Requests{"cpu": 7000},
		},
		{
			name: "sidecar counts fully when app containers dominate",
			spec: PodSpec{
				InitContainers: []Container{sidecar(rl("cpu", "1", "memory", "100")), ctr(rl("memory", "50"))},
				Containers:     []Container{ctr(rl("cpu", "3", "memory", "100"))},
			},
			want: Requests{"cpu": 4000, "memory": 200},
		},
		{
			name: "overhead is added after the init floor",
			spec: PodSpec{
				InitContainers: []Container{ctr(rl("cpu", "4"))},
				Containers:     []Container{ctr(rl("cpu", "1"))},
				Overhead:       rl("cpu", "250m", "memory", "10"),
			},
			want: Requests{"cpu": 4250, "memory": 10},
		},
		{
			name: "overhead excluded on request",
			spec: PodSpec{Containers: []Container{ctr(rl("cpu", "1"))}, Overhead: rl("cpu", "250m")},
			opts: PodRequestsOptions{ExcludeOverhead: true},
			want: Requests{"cpu": 1000},
		},
		{
			// Pod-level values replace the container sum for cpu/memory/hugepages
			// only; an unsupported pod-level resource is ignored.
			name: "pod-level requests replace supported resources",
			spec: PodSpec{
				Containers: []Container{ctr(rl("cpu", "1", "memory", "1Gi", "ephemeral-storage", "1Gi"))},
				Resources:  &ResourceRequirements{Requests: rl("cpu", "3", "hugepages-2Mi", "4Mi", "ephemeral-storage", "9Gi")},
				Overhead:   rl("cpu", "1"),
			},
			want: Requests{"cpu": 4000, "memory": 1 << 30, "ephemeral-storage": 1 << 30, "hugepages-2Mi": 4 << 20},
		},
		{
			name: "pod-level requests skipped when the gate is off",
			spec: PodSpec{
				Containers: []Container{ctr(rl("cpu", "1"))},
				Resources:  &ResourceRequirements{Requests: rl("cpu", "3")},
			},
			opts: PodRequestsOptions{SkipPodLevelResources: true},
			want: Requests{"cpu": 1000},
		},
		{
			name: "non-missing defaults fill absent requests but not explicit zeros",
			spec: PodSpec{
				InitContainers: []Container{ctr(nil)},
				Containers:     []Container{ctr(rl("cpu", "0")), ctr(nil)},
			},
			opts: PodRequestsOptions{NonMissingContainerRequests: rl("cpu", "100m", "memory", "200Mi")},
			// containers: cpu 0+100m, memory 200Mi+200Mi; init: 100m, 200Mi.
			want: Requests{"cpu": 100, "memory": 400 << 20},
		},
		{
			name: "explicit zero requests keep their key",
			spec: PodSpec{Containers: []Container{ctr(rl("cpu", "0"))}},
			want: Requests{"cpu": 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PodRequests(&Pod{Spec: tt.spec}, tt.opts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PodRequests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsPodLevelRequestsSet(t *testing.T) {
	tests := []struct {
		name string
		res  *ResourceRequirements
		want bool
	}{
		{name: "nil", want: false},
		{name: "empty", res: &ResourceRequirements{}, want: false},
		{name: "only limits", res: &ResourceRequirements{Limits: rl("cpu", "1")}, want: false},
		{name: "only unsupported", res: &ResourceRequirements{Requests: rl("ephemeral-storage", "1")}, want: false},
		{name: "memory", res: &ResourceRequirements{Requests: rl("memory", "1")}, want: true},
		{name: "hugepages", res: &ResourceRequirements{Requests: rl("hugepages-1Gi", "1Gi")}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsPodLevelRequestsSet(&Pod{Spec: PodSpec{Resources: tt.res}}); got != tt.want {
				t.Errorf("IsPodLevelRequestsSet = %v, want %v", got, tt.want)
			}
		})
	}
}

// Upstream adds resource.Quantity values and rounds once; rounding each
// container first would overcount fractional requests.
func TestPodRequestsSumExactly(t *testing.T) {
	lists := [][]string{
		{"1.5", "1.5"},
		{"0.5m", "0.5m", "0.25m"},
		{"100m", "1.0001", "2e-9"},
		{"1Ki", "0.5", "0.5"},
		{"999999999n", "1n"},
	}
	for _, l := range lists {
		t.Run(strings.Join(l, "+"), func(t *testing.T) {
			var sum resource.Quantity
			spec := PodSpec{}
			for _, s := range l {
				sum.Add(resource.MustParse(s))
				spec.Containers = append(spec.Containers, ctr(rl("cpu", s, "memory", s)))
			}
			got := PodRequests(&Pod{Spec: spec}, PodRequestsOptions{})
			want := Requests{"cpu": sum.MilliValue(), "memory": sum.Value()}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("PodRequests (-want +got):\n%s", diff)
			}
		})
	}
}

// The one-container shortcut must give what the general path gives, and
// step aside whenever something else counts; VisitPodRequests must hand out
// the general path's figures, each resource once.
func TestSingleContainerRequestsMatchGeneralPath(t *testing.T) {
	amounts := []string{"0", "1", "100m", "0.5m", "1.0001", "2e-9", "999999999n", "1Ki", "1.5Gi", "64Gi", "3"}
	names := []string{"cpu", "memory", "ephemeral-storage", "example.com/gpu", "hugepages-2Mi"}
	nonMissing := rl("cpu", "100m", "memory", "200Mi")
	pick := func(i, j int) ResourceList {
		out := ResourceList{}
		for k, n := range names {
			if (i>>k)&1 == 1 {
				out[ResourceName(n)] = MustParseQuantity(amounts[(j+k*3)%len(amounts)])
			}
		}
		return out
	}
	checked := 0
	for i := 0; i < 1<<len(names); i++ {
		for j := 0; j < len(amounts); j++ {
			pods := map[string]PodSpec{
				"one container":  {Containers: []Container{ctr(pick(i, j))}},
				"with overhead":  {Containers: []Container{ctr(pick(i, j))}, Overhead: rl("cpu", "10m")},
				"with pod level": {Containers: []Container{ctr(pick(i, j))}, Resources: &ResourceRequirements{Requests: rl("cpu", "2")}},
				"two containers": {Containers: []Container{ctr(pick(i, j)), ctr(pick(j, i))}},
				"init container": {Containers: []Container{ctr(pick(i, j))}, InitContainers: []Container{ctr(rl("cpu", "3"))}},
			}
			for name, spec := range pods {
				pod := &Pod{Spec: spec}
				for _, opts := range []PodRequestsOptions{{}, {NonMissingContainerRequests: nonMissing},
					{SkipPodLevelResources: true, ExcludeOverhead: true}, {SkipPodLevelResources: true, NonMissingContainerRequests: nonMissing}} {
					want := podRequests(pod, opts)
					visited := Requests{}
					VisitPodRequests(pod, opts, func(n ResourceName, v int64) {
						if _, twice := visited[n]; twice {
							t.Fatalf("%s %+v: %s visited twice", name, opts, n)
						}
						visited[n] = v
					})
					if diff := cmp.Diff(want, visited); diff != "" {
						t.Fatalf("%s, resources %d/%d, %+v: VisitPodRequests (-general +visited):\n%s", name, i, j, opts, diff)
					}
					got, ok := singleContainerRequests(pod, opts)
					if !ok {
						continue
					}
					checked++
					if name == "two containers" || name == "init container" ||
						name == "with overhead" && !opts.ExcludeOverhead || name == "with pod level" && !opts.SkipPodLevelResources {
						t.Fatalf("%s %+v: shortcut taken where it must not be", name, opts)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("%s, resources %d/%d, %+v: (-general +shortcut):\n%s", name, i, j, opts, diff)
					}
				}
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d shortcut cases checked", checked)
	}
}

// When ContainersRequestCPUAndMemory holds, cpu and memory stand-ins must
// not change PodRequests (callers skip them); the table pins which shapes
// qualify.
func TestContainersRequestCPUAndMemory(t *testing.T) {
	both, zero := rl("cpu", "200m", "memory", "1Gi"), rl("cpu", "0", "memory", "0")
	stand := ResourceList{ResourceCPU: NewMilliQuantity(100), ResourceMemory: NewQuantity(200 << 20)}
	tests := []struct {
		name string
		spec PodSpec
		want bool
	}{
		{name: "one container with both", spec: PodSpec{Containers: []Container{ctr(both)}}, want: true},
		{name: "explicit zeros count", spec: PodSpec{Containers: []Container{ctr(zero), ctr(both)}}, want: true},
		{name: "init and sidecar with both, overhead and pod level", spec: PodSpec{
			Containers: []Container{ctr(both)}, InitContainers: []Container{ctr(both), sidecar(zero)},
			Overhead: rl("cpu", "10m"), Resources: &ResourceRequirements{Requests: rl("cpu", "1")}}, want: true},
		{name: "no requests", spec: PodSpec{Containers: []Container{ctr(nil)}}, want: false},
		{name: "second container lacks memory", spec: PodSpec{Containers: []Container{ctr(both), ctr(rl("cpu", "1"))}}, want: false},
		{name: "init container lacks cpu", spec: PodSpec{Containers: []Container{ctr(rl("cpu", "50m", "memory", "1Gi"))}, InitContainers: []Container{ctr(rl("memory", "4Gi"))}}, want: false},
		{name: "sidecar lacks both", spec: PodSpec{Containers: []Container{ctr(both)}, InitContainers: []Container{sidecar(nil)}}, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &Pod{Spec: tt.spec}
			if got := ContainersRequestCPUAndMemory(pod); got != tt.want {
				t.Fatalf("ContainersRequestCPUAndMemory = %v, want %v", got, tt.want)
			}
			for _, opts := range []PodRequestsOptions{{}, {SkipPodLevelResources: true}} {
				plain := PodRequests(pod, opts)
				opts.NonMissingContainerRequests = stand
				filled := PodRequests(pod, opts)
				if same := cmp.Equal(plain, filled); same != tt.want {
					t.Errorf("skip pod level %v: stand-ins change nothing = %v, want %v (-plain +filled):\n%s", opts.SkipPodLevelResources, same, tt.want, cmp.Diff(plain, filled))
				}
			}
		})
	}
}
