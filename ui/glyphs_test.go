package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// TestCanvasGlyphsExist checks that the canvas's fonts (fonts.go: Go
// Regular and Go Bold) have a glyph for every non-ASCII character in the
// string literals of the code whose text reaches the canvas: ui (labels,
// captions, tooltips), ui/adapt and core (event reasons, pending reasons).
// A character a font lacks is drawn as the missing-glyph box (glyph 0);
// symbols like ⚠ ✓ ✗ are drawn as icons instead (shapes.go).
func TestCanvasGlyphsExist(t *testing.T) {
	var faces []*sfnt.Font
	for _, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		faces = append(faces, f)
	}
	seen := map[rune]string{}
	for _, root := range []string{".", "../core"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			if root == "." && strings.Contains(path, string(filepath.Separator)+"testdata") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, r := range s {
					if r > 0x7f {
						if _, ok := seen[r]; !ok {
							seen[r] = path
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no non-ASCII characters found: the scan looks at nothing")
	}
	var buf sfnt.Buffer
	for r, path := range seen {
		for i, f := range faces {
			if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
				t.Errorf("%q (U+%04X, in %s) has no glyph in %s: it would draw as a box", r, r, path, []string{"Go Regular", "Go Bold"}[i])
			}
		}
	}
}
