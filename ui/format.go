package ui

import (
	"strconv"
	"strings"
)

// FormatCPU renders millicores as kubectl would write them: whole cores when
// exact ("2"), else millicores ("1500m").
func FormatCPU(milli int64) string {
	if milli%1000 == 0 {
		return strconv.FormatInt(milli/1000, 10)
	}
	return strconv.FormatInt(milli, 10) + "m"
}

// FormatMemory renders bytes with the largest binary suffix that keeps one
// decimal at most ("1.5Gi", "512Mi", "100").
func FormatMemory(b int64) string {
	units := []string{"Ki", "Mi", "Gi", "Ti", "Pi"}
	if b < 1024 {
		return strconv.FormatInt(b, 10)
	}
	v, u := float64(b), ""
	for _, s := range units {
		if v < 1024 {
			break
		}
		v, u = v/1024, s
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + u
}

// Fraction returns used/total clamped to [0, 1.2] for a bar; a zero total
// with any use counts as over-full.
func Fraction(used, total int64) float64 {
	if total <= 0 {
		if used > 0 {
			return 1.2
		}
		return 0
	}
	f := float64(used) / float64(total)
	if f > 1.2 {
		f = 1.2
	}
	return f
}

// Ellipsize shortens s to at most max runes, ending with "…" when cut.
func Ellipsize(s string, max int) string {
	r := []rune(s)
	if len(r) <= max || max < 1 {
		return s
	}
	return string(r[:max-1]) + "…"
}

// FormatSeconds renders simulated seconds compactly: "0s", "2.5s", "30s",
// "5m", "1h2m".
func FormatSeconds(sec float64) string {
	if sec < 60 {
		if sec < 10 && sec != float64(int64(sec)) {
			return strconv.FormatFloat(sec, 'f', 1, 64) + "s"
		}
		return strconv.FormatInt(int64(sec), 10) + "s"
	}
	s := int64(sec)
	h, m, r := s/3600, s%3600/60, s%60
	out := ""
	if h > 0 {
		out += strconv.FormatInt(h, 10) + "h"
	}
	if m > 0 {
		out += strconv.FormatInt(m, 10) + "m"
	}
	if r > 0 && h == 0 {
		out += strconv.FormatInt(r, 10) + "s"
	}
	return out
}

// QueueLabel names a sub-queue in the lane.
func QueueLabel(q string) string {
	switch q {
	case QueueBackoff:
		return "backoffQ"
	case QueueUnschedulable:
		return "unschedulable"
	case QueueGated:
		return "gated"
	}
	return "activeQ"
}

// ChipSideText is the short status at the right of a chip at simulated
// time now: a terminating pod's countdown, a backoff's remaining time.
func ChipSideText(p *Pod, pending bool, now float64, w *Words) string {
	switch {
	case p.Termination != nil:
		left := max(p.Termination.StageEnds-now, 0)
		return p.Termination.NextWord(w) + " " + FormatSeconds(left)
	case pending && p.Queue == QueueBackoff:
		return FormatSeconds(max(p.BackoffUntil-now, 0))
	}
	return ""
}

// QueueLeft names a pending pod's sub-queue with the backoff it has left,
// in words w.
func QueueLeft(w *Words, queue string, left float64) string {
	return fill(wordsOr(w).QueueLeft, "queue", queue, "left", FormatSeconds(left))
}

// PodTooltip is the hover text of a pod at simulated time now, in words
// w: identity, priority, requests, where it is, and what it waits for (its
// sub-queue with the backoff left or the reason) or, for a victim, its
// termination stage and what comes next.
func PodTooltip(p *Pod, now float64, w *Words) []string {
	w = wordsOr(w)
	class := p.PriorityClass
	if class == "" {
		class = w.NoClass
	}
	lines := []string{p.Key(), fill(w.Priority, "priority", strconv.Itoa(int(p.Priority)), "class", class),
		fill(w.Requests, "cpu", FormatCPU(p.Requests.MilliCPU), "memory", FormatMemory(p.Requests.Memory))}
	switch {
	case p.Node != "":
		lines = append(lines, fill(w.On, "node", p.Node))
	case p.Queue == QueueBackoff:
		left := max(p.BackoffUntil-now, 0)
		lines = append(lines, fill(w.BackoffLeft, "left", FormatSeconds(left)))
	case p.Queue != "":
		lines = append(lines, fill(w.PendingIn, "queue", p.Queue))
	default:
		lines = append(lines, w.Pending)
	}
	if p.NominatedNode != "" {
		lines = append(lines, fill(w.NominatedTo, "node", p.NominatedNode))
	}
	if t := p.Termination; t != nil {
		what := w.Terminating
		if t.Eviction {
			what = w.Evicted
		}
		lines = append(lines, fill(what, "what", t.Countdown(now, w)))
		if t.Next != "gone" {
			lines = append(lines, fill(w.GoneIn, "left", FormatSeconds(max(t.Ends-now, 0))))
		}
	}
	if p.Reason != "" {
		lines = append(lines, p.Reason)
	}
	return lines
}

// NodeTooltip is the hover text of a node in words w: name, zone, the
// requests against the allocatable, cordon and taints.
func NodeTooltip(n *Node, w *Words) []string {
	w = wordsOr(w)
	req := n.Requested()
	lines := []string{n.Name}
	if n.Zone != "" {
		lines = append(lines, fill(w.Zone, "zone", n.Zone))
	}
	used := [barRows]int64{req.MilliCPU, req.Memory, req.Pods}
	capacity := [barRows]int64{n.Allocatable.MilliCPU, n.Allocatable.Memory, n.Allocatable.Pods}
	for i := range barRows {
		label, figures := barText(i, used[i], capacity[i])
		lines = append(lines, label+" "+figures)
	}
	if n.Unschedulable {
		lines = append(lines, w.CordonedSpec)
	}
	for _, tn := range n.Taints {
		lines = append(lines, fill(w.Taint, "taint", tn.String()))
	}
	return lines
}

// QueueTitle is the queue lane's title in words w with n pods pending.
func QueueTitle(w *Words, n int) string {
	w = wordsOr(w)
	if n == 0 {
		return w.QueueEmpty
	}
	return fill(w.QueuePending, "n", strconv.Itoa(n))
}

// ZoneTitle is a region's title in words w: the zone's name, or for the
// region of nodes without the zone label key, a line saying so.
func ZoneTitle(w *Words, name, key string) string {
	if name != "" {
		return name
	}
	return fill(wordsOr(w).NoZoneLabel, "key", key)
}

// SearchLabel is the badge on node of the selected pod's node search in
// words w: where it started or stopped ("" for neither).
func SearchLabel(w *Words, sv *SearchView, node string) string {
	w = wordsOr(w)
	switch {
	case sv == nil:
		return ""
	case node == sv.Start:
		return w.SearchStarts
	case node == sv.StoppedOn:
		return w.SearchStops
	}
	return ""
}

// LegendLabels are the legend's entries in words w: each class with its
// value, then the chips of no class.
func LegendLabels(w *Words, legend []LegendEntry) []string {
	out := make([]string, 0, len(legend)+1)
	for _, e := range legend {
		out = append(out, e.Class.Name+" "+strconv.Itoa(int(e.Class.Value)))
	}
	return append(out, wordsOr(w).NoClass)
}

// ClearedNomination reads a NominationCleared event: the node that no
// longer holds the pod's place and the badge the canvas puts on it, in
// words w.
func ClearedNomination(e *SceneEvent, w *Words) (node, label string, ok bool) {
	if e == nil || e.Kind != "NominationCleared" || e.Node == "" {
		return "", "", false
	}
	name := e.Pod
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return e.Node, "× " + fill(wordsOr(w).NominationCleared, "pod", name), true
}

// barText is the label and the "used / capacity" figures of a card's
// resource bar i (0 cpu, 1 memory, 2 pods).
func barText(i int, used, capacity int64) (label, figures string) {
	switch i {
	case 0:
		return "cpu", FormatCPU(used) + " / " + FormatCPU(capacity)
	case 1:
		return "memory", FormatMemory(used) + " / " + FormatMemory(capacity)
	}
	return "pods", strconv.FormatInt(used, 10) + " / " + strconv.FormatInt(capacity, 10)
}
