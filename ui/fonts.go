//go:build js || ebiten

package ui

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// fonts holds the Go font faces; sizes are made per call, rounded so that
// continuous zooming does not fill the glyph cache with near-equal sizes.
type fonts struct {
	regular, bold *text.GoTextFaceSource
}

func loadFonts() (*fonts, error) {
	r, err := text.NewGoTextFaceSource(bytes.NewReader(goregular.TTF))
	if err != nil {
		return nil, fmt.Errorf("loading Go Regular: %w", err)
	}
	b, err := text.NewGoTextFaceSource(bytes.NewReader(gobold.TTF))
	if err != nil {
		return nil, fmt.Errorf("loading Go Bold: %w", err)
	}
	return &fonts{regular: r, bold: b}, nil
}

func (f *fonts) face(bold bool, size float64) *text.GoTextFace {
	src := f.regular
	if bold {
		src = f.bold
	}
	return &text.GoTextFace{Source: src, Size: math.Round(size*2) / 2}
}

// minTextPx is the smallest text worth drawing; below it text is noise.
const minTextPx = 5.5

// draw writes s with its left edge (or centre, or right edge, per align) at x
// and its vertical middle at y, in screen pixels.
func (f *fonts) draw(dst *ebiten.Image, s string, bold bool, size, x, y float64, clr color.Color, align text.Align) {
	if size < minTextPx || s == "" {
		return
	}
	op := &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.ColorScale.ScaleWithColor(clr)
	op.PrimaryAlign = align
	op.SecondaryAlign = text.AlignCenter
	text.Draw(dst, s, f.face(bold, size), op)
}

// width measures s in screen pixels.
func (f *fonts) width(s string, bold bool, size float64) float64 {
	return text.Advance(s, f.face(bold, size))
}

// fit shortens s with an ellipsis until it is at most w pixels wide.
func (f *fonts) fit(s string, bold bool, size, w float64) string {
	if size < minTextPx {
		return "" // draw skips it: measuring it would be wasted
	}
	if f.width(s, bold, size) <= w {
		return s
	}
	// The longest Ellipsize(s, n), 2 <= n < len, that fits: a binary
	// search, since each measure shapes the text (a caption is a hundred
	// runes; trying them one by one cost a millisecond per event).
	lo, hi := 2, len([]rune(s))-1 // lo: the smallest untried; hi: the largest
	best := ""
	for lo <= hi {
		n := (lo + hi) / 2
		if t := Ellipsize(s, n); f.width(t, bold, size) <= w {
			best, lo = t, n+1
		} else {
			hi = n - 1
		}
	}
	return best
}
