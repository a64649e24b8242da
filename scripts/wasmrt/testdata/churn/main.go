//go:build js && wasm

// churn keeps a live heap of linked records while it makes garbage and
// sleeps now and then (handing control to the host), then checks every
// record: a runtime that grows memory ahead must still hand out memory that
// nothing else uses.
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

type record struct {
	id   int
	next *record
	pad  [12]*int
	blob []byte
}

func main() {
	var head *record
	const live = 200_000
	for i := range live {
		r := &record{id: i, next: head, blob: make([]byte, 64)}
		r.blob[0] = byte(i)
		n := i
		r.pad[i%12] = &n
		head = r
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var garbage [][]byte
	for round := range 200 {
		for range 2_000 {
			garbage = append(garbage, make([]byte, 512))
		}
		if len(garbage) > 20_000 {
			garbage = nil
		}
		if round%4 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	i := live - 1
	for r := head; r != nil; r = r.next {
		if r.id != i || r.blob[0] != byte(i) || r.pad[i%12] == nil || *r.pad[i%12] != i {
			fmt.Println("record", i, "is corrupt")
			os.Exit(1)
		}
		i--
	}
	if i != -1 {
		fmt.Println("records lost:", i+1)
		os.Exit(1)
	}
	// Sys is what the runtime has taken from linear memory (it never
	// shrinks): the test weighs the memory grown beyond it.
	fmt.Printf("ok %d collections %.1f sys\n", after.NumGC-before.NumGC, float64(after.Sys)/(1<<20))
}
