package scenario

import "fmt"

// checkShape measures how deeply the input nests and how wide its mappings
// are with one pass over the bytes, before the YAML parser sees them:
// goccy/go-yaml's parser takes time and memory in the square of both (a
// 470-character link of 100,000 "[" runs it out of memory). The pass reads
// YAML's structure coarsely: block nesting from the columns of "- " entries
// and "key:" lines, flow nesting from "[", "{", "]" and "}" outside quotes
// and comments, block scalars skipped. It can only overcount on text the
// parser would also find deep or wide, so the limits are set far above any
// Kubernetes object (a Pod nests about 12 levels).
func (l *loader) checkShape() bool {
	s := shapeScan{src: l.src, lim: l.lim}
	if d := s.run(); d != nil {
		l.add(*d)
		return false
	}
	return true
}

// pieceClean reports whether one document's text (a piece of
// splitDocuments) is within the limits on its own and ends outside any
// quoted scalar and flow collection. The stream's scan starts afresh at
// the "---" line after such a piece (it empties its stack there), so a
// stream of clean pieces passes checkShape; a Cache scans only the pieces
// it has not seen.
func (l *loader) pieceClean(text []byte) bool {
	s := shapeScan{src: text, lim: l.lim}
	return s.run() == nil && s.quote == 0 && s.flows == 0
}

type shapeLevel struct {
	col   int
	seq   bool // a block sequence (else a block mapping)
	width int
	flow  bool // a flow collection ("[" or "{")
	fmap  bool // a flow mapping
}

type shapeScan struct {
	src   []byte
	lim   Limits
	stack []shapeLevel // block levels, then flow levels
	flows int          // how many of stack's top levels are flow collections
	line  int
	// blockIndent is the indentation a block scalar's lines exceed (-1: not in one).
	blockIndent int
	quote       byte // the quote a multi-line quoted scalar is open with
}

func (s *shapeScan) run() *Diagnostic {
	s.line, s.blockIndent = 0, -1
	for pos := 0; pos < len(s.src); {
		// YAML breaks lines at \n, \r\n and a lone \r.
		end := pos
		for end < len(s.src) && s.src[end] != '\n' && s.src[end] != '\r' {
			end++
		}
		s.line++
		if d := s.scanLine(s.src[pos:end]); d != nil {
			return d
		}
		pos = end + 1
		if end+1 < len(s.src) && s.src[end] == '\r' && s.src[end+1] == '\n' {
			pos++
		}
	}
	return nil
}

func (s *shapeScan) fail(col int, msg, name string, limit int, hint string) *Diagnostic {
	return &Diagnostic{Line: s.line, Col: col + 1, Msg: msg, Hint: hint + "; " + raise(name, limit), Severity: SeverityError}
}

func (s *shapeScan) push(lv shapeLevel, col int) *Diagnostic {
	s.stack = append(s.stack, lv)
	if len(s.stack) > s.lim.Depth {
		return s.fail(col, fmt.Sprintf("the YAML nests more than %d levels deep here", s.lim.Depth), "depth", s.lim.Depth, "flatten it")
	}
	return nil
}

// entry counts one more entry of the mapping on top of the stack.
func (s *shapeScan) entry(col int) *Diagnostic {
	top := &s.stack[len(s.stack)-1]
	top.width++
	if top.width > s.lim.Width {
		return s.fail(col, fmt.Sprintf("a mapping has more than %d keys here", s.lim.Width), "width", s.lim.Width, "split it")
	}
	return nil
}

func (s *shapeScan) scanLine(b []byte) *Diagnostic {
	indent := 0
	for indent < len(b) && b[indent] == ' ' {
		indent++
	}
	blank := indent == len(b) || b[indent] == '#' || b[indent] == '\r'
	if s.blockIndent >= 0 {
		if blank || indent > s.blockIndent {
			return nil
		}
		s.blockIndent = -1
	}
	i, anchor := indent, indent
	if s.quote == 0 && s.flows == 0 {
		if blank {
			return nil
		}
		if indent == 0 && len(b) >= 3 && (string(b[:3]) == "---" || string(b[:3]) == "...") {
			s.stack = s.stack[:0]
			i = 3
		} else {
			var d *Diagnostic
			if i, anchor, d = s.blockLine(b, indent); d != nil {
				return d
			}
		}
	}
	return s.inline(b, i, anchor)
}

