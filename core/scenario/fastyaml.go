package scenario

import (
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"
)

// fastParse builds the ynode trees of one document's text (its first line
// offset+1 of the file) straight from the bytes, for the subset of YAML that
// Kubernetes manifests are written in: block mappings and sequences, one-line
// plain and quoted scalars, one-line flow collections and comments. It
// reports false for anything else (anchors, tags, block or multi-line
// scalars, complex keys, duplicate keys, tabs, odd spacing, any error), which
// goccy/go-yaml then parses. What it accepts gives exactly the trees
// parsing with goccy and building with treeBuilder gives (fastyaml_test.go
// checks that on every example and under fuzzing); goccy's scanner and
// parser are about half of loading a large paste. str is the text as a
// string ("": made here), which the scalars' text slices; the nodes come
// from ar (nil: a new arena for this text alone).
func fastParse(text []byte, str string, offset int, ar *treeArena) ([]*ynode, bool) {
	if !fastPlainText(text) {
		return nil, false
	}
	if str == "" {
		str = string(text)
	}
	p := &fastParser{src: text, str: str, offset: offset, ar: ar}
	if ar == nil {
		p.own = treeArena{est: arenaSize(len(text))}
		p.ar = &p.own
	}
	p.keys, p.kpos, p.vals = p.keysBuf[:0], p.kposBuf[:0], p.valsBuf[:0]
	p.advance()
	if p.bad {
		return nil, false
	}
	if p.eof {
		return nil, true // empty or only comments: goccy gives no document
	}
	var root *ynode
	if i := p.ln.start + p.ln.indent; p.isKey(i) {
		root = p.blockMap(i)
	}
	if root == nil || p.bad || !p.eof {
		return nil, false
	}
	return []*ynode{root}, true
}

// fastMaxDepth bounds the nesting the fast path follows (recursion depth);
// deeper input goes to goccy, whose own limits (checkShape) apply.
const fastMaxDepth = 64

// fastPlainText reports text without the characters the fast path leaves
// to goccy: tabs, carriage returns, other control characters, invalid
// UTF-8, a byte order mark and Unicode line or paragraph separators.
func fastPlainText(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError || r == 0xfeff || r == 0x85 || r == 0x2028 || r == 0x2029 || r < 0xa0 {
			return false
		}
		i += n
	}
	return true
}

// fastLine is the line the parser is at: its bytes src[start:end], its
// indentation and number (1-based within the text).
type fastLine struct {
	start, end, indent, num int
	ascii                   bool
}

type fastParser struct {
	src    []byte
	str    string // src as a string, which scalars' text slices
	offset int
	next   int // where the line after ln starts
	ln     fastLine
	eof    bool
	bad    bool
	depth  int
	line   int // number of the line that starts at next
	// The entries of the collections being read, innermost last: each
	// collection moves its own into exact slices of the arenas when it
	// ends. Nodes and arenas come in chunks, so a document takes a few
	// allocations rather than several per node.
	keys    []string
	kpos    []Pos
	vals    []*ynode
	ar      *treeArena
	own     treeArena // ar when the caller gives none
	keysBuf [32]string
	kposBuf [32]Pos
	valsBuf [32]*ynode
}

// treeArena is where the fast path's nodes and their entries come from, in
// chunks: one arena for all the documents a load parses wastes at most a
// chunk's tail, where an arena sized for each document's text (about one
// node per 12 bytes) left a third of the nodes unused, memory the Cache
// kept and every collection scanned. A chunk stays while any of its
// documents is kept.
type treeArena struct {
	slab    []ynode
	ksArena []string
	kpArena []Pos
	nArena  []*ynode
	est     int // how many nodes (entries) a chunk holds
}

// newTreeArena is an arena for parsing n bytes of manifests: about one node
// per 12 bytes, in chunks of at most arenaChunk.
func newTreeArena(n int) *treeArena {
	return &treeArena{est: arenaSize(n)}
}

func arenaSize(n int) int {
	return min(n/12+8, arenaChunk)
}

// arenaChunk bounds a chunk (nodes): some 150 KB of ynodes.
const arenaChunk = 1024

// carve moves src into the next len(src) elements of arena (a new chunk of
// at least est when it runs out), capped so that appending copies.
func carve[T any](arena *[]T, src []T, est int) []T {
	if len(src) == 0 {
		return nil
	}
	if len(*arena) < len(src) {
		*arena = make([]T, max(len(src), est))
	}
	out := (*arena)[:len(src):len(src)]
	copy(out, src)
	*arena = (*arena)[len(src):]
	return out
}

