package labels

import (
	"strings"
	"testing"
)

func TestIsQualifiedName(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"simple", true},
		{"example.com/gpu", true},
		{"a.b-c/X_y.z", true},
		{"", false},
		{"/name", false},
		{"Example.com/gpu", false}, // prefix must be lowercase
		{"a/b/c", false},
		{"-bad", false},
		{"bad-", false},
		{strings.Repeat("a", 63), true},
		{strings.Repeat("a", 64), false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := IsQualifiedName(tt.in); got != tt.want {
				t.Errorf("IsQualifiedName(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
