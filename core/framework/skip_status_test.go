package framework

import "testing"

// A plugin's SkipStatus is made once and handed out again, but a status
// someone changed is replaced, so every caller sees a plain Skip.
func TestSkipStatusIsReusedUntilChanged(t *testing.T) {
	var k SkipStatus
	first := k.Get()
	if !first.IsSkip() || first.Plugin() != "" || len(first.Reasons()) != 0 {
		t.Fatalf("Get() = %v, want a plain Skip", first)
	}
	if again := k.Get(); again != first {
		t.Errorf("second Get() made a new status; want the first one again")
	}
	changes := map[string]func(*Status){
		"plugin": func(s *Status) { s.WithPlugin("Other") },
		"reason": func(s *Status) { s.AppendReason("why") },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			before := k.Get()
			change(before)
			got := k.Get()
			if got == before {
				t.Fatalf("Get() returned the changed status %v", got)
			}
			if !got.Equal(NewStatus(Skip)) {
				t.Errorf("Get() = %v, want a plain Skip", got)
			}
		})
	}
}
