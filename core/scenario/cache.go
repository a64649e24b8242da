package scenario

import (
	"bytes"
	"reflect"
	"slices"
	"time"

	"github.com/goccy/go-yaml/parser"
)

// Cache makes loading an edited scenario cheap: it keeps what reading each
// document produced (for ordinary objects the decoded values with their
// diagnostics and validation, else the parsed tree) and reuses it for the
// documents of the next load whose text did not change. The pods of an
// unchanged document of Pods only are handed out as the last scenario
// admitted them while the nodes, PriorityClasses, configuration and T0
// are those they were admitted with, so an edit of one pod admits one
// pod. Loading through a Cache gives exactly what Load gives; a caller
// must not change the scenarios it gets (the next load may share their
// pods). A Cache is not safe for concurrent use; the zero value is ready.
type Cache struct {
	docs map[string]*cachedDoc // by the document's text
	// types describes the types of decoded values for copying them.
	types map[reflect.Type]*typeInfo
	// last is the last load that gave a scenario: its file name, the trees
	// it read and the scenario; same is that scenario when the load after
	// it read trees equal to its trees but for positions (see Unchanged).
	last struct {
		file  string
		trees []rootAt
		sc    *Scenario
	}
	same *Scenario
	// adm is what the pods of the last scenario were admitted with: its
	// T0 and the texts of the documents of every object not a Pod
	// (admitting a pod reads those: nodes, PriorityClasses, T0; nothing of
	// other pods). Documents of Pods only whose admGen is gen hold those
	// admitted pods.
	adm struct {
		gen    int
		t0     time.Time
		others []string
	}
	loads int // counts loads (cachedDoc.handed)
	// pieces is how many documents the last text split into had.
	pieces int
}

// cachedDoc is one document (the text between two "---" lines) as read.
type cachedDoc struct {
	key  string // the text (the Cache's key: kept, not made again)
	line int    // the text's first line, where its trees' positions start
	// clean: the text passes the shape check on its own (pieceClean).
	clean bool
	// parsed.trees is nil once the document is read: kept trees (a
	// 144-byte node per value, with pointers) were some 14 MB of a 1 MB
	// load's Cache for every collection to mark, for the few reads that
	// parsing key again serves (reparse). roots counts the trees that
	// are not null.
	parsed parsedDoc
	roots  int
	// read is set when reading the trees depended on the trees alone
	// (Timeline and Lesson documents also depend on the loader's state):
	// objs then hold pristine copies of the decoded values (admission
	// changes the ones handed out) and diags what decoding reported.
	read  bool
	objs  []*object
	diags []Diagnostic
	// spare are copies of objs made ahead (Prepare) for the next load to
	// hand out without copying; nil once handed out.
	spare []any
	// admitted, for a document of Pods only, are objs as the last
	// scenario admitted them (when admGen is the Cache's adm.gen). The
	// next load shares them when the pods' admission reads what it read
	// then (the Cache's adm): admitting them again would change nothing.
	// Nothing changes a scenario's objects after its load (the engine
	// runs on its own copies: TestRunLeavesItsScenario).
	admitted []any
	admGen   int
	// handed is the Cache's loads when a load last handed out objs.
	handed int
}

// newCachedDoc is the document of text key at line, parsed as pd.
func newCachedDoc(key string, line int, clean bool, pd parsedDoc) *cachedDoc {
	cd := &cachedDoc{key: key, line: line, clean: clean, parsed: pd}
	for _, t := range pd.trees {
		if t.kind != yNull {
			cd.roots++
		}
	}
	return cd
}

// reparse is the document's trees: kept, or its text parsed again (it
// parsed before, so it parses now: the alias limit is not in the way).
func (cd *cachedDoc) reparse() []*ynode {
	if cd.parsed.trees != nil {
		return cd.parsed.trees
	}
	pd, _ := parsePiece([]byte(cd.key), cd.key, cd.line-1, maxSize, nil)
	return pd.trees
}

// root is the document's j-th tree that is not null.
func (cd *cachedDoc) root(j int) *ynode {
	for _, t := range cd.reparse() {
		if t.kind == yNull {
			continue
		}
		if j == 0 {
			return t
		}
		j--
	}
	return nil
}