// advance moves to the next line holding more than spaces or a comment.
func (p *fastParser) advance() {
	for {
		if p.next >= len(p.src) {
			p.eof = true
			return
		}
		start := p.next
		end := start
		ascii := true
		for end < len(p.src) && p.src[end] != '\n' {
			if p.src[end] >= utf8.RuneSelf {
				ascii = false
			}
			end++
		}
		p.next = end + 1
		p.line++
		indent := 0
		for start+indent < end && p.src[start+indent] == ' ' {
			indent++
		}
		if start+indent == end || p.src[start+indent] == '#' {
			continue
		}
		p.ln = fastLine{start: start, end: end, indent: indent, num: p.line, ascii: ascii}
		if indent == 0 && end-start >= 3 {
			if s := p.str[start : start+3]; s == "---" || s == "..." {
				p.decline() // document markers: goccy's
			}
		}
		if p.src[start+indent] == '%' {
			p.decline()
		}
		return
	}
}

// decline leaves the text to goccy.
func (p *fastParser) decline() {
	p.bad = true
}

func (p *fastParser) pos(i int) Pos {
	col := i - p.ln.start + 1
	if !p.ln.ascii {
		col = utf8.RuneCount(p.src[p.ln.start:i]) + 1
	}
	return Pos{p.ln.num + p.offset, col}
}

func (p *fastParser) node() *ynode {
	ar := p.ar
	if len(ar.slab) == 0 {
		ar.slab = make([]ynode, ar.est)
	}
	n := &ar.slab[0]
	ar.slab = ar.slab[1:]
	return n
}

func (p *fastParser) enter() bool {
	p.depth++
	if p.depth > fastMaxDepth {
		p.decline()
	}
	return !p.bad
}

// isKey reports a mapping key at i on the current line: a plain or quoted
// scalar followed by ':' and a space or the line's end.
func (p *fastParser) isKey(i int) bool {
	_, _, ok := p.scanKey(i)
	return ok
}

// scanKey reads the key at i: its text and the index of its ':'.
func (p *fastParser) scanKey(i int) (text string, colon int, ok bool) {
	end := p.ln.end
	if i >= end {
		return "", 0, false
	}
	switch c := p.src[i]; {
	case c == '"' || c == '\'':
		s, j, qok := p.quoted(i, end)
		if !qok || j >= end || p.src[j] != ':' || j+1 < end && p.src[j+1] != ' ' {
			return "", 0, false
		}
		return s, j, true
	case !keyStart(c):
		return "", 0, false
	}
	j := i + 1
	for j < end && keyByte(p.src[j]) {
		j++
	}
	if j >= end || p.src[j] != ':' || j+1 < end && p.src[j+1] != ' ' {
		return "", 0, false
	}
	s := p.str[i:j]
	if s == "null" || s == "Null" || s == "NULL" {
		return "", 0, false // a null key is an error treeBuilder reports
	}
	return s, j, true
}

func keyStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '/'
}

func keyByte(c byte) bool {
	return keyStart(c) || c == '-'
}

// blockMap reads the block mapping whose first key is at i on the current
// line; its other keys are on later lines at the same column.
func (p *fastParser) blockMap(i int) *ynode {
	if !p.enter() {
		return nil
	}
	defer func() { p.depth-- }()
	col := i - p.ln.start // the keys' indentation
	out := p.node()
	out.kind = yMap
	kbase, vbase := len(p.keys), len(p.vals)
	var seen map[string]struct{}
	for {
		key, colon, ok := p.scanKey(i)
		if !ok {
			p.decline()
			return nil
		}
		kpos := p.pos(i)
		if duplicate(p.keys[kbase:], &seen, key) {
			p.decline() // goccy reports duplicates
			return nil
		}
		val := p.mapValue(colon+1, col)
		if p.bad {
			return nil
		}
		if val == nil {
			// An empty value is reported at its key (treeBuilder.addEntry).
			val = p.node()
			*val = ynode{kind: yNull, pos: kpos}
		}
		p.keys = append(p.keys, key)
		p.kpos = append(p.kpos, kpos)
		p.vals = append(p.vals, val)
		out.size = min(maxSize, out.size+val.size)
		if p.eof || p.ln.indent < col {
			break
		}
		if p.ln.indent > col {
			p.decline()
			return nil
		}
		i = p.ln.start + col
	}
	p.endMap(out, kbase, vbase)
	out.pos = out.kpos[0]
	out.size++
	return out
}

