package ui

import (
	"fmt"
	"image/color"
	"testing"
)

// TestCanvasTextContrast computes the contrast of every text colour the
// canvas draws (draw.go) against what it draws it on, in both themes: at
// least MinContrast (4.5:1), which the canvas's small text needs.
func TestCanvasTextContrast(t *testing.T) {
	for _, th := range []Theme{Light, Dark} {
		// The caption and legend boxes are the card colour at 94 % over the
		// canvas's background.
		box := mix(th.Background, th.Card, 0.94)
		pairs := []struct {
			what   string
			fg, bg color.RGBA
		}{
			{"node name and bar figures", th.Text, th.Card},
			{"bar labels", th.Muted, th.Card},
			{"taints", th.Taint, th.Card},
			{"zone name", th.ZoneText, th.Zone},
			{"queue title", th.ZoneText, th.Queue},
			{"queue section", th.Text, th.Queue},
			{"queue count", th.Muted, th.Queue},
			{"cordon label", TextOn(th.Cordon), th.Cordon},
			{"spread badge within skew", TextOn(th.Nominated), th.Nominated},
			{"spread badge over skew, cleared nomination badge", TextOn(th.Victim), th.Victim},
			{"caption and legend labels", th.Text, box},
			{"legend title", th.Muted, box},
			{"tooltip", th.TooltipFg, th.Tooltip},
			{"banner", Paper, rgb(0xb91c1c)},
		}
		classes := append(append([]color.RGBA(nil), classPalette...), NoClassColor)
		states := map[ChipState]string{ChipRunning: "running", ChipPending: "pending", ChipGhost: "ghost", ChipTerminating: "terminating", ChipFinished: "finished"}
		for _, c := range classes {
			for s, name := range states {
				fill := ChipFill(th, c, s)
				fg, secondary, alarm := ChipText(th, fill, s)
				where := fmt.Sprintf("%s chip of class colour %02x%02x%02x", name, c.R, c.G, c.B)
				pairs = append(pairs, struct {
					what   string
					fg, bg color.RGBA
				}{where + ": name", fg, fill}, struct {
					what   string
					fg, bg color.RGBA
				}{where + ": backoff and reason", secondary, fill}, struct {
					what   string
					fg, bg color.RGBA
				}{where + ": countdown", alarm, fill})
			}
		}
		for _, p := range pairs {
			if r := Contrast(p.fg, p.bg); r < MinContrast {
				t.Errorf("%s theme, %s: %02x%02x%02x on %02x%02x%02x is %.2f:1, want at least %.1f:1",
					th.Name, p.what, p.fg.R, p.fg.G, p.fg.B, p.bg.R, p.bg.G, p.bg.B, r, MinContrast)
			}
		}
	}
}

func TestContrastFormula(t *testing.T) {
	// Known WCAG figures: black on white 21:1, #777 on white 4.48:1.
	if r := Contrast(rgb(0), rgb(0xffffff)); r < 20.99 || r > 21.01 {
		t.Errorf("black on white = %.3f, want 21", r)
	}
	if r := Contrast(rgb(0x777777), rgb(0xffffff)); r < 4.47 || r > 4.49 {
		t.Errorf("#777 on white = %.3f, want 4.48", r)
	}
}
