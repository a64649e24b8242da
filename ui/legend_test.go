package ui

import (
	"math"
	"testing"
)

// TestLegendRowsFitTheCanvas lays out a lesson's legend (the title and
// labels about as wide as the canvas's fonts draw "PriorityClass", "high
// 1000", "medium 500", "low 100" and "no class" at 12.5 px): one row where
// the canvas is wide, more where a docs page's embed is narrow, and no
// entry past the box's edge or over another.
func TestLegendRowsFitTheCanvas(t *testing.T) {
	title, labels := 84.0, []float64{58, 72, 47, 51}
	tests := []struct {
		name     string
		w, scale float64
		wantRows int
	}{
		{"projector: one row", 1280, 1, 1},
		{"phone at 2x", 780, 2, 2}, // 390 CSS px
		{"400 px embed", 400, 1, 2},
		{"400 px embed at 2x", 800, 2, 2},
		{"300 px: rows start at the left edge", 300, 1, 3},
		{"160 px: the title and each entry a row", 160, 1, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.scale
			widths := make([]float64, len(labels))
			for i, lw := range labels {
				widths[i] = lw * s
			}
			maxW := tc.w - 24*s
			p := planLegend(title*s, widths, maxW, s)
			if p.rows != tc.wantRows {
				t.Errorf("rows = %d, want %d (%+v)", p.rows, tc.wantRows, p.at)
			}
			if len(p.at) != len(widths) {
				t.Fatalf("%d spots for %d labels", len(p.at), len(widths))
			}
			if p.w > maxW+1e-9 {
				t.Errorf("box %v px wide, the canvas leaves %v", p.w, maxW)
			}
			for i, at := range p.at {
				if end := at.x + 20*s + widths[i]; end > p.w+1e-9 {
					t.Errorf("entry %d ends at %v, past the box's %v", i, end, p.w)
				}
				if i == 0 {
					continue
				}
				prev := p.at[i-1]
				if at.row < prev.row || at.row == prev.row && at.x < prev.x+20*s+widths[i-1] {
					t.Errorf("entry %d at %+v overlaps or precedes entry %d at %+v", i, at, i-1, prev)
				}
			}
			if got, want := p.extra(s), float64(tc.wantRows-1)*legendRowH*s; math.Abs(got-want) > 1e-9 {
				t.Errorf("extra = %v, want %v", got, want)
			}
		})
	}
}

// TestOneRowLegendKeepsItsWidth pins the one-row box to the width it has
// always had: title, gaps and entries, 8 px after the last label.
func TestOneRowLegendKeepsItsWidth(t *testing.T) {
	p := planLegend(80, []float64{50, 60}, 1000, 1)
	want := 80 + 16 + (20 + 50 + 14) + (20 + 60 + 14) + 6.0
	if p.rows != 1 || math.Abs(p.w-want) > 1e-9 {
		t.Errorf("rows %d, width %v; want 1, %v", p.rows, p.w, want)
	}
	if p.at[0].x != 12+80+16 || p.at[1].x != 12+80+16+84 {
		t.Errorf("spots %+v", p.at)
	}
}

// TestFitKeepsClearOfLegendRows fits a cluster on a 400×300 canvas whose
// legend takes two rows: its bottom stays the fit's margin (20 px) above
// the legend's top.
func TestFitKeepsClearOfLegendRows(t *testing.T) {
	bounds := Rect{W: 300, H: 400} // taller than the canvas: the fit fills the band
	for _, extra := range []float64{0, legendRowH} {
		v := view{w: 400, h: 300, scale: 1, legendExtra: extra}
		v.fit(bounds)
		_, bottom := v.cam.ToScreen(bounds.X, bounds.Y+bounds.H)
		legendTop := 300 - (LegendH + 10) - extra
		if bottom > legendTop-20+1e-9 {
			t.Errorf("legend %v px taller: the cluster's bottom at %v px, within 20 px of the legend's top at %v", extra, bottom, legendTop)
		}
		if bottom < legendTop-25 {
			t.Errorf("legend %v px taller: the cluster's bottom at %v px, far above the legend's top at %v", extra, bottom, legendTop)
		}
	}
}
