//go:build linux

// Command pagefaults measures what the machine's kernel charges for the
// first write to a page of fresh memory: an anonymous mapping written one
// byte per 4 KB page, then written again. WebAssembly memory that a Go heap
// grows into is such memory in the browser's process, so on a machine where
// a fault is dear a fresh page's first large load pays it per page
// (docs/performance-web.md).
//
//	go run ./scripts/pagefaults [MB]
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

func main() {
	mb := 256
	if len(os.Args) > 1 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil || n <= 0 {
			fmt.Fprintln(os.Stderr, "usage: pagefaults [MB]")
			os.Exit(2)
		}
		mb = n
	}
	const page = 4096
	size := mb << 20
	for round := 1; round <= 3; round++ {
		b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pagefaults: mapping:", err)
			os.Exit(1)
		}
		first := touch(b, page)
		again := touch(b, page)
		pages := size / page
		fmt.Printf("round %d: %d MB, first write %v (%.2f µs a page, %.1f ms a MB), again %v\n",
			round, mb, first.Round(time.Millisecond), float64(first.Nanoseconds())/1e3/float64(pages),
			float64(first.Nanoseconds())/1e6/float64(mb), again.Round(time.Microsecond))
		if err := syscall.Munmap(b); err != nil {
			fmt.Fprintln(os.Stderr, "pagefaults: unmapping:", err)
			os.Exit(1)
		}
	}
}

func touch(b []byte, page int) time.Duration {
	start := time.Now()
	for i := 0; i < len(b); i += page {
		b[i]++
	}
	return time.Since(start)
}
