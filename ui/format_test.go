package ui

import "testing"

func TestBarText(t *testing.T) {
	tests := []struct {
		name           string
		i              int
		used, capacity int64
		label, figures string
	}{
		{name: "cpu in cores", i: 0, used: 1500, capacity: 16000, label: "cpu", figures: FormatCPU(1500) + " / " + FormatCPU(16000)},
		{name: "memory in binary units", i: 1, used: 128 << 20, capacity: 64 << 30, label: "memory", figures: FormatMemory(128<<20) + " / " + FormatMemory(64<<30)},
		{name: "pods as counts", i: 2, used: 10, capacity: 110, label: "pods", figures: "10 / 110"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			label, figures := barText(tt.i, tt.used, tt.capacity)
			if label != tt.label || figures != tt.figures {
				t.Errorf("barText(%d, %d, %d) = %q, %q; want %q, %q", tt.i, tt.used, tt.capacity, label, figures, tt.label, tt.figures)
			}
		})
	}
}
