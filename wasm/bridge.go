//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"syscall/js"
	"time"
)

// bridge is the only code that touches syscall/js. It exposes one global
// object of functions that take and return strings (JSON for anything
// structured) and sends events to one listener the page registers.
type bridge struct {
	obj      js.Value
	listener js.Value
	funcs    []js.Func
}

func newBridge() *bridge {
	return &bridge{obj: js.Global().Get("Object").New(), listener: js.Undefined()}
}

// export adds a method to the global object. Arguments arrive as strings;
// the result is returned as a string. A panic is recovered, reported as an
// event and returned as {"ok":false,"error":...}, so a bug in Go never
// leaves the page with a dead runtime.
func (b *bridge) export(name string, fn func(args []string) (string, error)) {
	f := js.FuncOf(func(this js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				msg := fmt.Sprintf("panic in %s: %v", name, r)
				b.emit(map[string]any{"type": "panic", "message": msg, "stack": string(debug.Stack())})
				result = errorJSON(msg)
			}
		}()
		strs := make([]string, len(args))
		for i, a := range args {
			if a.Type() != js.TypeString {
				return errorJSON(fmt.Sprintf("%s: argument %d is a %s, want a string", name, i, a.Type()))
			}
			strs[i] = a.String()
		}
		out, err := fn(strs)
		if err != nil {
			return errorJSON(fmt.Sprintf("%s: %v", name, err))
		}
		return out
	})
	b.funcs = append(b.funcs, f)
	b.obj.Set(name, f)
}

// exportAsync adds a method that returns a Promise of its string result:
// fn runs in a goroutine, which gives the event loop its turn whenever it
// blocks (see loadInSteps), and a panic resolves it as errorJSON does. The
// goroutine starts in a task of its own and gets the arguments as they
// are, checked to be strings: fn copies them across (copyText), since a
// large text's copy in the calling task made one long task of it.
func (b *bridge) exportAsync(name string, fn func(args textArgs) (string, error)) {
	f := js.FuncOf(func(this js.Value, args []js.Value) any {
		bad := ""
		for i, a := range args {
			if a.Type() != js.TypeString {
				bad = errorJSON(fmt.Sprintf("%s: argument %d is a %s, want a string", name, i, a.Type()))
				break
			}
		}
		var resolve js.Value
		executor := js.FuncOf(func(_ js.Value, a []js.Value) any {
			resolve = a[0]
			return nil
		})
		promise := js.Global().Get("Promise").New(executor)
		executor.Release()
		if bad != "" {
			resolve.Invoke(bad)
			return promise
		}
		args = append([]js.Value(nil), args...)
		go func() {
			nextTask()
			var out string
			func() {
				defer func() {
					if r := recover(); r != nil {
						msg := fmt.Sprintf("panic in %s: %v", name, r)
						b.emit(map[string]any{"type": "panic", "message": msg, "stack": string(debug.Stack())})
						out = errorJSON(msg)
					}
				}()
				var err error
				if out, err = fn(textArgs(args)); err != nil {
					out = errorJSON(fmt.Sprintf("%s: %v", name, err))
				}
			}()
			resolve.Invoke(out)
		}()
		return promise
	})
	b.funcs = append(b.funcs, f)
	b.obj.Set(name, f)
}

// textPiece is how many UTF-16 code units of a string copyText copies in
// one call: 128 K (a few milliseconds) of a text whose copy in one call
// took 50 to 100 ms at 1 MB.
const textPiece = 128 << 10

// textArgs are an async method's arguments, JavaScript strings not yet
// copied into Go.
type textArgs []js.Value

// str copies argument i into Go at once.
func (a textArgs) str(i int) string { return a[i].String() }

