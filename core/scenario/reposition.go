package scenario

import "reflect"

// Reposition gives dst the positions of src, a scenario equal to dst but
// for positions (Cache.Unchanged says so): the objects' Positions, the
// warnings, and the positions of the Timeline's actions and the Lesson's
// parts. A simulation of dst can then go on as the simulation of src: no
// object differs. It reports false, changing nothing, when the two differ
// in shape (they were not loaded from equal documents).
func Reposition(dst, src *Scenario) bool {
	if len(dst.Warnings) != len(src.Warnings) || len(dst.Positions) != len(src.Positions) || len(dst.Timeline) != len(src.Timeline) || (dst.Lesson == nil) != (src.Lesson == nil) {
		return false
	}
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	tl, le := d.FieldByName("Timeline"), d.FieldByName("Lesson")
	check, set := &positions{dry: true, holds: map[reflect.Type]bool{}}, &positions{}
	set.holds = check.holds
	if !check.copy(tl, s.FieldByName("Timeline")) || !check.copy(le, s.FieldByName("Lesson")) {
		return false
	}
	set.copy(tl, s.FieldByName("Timeline"))
	set.copy(le, s.FieldByName("Lesson"))
	dst.Warnings, dst.Positions = src.Warnings, src.Positions
	return true
}

var posType = reflect.TypeFor[Pos]()

// positions copies every Pos under one value to the same place under
// another; with dry it only checks that the two have the same shape on
// the way to each Pos. holds memoizes holdsPos.
type positions struct {
	dry   bool
	holds map[reflect.Type]bool
}

func (c *positions) copy(dst, src reflect.Value) bool {
	t := dst.Type()
	if t == posType {
		if !c.dry {
			dst.Set(src)
		}
		return true
	}
	holds, ok := c.holds[t]
	if !ok {
		holds = holdsPos(t, map[reflect.Type]bool{})
		c.holds[t] = holds
	}
	if !holds {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if dst.IsNil() || src.IsNil() {
			return dst.IsNil() == src.IsNil()
		}
		if t.Kind() == reflect.Interface {
			e := dst.Elem()
			if e.Type() != src.Elem().Type() || e.Kind() != reflect.Pointer && holdsPos(e.Type(), map[reflect.Type]bool{}) {
				return false // different, or not settable
			}
		}
		return c.copy(dst.Elem(), src.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() && holdsPos(f.Type, map[reflect.Type]bool{}) {
				return false // not settable
			}
			if !c.copy(dst.Field(i), src.Field(i)) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if dst.Len() != src.Len() {
			return false
		}
		for i := 0; i < dst.Len(); i++ {
			if !c.copy(dst.Index(i), src.Index(i)) {
				return false
			}
		}
	default:
		return false // a map holding positions: none in a scenario
	}
	return true
}

// holdsPos reports whether a value of type t may hold a Pos (an interface
// may hold anything).
func holdsPos(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == posType || t.Kind() == reflect.Interface {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return holdsPos(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsPos(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
