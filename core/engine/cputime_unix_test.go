//go:build unix

package engine

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system, all threads, GC included) the
// process has used: on a shared machine it varies far less than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadCPU is reported for WebAssembly only (cputime_js_test.go): natively
// the collector runs on threads of its own, which processCPU counts.
func threadCPU() time.Duration { return 0 }
