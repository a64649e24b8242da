package scenario

import (
	"bytes"
	"errors"
)

// NodesOnly answers a load refused for its size (the bytes or pods limit:
// a whole cluster's dump pasted in) with the scenario of its Node objects
// alone, so that the cluster can still be shown beside the refusal. err is
// the refused load's error; ok is false when the refusal was for anything
// else, or when the nodes alone do not load.
//
// The nodes are found by a scan of the lines, not by the YAML parser (which
// the limits keep from the whole text): every block-style object whose kind
// line reads "kind: Node", as a document of its own or an item of a List
// (what kubectl get -o yaml writes). Flow-style and JSON input is not
// scanned.
func NodesOnly(filename string, data []byte, err error) (*Scenario, bool) {
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return nil, false
	}
	for _, d := range list {
		if d.Limit != "bytes" && d.Limit != "pods" {
			return nil, false
		}
	}
	nodes := nodeDocuments(data)
	if len(nodes) == 0 {
		return nil, false
	}
	s, lerr := Load(filename, nodes)
	if lerr != nil || len(s.Nodes) == 0 {
		return nil, false
	}
	return s, true
}

type scanLine struct {
	text   []byte // without the line break
	indent int    // leading spaces
	item   bool   // starts with "- " after the indent
	blank  bool   // empty or only a comment
}

func scanLines(src []byte) []scanLine {
	var out []scanLine
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		var line []byte
		if i < 0 {
			line, src = src, nil
		} else {
			line, src = src[:i], src[i+1:]
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		rest := bytes.TrimLeft(line, " ")
		out = append(out, scanLine{
			text:   line,
			indent: len(line) - len(rest),
			item:   bytes.HasPrefix(rest, []byte("- ")),
			blank:  len(bytes.TrimSpace(rest)) == 0 || rest[0] == '#',
		})
	}
	return out
}

// isNodeKind tells a "kind: Node" line (or "- kind: Node"), quoted or not,
// with an optional comment, and returns the column of its key.
func isNodeKind(l scanLine) (int, bool) {
	rest := l.text[l.indent:]
	col := l.indent
	if l.item {
		rest = bytes.TrimLeft(rest[2:], " ")
		col = len(l.text) - len(rest)
	}
	v, ok := bytes.CutPrefix(rest, []byte("kind:"))
	if !ok {
		return 0, false
	}
	if c := bytes.Index(v, []byte(" #")); c >= 0 {
		v = v[:c]
	}
	v = bytes.Trim(bytes.TrimSpace(v), `"'`)
	return col, string(v) == "Node"
}

func isDocMarker(l scanLine) bool {
	return l.indent == 0 && (bytes.HasPrefix(l.text, []byte("---")) || bytes.HasPrefix(l.text, []byte("...")))
}

// nodeDocuments returns the Node objects of src as documents of their own.
func nodeDocuments(src []byte) []byte {
	lines := scanLines(src)
	var out bytes.Buffer
	for i, l := range lines {
		col, ok := isNodeKind(l)
		if !ok {
			continue
		}
		// Up to the object's first line: its "- " item line, or the
		// document's start.
		first := i
		for !l.item && first > 0 {
			p := lines[first-1]
			if isDocMarker(p) {
				break
			}
			if p.item && p.indent+2 == col {
				first--
				break
			}
			if !p.blank && p.indent < col {
				break
			}
			first--
		}
		// Down to the last line indented at least as deep as its keys.
		last := i
		for last+1 < len(lines) {
			n := lines[last+1]
			if isDocMarker(n) || !n.blank && n.indent < col {
				break
			}
			last++
		}
		out.WriteString("---\n")
		for _, ln := range lines[first : last+1] {
			// Comments are dropped: a huge one must not bring the
			// nodes over the byte limit again.
			if !ln.blank && len(ln.text) >= col {
				out.Write(ln.text[col:])
			}
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}
