package session

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/schedplay/schedplay/core/engine"
)

// rawReply is a reply already encoded as JSON: Call hands it out as it is.
type rawReply string

// traceReply encodes trace's reply, {"events":[...],"ok":true}, with the
// bytes encoding/json gives it. A growing run at 5,000 pods hands the page
// 10,000 events (2.9 MB) in the frames it grows in; through encoding/json's
// reflection that was some 45 ms of each such edit in WebAssembly.
func traceReply(evs []engine.Event) rawReply {
	w := traceWriter{}
	w.Grow(64 + len(evs)*300) // 290 bytes an event at 5,000 pods
	w.WriteString(`{"events":`)
	if evs == nil {
		w.WriteString("null")
	} else {
		w.WriteByte('[')
		for i := range evs {
			if i > 0 {
				w.WriteByte(',')
			}
			w.event(&evs[i])
		}
		w.WriteByte(']')
	}
	w.WriteString(`,"ok":true}`)
	return rawReply(w.String())
}

// traceWriter writes JSON into a strings.Builder, whose String is the
// bytes written (no copy of megabytes).
type traceWriter struct {
	strings.Builder
	num [32]byte
}

// event writes e as encoding/json does: its fields in order, the
// omitempty ones left out when empty.
func (w *traceWriter) event(e *engine.Event) {
	w.WriteString(`{"seq":`)
	w.int(e.Seq)
	w.WriteString(`,"t":`)
	w.seconds(e.T)
	w.WriteString(`,"kind":`)
	w.string(e.Kind)
	if e.Pod != "" {
		w.WriteString(`,"pod":`)
		w.string(e.Pod)
	}
	if e.Node != "" {
		w.WriteString(`,"node":`)
		w.string(e.Node)
	}
	w.WriteString(`,"reason":`)
	w.string(e.Reason)
	if len(e.Victims) > 0 {
		w.WriteString(`,"victims":`)
		w.strings(e.Victims)
	}
	if e.Queue != "" {
		w.WriteString(`,"queue":`)
		w.string(e.Queue)
	}
	if e.Until != nil {
		w.WriteString(`,"until":`)
		w.seconds(*e.Until)
	}
	if len(e.Ties) > 0 {
		w.WriteString(`,"ties":`)
		w.strings(e.Ties)
	}
	if e.TieCount != 0 {
		w.WriteString(`,"tieCount":`)
		w.int(e.TieCount)
	}
	w.WriteByte('}')
}

func (w *traceWriter) int(n int) { w.Write(strconv.AppendInt(w.num[:0], int64(n), 10)) }

// seconds is engine.Duration's MarshalJSON ("%g" of its seconds).
func (w *traceWriter) seconds(d engine.Duration) {
	w.Write(strconv.AppendFloat(w.num[:0], time.Duration(d).Seconds(), 'g', -1, 64))
}

func (w *traceWriter) strings(ss []string) {
	w.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			w.WriteByte(',')
		}
		w.string(s)
	}
	w.WriteByte(']')
}

// string writes s quoted. Printable ASCII that encoding/json writes as it
// is (it escapes <, > and & for HTML) is copied; any other string is left
// to encoding/json, which escapes it.
func (w *traceWriter) string(s string) {
	for i := 0; i < len(s); i++ {
		if !plainJSON[s[i]] {
			q, _ := json.Marshal(s) // a string always encodes
			w.Write(q)
			return
		}
	}
	w.WriteByte('"')
	w.WriteString(s)
	w.WriteByte('"')
}

// plainJSON marks the bytes encoding/json copies into a string as they are.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