// rootAt names a document's tree that is not null (root) by the
// document's text and line, which it stays the same for, without holding
// the document: a load that fails keeps the last one's rootAts.
type rootAt struct {
	key     string
	line, j int32
}

// same reports whether r and root j of cd are the same YAML values, at
// the same positions when at is set.
func (r rootAt) same(cd *cachedDoc, j int, at bool) bool {
	if r.key == cd.key && int(r.j) == j && (!at || int(r.line) == cd.line) {
		return true // the same text parses to the same trees
	}
	a := (&cachedDoc{key: r.key, line: int(r.line)}).root(int(r.j))
	if at {
		return sameTreeAt(a, cd.root(j))
	}
	return sameTree(a, cd.root(j))
}

// podsOnly reports whether the document's objects are all Pods (and it
// has some).
func (cd *cachedDoc) podsOnly() bool {
	for _, o := range cd.objs {
		if o.kind != "Pod" {
			return false
		}
	}
	return len(cd.objs) > 0
}

// docPiece is a document's text and its first line in the file.
type docPiece struct {
	text []byte
	line int
}

// Load is Load reusing the documents of the previous load.
func (c *Cache) Load(filename string, data []byte) (*Scenario, error) {
	return c.LoadYielding(filename, data, nil)
}

// LoadYielding is Load calling yield (nil: never) between documents and
// stages. When yield returns false the load stops there and returns
// ErrCancelled; what the Cache keeps stays consistent, and a later load
// reads again whatever this one did not finish.
func (c *Cache) LoadYielding(filename string, data []byte, yield Yield) (*Scenario, error) {
	l := &loader{file: filename, src: data, lim: DefaultLimits, yield: yield}
	return l.finish(c.load(l, nil))
}

// LoadOver is LoadYielding of an edit of the text kept was loaded from:
// when Same(filename, data) is kept, it is kept, without a load (same
// reports it); else the load, which takes the documents Same split and
// looked up (an edit that moves a value would split and look up its text
// twice, Same's and the load's).
func (c *Cache) LoadOver(kept *Scenario, filename string, data []byte, yield Yield) (s *Scenario, same bool, err error) {
	var pre *split
	if kept != nil {
		var got *Scenario
		if got, pre = c.sameSplit(filename, data); got != nil {
			if got == kept {
				return kept, true, nil
			}
			pre = nil // Same kept the pieces it parsed: the load looks again
		}
	}
	l := &loader{file: filename, src: data, lim: DefaultLimits, yield: yield}
	s, err = l.finish(c.load(l, pre))
	return s, false, err
}

// split is the start of a load that Same made: the text's pieces and, for
// the first of them, what the Cache holds of each (nil: nothing) or what
// Same parsed of it.
type split struct {
	pieces []docPiece
	seen   []*cachedDoc
}

