//go:build js && wasm

// gcturns keeps a live heap whose marking takes far longer than one turn's
// slice of idle marking, then collects three ways: from the main goroutine
// with nothing else pending (no timer or callback of the host's would call
// into Go again), while the main goroutine sleeps a millisecond at a time
// (it counts the turns the host gave it before the cycle's marking ended),
// and inside a callback the host calls synchronously (Go cannot
// hand control back before the callback returns). Each must finish, and the
// live heap must be intact. It prints "ok turns N".
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"syscall/js"
	"time"
)

type record struct {
	id   int
	next *record
	pad  [4]*int
}

func main() {
	var head *record
	const live = 1_500_000
	for i := range live {
		n := i
		r := &record{id: i, next: head}
		r.pad[i%4] = &n
		head = r
	}

	// With nothing else pending. It also ends the cycle the allocations
	// above started.
	runtime.GC()

	// A cycle counts as completed once its marking ends, before runtime.GC
	// returns (it sweeps after).
	cycles := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(cycles)
	before := cycles[0].Value.Uint64()
	done := make(chan struct{})
	go func() {
		runtime.GC()
		close(done)
	}()
	turns := 0
	for marking := true; marking; {
		time.Sleep(time.Millisecond)
		metrics.Read(cycles)
		if marking = cycles[0].Value.Uint64() == before; marking {
			turns++
		}
	}
	<-done

	// Were Go to hand control back before the callback returned, the host
	// would read its result too soon.
	collect := js.FuncOf(func(js.Value, []js.Value) any {
		runtime.GC()
		return "collected"
	})
	if got := collect.Invoke(); got.Type() != js.TypeString || got.String() != "collected" {
		fmt.Println("the callback answered", got.Type(), "before it returned")
		os.Exit(1)
	}
	collect.Release()

	i := live - 1
	for r := head; r != nil; r = r.next {
		if r.id != i || r.pad[i%4] == nil || *r.pad[i%4] != i {
			fmt.Println("record", i, "is corrupt")
			os.Exit(1)
		}
		i--
	}
	if i != -1 {
		fmt.Println("records lost:", i+1)
		os.Exit(1)
	}
	fmt.Println("ok turns", turns)
}
