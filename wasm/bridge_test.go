//go:build js && wasm

// Run under Node with the bridge alone (the package as a whole needs a
// browser for ebiten): cd wasm && GOOS=js GOARCH=wasm go test
// -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" bridge.go bridge_test.go (make test-go).

package main

import (
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// A text copied in pieces comes across whole, a pair of surrogates (an
// emoji, UTF-16's two units) kept together where a piece would end
// between them, and the copy pauses once its slice has gone by.
func TestCopyTextInPieces(t *testing.T) {
	text := strings.Repeat("a", textPiece-1) + "😀" + strings.Repeat("é-ü\n", textPiece/2) + "😀"
	pauses := 0
	got, ok := textArgs{js.ValueOf(text)}.copyText(0, 0, func() bool { pauses++; return true })
	if !ok || string(got) != text {
		t.Fatalf("copied %d bytes (ok %v), want the %d of the text", len(got), ok, len(text))
	}
	// Pieces: 1 + 2 (the rest is 2 x 128 K units and 4 more).
	if pauses != 4 {
		t.Errorf("%d pauses with a slice of 0, want one a piece (4)", pauses)
	}
	small := "kind: Node"
	if got, ok := (textArgs{js.ValueOf(small)}).copyText(0, time.Hour, func() bool { t.Fatal("paused"); return true }); !ok || string(got) != small {
		t.Errorf("copied %q, want %q", got, small)
	}
}

// A pause that answers false stops the copy: a newer load or Cancel.
func TestCopyTextStops(t *testing.T) {
	text := strings.Repeat("x", 3*textPiece)
	pauses := 0
	if _, ok := (textArgs{js.ValueOf(text)}).copyText(0, 0, func() bool { pauses++; return false }); ok || pauses != 1 {
		t.Errorf("ok %v after %d pauses, want a stop at the first", ok, pauses)
	}
}