// blockLine reads a line's "- " entries and its "key:", which open or
// continue block collections at their columns; it returns where the rest
// of the line starts and the column of its last entry or key.
func (s *shapeScan) blockLine(b []byte, i int) (rest, anchor int, d *Diagnostic) {
	anchor = i
	for i < len(b) && b[i] == '-' && (i+1 == len(b) || b[i+1] == ' ') {
		anchor = i
		for len(s.stack) > 0 && s.stack[len(s.stack)-1].col > i {
			s.stack = s.stack[:len(s.stack)-1]
		}
		if n := len(s.stack); n == 0 || s.stack[n-1].col != i || !s.stack[n-1].seq {
			if d := s.push(shapeLevel{col: i, seq: true}, i); d != nil {
				return i, anchor, d
			}
		}
		i++
		for i < len(b) && b[i] == ' ' {
			i++
		}
	}
	if !isBlockKey(b[i:]) {
		return i, anchor, nil
	}
	for n := len(s.stack); n > 0 && (s.stack[n-1].col > i || s.stack[n-1].col == i && s.stack[n-1].seq); n-- {
		s.stack = s.stack[:n-1]
	}
	if n := len(s.stack); n == 0 || s.stack[n-1].col != i {
		if d := s.push(shapeLevel{col: i}, i); d != nil {
			return i, i, d
		}
	}
	return i, i, s.entry(i)
}

// isBlockKey reports a plain "key:" followed by a space or the line's end.
func isBlockKey(b []byte) bool {
	if len(b) == 0 || b[0] == '[' || b[0] == '{' || b[0] == '"' || b[0] == '\'' || b[0] == '#' {
		return false
	}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ':':
			if i+1 == len(b) || b[i+1] == ' ' || b[i+1] == '\r' {
				return true
			}
		case '#':
			if b[i-1] == ' ' {
				return false
			}
		}
	}
	return false
}

// inline reads the rest of a line from i: quoted scalars, flow
// collections, a comment, and a block scalar's "|" or ">" at its end, whose
// lines are those indented more than the line's last block key or entry
// (at column anchor).
func (s *shapeScan) inline(b []byte, i, anchor int) *Diagnostic {
	for ; i < len(b); i++ {
		c := b[i]
		if s.quote != 0 {
			switch {
			case c == '\\' && s.quote == '"':
				i++
			case c == s.quote && s.quote == '\'' && i+1 < len(b) && b[i+1] == '\'':
				i++
			case c == s.quote:
				s.quote = 0
			}
			continue
		}
		tokenStart := i == 0 || b[i-1] == ' ' || s.flows > 0 && (b[i-1] == '[' || b[i-1] == '{' || b[i-1] == ',' || b[i-1] == ':')
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '#' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\t'):
			return nil
		case (c == '"' || c == '\'') && tokenStart:
			s.quote = c
		case (c == '[' || c == '{') && (tokenStart || s.flows > 0):
			s.flows++
			if d := s.push(shapeLevel{flow: true, fmap: c == '{', width: 1}, i); d != nil {
				return d
			}
		case (c == ']' || c == '}') && s.flows > 0:
			s.flows--
			s.stack = s.stack[:len(s.stack)-1]
		case c == ',' && s.flows > 0 && s.stack[len(s.stack)-1].fmap:
			if d := s.entry(i); d != nil {
				return d
			}
		}
	}
	if s.flows == 0 && s.quote == 0 && blockScalarHeader(b) {
		s.blockIndent = anchor
	}
	return nil
}

// blockScalarHeader reports a line ending in a block scalar header with
// indicators ("|-", ">+", "|2").
func blockScalarHeader(b []byte) bool {
	j := len(b)
	for j > 0 && (b[j-1] == ' ' || b[j-1] == '\r') {
		j--
	}
	k := j
	for k > 0 && (b[k-1] == '-' || b[k-1] == '+' || b[k-1] >= '1' && b[k-1] <= '9') {
		k--
	}
	return k > 0 && (b[k-1] == '|' || b[k-1] == '>') && (k == 1 || b[k-2] == ' ')
}
