package scenario

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// ynode is a YAML value with its position, after anchors, aliases, merge keys
// and tags have been resolved. It is what the decoder walks.
type ynode struct {
	kind  ykind
	isStr bool // the scalar is a string (quoted, or plain text that is not a number, bool or null)
	pos   Pos
	text  string // scalar as written (strings unquoted)
	// mapping entries in input order
	keys []string
	kpos []Pos
	vals []*ynode
	// sequence items
	items []*ynode
	// size counts the nodes under n with aliases expanded (saturating at
	// maxSize), so that alias bombs are caught without walking them.
	size int
}

type ykind uint8

const (
	yNull ykind = iota
	yScalar
	yMap
	ySeq
)

func (k ykind) String() string {
	return [...]string{"null", "a scalar", "a mapping", "a list"}[k]
}

// describe names the YAML type of n for messages.
func (n *ynode) describe() string {
	if n.kind != yScalar {
		return n.kind.String()
	}
	if n.isStr {
		return fmt.Sprintf("the string %q", n.text)
	}
	return n.text
}

func (n *ynode) get(key string) *ynode {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// maxSize is where ynode.size saturates: above any Limits.Aliases.
const maxSize = 1 << 50

type treeBuilder struct {
	anchors map[string]*ynode
	// aliased counts the nodes aliases add (Limits.Aliases bounds it for
	// the whole file); firstAlias is where the first alias is.
	aliased    int
	limit      int
	firstAlias Pos
	err        *Diagnostic
	// lineOffset is added to every line (a document parsed on its own).
	lineOffset int
	// src is the text parsed, and lineStarts where its lines start (made
	// on first use), to place plain scalars (plainPos).
	src        []byte
	lineStarts []int
}

// tokenError is what goccy's syntax and parse errors implement.
type tokenError interface {
	GetToken() *token.Token
	GetMessage() string
}

// parseDocuments parses the stream. Each returned document is a mapping,
// null (an empty document) or another kind the caller rejects. Documents are
// parsed one by one where the stream can be cut at its "---" lines, because
// goccy's parse of a whole stream drops everything after an empty document
// (see splitDocuments); a kubectl-style file with "---" twice in a row must
// not lose its objects.
func (l *loader) parseDocuments() []*ynode {
	pieces, ok := splitDocuments(l.src, 0)
	if !ok {
		pieces = []docPiece{{text: l.src, line: 1}}
	}
	var docs []*ynode
	var aliases aliasTotal
	ar := newTreeArena(len(l.src))
	for _, p := range pieces {
		pd, err := parsePiece(p.text, "", p.line-1, l.lim.Aliases, ar)
		if err != nil {
			l.syntaxError(err, p.line-1)
			return nil
		}
		if pd.berr != nil {
			l.add(*pd.berr)
			return nil
		}
		if !aliases.add(l, pd) {
			return nil
		}
		docs = append(docs, pd.trees...)
	}
	return docs
}

// aliasTotal counts the nodes aliases add over the whole file: the cap of
// one document alone would let a file of many documents expand without bound.
type aliasTotal struct{ n int }

func (t *aliasTotal) add(l *loader, pd parsedDoc) bool {
	t.n = min(maxSize, t.n+pd.aliased)
	if t.n <= l.lim.Aliases {
		return true
	}
	l.errorAt(pd.firstAlias, "", "", fmt.Sprintf("aliases expand the file past %d YAML nodes (this document's from here add %d)", l.lim.Aliases, pd.aliased), "use fewer aliases; "+raise("aliases", l.lim.Aliases))
	return false
}

// syntaxError reports a goccy syntax or parse error at its token, in a
// piece whose first line is offset+1 of the file.
func (l *loader) syntaxError(err error, offset int) {
	pos := Pos{1 + offset, 1}
	msg := err.Error()
	var te tokenError
	if errors.As(err, &te) {
		msg = te.GetMessage()
		if tk := te.GetToken(); tk != nil && tk.Position != nil {
			pos = Pos{tk.Position.Line + offset, tk.Position.Column}
		}
	}
	m := explainSyntax(strings.Split(string(l.src), "\n"), pos, msg)
	l.errorAt(m.pos, "", "", "YAML syntax error: "+m.msg, m.hint)
}

func (b *treeBuilder) nodePos(n ast.Node) Pos {
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return Pos{tk.Position.Line + b.lineOffset, b.plainCol(tk)}
	}
	return Pos{1 + b.lineOffset, 1}
}

// plainCol is the column where tk starts. goccy places a plain scalar
// that ends its line as many columns right as spaces trail it
// ("cpu: lots   " three columns right of "lots"): a message would point
// past the value. Such a scalar ends where the line's text ends.
func (b *treeBuilder) plainCol(tk *token.Token) int {
	col := tk.Position.Column
	if b.src == nil || tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType || tk.Value == "" {
		return col
	}
	if b.lineStarts == nil {
		b.lineStarts = append(b.lineStarts, 0)
		for i, c := range b.src {
			if c == '\n' {
				b.lineStarts = append(b.lineStarts, i+1)
			}
		}
	}
	ln := tk.Position.Line - 1
	if ln < 0 || ln >= len(b.lineStarts) {
		return col
	}
	end := len(b.src)
	if ln+1 < len(b.lineStarts) {
		end = b.lineStarts[ln+1] - 1
	}
	line := strings.TrimRight(string(b.src[b.lineStarts[ln]:end]), " \t\r")
	text := utf8.RuneCountInString(line)
	// The line holds the value, or its first line when it folds onto the
	// next ones (joined by a space).
	for first := tk.Value; first != ""; {
		if strings.HasSuffix(line, first) {
			if v := utf8.RuneCountInString(first); col-1+v > text {
				return text - v + 1
			}
			return col
		}
		i := strings.LastIndexByte(first, ' ')
		if i < 0 {
			break
		}
		first = first[:i]
	}
	return col
}