// load reads l's text; pre (nil: none) is Same's split of that text.
func (c *Cache) load(l *loader, pre *split) *Scenario {
	c.same = nil
	if !l.checkSize() {
		return nil
	}
	var pieces []docPiece
	var ok bool
	if pre != nil {
		pieces, ok = pre.pieces, true
	} else {
		pieces, ok = splitDocuments(l.src, c.pieces)
	}
	if !ok {
		c.docs = nil
		if !l.checkShape() {
			return nil
		}
		return c.loadWhole(l)
	}
	// The shape check of the pieces not seen before; the whole text's when
	// one is not clean (it gives the diagnostics).
	clean := make([]bool, len(pieces))
	seen := make([]*cachedDoc, len(pieces)) // by text, looked up once
	all := true
	for i, p := range pieces {
		var cd *cachedDoc
		if pre != nil && i < len(pre.seen) {
			cd = pre.seen[i]
		} else {
			cd = c.docs[string(p.text)]
		}
		if cd != nil {
			seen[i], clean[i] = cd, cd.clean
		} else {
			clean[i] = l.pieceClean(p.text)
		}
		all = all && clean[i]
	}
	c.pieces = len(pieces)
	if !all && !l.checkShape() {
		return nil
	}
	// One arena for the trees of all the pieces parsed here (those not
	// seen and those moved).
	fresh := 0
	for i, p := range pieces {
		if seen[i] == nil || seen[i].line != p.line {
			fresh += len(p.text)
		}
	}
	ar := newTreeArena(fresh)
	next := make(map[string]*cachedDoc, len(pieces))
	docs := make([]*cachedDoc, len(pieces))
	var buildErr *Diagnostic
	var aliases aliasTotal
	// Parsing each piece, then reading each document, is one step.
	steps := 2*len(pieces) + 1
	for i, p := range pieces {
		if !l.step(i, steps) {
			return nil
		}
		cd := seen[i]
		if cd == nil || cd.line != p.line {
			// Not seen, or moved: every position in it differs, and it is
			// read again (parsing its text again is no slower than
			// moving a copy of its trees).
			key, cl := string(p.text), clean[i]
			if cd != nil {
				key, cl = cd.key, cd.clean
			}
			pd, err := parsePiece(p.text, key, p.line-1, l.lim.Aliases, ar)
			if err != nil {
				// The whole stream's parse reports the error as Load does.
				c.docs = nil
				return c.loadWhole(l)
			}
			if pd.berr != nil {
				if buildErr == nil {
					buildErr = pd.berr
				}
				continue
			}
			cd = newCachedDoc(key, p.line, cl, pd)
		}
		if buildErr == nil && !aliases.add(l, cd.parsed) {
			c.docs = nil
			return nil
		}
		docs[i] = cd
		if _, dup := next[cd.key]; !dup {
			next[cd.key] = cd
		}
	}
	c.docs = next
	if buildErr != nil {
		// As parseDocuments: the first document that cannot be built is the
		// only error, and nothing is read.
		l.add(*buildErr)
		return nil
	}
	// others are the texts of the documents not of Pods only (and not
	// empty), podDocs those of Pods only with where their objects start
	// in l.objs.
	var others []string
	type podDoc struct {
		cd     *cachedDoc
		start  int
		shared bool
	}
	podDocs := make([]podDoc, 0, len(docs))
	other := func(cd *cachedDoc) {
		if cd.roots > 0 {
			others = append(others, cd.key)
		}
	}
	c.loads++
	shared := false
	// The copies of the kept objects handed out, in one block: an
	// allocation each was some 2 ms of a 5,000-pod edit in WebAssembly.
	// (A document read below whose text comes again is handed out past
	// the block's room: append then moves on to a new block, and the
	// objects handed out so far stay where they are.)
	kept := 0
	for _, cd := range docs {
		if cd.read {
			kept += len(cd.objs)
		}
	}
	block := make([]object, 0, kept)
	for i, cd := range docs {
		if l.budget.over {
			break
		}
		if !l.step(len(pieces)+i, steps) {
			return nil
		}
		if cd.read {
			for _, d := range cd.diags {
				l.add(d)
			}
			share := cd.admitted != nil && cd.admGen == c.adm.gen && cd.handed != c.loads
			start := len(l.objs)
			for i, o := range cd.objs {
				block = append(block, *o)
				cp := &block[len(block)-1]
				switch {
				case share:
					cp.val, cp.pristine = cd.admitted[i], o.val
				case cd.spare != nil:
					cp.val = cd.spare[i]
				default:
					cp.val, _ = c.clone(o.val)
				}
				l.objs = append(l.objs, cp)
				l.countObject(cp)
			}
			if !share {
				cd.spare = nil
			}
			shared = shared || share
			cd.handed = c.loads
			if cd.podsOnly() {
				podDocs = append(podDocs, podDoc{cd, start, share})
			} else {
				other(cd)
			}
			continue
		}
		objs, diags, timeline, created, lesson := len(l.objs), len(l.diags), len(l.timeline), len(l.created), l.lesson
		var at []treeAt // where each object's tree is
		for ti, t := range cd.parsed.trees {
			n := len(l.objs)
			l.readDocument(t)
			for _, o := range l.objs[n:] {
				at = append(at, treeAt{cd, int32(ti), int32(itemOf(t, o.raw))})
			}
		}
		if len(l.timeline) != timeline || len(l.created) != created || l.lesson != lesson {
			other(cd)
			continue
		}
		cd.read = true
		cd.diags = append([]Diagnostic(nil), l.diags[diags:]...)
		for i, o := range l.objs[objs:] {
			o.checked = &checked{}
			val, ok := c.clone(o.val)
			if !ok {
				cd.read, cd.objs, cd.diags = false, nil, nil
				break
			}
			cp := *o
			cp.val = val
			cp.raw, cp.at = nil, at[i]
			if o.kind == "Pod" || o.kind == "Node" {
				// The positions of their fields, a map each, were a
				// seventh of what a large scenario's Cache held; an
				// error that needs one decodes the object again.
				cp.paths = nil
			}
			cd.objs = append(cd.objs, &cp)
		}
		if cd.read {
			cd.parsed.trees = nil // the objects are what a next load reads
		}
		if cd.read && cd.podsOnly() {
			podDocs = append(podDocs, podDoc{cd, objs, false})
		} else {
			other(cd)
		}
	}
	if shared && (!slices.Equal(others, c.adm.others) || l.latest() != c.adm.t0) {
		c.unshare(l)
	}
	if l.hasErrors() || !l.step(steps-1, steps) {
		return nil
	}
	s := l.assemble()
	if s != nil {
		// The pods of Pods-only documents, as admitted, for the next load.
		c.adm.gen++
		c.adm.t0, c.adm.others = s.T0, others
		for _, d := range podDocs {
			if !d.shared || l.objs[d.start].pristine == nil { // not shared after all
				d.cd.admitted = make([]any, len(d.cd.objs))
				for i := range d.cd.admitted {
					d.cd.admitted[i] = l.objs[d.start+i].val
				}
			}
			d.cd.admGen = c.adm.gen
		}
		c.remember(l.file, docs, s)
	}
	return s
}

