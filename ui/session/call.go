package session

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// method is one call the page makes: string arguments (between min and
// max of them, named in usage) in, a reply to encode as JSON out.
type method struct {
	usage    string
	min, max int
	fn       func(s *Session, args []string) (any, error)
}

// switchMethod is a call that turns something on or off ("true", "false").
func switchMethod(set func(*Session, bool)) method {
	return method{"on", 1, 1, func(s *Session, a []string) (any, error) {
		on, err := strconv.ParseBool(a[0])
		if err != nil {
			return nil, fmt.Errorf("parsing on: %w", err)
		}
		set(s, on)
		return map[string]any{"ok": true}, nil
	}}
}

// idleMethod is work the page hands the session in idle time, for about
// the milliseconds given (none: all of it); the reply's done says whether
// it is all done.
func idleMethod(work func(*Session, time.Duration) bool) method {
	return method{"[milliseconds]", 0, 1, func(s *Session, a []string) (any, error) {
		var d time.Duration
		if len(a) == 1 {
			var err error
			if d, err = parseMillis("milliseconds", a[0]); err != nil {
				return nil, err
			}
		}
		return map[string]any{"ok": true, "done": work(s, d)}, nil
	}}
}

// methods are the calls of the page's window.schedplay object, typed in
// web/src/bridge.d.ts.
var methods = map[string]method{
	"load": {"name, text", 2, 2, func(s *Session, a []string) (any, error) { return s.Load(a[0], a[1]), nil }},
	"simulate": {"milliseconds", 1, 1, func(s *Session, a []string) (any, error) {
		d, err := parseMillis("milliseconds", a[0])
		if err != nil {
			return nil, err
		}
		return s.Simulate(d), nil
	}},
	"trace": {"from", 1, 1, func(s *Session, a []string) (any, error) {
		from, err := parseInt("from", a[0])
		if err != nil {
			return nil, err
		}
		return traceReply(s.Trace(from)), nil
	}},
	"seek": {"seq, t", 2, 2, func(s *Session, a []string) (any, error) {
		seq, err := parseInt("seq", a[0])
		if err != nil {
			return nil, err
		}
		t, err := strconv.ParseFloat(a[1], 64)
		if err != nil {
			return nil, fmt.Errorf("parsing t: %w", err)
		}
		s.Seek(seq, t)
		return map[string]any{"ok": true, "gen": s.gen}, nil
	}},
	"prefetch": {"seq, milliseconds", 2, 2, func(s *Session, a []string) (any, error) {
		seq, err := parseInt("seq", a[0])
		if err != nil {
			return nil, err
		}
		d, err := parseMillis("milliseconds", a[1])
		if err != nil {
			return nil, err
		}
		ok, done := s.Prefetch(seq, d)
		return map[string]any{"ok": ok, "done": done}, nil
	}},
	"select": {"kind, key", 2, 2, func(s *Session, a []string) (any, error) {
		k, ok := Kinds[a[0]]
		if !ok {
			return nil, fmt.Errorf("unknown kind %q", a[0])
		}
		s.Select(ui.Hit{Kind: k, Key: a[1]})
		return map[string]any{"ok": true}, nil
	}},
	"details": {"kind, key[, attempt]", 2, 3, func(s *Session, a []string) (any, error) {
		k, ok := Kinds[a[0]]
		if !ok || k == ui.HitNone {
			return nil, fmt.Errorf("unknown kind %q", a[0])
		}
		attempt := 0
		if len(a) == 3 {
			var err error
			if attempt, err = parseInt("attempt", a[2]); err != nil {
				return nil, err
			}
		}
		return s.Details(k, a[1], attempt)
	}},
	"locate": {"kind, key", 2, 2, func(s *Session, a []string) (any, error) {
		k, ok := Kinds[a[0]]
		if !ok || k == ui.HitNone {
			return nil, fmt.Errorf("unknown kind %q", a[0])
		}
		r, found := s.Locate(ui.Hit{Kind: k, Key: a[1]})
		return map[string]any{"ok": found, "x": r.X, "y": r.Y, "w": r.W, "h": r.H, "labelPx": s.LabelPx(k)}, nil
	}},
	"setFollow":    switchMethod((*Session).SetFollow),
	"setPresenter": switchMethod((*Session).SetPresenter),
	"setQuiz":      switchMethod((*Session).SetQuiz),
	"outline": {"", 0, 0, func(s *Session, _ []string) (any, error) {
		return struct {
			OK bool `json:"ok"`
			adapt.Outline
		}{true, s.Outline()}, nil
	}},
	"prepare":  idleMethod((*Session).Prepare),
	"warm":     idleMethod((*Session).Warm),
	"question": {"id", 1, 1, func(s *Session, a []string) (any, error) { return s.Question(a[0]) }},
	"answer": {"id, given[, reveal]", 2, 3, func(s *Session, a []string) (any, error) {
		reveal := false
		if len(a) == 3 {
			var err error
			if reveal, err = strconv.ParseBool(a[2]); err != nil {
				return nil, fmt.Errorf("parsing reveal: %w", err)
			}
		}
		return s.Answer(a[0], a[1], reveal)
	}},
	"setMotion": {"mode", 1, 1, func(s *Session, a []string) (any, error) {
		if err := s.SetMotion(a[0]); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	}},
	"setWords": {"words", 1, 1, func(s *Session, a []string) (any, error) {
		if err := s.SetWords(a[0]); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	}},
	"setTheme": {"theme", 1, 1, func(s *Session, a []string) (any, error) {
		s.SetTheme(a[0])
		return map[string]any{"ok": true}, nil
	}},
}

// Methods lists the names Call answers, sorted.
func Methods() []string {
	out := make([]string, 0, len(methods))
	for name := range methods {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Call runs the page's call name with its string arguments and returns
// the reply as JSON. A wrong call (unknown name, argument count or value)
// is an error, which the bridge reports as {"ok":false,"error":...}.
func (s *Session) Call(name string, args []string) (string, error) {
	m, ok := methods[name]
	if !ok {
		return "", fmt.Errorf("no method %q", name)
	}
	if len(args) < m.min || len(args) > m.max {
		return "", fmt.Errorf("want %d argument(s) (%s), got %d", m.max, m.usage, len(args))
	}
	reply, err := m.fn(s, args)
	if err != nil {
		return "", err
	}
	if raw, ok := reply.(rawReply); ok {
		return string(raw), nil
	}
	data, err := json.Marshal(reply)
	if err != nil {
		return "", fmt.Errorf("encoding reply: %w", err)
	}
	return string(data), nil
}
