package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/internal/benchdata"
	"github.com/schedplay/schedplay/ui/adapt"
)

// marshalTrace is trace's reply as encoding/json writes it: what
// traceReply must equal byte for byte.
func marshalTrace(t *testing.T, evs []engine.Event) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"ok": true, "events": evs})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The trace of every example, run to its end, encodes as encoding/json
// encodes it.
func TestTraceReplyMatchesEncodingJSONOnExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	events := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := New(&recorder{}, adapt.DefaultBudget)
			if r := s.Load(filepath.Base(f), string(text)); !r.OK {
				t.Skipf("does not load: %v", r.Error)
			}
			s.Simulate(time.Hour)
			evs := s.Trace(0)
			events += len(evs)
			for _, from := range []int{0, len(evs) / 2, len(evs)} {
				if got, want := []byte(traceReply(s.Trace(from))), marshalTrace(t, s.Trace(from)); !bytes.Equal(got, want) {
					t.Errorf("from %d:\n got %s\nwant %s", from, got, want)
				}
			}
		})
	}
	// A glob or a loader gone wrong would skip them all and pass.
	if events < len(files) {
		t.Errorf("%d examples gave %d events in all, fewer than one each", len(files), events)
	}
}

// Every field, empty and set, and strings encoding/json escapes.
func TestTraceReplyMatchesEncodingJSONOnEdges(t *testing.T) {
	until := engine.Duration(1500 * time.Millisecond)
	long := engine.Duration(3 * time.Hour)
	tests := []struct {
		name string
		evs  []engine.Event
	}{
		{name: "no run", evs: nil},
		{name: "nothing new", evs: []engine.Event{}},
		{name: "required fields only", evs: []engine.Event{{Seq: 0, Kind: "Queued"}}},
		{name: "every field", evs: []engine.Event{{Seq: 7, T: engine.Duration(30 * time.Second), Kind: "Nominated", Pod: "default/critical",
			Node: "node-b", Reason: "preemption chose node-b", Victims: []string{"default/low-b2", "ns/x"}, Queue: "activeQ",
			Until: &until, Ties: []string{"a", "b"}, TieCount: 12}}},
		{name: "times", evs: []engine.Event{{Seq: 1, T: engine.Duration(time.Nanosecond)}, {Seq: 2, T: long, Until: &long},
			{Seq: 3, T: engine.Duration(1234567 * time.Second)}, {Seq: 4, T: engine.Duration(-time.Second)}}},
		{name: "escaped strings", evs: []engine.Event{
			{Kind: "a<b>&c", Reason: "quote \" backslash \\ tab \t newline \n nul \x00 del \x7f"},
			{Pod: "日本/ポッド", Node: "nöde", Reason: "line\u2028para\u2029 → ✓"},
			{Reason: "bad utf-8 \xff\xfe end", Victims: []string{"<script>", ""}, Ties: []string{"\x1f"}},
		}},
		{name: "empty lists are left out", evs: []engine.Event{{Victims: []string{}, Ties: []string{}}}},
	}
	// The encoder names engine.Event's fields one by one: a field added
	// to it must be set here too, and so be compared.
	checked := false
	for _, tt := range tests {
		if tt.name != "every field" {
			continue
		}
		checked = true
		every := reflect.ValueOf(tt.evs[0])
		for i := range every.NumField() {
			if every.Field(i).IsZero() {
				t.Fatalf("the %q case leaves engine.Event.%s empty", tt.name, every.Type().Field(i).Name)
			}
		}
	}
	if !checked {
		t.Fatal(`no "every field" case`)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := []byte(traceReply(tt.evs)), marshalTrace(t, tt.evs); !bytes.Equal(got, want) {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

// The page's trace call answers the encoded reply as it is.
func TestCallTraceIsTheEncodedReply(t *testing.T) {
	s := New(&recorder{}, adapt.DefaultBudget)
	got, err := s.Call("trace", []string{"0"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"events":null,"ok":true}`; got != want {
		t.Errorf("trace with no run = %s, want %s", got, want)
	}
}

// BenchmarkTraceReply encodes a 500-node / 5,000-pod run's trace: by
// hand, as trace answers it, and through encoding/json, as it did.
func BenchmarkTraceReply(b *testing.B) {
	s := New(&recorder{}, adapt.DefaultBudget)
	if r := s.Load("s.yaml", string(benchdata.Paste(500, 5000, "pod-"))); !r.OK {
		b.Fatal(r.Error)
	}
	s.Simulate(time.Hour)
	evs := s.Trace(0)
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			traceReply(evs)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(map[string]any{"ok": true, "events": evs}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