// unshare gives the load copies of the pristine objects in place of the
// admitted pods it shares: what their admission read has changed.
func (c *Cache) unshare(l *loader) {
	for _, o := range l.objs {
		if o.pristine != nil {
			o.val, _ = c.clone(o.pristine) // cloned once already: cannot fail
			o.pristine = nil
		}
	}
}

// loadWhole is the load of a text that is not read document by document;
// what it gives is not compared with the next load.
func (c *Cache) loadWhole(l *loader) *Scenario {
	s := l.loadChecked()
	if s != nil {
		c.last.sc, c.last.trees = nil, nil
	}
	return s
}

// remember records a load that gave scenario s from docs, and whether the
// objects it read are those of the last such load (Unchanged).
func (c *Cache) remember(file string, docs []*cachedDoc, s *Scenario) {
	n := 0
	for _, cd := range docs {
		n += cd.roots
	}
	same := c.last.sc != nil && c.last.file == file && len(c.last.trees) == n
	// Each of the last trees is compared before the one that replaces it
	// is written over it: one slice for every load (an edit's load
	// allocates little else).
	trees := c.last.trees[:0]
	if cap(trees) < n {
		trees = make([]rootAt, 0, n)
	}
	for _, cd := range docs {
		for j := range cd.roots {
			same = same && c.last.trees[len(trees)].same(cd, j, false)
			trees = append(trees, rootAt{cd.key, int32(cd.line), int32(j)})
		}
	}
	clear(trees[len(trees):cap(trees)]) // a longer text's keys past the end
	if same {
		// The earlier scenario stays the one the next load is compared
		// with: the caller keeps it (Reposition).
		c.same = c.last.sc
		s = c.same
	}
	c.last.file, c.last.trees, c.last.sc = file, trees, s
}

// Same is, for a text that reads exactly as the last load that gave a
// scenario read its text (the same documents at the same lines and
// columns: only comments or blank space changed, moving no value), that
// scenario, without loading: a load of the text would give it again, or
// one equal to it, positions too. When that load was Unchanged it is the
// scenario Unchanged named, which the caller moved to that load's
// positions (Reposition). Nil when a load must tell. Same keeps the
// documents it parsed for the next load, and Unchanged then says the same.
func (c *Cache) Same(filename string, data []byte) *Scenario {
	s, _ := c.sameSplit(filename, data)
	return s
}

