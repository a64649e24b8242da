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
