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
// as "30s"; empty: no node) against the run's answer to question id.
func (s *Session) Answer(id, given string) (AnswerReply, error) {
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
	return AnswerReply{OK: true, Ready: true, Right: a.Right(names), Answer: &a}, nil
}