// endMap moves the keys from kbase on and the values from vbase on into
// m (sequences stack only values).
func (p *fastParser) endMap(m *ynode, kbase, vbase int) {
	ar := p.ar
	m.keys = carve(&ar.ksArena, p.keys[kbase:], ar.est)
	m.kpos = carve(&ar.kpArena, p.kpos[kbase:], ar.est)
	m.vals = carve(&ar.nArena, p.vals[vbase:], ar.est)
	p.keys, p.kpos, p.vals = p.keys[:kbase], p.kpos[:kbase], p.vals[:vbase]
}

// endSeq moves the items from base on into s.
func (p *fastParser) endSeq(s *ynode, base int) {
	s.items = carve(&p.ar.nArena, p.vals[base:], p.ar.est)
	p.vals = p.vals[:base]
}

// duplicate reports key among keys, looked up in seen once they are many
// (the Width limit allows 10,000 keys).
func duplicate(keys []string, seen *map[string]struct{}, key string) bool {
	if len(keys) < 16 {
		for _, k := range keys {
			if k == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]struct{}, 2*len(keys))
		for _, k := range keys {
			(*seen)[k] = struct{}{}
		}
	}
	if _, dup := (*seen)[key]; dup {
		return true
	}
	(*seen)[key] = struct{}{}
	return false
}

// mapValue reads the value after a key's ':' at i-1 on the current line,
// the key at column col, and moves past it; nil is an empty value.
func (p *fastParser) mapValue(i, col int) *ynode {
	end := p.ln.end
	for i < end && p.src[i] == ' ' {
		i++
	}
	if i < end && p.src[i] != '#' {
		v := p.inline(i)
		if v != nil && v.kind == yNull {
			v = nil // a null scalar is an empty value
		}
		p.advance()
		if !p.eof && p.ln.indent > col {
			p.decline() // a continuation line
		}
		return v
	}
	p.advance()
	if p.eof || p.bad {
		return nil
	}
	j := p.ln.start + p.ln.indent
	switch {
	case p.ln.indent > col && p.isKey(j):
		return p.blockMap(j)
	case p.ln.indent >= col && p.isEntry(j):
		return p.blockSeq(j)
	case p.ln.indent > col:
		p.decline() // a scalar on its own line
	}
	return nil
}

// isEntry reports a sequence entry ("- " or a lone "-") at i.
func (p *fastParser) isEntry(i int) bool {
	return p.src[i] == '-' && (i+1 == p.ln.end || p.src[i+1] == ' ')
}

// blockSeq reads the block sequence whose first "-" is at i, the start of
// the current line's text; its other entries are on later lines at the
// same column.
func (p *fastParser) blockSeq(i int) *ynode {
	if !p.enter() {
		return nil
	}
	defer func() { p.depth-- }()
	col := p.ln.indent
	out := p.node()
	*out = ynode{kind: ySeq, pos: p.pos(i)}
	base := len(p.vals)
	for {
		j := i + 1
		for j < p.ln.end && p.src[j] == ' ' {
			j++
		}
		var item *ynode
		switch {
		case j == p.ln.end || p.src[j] == '#':
			p.decline() // the item is on the next lines, or empty
		case p.isEntry(j):
			p.decline() // "- - x"
		case p.isKey(j):
			item = p.blockMap(j)
		default:
			item = p.inline(j)
			p.advance()
			if !p.eof && p.ln.indent > col {
				p.decline()
			}
		}
		if p.bad {
			return nil
		}
		if item.size == 0 {
			item.size = 1 // a null item counts (treeBuilder.build)
		}
		p.vals = append(p.vals, item)
		out.size = min(maxSize, out.size+item.size)
		if p.eof || p.ln.indent != col || !p.isEntry(p.ln.start+col) {
			break
		}
		i = p.ln.start + col
	}
	p.endSeq(out, base)
	out.size++
	return out
}

