package ui

import "math"

// FollowLabelPx is the smallest size, in CSS pixels, at which following
// the action draws pod and node names: pod names are drawn 12 units high,
// so the camera never zooms out below 11/12 of the display's scale when it
// frames an event.
const FollowLabelPx = 11.0

// The sizes, in world units, of the names drawn on pod chips and node
// cards (draw.go).
const (
	PodNameSize  = 12.0
	NodeNameSize = 15.0
)

// followMinZoom is the least zoom, relative to the display's scale
// factor, at which pod names are FollowLabelPx CSS pixels.
const followMinZoom = FollowLabelPx / PodNameSize

// FollowRects are the world rectangles of what an event involves, most
// important first: the cards of its nodes, then the chips of its pods
// (the event's own pod, its victims). Which objects come from the event
// (SceneEvent.FocusNodes and FocusPods, set by ui/adapt from the engine's
// trace); where they are drawn from the layout.
func FollowRects(l *Layout, e *SceneEvent) (nodes, pods []Rect) {
	if l == nil || e == nil {
		return nil, nil
	}
	for _, name := range e.FocusNodes {
		for _, nb := range l.Nodes {
			if nb.Node.Name == name {
				nodes = append(nodes, nb.Rect)
			}
		}
	}
	for _, key := range e.FocusPods {
		for _, c := range l.Chips {
			if c.Key == key {
				pods = append(pods, c.Rect)
			}
		}
	}
	return nodes, pods
}

// FollowCamera frames an event on a canvas of w×h pixels at display scale
// scale, between the caption bar and the legend: all it involves when that
// fits with names at FollowLabelPx or more, else its nodes, else its first
// node (or pod), centred at the least zoom that keeps names readable. ok is
// false when the event involves nothing drawn.
func FollowCamera(nodes, pods []Rect, w, h, scale float64) (c Camera, ok bool) {
	var tries [][]Rect
	if len(nodes)+len(pods) > 0 {
		tries = append(tries, append(append([]Rect{}, nodes...), pods...))
	}
	if len(nodes) > 0 && len(pods) > 0 {
		tries = append(tries, nodes)
	}
	if len(tries) == 0 {
		return Camera{}, false
	}
	min := followMinZoom * scale
	for _, rs := range tries {
		c := FitCanvas(union(rs), w, h, scale)
		if c.Zoom >= min-1e-9 {
			return c, true
		}
	}
	// Nothing fits readably: the first object, centred in the band between
	// the caption bar and the legend, at the least readable zoom.
	first := tries[0][0]
	z := math.Max(FitCanvas(first, w, h, scale).Zoom, min)
	band := h - (LegendH+10)*scale - CaptionBandH*scale
	mx, my := first.X+first.W/2, first.Y+first.H/2
	return Camera{X: mx - w/2/z, Y: my - (CaptionBandH*scale+band/2)/z, Zoom: z}, true
}

func union(rs []Rect) Rect {
	u := rs[0]
	for _, r := range rs[1:] {
		u = u.Union(r)
	}
	return u
}
