package ui

import (
	"image/color"
	"math"
	"sort"
)

// Theme is the set of colours the canvas draws with.
type Theme struct {
	Name       string
	Background color.RGBA
	Zone       color.RGBA
	ZoneBorder color.RGBA
	ZoneText   color.RGBA
	Card       color.RGBA
	CardBorder color.RGBA
	Text       color.RGBA
	Muted      color.RGBA
	BarTrack   color.RGBA
	BarFill    color.RGBA
	BarOver    color.RGBA
	Taint      color.RGBA
	Cordon     color.RGBA
	Queue      color.RGBA
	Selection  color.RGBA
	Tooltip    color.RGBA
	TooltipFg  color.RGBA
	// Nominated marks a preemptor's reserved place; Focus the pod and node
	// of the event just played; Victim a pod being terminated.
	Nominated color.RGBA
	Focus     color.RGBA
	Victim    color.RGBA
}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 0xff}
}

// Light and Dark are the two themes; the page picks one.
var (
	Light = Theme{
		Name: "light", Background: rgb(0xf4f6fa), Zone: rgb(0xe8ecf3), ZoneBorder: rgb(0xcdd5e1),
		ZoneText: rgb(0x4a5568), Card: rgb(0xffffff), CardBorder: rgb(0xd4dae4), Text: rgb(0x1a202c),
		Muted: rgb(0x58647a), BarTrack: rgb(0xe2e8f0), BarFill: rgb(0x3b82f6), BarOver: rgb(0xdc2626),
		Taint: rgb(0xb45309), Cordon: rgb(0xdc2626), Queue: rgb(0xfdf6e3), Selection: rgb(0x2563eb),
		Tooltip: rgb(0x1a202c), TooltipFg: rgb(0xf7fafc),
		Nominated: rgb(0x7c3aed), Focus: rgb(0xea580c), Victim: rgb(0xdc2626),
	}
	Dark = Theme{
		Name: "dark", Background: rgb(0x11151c), Zone: rgb(0x1a202b), ZoneBorder: rgb(0x2d3748),
		ZoneText: rgb(0xa0aec0), Card: rgb(0x232a36), CardBorder: rgb(0x364152), Text: rgb(0xedf2f7),
		Muted: rgb(0x94a3b8), BarTrack: rgb(0x2f3a4a), BarFill: rgb(0x60a5fa), BarOver: rgb(0xf87171),
		Taint: rgb(0xfbbf24), Cordon: rgb(0xf87171), Queue: rgb(0x2a2619), Selection: rgb(0x93c5fd),
		Tooltip: rgb(0xf7fafc), TooltipFg: rgb(0x1a202c),
		Nominated: rgb(0xc4b5fd), Focus: rgb(0xfb923c), Victim: rgb(0xf87171),
	}
)

// ThemeByName returns the named theme, Light for anything unknown.
func ThemeByName(name string) Theme {
	if name == Dark.Name {
		return Dark
	}
	return Light
}

// classPalette is a qualitative palette, warmest first: the most important
// class gets the most alarming colour.
var classPalette = []color.RGBA{
	rgb(0xe15759), rgb(0xf28e2b), rgb(0xedc948), rgb(0x59a14f), rgb(0x76b7b2),
	rgb(0x4e79a7), rgb(0xb07aa1), rgb(0xff9da7), rgb(0x9c755f),
}

// NoClassColor is the colour of pods without a PriorityClass.
var NoClassColor = rgb(0x8795a8)

// LegendEntry is one line of the legend.
type LegendEntry struct {
	Class PriorityClass
	Color color.RGBA
}

// Legend assigns colours to priority classes, highest value first (ties by
// name), and is also the order of the legend. Classes beyond the palette
// reuse it from the start.
func Legend(classes []PriorityClass) []LegendEntry {
	sorted := append([]PriorityClass(nil), classes...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Value != sorted[j].Value {
			return sorted[i].Value > sorted[j].Value
		}
		return sorted[i].Name < sorted[j].Name
	})
	out := make([]LegendEntry, len(sorted))
	for i, c := range sorted {
		out[i] = LegendEntry{Class: c, Color: classPalette[i%len(classPalette)]}
	}
	return out
}

// PodColor returns the chip colour of a pod under the given legend.
func PodColor(legend []LegendEntry, p *Pod) color.RGBA {
	for _, e := range legend {
		if e.Class.Name == p.PriorityClass && p.PriorityClass != "" {
			return e.Color
		}
	}
	return NoClassColor
}

// MinContrast is the contrast ratio all canvas text keeps with what it is
// drawn on (WCAG 2 AA for normal text: the canvas's text is small).
const MinContrast = 4.5

// luminance is the WCAG 2 relative luminance of an opaque colour.
func luminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Contrast is the WCAG 2 contrast ratio of two opaque colours, 1 to 21.
func Contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Ink and Paper are the near-black and white text TextOn picks from.
var (
	Ink   = rgb(0x0b0f14)
	Paper = rgb(0xffffff)
)

// TextOn returns near-black or white, whichever has the higher contrast
// with bg (on every palette colour that is at least MinContrast).
func TextOn(bg color.RGBA) color.RGBA {
	if Contrast(Ink, bg) >= Contrast(Paper, bg) {
		return Ink
	}
	return Paper
}

// mix blends a towards b by p (0 to 1).
func mix(a, b color.RGBA, p float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*p) }
	return color.RGBA{R: m(a.R, b.R), G: m(a.G, b.G), B: m(a.B, b.B), A: m(a.A, b.A)}
}

// ChipState is what a chip shows of its pod, which decides its fill.
type ChipState int

// The chip states.
const (
	ChipRunning ChipState = iota
	ChipPending
	ChipGhost
	ChipTerminating
	// ChipFinished: a Succeeded or Failed pod still listed on its node.
	ChipFinished
)

// ChipFill is a chip's fill for a pod of class colour class: the colour
// itself for a running pod; for the others a tint of it on the card.
func ChipFill(t Theme, class color.RGBA, s ChipState) color.RGBA {
	switch s {
	case ChipGhost:
		return mix(t.Card, t.Nominated, 0.12)
	case ChipPending:
		return mix(t.Card, class, 0.22)
	case ChipTerminating:
		return mix(t.Card, class, 0.45)
	case ChipFinished:
		return mix(t.Card, class, 0.18)
	}
	return class
}

// ChipText is the colours of a chip's text on fill: the pod's name; the
// secondary lines (backoff left, reason), muted where muted text still
// reads at MinContrast, else as the name; a victim's countdown (alarm),
// in the victim colour where that reads, else as the name.
func ChipText(t Theme, fill color.RGBA, s ChipState) (name, secondary, alarm color.RGBA) {
	name = t.Text
	if s == ChipFinished {
		name = t.Muted // holding nothing: the name recedes, where it still reads
	}
	if s == ChipRunning || Contrast(name, fill) < MinContrast {
		name = TextOn(fill)
	}
	pick := func(c color.RGBA) color.RGBA {
		if Contrast(c, fill) < MinContrast {
			return name
		}
		return c
	}
	return name, pick(t.Muted), pick(t.Victim)
}