// sameSplit is Same, and when it is nil, the pieces of data and what the
// Cache holds of those it looked at (nil: it did not split data), for the
// load that follows (LoadOver). Nothing in the Cache changes in between.
func (c *Cache) sameSplit(filename string, data []byte) (*Scenario, *split) {
	if c.last.sc == nil || c.last.file != filename {
		return nil, nil
	}
	l := &loader{file: filename, src: data, lim: DefaultLimits}
	if !l.checkSize() {
		return nil, nil
	}
	pieces, ok := splitDocuments(data, c.pieces)
	if !ok {
		return nil, nil
	}
	pre := &split{pieces: pieces, seen: make([]*cachedDoc, 0, len(pieces))}
	var parsed []*cachedDoc // pieces not seen before
	k := 0                  // trees compared so far
	for _, p := range pieces {
		cd := c.docs[string(p.text)]
		pre.seen = append(pre.seen, cd)
		switch {
		case cd != nil && (cd.line != p.line || !cd.clean):
			// Moved, its positions differ; or only the whole text's shape
			// check can pass it.
			return nil, pre
		case cd == nil:
			if !l.pieceClean(p.text) {
				return nil, pre
			}
			key := string(p.text)
			pd, err := parsePiece(p.text, key, p.line-1, l.lim.Aliases, nil)
			if err != nil || pd.berr != nil || pd.aliased > 0 {
				return nil, pre
			}
			// What the load makes of the piece (clean, parsed at its line).
			cd = newCachedDoc(key, p.line, true, pd)
			pre.seen[len(pre.seen)-1] = cd
			parsed = append(parsed, cd)
		}
		for j := range cd.roots {
			if k == len(c.last.trees) || !c.last.trees[k].same(cd, j, true) {
				return nil, pre
			}
			k++
		}
	}
	if k != len(c.last.trees) {
		return nil, pre
	}
	// The next load finds the pieces parsed here (the pieces they replace
	// stay until that load).
	for _, cd := range parsed {
		if c.docs == nil {
			c.docs = map[string]*cachedDoc{}
		}
		c.docs[cd.key] = cd
	}
	c.same = c.last.sc
	return c.same, nil
}

// sameTreeAt reports whether a and b are the same YAML values at the same
// positions.
func sameTreeAt(a, b *ynode) bool {
	if a == b {
		return true
	}
	if a.kind != b.kind || a.pos != b.pos || a.text != b.text || a.isStr != b.isStr || a.size != b.size ||
		!slices.Equal(a.keys, b.keys) || !slices.Equal(a.kpos, b.kpos) || len(a.vals) != len(b.vals) || len(a.items) != len(b.items) {
		return false
	}
	for i := range a.vals {
		if !sameTreeAt(a.vals[i], b.vals[i]) {
			return false
		}
	}
	for i := range a.items {
		if !sameTreeAt(a.items[i], b.items[i]) {
			return false
		}
	}
	return true
}

// Unchanged is the scenario of the load before the last one when the last
// one read the same documents from its text but for where they are: only
// comments, blank lines, "---" lines around no object or the layout of
// values (flow or block style, quoting) changed. The two scenarios are
// then equal but for positions (Reposition); nil otherwise. Over a series
// of such loads it stays the first one's scenario, which a caller keeps.
func (c *Cache) Unchanged() *Scenario { return c.same }

// sameTree reports whether a and b are the same YAML values but for
// positions: what the loader reads from them is the same.
func sameTree(a, b *ynode) bool {
	if a == b {
		return true
	}
	if a.kind != b.kind || a.text != b.text || a.isStr != b.isStr || a.size != b.size ||
		len(a.keys) != len(b.keys) || len(a.vals) != len(b.vals) || len(a.items) != len(b.items) {
		return false
	}
	for i := range a.keys {
		if a.keys[i] != b.keys[i] || !sameTree(a.vals[i], b.vals[i]) {
			return false
		}
	}
	for i := range a.items {
		if !sameTree(a.items[i], b.items[i]) {
			return false
		}
	}
	return true
}

// checked is what validate reported for one kept object.
type checked struct {
	done  bool
	diags []Diagnostic
}

// check validates the object, or, for an object whose document the Cache
// kept and which was validated before, reports again what validating it
// reported then: validate reads the object alone (its value, positions and
// label, all unchanged with the document's text and line) and changes
// nothing but the namespace, which is defaulted here again.
func (v *validator) check() {
	c := v.o.checked
	if c != nil && c.done {
		defaultNamespace(v.o.kind, objectMeta(v.o.val))
		for _, d := range c.diags {
			v.l.add(d)
		}
		return
	}
	n := len(v.l.diags)
	v.validate()
	if c != nil {
		c.diags = append([]Diagnostic(nil), v.l.diags[n:]...)
		c.done = true
	}
}