func (b *treeBuilder) fail(n ast.Node, msg, hint string) *ynode {
	if b.err == nil {
		p := b.nodePos(n)
		b.err = &Diagnostic{Line: p.Line, Col: p.Col, Msg: msg, Hint: hint, Severity: SeverityError}
	}
	return &ynode{kind: yNull, pos: b.nodePos(n)}
}

func (b *treeBuilder) build(n ast.Node) *ynode {
	y := b.build1(n)
	if y.size == 0 {
		y.size = 1
		for _, v := range y.vals {
			y.size = min(maxSize, y.size+v.size)
		}
		for _, v := range y.items {
			y.size = min(maxSize, y.size+v.size)
		}
	}
	return y
}

func (b *treeBuilder) build1(n ast.Node) *ynode {
	if b.err != nil {
		return &ynode{}
	}
	pos := b.nodePos(n)
	switch v := n.(type) {
	case *ast.NullNode:
		return &ynode{kind: yNull, pos: pos}
	case *ast.StringNode:
		return &ynode{kind: yScalar, pos: pos, text: v.Value, isStr: true}
	case *ast.LiteralNode:
		return &ynode{kind: yScalar, pos: pos, text: v.Value.Value, isStr: true}
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return &ynode{kind: yScalar, pos: pos, text: v.GetToken().Value}
	case *ast.TagNode:
		inner := b.build(v.Value)
		if inner.kind == yScalar && v.Start != nil && v.Start.Value == "!!str" {
			inner.isStr = true
		}
		return inner
	case *ast.AnchorNode:
		inner := b.build(v.Value)
		if name, ok := v.Name.(ast.ScalarNode); ok {
			b.anchors[fmt.Sprint(name.GetValue())] = inner
		}
		return inner
	case *ast.AliasNode:
		name := ""
		if s, ok := v.Value.(ast.ScalarNode); ok {
			name = fmt.Sprint(s.GetValue())
		}
		target, ok := b.anchors[name]
		if !ok {
			return b.fail(n, fmt.Sprintf("unknown alias *%s", name), "define the anchor &"+name+" before using it")
		}
		if b.aliased == 0 {
			b.firstAlias = pos
		}
		b.aliased = min(maxSize, b.aliased+target.size)
		if b.aliased > b.limit {
			return b.fail(n, fmt.Sprintf("aliases expand this document past %d YAML nodes", b.limit), "use fewer aliases; "+raise("aliases", b.limit))
		}
		return target
	case *ast.MappingNode:
		out := &ynode{kind: yMap, pos: pos}
		for _, mv := range v.Values {
			b.addEntry(out, mv)
		}
		if !v.IsFlowStyle && len(out.kpos) > 0 {
			// goccy places a block mapping at its first ':'; point at the first key.
			out.pos = out.kpos[0]
		}
		return out
	case *ast.MappingValueNode:
		out := &ynode{kind: yMap, pos: pos}
		b.addEntry(out, v)
		if len(out.kpos) > 0 {
			out.pos = out.kpos[0]
		}
		return out
	case *ast.SequenceNode:
		out := &ynode{kind: ySeq, pos: pos}
		for _, it := range v.Values {
			out.items = append(out.items, b.build(it))
		}
		return out
	case *ast.CommentGroupNode, *ast.CommentNode:
		return &ynode{kind: yNull, pos: pos}
	}
	return b.fail(n, fmt.Sprintf("unsupported YAML node %s", n.Type()), "")
}

func (b *treeBuilder) addEntry(out *ynode, mv *ast.MappingValueNode) {
	val := b.build(mv.Value)
	if _, ok := mv.Key.(*ast.MergeKeyNode); ok {
		// "<<: *base" copies the keys the mapping does not set itself.
		srcs := []*ynode{val}
		if val.kind == ySeq {
			srcs = val.items
		}
		for _, src := range srcs {
			if src.kind != yMap {
				b.fail(mv.Key, "a merge key (<<) needs a mapping or a list of mappings", "")
				return
			}
			for i, k := range src.keys {
				if out.get(k) == nil {
					out.keys = append(out.keys, k)
					out.kpos = append(out.kpos, src.kpos[i])
					out.vals = append(out.vals, src.vals[i])
				}
			}
		}
		return
	}
	key := b.build(mv.Key)
	if key.kind != yScalar {
		b.fail(mv.Key, "mapping keys must be scalars", "")
		return
	}
	if out.get(key.text) != nil {
		b.fail(mv.Key, fmt.Sprintf("duplicate key %q", key.text), "remove one of the two entries")
		return
	}
	if val.kind == yNull {
		// An empty value is reported at its key.
		val = &ynode{kind: yNull, pos: key.pos}
	}
	out.keys = append(out.keys, key.text)
	out.kpos = append(out.kpos, key.pos)
	out.vals = append(out.vals, val)
}