// inline reads the value at i that fills the rest of the current line
// (but for a comment): a scalar or a flow collection.
func (p *fastParser) inline(i int) *ynode {
	end := p.ln.end
	var n *ynode
	var j int
	switch c := p.src[i]; c {
	case '[', '{':
		n, j = p.flow(i, 0)
	case '"', '\'':
		s, e, ok := p.quoted(i, end)
		if !ok {
			p.decline()
			return nil
		}
		n, j = p.node(), e
		*n = ynode{kind: yScalar, pos: p.pos(i), text: s, isStr: true, size: 1}
	default:
		if !plainStart(p.src, i, end) {
			p.decline()
			return nil
		}
		j = i
		last := i // end of the text without trailing spaces
		for j < end {
			c := p.src[j]
			if c == ':' && (j+1 == end || p.src[j+1] == ' ') || c == '#' && p.src[j-1] == ' ' {
				break
			}
			j++
			if c != ' ' {
				last = j
			}
		}
		if j < end && p.src[j] == ':' {
			p.decline() // "a: b: c"
			return nil
		}
		return p.plain(i, last) // j is the line's end or a comment's '#'
	}
	if p.bad {
		return nil
	}
	return p.lineEnd(n, j)
}

// lineEnd checks that only spaces and a comment follow j on the line.
func (p *fastParser) lineEnd(n *ynode, j int) *ynode {
	k := j
	for k < p.ln.end && p.src[k] == ' ' {
		k++
	}
	if k < p.ln.end && (p.src[k] != '#' || k == j) {
		p.decline()
		return nil
	}
	return n
}

