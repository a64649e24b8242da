//go:build js

package engine

import (
	"syscall/js"
	"time"
)

// processCPU is Node's process.cpuUsage (user and system time of the
// whole process, microseconds) when the test binary runs under Node's
// wasm_exec; 0 elsewhere (a browser), and benchmarks then skip the metric.
func processCPU() time.Duration {
	proc := js.Global().Get("process")
	if proc.Type() != js.TypeObject || proc.Get("cpuUsage").Type() != js.TypeFunction {
		return 0
	}
	u := proc.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
