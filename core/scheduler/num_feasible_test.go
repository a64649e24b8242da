package scheduler

import "testing"

// Cases follow upstream's TestNumFeasibleNodesToFind (schedule_one_test.go).
func TestNumFeasibleNodesToFind(t *testing.T) {
	p := func(v int32) *int32 { return &v }
	tests := []struct {
		name       string
		percentage *int32
		nodes      int32
		want       int32
	}{
		{"fewer than 100 nodes: all of them", nil, 10, 10},
		{"adaptive at 1000 nodes: 50-8 = 42%", nil, 1000, 420},
		{"adaptive at 6000 nodes: floor of 5%", nil, 6000, 300},
		{"adaptive at 150 nodes: never fewer than 100", nil, 150, 100},
		{"configured 40% of 1000", p(40), 1000, 400},
		{"configured 20% of 6000", p(20), 6000, 1200},
		{"configured percentage below 100 nodes: all", p(40), 10, 10},
		{"configured 10% of 500 would be 50: at least 100", p(10), 500, 100},
		{"explicit 0 means adaptive", p(0), 1000, 420},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NumFeasibleNodesToFind(tt.percentage, tt.nodes); got != tt.want {
				t.Errorf("NumFeasibleNodesToFind = %d, want %d", got, tt.want)
			}
		})
	}
}