// Prepare copies the kept objects ahead of the next load, which then only
// hands them out: the copying (a good part of an edit's load) happens when
// the caller has time, such as after the edit's frame is on screen.
func (c *Cache) Prepare() { c.PrepareYielding(nil) }

// PrepareYielding is Prepare in parts: before each document's copies after
// the first it asks more (nil: always yes), and stops when more says no.
// It reports whether every kept object has its copies; a later call goes
// on where this one stopped.
func (c *Cache) PrepareYielding(more func() bool) bool {
	copied := false
	for _, cd := range c.docs {
		if !cd.read || cd.spare != nil || cd.admitted != nil && cd.admGen == c.adm.gen {
			continue // the next load shares its admitted pods
		}
		if copied && more != nil && !more() {
			return false
		}
		spare := make([]any, len(cd.objs))
		for i, o := range cd.objs {
			spare[i], _ = c.clone(o.val) // cloned once already: cannot fail
		}
		cd.spare = spare
		copied = true
	}
	return true
}

// splitDocuments cuts src into its documents at the lines that start one:
// "---" alone (the piece starts after it) or "---" followed by a space or
// tab and more ("--- # note", "--- {a: 1}": the piece starts with that line).
// It reports false when src has anything else that could start or end a
// document or change how it is parsed ("---x", "...", a % directive), for
// which only the whole stream's parse is right. Empty and comment-only
// pieces are kept: they hold no object, and parsing them on their own is
// what keeps the documents after them (goccy/go-yaml#765, #870: parsing the
// whole stream drops every document after an empty one). hint is about how
// many pieces there are (an edit's text has about as many as the text
// before it), for room up front.
func splitDocuments(src []byte, hint int) ([]docPiece, bool) {
	// No count of the "---" lines ahead: bytes.Count stops at every line
	// (a call each in WebAssembly, ~5 ms for 5,000 documents).
	out := make([]docPiece, 0, min(hint, len(src)/4)+1) // a piece is 4 bytes or more
	start, startLine := 0, 1
	line := 1
	for pos := 0; pos < len(src); line++ {
		end := bytes.IndexByte(src[pos:], '\n')
		next := len(src)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(src)
		}
		if c := src[pos]; c != '-' && c != '.' && c != '%' {
			// Only a line that starts with one of those can start or end a
			// document (most lines do not: no trimming, no comparing).
			pos = next
			continue
		}
		text := bytes.TrimRight(src[pos:end], " \t\r")
		switch {
		case string(text) == "---":
			out = append(out, docPiece{text: src[start:pos], line: startLine})
			start, startLine = next, line+1
		case bytes.HasPrefix(text, []byte("--- ")), bytes.HasPrefix(text, []byte("---\t")):
			out = append(out, docPiece{text: src[start:pos], line: startLine})
			start, startLine = pos, line
		case bytes.HasPrefix(text, []byte("---")), bytes.HasPrefix(text, []byte("...")), bytes.HasPrefix(text, []byte("%")):
			return nil, false
		}
		pos = next
	}
	out = append(out, docPiece{text: src[start:], line: startLine})
	return out, true
}

// parsedDoc is one piece of the file, parsed and built.
type parsedDoc struct {
	trees []*ynode
	// berr is a document that cannot be built (as parseDocuments reports it).
	berr *Diagnostic
	// aliased is how many nodes its aliases add, from firstAlias on.
	aliased    int
	firstAlias Pos
}

// parsePiece parses one document's text whose first line is offset+1 of
// the file, its aliases adding at most aliasLimit nodes; err is a YAML
// syntax error. str is the text as a string ("": none yet), which the
// trees' scalars may share; the fast path's nodes come from ar (nil: its
// own).
func parsePiece(text []byte, str string, offset, aliasLimit int, ar *treeArena) (parsedDoc, error) {
	if trees, ok := fastParse(text, str, offset, ar); ok {
		return parsedDoc{trees: trees}, nil
	}
	return parsePieceGoccy(text, offset, aliasLimit)
}

