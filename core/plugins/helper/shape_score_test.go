package helper

import "testing"

func TestBuildBrokenLinearFunction(t *testing.T) {
	// Upstream's own case: (10,1) (30,5) (70,7).
	f := BuildBrokenLinearFunction(FunctionShape{{10, 1}, {30, 5}, {70, 7}})
	tests := []struct {
		name string
		p    int64
		want int64
	}{
		{name: "below the first point", p: 0, want: 1},
		{name: "at the first point", p: 10, want: 1},
		{name: "between points 1 and 2", p: 15, want: 2}, // 1 + 4*5/20
		{name: "at the second point", p: 30, want: 5},
		{name: "between points 2 and 3 truncates", p: 50, want: 6}, // 5 + 2*20/40
		{name: "at the last point", p: 70, want: 7},
		{name: "above the last point", p: 100, want: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f(tt.p); got != tt.want {
				t.Errorf("f(%d) = %d, want %d", tt.p, got, tt.want)
			}
		})
	}
	// A decreasing shape truncates toward zero: 100 + (-100)*(1)/(100) = 99.
	g := BuildBrokenLinearFunction(FunctionShape{{0, 100}, {100, 0}})
	if got := g(1); got != 99 {
		t.Errorf("decreasing shape g(1) = %d, want 99", got)
	}
}
