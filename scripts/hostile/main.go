// Command hostile loads one scenario file the way the playground does
// (ui/adapt.LoadCached through a scenario.Cache, within the page's budget)
// and grows its run to the end, as the page's simulate calls do. Built
// for GOOS=js and run under Node it is the page's engine path in V8;
// scripts/hostile.sh runs it on every shared hostile input. It prints one
// line: how the load and the run ended.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui/adapt"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: hostile FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	start := time.Now()
	var cache scenario.Cache
	res := adapt.LoadCached(&cache, "scenario.yaml", data, adapt.DefaultBudget)
	loaded := time.Since(start)
	if !res.OK {
		first := res.Error
		if len(res.Diagnostics) > 0 {
			d := res.Diagnostics[0]
			first = fmt.Sprintf("%d:%d: %s", d.Line, d.Col, d.Msg)
		}
		fmt.Printf("refused in %v: %s\n", loaded.Round(time.Millisecond), first)
		return
	}
	run := res.Run
	for !run.Done() {
		run.Step(50)
	}
	fmt.Printf("loaded in %v, ran in %v: %d events%s\n", loaded.Round(time.Millisecond),
		(time.Since(start) - loaded).Round(time.Millisecond), len(run.Trace()), stopped(run.Stopped))
}

func stopped(s string) string {
	if s == "" {
		return ""
	}
	return "; stopped: " + s
}