// parsePieceGoccy is parsePiece with goccy/go-yaml for any YAML.
func parsePieceGoccy(text []byte, offset, aliasLimit int) (parsedDoc, error) {
	var pd parsedDoc
	f, err := parser.ParseBytes(text, 0)
	if err != nil {
		return pd, err
	}
	for _, d := range f.Docs {
		if d == nil || d.Body == nil {
			continue
		}
		b := &treeBuilder{anchors: map[string]*ynode{}, lineOffset: offset, limit: aliasLimit - pd.aliased, src: text}
		n := b.build(d.Body)
		if b.err != nil {
			pd.berr = b.err
			return pd, nil
		}
		if pd.aliased == 0 {
			pd.firstAlias = b.firstAlias
		}
		pd.aliased += b.aliased
		pd.trees = append(pd.trees, n)
	}
	return pd, nil
}

// clone deep-copies a decoded value (a pointer to an object). It reports
// false for a value it cannot copy (unexported references, functions,
// channels), which is then not cached.
func (c *Cache) clone(v any) (any, bool) {
	src := reflect.ValueOf(v)
	dst := reflect.New(src.Type()).Elem()
	if !c.copyValue(dst, src) {
		return nil, false
	}
	return dst.Interface(), true
}

var timeValueType = reflect.TypeFor[time.Time]()

// copyValue sets dst (settable, of src's type) to a deep copy of src.
func (c *Cache) copyValue(dst, src reflect.Value) bool {
	t := src.Type()
	info := c.info(t)
	if info.plain {
		dst.Set(src)
		return true
	}
	switch t.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return true
		}
		p := reflect.New(t.Elem())
		if !c.copyValue(p.Elem(), src.Elem()) {
			return false
		}
		dst.Set(p)
	case reflect.Struct:
		if !info.copyable {
			return false
		}
		// The plain fields in one go, then the references one by one.
		dst.Set(src)
		for _, i := range info.refs {
			if !c.copyValue(dst.Field(i), src.Field(i)) {
				return false
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return true
		}
		s := reflect.MakeSlice(t, src.Len(), src.Len())
		if c.info(t.Elem()).plain {
			reflect.Copy(s, src)
		} else {
			for i := 0; i < src.Len(); i++ {
				if !c.copyValue(s.Index(i), src.Index(i)) {
					return false
				}
			}
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			if !c.copyValue(dst.Index(i), src.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		if src.IsNil() {
			return true
		}
		if !c.info(t.Key()).plain {
			return false
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		if c.info(t.Elem()).plain {
			for it := src.MapRange(); it.Next(); {
				m.SetMapIndex(it.Key(), it.Value())
			}
		} else {
			ev := reflect.New(t.Elem()).Elem()
			for it := src.MapRange(); it.Next(); {
				ev.SetZero()
				if !c.copyValue(ev, it.Value()) {
					return false
				}
				m.SetMapIndex(it.Key(), ev)
			}
		}
		dst.Set(m)
	case reflect.Interface:
		if src.IsNil() {
			return true
		}
		e := reflect.New(src.Elem().Type()).Elem()
		if !c.copyValue(e, src.Elem()) {
			return false
		}
		dst.Set(e)
	default:
		return false
	}
	return true
}

// typeInfo is what copyValue needs to know about a type.
type typeInfo struct {
	// plain: values hold no references (a copy of the value is a deep
	// copy). A time is plain: its location is shared and never changed.
	plain bool
	// For a struct: copyable unless a field holding references is
	// unexported; refs are the fields holding references.
	copyable bool
	refs     []int
}

func (c *Cache) info(t reflect.Type) *typeInfo {
	if info, ok := c.types[t]; ok {
		return info
	}
	info := &typeInfo{}
	if c.types == nil {
		c.types = map[reflect.Type]*typeInfo{}
	}
	c.types[t] = info // a recursive type is not plain while it is worked out
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		info.plain = true
	case reflect.Array:
		info.plain = c.info(t.Elem()).plain
	case reflect.Struct:
		if t == timeValueType {
			info.plain = true
			break
		}
		info.copyable = true
		for i := 0; i < t.NumField(); i++ {
			if c.info(t.Field(i).Type).plain {
				continue
			}
			info.refs = append(info.refs, i)
			if !t.Field(i).IsExported() {
				info.copyable = false
			}
		}
		info.plain = len(info.refs) == 0
	}
	return info
}

// itemOf is the index of raw among the items of doc, a List, or -1 when
// raw is doc.
func itemOf(doc, raw *ynode) int {
	if raw == doc {
		return -1
	}
	return slices.Index(doc.get("items").items, raw)
}
