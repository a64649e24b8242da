package scenario

import (
	"fmt"
	"regexp"
	"strings"
)

// The YAML parser's messages name what its grammar expected ("',' or ']'
// must be specified", "non-map value is specified") at the token where it
// gave up, which is often the end of a line or the next line. People fix
// YAML faster when told the mistake they made where they made it: the
// bracket they left open, the tab, the missing space after a colon.
// explainSyntax turns the parser's message at pos into that, reading the
// source lines; a message it does not recognise is kept as the parser wrote
// it.

// syntaxMistake is one explained YAML syntax error.
type syntaxMistake struct {
	pos       Pos
	msg, hint string
}

var duplicateKey = regexp.MustCompile(`^mapping key "(.*)" already defined at \[(\d+):(\d+)\]`)

func explainSyntax(lines []string, pos Pos, parserMsg string) syntaxMistake {
	line := lineAt(lines, pos.Line)
	trimmed := strings.TrimSpace(line)
	indent := len(line) - len(strings.TrimLeft(line, " "))
	switch {
	case strings.Contains(parserMsg, "'\t'") || strings.HasPrefix(strings.TrimLeft(line, " "), "\t"):
		return syntaxMistake{Pos{pos.Line, indent + 1},
			"a tab indents this line; YAML indents with spaces only",
			"replace the tab with spaces"}
	case strings.Contains(parserMsg, "end character of double-quoted"):
		return syntaxMistake{pos, `the string that starts with " here is never closed`,
			`add the closing ", or remove the opening one`}
	case strings.Contains(parserMsg, "end character of single-quoted"):
		return syntaxMistake{pos, "the string that starts with ' here is never closed",
			"add the closing ', or remove the opening one"}
	case strings.Contains(parserMsg, "']' not found") || strings.Contains(parserMsg, "',' or ']'") ||
		strings.Contains(parserMsg, "'}' not found") || strings.Contains(parserMsg, "',' or '}'"):
		if open, ok := unclosedFlow(lines, pos); ok {
			what, closer := "list", "]"
			if open.char == '{' {
				what, closer = "mapping", "}"
			}
			msg := fmt.Sprintf("the %s opened with '%c' here is never closed", what, open.char)
			if open.pos != pos {
				msg += fmt.Sprintf(" (the parser gave up at %d:%d)", pos.Line, pos.Col)
			}
			return syntaxMistake{open.pos, msg, fmt.Sprintf("add '%s' where the %s ends", closer, what)}
		}
	case duplicateKey.MatchString(parserMsg):
		m := duplicateKey.FindStringSubmatch(parserMsg)
		return syntaxMistake{pos, fmt.Sprintf("the key %q appears twice in this mapping (first at %s:%s)", m[1], m[2], m[3]),
			"remove one of them, or rename it"}
	case strings.HasPrefix(trimmed, "---") && indent > 0:
		return syntaxMistake{Pos{pos.Line, indent + 1}, "'---' separates documents and must start at column 1",
			"move '---' to the start of the line"}
	case strings.Contains(parserMsg, "unexpected key") && noSpaceAfterColon.MatchString(trimmed):
		key := noSpaceAfterColon.FindStringSubmatch(trimmed)[1]
		return syntaxMistake{Pos{pos.Line, indent + 1},
			fmt.Sprintf("%q has no space after ':', so YAML reads it as one word, not a key and a value", trimmed),
			fmt.Sprintf("write %q, with a space after the colon", key+": "+strings.TrimPrefix(trimmed, key+":"))}
	case strings.Contains(parserMsg, "non-map value") && strings.HasPrefix(trimmed, "-"):
		return syntaxMistake{Pos{pos.Line, indent + 1},
			"a list item ('-') where this mapping expects 'key: value'",
			"put the list under a key of its own, with the '-' items indented below it, or remove the '-'"}
	case strings.Contains(parserMsg, "invalid key"):
		return syntaxMistake{Pos{pos.Line, indent + 1},
			fmt.Sprintf("%q is not a valid key: keys here are plain names", strings.TrimSpace(strings.SplitN(trimmed, ":", 2)[0])),
			"write the key as a plain or quoted string"}
	case strings.Contains(parserMsg, "mapping value is not allowed") || strings.Contains(parserMsg, "value is not allowed"):
		if c := strings.Index(trimmed, ": "); c >= 0 && strings.Contains(trimmed[c+2:], ": ") {
			second := indent + c + 2 + strings.Index(trimmed[c+2:], ": ") + 1
			return syntaxMistake{Pos{pos.Line, second},
				"this value contains ': ', which YAML reads as the start of another key",
				fmt.Sprintf("quote the value: %s \"%s\"", trimmed[:c+1], trimmed[c+2:])}
		}
		if next, n, ok := nextLine(lines, pos.Line); ok && strings.Contains(next, ":") {
			keyCol := indent
			if strings.HasPrefix(trimmed, "- ") {
				keyCol += 2 // the keys of a list item's mapping start after "- "
			}
			if in := len(next) - len(strings.TrimLeft(next, " ")); in > keyCol {
				return syntaxMistake{Pos{n, in + 1},
					fmt.Sprintf("this line is indented to column %d, deeper than the key above it (column %d), so YAML reads it as part of that key's value", in+1, keyCol+1),
					fmt.Sprintf("indent it to column %d, like the key above it", keyCol+1)}
			}
		}
		if cols := enclosingColumns(lines, pos.Line, indent); len(cols) > 0 {
			return syntaxMistake{Pos{pos.Line, indent + 1},
				fmt.Sprintf("this line is indented to column %d, which lines up with no key above it", indent+1),
				fmt.Sprintf("indent it to column %s, to line up with the key it belongs with", strings.Join(cols, " or "))}
		}
	}
	return syntaxMistake{pos, parserMsg, "fix the YAML at this position"}
}