// plainStart reports a plain scalar starting at i: not an indicator.
func plainStart(src []byte, i, end int) bool {
	switch src[i] {
	case '-', '?', ':':
		return i+1 < end && src[i+1] != ' ' && src[i] == '-'
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// plain makes the scalar src[i:j], typed as goccy types it.
func (p *fastParser) plain(i, j int) *ynode {
	s := p.str[i:j]
	n := p.node()
	*n = ynode{kind: yScalar, pos: p.pos(i), text: s, size: 1}
	switch scalarType(s) {
	case token.NullType:
		*n = ynode{kind: yNull, pos: n.pos, size: 1}
	case token.StringType:
		n.isStr = true
	}
	return n
}

// scalarType is how goccy's scanner types the plain scalar s (token.New).
func scalarType(s string) token.Type {
	if c := s[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		// Only keywords start with a letter: a number never does, nor
		// does strconv.ParseFloat's inf or nan hold the '.' that would
		// make token.ToNumber try it.
		switch s {
		case "null", "Null", "NULL":
			return token.NullType
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return token.BoolType
		}
		return token.StringType
	}
	return token.New(s, s, nil).Type
}

// quoted reads the quoted scalar at i, which must close before end: its
// value and the index after the closing quote.
func (p *fastParser) quoted(i, end int) (string, int, bool) {
	q := p.src[i]
	j := i + 1
	for j < end && p.src[j] != q && p.src[j] != '\\' {
		j++
	}
	if j < end && p.src[j] == q && (q == '"' || j+1 == end || p.src[j+1] != '\'') {
		// No escapes: the value is a slice of the text.
		return p.str[i+1 : j], j + 1, true
	}
	buf := make([]byte, 0, j-i+16)
	buf = append(buf, p.src[i+1:j]...)
	for j < end {
		c := p.src[j]
		switch {
		case q == '\'' && c == '\'':
			if j+1 < end && p.src[j+1] == '\'' {
				buf = append(buf, '\'')
				j += 2
				continue
			}
			return string(buf), j + 1, true
		case q == '"' && c == '"':
			return string(buf), j + 1, true
		case q == '"' && c == '\\':
			if j+1 >= end {
				return "", 0, false
			}
			r, ok := simpleEscape(p.src[j+1])
			if !ok {
				return "", 0, false
			}
			buf = utf8.AppendRune(buf, r)
			j += 2
			continue
		}
		buf = append(buf, c)
		j++
	}
	return "", 0, false // not closed on this line
}

// simpleEscape is what goccy's scanner makes of "\c" for the one-character
// escapes; the others (\x, \u, \U, \N, \_, \L, \P) are left to goccy.
func simpleEscape(c byte) (rune, bool) {
	switch c {
	case '0':
		return 0, true
	case 'a':
		return 7, true
	case 'b':
		return 8, true
	case 't':
		return 9, true
	case 'n':
		return 10, true
	case 'v':
		return 11, true
	case 'f':
		return 12, true
	case 'r':
		return 13, true
	case 'e':
		return 0x1b, true
	case ' ', '"', '/', '\\':
		return rune(c), true
	}
	return 0, false
}

// flow reads the flow collection at i ('[' or '{'), which must close on
// the current line: the node and the index after its closing bracket.
func (p *fastParser) flow(i, depth int) (*ynode, int) {
	if depth > fastMaxDepth {
		p.decline()
		return nil, 0
	}
	end := p.ln.end
	open := p.src[i]
	n := p.node()
	n.pos = p.pos(i)
	n.kind = ySeq
	if open == '{' {
		n.kind = yMap
	}
	var seen map[string]struct{}
	kbase, vbase := len(p.keys), len(p.vals)
	j := i + 1
	if j < end && (open == '[' && p.src[j] == ']' || open == '{' && p.src[j] == '}') {
		n.size = 1
		return n, j + 1
	}
	for {
		for j < end && p.src[j] == ' ' {
			j++
		}
		if j >= end {
			p.decline()
			return nil, 0
		}
		if open == '{' {
			key, kend, ok := p.flowKey(j)
			if !ok {
				p.decline()
				return nil, 0
			}
			if duplicate(p.keys[kbase:], &seen, key) {
				p.decline()
				return nil, 0
			}
			p.keys = append(p.keys, key)
			p.kpos = append(p.kpos, p.pos(j))
			j = kend + 2 // past ": "
			for j < end && p.src[j] == ' ' {
				j++
			}
			if j >= end {
				p.decline()
				return nil, 0
			}
		}
		var v *ynode
		v, j = p.flowValue(j, depth, open == '[')
		if p.bad {
			return nil, 0
		}
		if open == '{' {
			if v.kind == yNull {
				v = p.node()
				*v = ynode{kind: yNull, pos: p.kpos[len(p.kpos)-1]}
			}
		}
		p.vals = append(p.vals, v)
		n.size = min(maxSize, n.size+v.size)
		for j < end && p.src[j] == ' ' {
			j++
		}
		if j >= end {
			p.decline()
			return nil, 0
		}
		switch c := p.src[j]; {
		case c == ',':
			j++
			continue
		case open == '[' && c == ']' || open == '{' && c == '}':
			if open == '{' {
				p.endMap(n, kbase, vbase)
			} else {
				p.endSeq(n, vbase)
			}
			n.size++
			return n, j + 1
		}
		p.decline()
		return nil, 0
	}
}

// flowKey reads a flow mapping's key at j, which ": " must follow: its
// text and the index of the ':'.
func (p *fastParser) flowKey(j int) (string, int, bool) {
	end := p.ln.end
	if c := p.src[j]; c == '"' || c == '\'' {
		s, k, ok := p.quoted(j, end)
		if !ok || k+1 >= end || p.src[k] != ':' || p.src[k+1] != ' ' {
			return "", 0, false
		}
		return s, k, true
	}
	if !keyStart(p.src[j]) {
		return "", 0, false
	}
	k := j + 1
	for k < end && keyByte(p.src[k]) {
		k++
	}
	if k+1 >= end || p.src[k] != ':' || p.src[k+1] != ' ' {
		return "", 0, false
	}
	s := p.str[j:k]
	if s == "null" || s == "Null" || s == "NULL" {
		return "", 0, false
	}
	return s, k, true
}

// flowValue reads a value inside a flow collection at j: a nested
// collection, a quoted scalar or a plain scalar ended by ',', ']' or '}'.
// In a sequence, goccy reads "k:v" as a mapping of one pair.
func (p *fastParser) flowValue(j, depth int, inSeq bool) (*ynode, int) {
	end := p.ln.end
	switch c := p.src[j]; c {
	case '[', '{':
		return p.flow(j, depth+1)
	case '"', '\'':
		s, k, ok := p.quoted(j, end)
		if !ok {
			p.decline()
			return nil, 0
		}
		n := p.node()
		*n = ynode{kind: yScalar, pos: p.pos(j), text: s, isStr: true, size: 1}
		return n, k
	}
	if !plainStart(p.src, j, end) {
		p.decline()
		return nil, 0
	}
	k, last := j, j
	for k < end {
		c := p.src[k]
		if c == ',' || c == ']' || c == '}' {
			break
		}
		if c == '[' || c == '{' || c == '#' || c == ':' && (inSeq || k+1 == end || !keyByte(p.src[k+1])) {
			p.decline()
			return nil, 0
		}
		k++
		if c != ' ' {
			last = k
		}
	}
	return p.plain(j, last), k
}
