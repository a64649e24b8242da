//go:build js

package engine

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// processCPU is the CPU time (user + system, all threads) of the process
// running the WebAssembly (Node under scripts/bench-wasm.sh), read from
// Linux's /proc: the main thread that runs Go and V8's own threads
// (compiling, collecting). 0 where there is no /proc (a browser).
func processCPU() time.Duration { return procCPU("/proc/self/stat") }

// threadCPU is the CPU time of the thread running Go alone: Node's main
// thread, whose id is the process's (/proc/thread-self would name the
// thread pool's thread that serves the file read).
func threadCPU() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	pid, _, _ := bytes.Cut(b, []byte(" "))
	return procCPU("/proc/self/task/" + string(pid) + "/stat")
}

// procCPU reads utime + stime, in clock ticks of 10 ms (USER_HZ 100 on
// Linux), from a /proc stat file.
func procCPU(path string) time.Duration {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	// The command name in parentheses may hold spaces: fields count from
	// after its closing parenthesis (state is field 3, utime 14, stime 15).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	st, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(ut+st) * 10 * time.Millisecond
}