var noSpaceAfterColon = regexp.MustCompile(`^([A-Za-z0-9_.\-/]+):[^\s:/]`)

func lineAt(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}

// nextLine returns the first line after line n that is not blank or a
// comment, with its number.
func nextLine(lines []string, n int) (string, int, bool) {
	for i := n + 1; i <= len(lines); i++ {
		if t := strings.TrimSpace(lineAt(lines, i)); t != "" && !strings.HasPrefix(t, "#") {
			return lineAt(lines, i), i, true
		}
	}
	return "", 0, false
}

// enclosingColumns lists, nearest first, the columns (1-based, as text) of
// the keys above line n that a line indented by indent could line up with:
// the line above, then each less indented key above that.
func enclosingColumns(lines []string, n, indent int) []string {
	var cols []string
	limit := -1
	for i := n - 1; i >= 1 && len(cols) < 2; i-- {
		l := lineAt(lines, i)
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || !strings.Contains(t, ":") {
			continue
		}
		in := len(l) - len(strings.TrimLeft(l, " "))
		if strings.HasPrefix(t, "- ") {
			in += 2
		}
		if in != indent && (limit < 0 || in < limit) {
			cols = append(cols, fmt.Sprint(in+1))
			limit = in
		}
	}
	return cols
}

type flowOpen struct {
	char byte
	pos  Pos
}

// unclosedFlow scans the document holding pos up to pos and returns the
// innermost '[' or '{' still open there. A bracket opens a flow collection
// where a value can start (after ':', '-', ',', another bracket or at the
// start of a line) or anywhere inside one; quoted strings and comments are
// skipped.
func unclosedFlow(lines []string, pos Pos) (flowOpen, bool) {
	start := 1
	for i := pos.Line; i >= 1; i-- {
		if strings.HasPrefix(lineAt(lines, i), "---") {
			start = i + 1
			break
		}
	}
	// The parser sometimes names the opening bracket itself: the innermost.
	if l := lineAt(lines, pos.Line); pos.Col >= 1 && pos.Col <= len(l) && (l[pos.Col-1] == '[' || l[pos.Col-1] == '{') {
		return flowOpen{l[pos.Col-1], pos}, true
	}
	var stack []flowOpen
	for n := start; n <= pos.Line && n <= len(lines); n++ {
		l := lineAt(lines, n)
		end := len(l)
		if n == pos.Line && pos.Col-1 < end {
			end = max(pos.Col-1, 0)
		}
		prev := byte(0) // the last non-space byte outside strings on this line
		for i := 0; i < end; i++ {
			c := l[i]
			switch {
			case c == ' ':
				continue
			case c == '#' && (i == 0 || l[i-1] == ' '):
				i = end
				continue
			case (c == '"' || c == '\'') && valueStart(prev):
				i = skipQuoted(l, i)
			case (c == '[' || c == '{') && (len(stack) > 0 || valueStart(prev)):
				stack = append(stack, flowOpen{c, Pos{n, i + 1}})
			case (c == ']' || c == '}') && len(stack) > 0:
				if top := stack[len(stack)-1]; (top.char == '[') != (c == ']') {
					return top, true // "{[}": the '[' is the one left open
				}
				stack = stack[:len(stack)-1]
			}
			prev = c
		}
	}
	if len(stack) > 0 {
		return stack[len(stack)-1], true
	}
	return flowOpen{}, false
}

// valueStart says whether a value can start after prev, the last byte
// before it on the line (0 at the start of the line).
func valueStart(prev byte) bool {
	switch prev {
	case 0, ':', '-', ',', '[', '{', '?':
		return true
	}
	return false
}

// skipQuoted returns the index of the quote closing the string that opens
// at l[i], or the line's last index when it is not closed on this line.
func skipQuoted(l string, i int) int {
	q := l[i]
	for j := i + 1; j < len(l); j++ {
		switch {
		case q == '"' && l[j] == '\\':
			j++
		case l[j] == q && q == '\'' && j+1 < len(l) && l[j+1] == '\'':
			j++
		case l[j] == q:
			return j
		}
	}
	return len(l) - 1
}
