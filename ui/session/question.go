package session

import (
	"fmt"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/engine"
)

// QuestionReply answers question: where playback stops to ask it (before
// event Seq), once the run has got that far (Ready).
type QuestionReply struct {
	OK    bool    `json:"ok"`
	Ready bool    `json:"ready"`
	Seq   int     `json:"seq"`
	T     float64 `json:"t"`
	// Nodes and Pods are what the learner may pick from: the scenario's
	// nodes, and the pods as loaded.
	Nodes []string `json:"nodes"`
	Pods  []string `json:"pods"`
}

// AnswerReply grades the learner's answer against the run's.
type AnswerReply struct {
	OK     bool           `json:"ok"`
	Ready  bool           `json:"ready"`
	Right  bool           `json:"right"`
	Answer *engine.Answer `json:"answer,omitempty"`
}

// answer is the run's answer to the loaded lesson's question id, or ready
// false while the run has not reached it.
func (s *Session) answer(id string) (engine.Answer, bool, error) {
	if s.run == nil {
		return engine.Answer{}, false, fmt.Errorf("no scenario loaded")
	}
	les := s.run.Scenario().Lesson
	if les == nil {
		return engine.Answer{}, false, fmt.Errorf("the scenario has no Lesson")
	}
	a, err := s.run.Sim().Answer(les, id)
	if err != nil {
		if !s.run.Done() {
			return engine.Answer{}, false, nil // the answer may be ahead
		}
		return engine.Answer{}, false, err
	}
	return a, true, nil
}

// Question says where playback stops to ask question id.
func (s *Session) Question(id string) (QuestionReply, error) {
	a, ready, err := s.answer(id)
	if err != nil || !ready {
		return QuestionReply{OK: err == nil}, err
	}
	t := 0.0
	if tr := s.run.Trace(); a.Seq < len(tr) {
		t = time.Duration(tr[a.Seq].T).Seconds()
	}
	r := QuestionReply{OK: true, Ready: true, Seq: a.Seq, T: t, Nodes: []string{}, Pods: []string{}}
	sc := s.run.Base() // the scene at t=0: building another would reuse the shown one's buffers
	for _, n := range sc.Nodes {
		r.Nodes = append(r.Nodes, n.Name)
		for _, p := range n.Pods {
			r.Pods = append(r.Pods, p.Namespace+"/"+p.Name)
		}
	}
	for _, p := range sc.Pending {
		r.Pods = append(r.Pods, p.Namespace+"/"+p.Name)
	}
	return r, nil
}

// Answer grades given (comma-separated node or pod keys, or a time such
// as "30s"; empty: no node) against the run's answer to question id. A
// right answer, or reveal (the learner gives up), closes the question:
// the trace goes on past its answer.
func (s *Session) Answer(id, given string, reveal bool) (AnswerReply, error) {
	a, ready, err := s.answer(id)
	if err != nil || !ready {
		return AnswerReply{OK: err == nil}, err
	}
	var names []string
	for _, g := range strings.Split(given, ",") {
		if g = strings.TrimSpace(g); g != "" {
			names = append(names, g)
		}
	}
	right := a.Right(names)
	if right || reveal {
		s.answered[id] = true
	}
	return AnswerReply{OK: true, Ready: true, Right: right, Answer: &a}, nil
}

// SetQuiz turns on (a lesson opened from the course) or off (a draft, a
// shared link) asking the loaded lesson's questions, and so holding the
// trace back at their answers.
func (s *Session) SetQuiz(on bool) { s.quiz = on }

// horizon is how many trace events the page may see. While a question is
// open, the trace ends just before the event that answers it, so that no
// view (the event log, the text view, captions on events, the timeline)
// shows an answer before the learner gives one.
func (s *Session) horizon() int {
	n := len(s.run.Trace())
	les := s.run.Scenario().Lesson
	if !s.quiz || les == nil {
		return n
	}
	for _, q := range les.Questions {
		if s.answered[q.ID] {
			continue
		}
		seq, found := s.answers[q.ID]
		if !found {
			a, err := s.run.Sim().Answer(les, q.ID)
			if err != nil {
				continue // not reached yet; or a question the page reports as broken
			}
			seq = a.Seq
			s.answers[q.ID] = seq
		}
		n = min(n, seq)
	}
	return n
}

// held reports whether a question holds the trace back.
func (s *Session) held() bool { return s.run != nil && s.horizon() < len(s.run.Trace()) }
