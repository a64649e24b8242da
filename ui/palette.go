package ui

import (
	"image/color"
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
		Muted: rgb(0x718096), BarTrack: rgb(0xe2e8f0), BarFill: rgb(0x3b82f6), BarOver: rgb(0xdc2626),
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

// TextOn returns black or white, whichever reads better on bg.
func TextOn(bg color.RGBA) color.RGBA {
	// Relative luminance with the sRGB weights; 150 of 255 keeps white text on
	// the mid-tone palette colours and black on the yellow ones.
	l := 0.299*float64(bg.R) + 0.587*float64(bg.G) + 0.114*float64(bg.B)
	if l > 150 {
		return rgb(0x1a202c)
	}
	return rgb(0xffffff)
}