// copyText copies argument i into Go as UTF-8 a piece at a time; once a
// slice of time has gone by it calls pause, which returns false to stop
// the copy (the load was cancelled or replaced). A piece never ends
// between the two halves of a surrogate pair.
//
// Each piece is encoded by TextEncoder.encodeInto into one scratch array
// and copied from there into the text's bytes, sized for ASCII and grown
// only past it. js.Value.String would encode each piece into an array
// of its own, copy it into Go, copy that into a string and the string
// into the whole; at 1 MB, fresh memory for each of those copies was
// most of the copy's 12 to 31 ms in the page.
func (a textArgs) copyText(i int, slice time.Duration, pause func() bool) ([]byte, bool) {
	// Its String object: syscall/js reads no property of a primitive.
	v := js.Global().Get("Object").Invoke(a[i])
	n := v.Length()
	if n <= textPiece {
		return []byte(a[i].String()), true
	}
	// A UTF-16 unit is at most 3 bytes of UTF-8 (a pair of them 4).
	scratch := js.Global().Get("Uint8Array").New(3 * textPiece)
	encoder := js.Global().Get("TextEncoder").New()
	text := make([]byte, 0, n)
	began := time.Now()
	for from := 0; from < n; {
		to := min(from+textPiece, n)
		if c := v.Call("charCodeAt", to-1).Int(); to < n && c >= 0xD800 && c < 0xDC00 {
			to--
		}
		written := encoder.Call("encodeInto", v.Call("slice", from, to), scratch).Get("written").Int()
		if len(text)+written > cap(text) {
			// Past ASCII: room for the rest at 3 bytes a unit.
			text = append(make([]byte, 0, len(text)+written+3*(n-to)), text...)
		}
		text = text[:len(text)+written]
		js.CopyBytesToGo(text[len(text)-written:], scratch)
		from = to
		// Also after the last piece: the load's first slice then starts
		// in a task of its own.
		if time.Since(began) >= slice {
			if !pause() {
				return nil, false
			}
			began = time.Now()
		}
	}
	return text, true
}

// listen lets the page register the function that receives events.
func (b *bridge) listen() {
	f := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 1 && args[0].Type() == js.TypeFunction {
			b.listener = args[0]
		}
		return nil
	})
	b.funcs = append(b.funcs, f)
	b.obj.Set("setListener", f)
}

// publish makes the object visible as window[name] and tells a waiting page.
func (b *bridge) publish(name string) {
	js.Global().Set(name, b.obj)
	if ready := js.Global().Get(name + "Ready"); ready.Type() == js.TypeFunction {
		ready.Invoke(b.obj)
	}
}

// emit sends one event to the listener as a JSON string. Errors thrown by
// the listener are the page's problem; they must not kill the game loop.
func (b *bridge) emit(ev map[string]any) {
	if b.listener.Type() != js.TypeFunction {
		return
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return
	}
	defer func() { _ = recover() }()
	b.listener.Invoke(string(data))
}

func marshal(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encoding reply: %w", err)
	}
	return string(data), nil
}

func errorJSON(msg string) string {
	data, _ := json.Marshal(map[string]any{"ok": false, "error": msg})
	return string(data)
}

// mark records a start-up moment in the stage's __stageMarks (ms since the
// epoch, as web/src/stage.ts records its own) for the performance bench.
func mark(name string) {
	marks := js.Global().Get("__stageMarks")
	if marks.Type() != js.TypeObject {
		return
	}
	perf := js.Global().Get("performance")
	marks.Set(name, perf.Get("timeOrigin").Float()+perf.Call("now").Float())
}

// nextTask blocks the calling goroutine until a task of the page's event
// loop of its own resumes it (a message on a MessageChannel: a chain of
// setTimeout(0) is held to 4 ms after five, and the gaps let idle work, the
// editor's highlighter's 100 ms parses of a large text, in between). A
// goroutine that slept instead (time.Sleep) would resume in whichever call
// enters Go first once its time is up, the page's frame and the canvas's
// among them: several slices of a load then ran in one task.
func nextTask() {
	ch := make(chan struct{})
	mc := js.Global().Get("MessageChannel").New()
	port := mc.Get("port1")
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		port.Call("close")
		f.Release()
		close(ch)
		return nil
	})
	port.Set("onmessage", f)
	mc.Get("port2").Call("postMessage", nil)
	<-ch
}
