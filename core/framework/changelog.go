package framework

// ChangeLog lists, in order, the positions (in List order) of a
// snapshot's nodes whose pods or node object changed, so that a cache
// kept between cycles can catch up by visiting only those nodes instead
// of comparing every node's Generation. Only the NodeInfos of the
// snapshot write to it: their clones (preemption's dry runs, nominated
// pods) do not.
type ChangeLog struct {
	// start is the position of changed[0] in the whole log; older
	// entries are dropped once the log holds maxChangeLog of them.
	start   uint64
	changed []int32
}

// maxChangeLog bounds the entries kept. A reader that fell further
// behind walks every node, as it would without the log.
const maxChangeLog = 4096

func (l *ChangeLog) record(index int32) {
	if len(l.changed) == maxChangeLog {
		half := maxChangeLog / 2
		n := copy(l.changed, l.changed[half:])
		l.changed = l.changed[:n]
		l.start += uint64(half)
	}
	l.changed = append(l.changed, index)
}

// End is the position after the last entry: a reader that has caught up
// keeps it and passes it to Since next time.
func (l *ChangeLog) End() uint64 { return l.start + uint64(len(l.changed)) }

// Since returns the positions of the nodes changed from pos on (with
// repeats, oldest first). ok is false when entries from pos on were
// dropped or pos is ahead of the log; then the reader must look at every
// node. The slice belongs to the log and is valid until the next change.
func (l *ChangeLog) Since(pos uint64) (changed []int32, ok bool) {
	if pos < l.start || pos > l.End() {
		return nil, false
	}
	return l.changed[pos-l.start:], true
}
