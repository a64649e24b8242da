// Package framework holds the scheduling framework's data types and plugin
// interfaces, shaped after upstream's staging/src/k8s.io/kube-scheduler/framework
// and pkg/scheduler/framework so a reader finds each concept where upstream
// keeps it. The simulation is single-threaded: no contexts, locks or
// parallelizers.
package framework

import (
	"errors"
	"strings"
)

// Code is a plugin's verdict.
type Code int

// Codes, in upstream's order.
const (
	Success Code = iota
	Error
	Unschedulable
	UnschedulableAndUnresolvable
	Wait
	Skip
	Pending
)

var codeNames = []string{"Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip", "Pending"}

func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "Unknown"
}

// Status is the result of running a plugin. A nil *Status means Success.
type Status struct {
	code    Code
	reasons []string
	err     error
	plugin  string
}

// NewStatus makes a status with reasons.
func NewStatus(code Code, reasons ...string) *Status {
	s := &Status{code: code, reasons: reasons}
	if code == Error {
		s.err = errors.New(s.Message())
	}
	return s
}

// SkipStatus is a plugin's own Skip status, made on first use and handed
// out again after that: the runtime only reads a Skip's code, and a fresh
// one per PreFilter/PreScore call was about 13 allocations per pod. A
// status someone changed (reasons, plugin, error) is replaced, so every
// caller still gets a plain Skip.
type SkipStatus struct{ s *Status }

// Get returns the plugin's plain Skip status.
func (k *SkipStatus) Get() *Status {
	if s := k.s; s != nil && s.code == Skip && len(s.reasons) == 0 && s.err == nil && s.plugin == "" {
		return s
	}
	k.s = &Status{code: Skip}
	return k.s
}

// AsStatus wraps an error.
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code returns the code; Success for nil.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// Message joins the reasons with ", " as upstream does.
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.reasons, ", ")
}

// Reasons returns the reasons.
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	if s.err != nil && len(s.reasons) == 0 {
		return []string{s.err.Error()}
	}
	return s.reasons
}

// AppendReason adds a reason.
func (s *Status) AppendReason(r string) { s.reasons = append(s.reasons, r) }

// IsSuccess reports Success (or nil).
func (s *Status) IsSuccess() bool { return s.Code() == Success }

// IsSkip reports Skip.
func (s *Status) IsSkip() bool { return s.Code() == Skip }

// IsWait reports Wait.
func (s *Status) IsWait() bool { return s.Code() == Wait }

// IsRejected reports Unschedulable, UnschedulableAndUnresolvable or Pending.
func (s *Status) IsRejected() bool {
	c := s.Code()
	return c == Unschedulable || c == UnschedulableAndUnresolvable || c == Pending
}

// Plugin returns the plugin that produced the status.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// WithPlugin records which plugin produced the status. A status that
// already names p is left unwritten, so a plugin may return one shared
// status for many nodes.
func (s *Status) WithPlugin(p string) *Status {
	if s == nil {
		return nil
	}
	if s.plugin != p {
		s.plugin = p
	}
	return s
}

// AsError returns the status as an error (nil for success and rejections' absence).
func (s *Status) AsError() error {
	if s.IsSuccess() {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}

// Equal compares code, reasons and plugin (for tests).
func (s *Status) Equal(o *Status) bool {
	if s == nil || o == nil {
		return s.IsSuccess() && o.IsSuccess()
	}
	if s.code != o.code || s.plugin != o.plugin || len(s.reasons) != len(o.reasons) {
		return false
	}
	for i := range s.reasons {
		if s.reasons[i] != o.reasons[i] {
			return false
		}
	}
	return true
}

func (s *Status) String() string {
	if s == nil {
		return "Success"
	}
	out := s.code.String()
	if s.plugin != "" {
		out += " [" + s.plugin + "]"
	}
	if m := s.Message(); m != "" {
		out += ": " + m
	}
	return out
}
