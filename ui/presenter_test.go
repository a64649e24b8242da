package ui

import (
	"fmt"
	"testing"
)

// Presenter mode shows pod and node names at 18 CSS px or more for
// clusters of up to eight nodes (two pods each, one pending) on the canvas
// the page gives it at 1280×720 (about 880×620 CSS px beside the lesson's
// words), at display scale factors 1 and 2; the playground's own sizes
// stay smaller.
func TestPresenterLabels(t *testing.T) {
	for _, n := range []int{3, 5, 8} {
		s := &Scene{Pending: []Pod{{Namespace: "default", Name: "critical"}}}
		for i := range n {
			s.Nodes = append(s.Nodes, Node{Name: fmt.Sprintf("node-%d", i), Pods: []Pod{{Name: "low-a"}, {Name: "low-b"}}})
		}
		for _, scale := range []float64{1, 2} {
			w, h := 880.0, 620.0
			l := Arrange(s, w/h)
			v := view{w: int(w * scale), h: int(h * scale), scale: scale}
			v.fit(l.Bounds)
			pod, node := v.LabelPx(HitPod), v.LabelPx(HitNode)
			v.presenter = true
			v.fit(l.Bounds)
			ppod, pnode := v.LabelPx(HitPod), v.LabelPx(HitNode)
			if ppod < 18 || pnode < 18 {
				t.Errorf("%d nodes, scale %v: presenter labels pod %.1f node %.1f CSS px, want >= 18", n, scale, ppod, pnode)
			}
			if pod >= 18 {
				t.Errorf("%d nodes, scale %v: the playground's pod labels are %.1f px already: the test shows nothing", n, scale, pod)
			}
			// A label never takes more than presenterFill of its chip.
			if chip := ChipH * v.cam.Zoom / scale; ppod > presenterFill*chip+1e-9 && ppod > pod {
				t.Errorf("%d nodes: pod label %.1f px in a chip %.1f px tall", n, ppod, chip)
			}
			t.Logf("%d nodes, scale %v: pod %.1f -> %.1f px, node %.1f -> %.1f px", n, scale, pod, ppod, node, pnode)
		}
	}
}
