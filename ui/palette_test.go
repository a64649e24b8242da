package ui_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/ui"
)

func TestLegendOrdersByValue(t *testing.T) {
	l := ui.Legend([]ui.PriorityClass{{Name: "low", Value: 10}, {Name: "high", Value: 1000}, {Name: "b-mid", Value: 100}, {Name: "a-mid", Value: 100}})
	var got []string
	for _, e := range l {
		got = append(got, e.Class.Name)
	}
	if diff := cmp.Diff([]string{"high", "a-mid", "b-mid", "low"}, got); diff != "" {
		t.Errorf("legend order (-want +got):\n%s", diff)
	}
	seen := map[any]string{}
	for _, e := range l {
		if other, ok := seen[e.Color]; ok {
			t.Errorf("classes %s and %s share a colour", other, e.Class.Name)
		}
		seen[e.Color] = e.Class.Name
	}
	if got := ui.PodColor(l, &ui.Pod{PriorityClass: "high"}); got != l[0].Color {
		t.Errorf("PodColor(high) = %v, want %v", got, l[0].Color)
	}
	if got := ui.PodColor(l, &ui.Pod{PriorityClass: "unknown"}); got != ui.NoClassColor {
		t.Errorf("PodColor(unknown class) = %v, want NoClassColor", got)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"whole cores", ui.FormatCPU(2000), "2"},
		{"millicores", ui.FormatCPU(1500), "1500m"},
		{"zero cpu", ui.FormatCPU(0), "0"},
		{"bytes", ui.FormatMemory(100), "100"},
		{"gibibytes", ui.FormatMemory(4 << 30), "4Gi"},
		{"fractional gibibytes", ui.FormatMemory(3 << 29), "1.5Gi"},
		{"mebibytes", ui.FormatMemory(512 << 20), "512Mi"},
		{"ellipsis", ui.Ellipsize("abcdefgh", 5), "abcd…"},
		{"short enough", ui.Ellipsize("abc", 5), "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	if f := ui.Fraction(3, 2); f != 1.2 {
		t.Errorf("Fraction(3, 2) = %v, want the 1.2 cap", f)
	}
	if f := ui.Fraction(1, 0); f <= 1 {
		t.Errorf("Fraction(1, 0) = %v, want over-full", f)
	}
}
