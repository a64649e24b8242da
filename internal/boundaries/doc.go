// Package boundaries holds the repository's import rules as a test: the
// engine (core/...) is pure data in and out, so it imports nothing of the
// canvas, the browser or the host; the canvas (ui) reaches the engine only
// through ui/adapt; wasm is the only syscall/js user. The test lists the
// packages with `go list -deps -json` for the native and the js/wasm build,
// as tailscale's tstest/deptest does, and fails naming the package, the
// forbidden import and why it is forbidden.
package boundaries
