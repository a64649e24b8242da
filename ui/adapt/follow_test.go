package adapt_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedplay/schedplay/ui"
)

// Following the action in a 400x300 embed: for every event of every
// shipped lesson that involves something drawn, the camera shows the
// first thing it involves (the event's node card, else its pod's chip)
// whole, between the caption bar and the legend, with pod and node names
// at 11 CSS px or more.
func TestFollowEveryLessonAt400x300(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	const w, h, dpr = 400.0, 300.0, 1.0
	framed := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := simulated(t, filepath.Base(f), string(data))
		for seq := range r.Trace() {
			sc := r.SceneAt(seq)
			l := ui.Arrange(sc, w/h)
			nodes, pods := ui.FollowRects(l, sc.Event)
			cam, ok := ui.FollowCamera(nodes, pods, w, h, dpr)
			if !ok {
				continue
			}
			framed++
			if px := ui.PodNameSize * cam.Zoom / dpr; px < ui.FollowLabelPx-1e-9 {
				t.Errorf("%s event %d (%s): pod names at %.1f CSS px", filepath.Base(f), seq, sc.Event.Caption(), px)
			}
			first := append(nodes, pods...)[0]
			x0, y0 := cam.ToScreen(first.X, first.Y)
			x1, y1 := cam.ToScreen(first.X+first.W, first.Y+first.H)
			if x0 < -1e-6 || x1 > w+1e-6 || y0 < ui.CaptionBandH*dpr-1e-6 || y1 > h-(ui.LegendH+10)*dpr+1e-6 {
				// A card taller than the band is shown from its top, with
				// its name.
				if !(x0 >= -1e-6 && x1 <= w+1e-6 && y0 >= ui.CaptionBandH*dpr-1e-6 && y0 < h/2) {
					t.Errorf("%s event %d (%s): %+v drawn at (%.0f,%.0f)-(%.0f,%.0f), off the 400x300 frame", filepath.Base(f), seq, sc.Event.Caption(), first, x0, y0, x1, y1)
				}
			}
		}
	}
	if framed < 100 {
		t.Errorf("only %d events framed across %d lessons", framed, len(files))
	}
	t.Logf("%d events framed across %d lessons", framed, len(files))
}
