package framework

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
)

// Facts from v1helper.IsExtendedResourceName and schedutil.IsScalarResourceName.
func TestResourceNameClasses(t *testing.T) {
	tests := []struct {
		name             api.ResourceName
		extended, scalar bool
	}{
		{name: "cpu"},
		{name: "pods"},
		{name: "example.com/gpu", extended: true, scalar: true},
		{name: "nvidia.com/gpu", extended: true, scalar: true},
		{name: "kubernetes.io/something", scalar: true},
		{name: "subdomain.kubernetes.io/something", scalar: true},
		{name: "examplekubernetes.io/x", scalar: true}, // "kubernetes.io/" anywhere is native
		{name: "hugepages-2Mi", scalar: true},
		{name: "attachable-volumes-aws-ebs", scalar: true},
		{name: "requests.example.com/gpu"},
		{name: "Example.com/gpu"}, // not a qualified name once "requests." is prefixed
		{name: "a/b/c"},
	}
	for _, tt := range tests {
		t.Run(string(tt.name), func(t *testing.T) {
			if got := IsExtendedResourceName(tt.name); got != tt.extended {
				t.Errorf("IsExtendedResourceName = %v, want %v", got, tt.extended)
			}
			if got := IsScalarResourceName(tt.name); got != tt.scalar {
				t.Errorf("IsScalarResourceName = %v, want %v", got, tt.scalar)
			}
		})
	}
}
