package api

// ToleratesTaint reports whether t tolerates taint, as v1.Toleration.ToleratesTaint:
// an empty effect matches every effect, an empty key with Exists matches every
// key, and the operator defaults to Equal.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if len(t.Effect) > 0 && t.Effect != taint.Effect {
		return false
	}
	if len(t.Key) > 0 && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	}
	return false
}

// TolerationsTolerateTaint reports whether any toleration tolerates taint.
func TolerationsTolerateTaint(tolerations []Toleration, taint *Taint) bool {
	for i := range tolerations {
		if tolerations[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// FindMatchingUntoleratedTaint returns the first taint that passes filter and
// is not tolerated, as v1helper.FindMatchingUntoleratedTaint.
func FindMatchingUntoleratedTaint(taints []Taint, tolerations []Toleration, filter func(*Taint) bool) (Taint, bool) {
	for i := range taints {
		if filter != nil && !filter(&taints[i]) {
			continue
		}
		if !TolerationsTolerateTaint(tolerations, &taints[i]) {
			return taints[i], true
		}
	}
	return Taint{}, false
}
