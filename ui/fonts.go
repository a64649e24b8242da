//go:build js || ebiten

package ui

import (
	"bytes"
	_ "embed"
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// The glyphs of the canvas's Chinese words, which the Go fonts lack: a
// cut of Noto Sans CJK SC (scripts/canvas-cjk-font.sh; 24 KB of main.wasm
// gzipped, where the whole font would be megabytes).
var (
	//go:embed fonts/canvas-cjk-regular.otf
	cjkRegular []byte
	//go:embed fonts/canvas-cjk-bold.otf
	cjkBold []byte
)

// fonts holds the Go font faces; sizes are made per call, rounded so that
// continuous zooming does not fill the glyph cache with near-equal sizes.
// cjk (regular, bold) is loaded once the words need it (cover), and used
// only for text with such characters.
type fonts struct {
	regular, bold *text.GoTextFaceSource
	cjk           [2]*text.GoTextFaceSource
}

// cover loads the Chinese glyphs when a word of w has a character from
// CJK Radicals (U+2E80) up; English and Indonesian never load them.
func (f *fonts) cover(w Words) error {
	if f.cjk[0] != nil || !wide(fmt.Sprint(w)) {
		return nil
	}
	for i, data := range [][]byte{cjkRegular, cjkBold} {
		src, err := text.NewGoTextFaceSource(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("loading the canvas's Chinese glyphs: %w", err)
		}
		f.cjk[i] = src
	}
	return nil
}

// wide reports whether s has a character the Go fonts lack (from U+2E80).
func wide(s string) bool {
	for i := 0; i < len(s); i++ {
		// U+2E80 and up are encoded as three or four bytes from 0xE2 0xBA.
		if s[i] >= 0xe2 {
			for _, r := range s[i:] {
				if r >= 0x2e80 {
					return true
				}
			}
			return false
		}
	}
	return false
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

// face is the face s is drawn in: the Go font, with the Chinese glyphs
// after it when s needs them.
func (f *fonts) face(s string, bold bool, size float64) text.Face {
	src, i := f.regular, 0
	if bold {
		src, i = f.bold, 1
	}
	size = math.Round(size*2) / 2
	face := &text.GoTextFace{Source: src, Size: size}
	if f.cjk[i] == nil || !wide(s) {
		return face
	}
	m, err := text.NewMultiFace(face, &text.GoTextFace{Source: f.cjk[i], Size: size})
	if err != nil {
		return face // the missing-glyph boxes, as before
	}
	return m
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
	text.Draw(dst, s, f.face(s, bold, size), op)
}

// width measures s in screen pixels.
func (f *fonts) width(s string, bold bool, size float64) float64 {
	return text.Advance(s, f.face(s, bold, size))
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
