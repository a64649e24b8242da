package engine

import (
	"strings"
	"testing"
	"time"
)

// TestTraceForms pins the trace's two forms for the shapes an event takes:
// a pod's, a pod's on a node with victims and an end time, a node's.
func TestTraceForms(t *testing.T) {
	until := Duration(30 * time.Second)
	events := []Event{
		{Seq: 0, Kind: EvQueued, Pod: "default/a", Reason: "pending pod enters the scheduling queue", Queue: "activeQ"},
		{Seq: 1, T: Duration(1500 * time.Millisecond), Kind: EvNominated, Pod: "default/critical", Node: "node-b", Victims: []string{"default/low"}, Reason: "preemption chose node-b"},
		{Seq: 2, T: Duration(1500 * time.Millisecond), Kind: EvPreempted, Pod: "default/low", Node: "node-b", Until: &until, Reason: "preempted"},
		{Seq: 3, T: Duration(2 * time.Minute), Kind: EvAction, Node: "node-c", Reason: "node added by the timeline"},
	}
	var text strings.Builder
	if err := WriteTraceText(&text, events); err != nil {
		t.Fatal(err)
	}
	wantText := "" +
		"      0s  Queued     default/a                  pending pod enters the scheduling queue\n" +
		"    1.5s  Nominated  default/critical @ node-b  preemption chose node-b\n" +
		"    1.5s  Preempted  default/low @ node-b       preempted\n" +
		"    2m0s  Action      @ node-c                  node added by the timeline\n"
	if text.String() != wantText {
		t.Errorf("text form:\n%s\nwant:\n%s", text.String(), wantText)
	}
	var js strings.Builder
	if err := WriteTraceJSON(&js, events); err != nil {
		t.Fatal(err)
	}
	wantJSON := `{"seq":0,"t":0,"kind":"Queued","pod":"default/a","reason":"pending pod enters the scheduling queue","queue":"activeQ"}
{"seq":1,"t":1.5,"kind":"Nominated","pod":"default/critical","node":"node-b","reason":"preemption chose node-b","victims":["default/low"]}
{"seq":2,"t":1.5,"kind":"Preempted","pod":"default/low","node":"node-b","reason":"preempted","until":30}
{"seq":3,"t":120,"kind":"Action","node":"node-c","reason":"node added by the timeline"}
`
	if js.String() != wantJSON {
		t.Errorf("JSON form:\n%s\nwant:\n%s", js.String(), wantJSON)
	}
}
