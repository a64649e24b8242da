package preemption

import (
	"math"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// Candidate is a node on which the preemptor fits once Victims are gone.
type Candidate struct {
	Name string
	// Victims are ordered from most to least important.
	Victims []*api.Pod
	// NumPDBViolations counts victims whose eviction breaks a PDB.
	NumPDBViolations int64
}

// candidateList holds at most cap(items) candidates: upstream's list drops
// additions beyond the number of candidates it was asked for.
type candidateList struct {
	items []*Candidate
	limit int
}

func newCandidateList(limit int32) *candidateList { return &candidateList{limit: int(limit)} }

func (cl *candidateList) add(c *Candidate) {
	if len(cl.items) < cl.limit {
		cl.items = append(cl.items, c)
	}
}

func (cl *candidateList) size() int32 { return int32(len(cl.items)) }

// NewPostFilterResultWithNominatedNode nominates the preemptor to a node;
// the empty name clears an existing nomination.
func NewPostFilterResultWithNominatedNode(name string) *framework.PostFilterResult {
	return &framework.PostFilterResult{NominatingInfo: &framework.NominatingInfo{NominatedNodeName: name, NominatingMode: framework.ModeOverride}}
}

// GetPodStartTime returns status.startTime, or nil for a pod that has not
// started: upstream substitutes the wall clock there, which makes such a
// pod the youngest of all; callers treat nil that way.
func GetPodStartTime(p *api.Pod) *time.Time { return p.Status.StartTime }

// startedBefore reports whether p1 started before p2, an unstarted pod
// being later than any started one.
func startedBefore(p1, p2 *api.Pod) bool {
	t1, t2 := GetPodStartTime(p1), GetPodStartTime(p2)
	switch {
	case t1 == nil:
		return false
	case t2 == nil:
		return true
	}
	return t1.Before(*t2)
}

// MoreImportantPod orders pods by descending priority, then the one that
// started earlier first (upstream's util.MoreImportantPod).
func MoreImportantPod(p1, p2 *api.Pod) bool {
	if a, b := p1.PriorityValue(), p2.PriorityValue(); a != b {
		return a > b
	}
	return startedBefore(p1, p2)
}

// earliestStartOfHighestPriority returns, in Unix nanoseconds, the earliest
// start time among the victims with the highest priority (upstream's
// GetEarliestPodStartTime); an unstarted pod counts as starting last.
func earliestStartOfHighestPriority(victims []*api.Pod) int64 {
	unix := func(p *api.Pod) int64 {
		if t := GetPodStartTime(p); t != nil {
			return t.UnixNano()
		}
		return math.MaxInt64
	}
	earliest := unix(victims[0])
	maxPrio := victims[0].PriorityValue()
	for _, p := range victims {
		switch prio := p.PriorityValue(); {
		case prio == maxPrio:
			earliest = min(earliest, unix(p))
		case prio > maxPrio:
			maxPrio = prio
			earliest = unix(p)
		}
	}
	return earliest
}
