package positions

import (
	"bufio"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"gomoku/engine"
)

// SGFNode is a node of an SGF game tree to be written (WriteSGF): its
// properties, in order, and its children, the first of which continues the
// main line; the others are variations.
type SGFNode struct {
	Props    []SGFProp
	Children []*SGFNode
}

// SGFProp is one property of an SGF node: its identifier (B, W, C, ...)
// and its values, written escaped.
type SGFProp struct {
	ID     string
	Values []string
}

// Add appends a property with one value to n and returns n.
func (n *SGFNode) Add(id, value string) *SGFNode {
	n.Props = append(n.Props, SGFProp{ID: id, Values: []string{value}})
	return n
}

// SGFPoint writes p as SGF's two letters, column then row, both from "a",
// rows counted from the top of a size×size board (h8 is "hh" on 15×15).
func SGFPoint(p engine.Point, size int) string {
	return string([]byte{byte('a' + p.X()), byte('a' + size - 1 - p.Y())})
}

// SGFText escapes a property value: "]" and "\" get a backslash.
func SGFText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(s)
}

// WriteSGF writes the game tree rooted at root as one SGF collection,
// "(;...)", with a node per line of the main line and a parenthesised
// sequence per variation (FF[4]). It walks the tree with its own stack,
// so a game of any length is written without deep recursion. The project's
// SGF reader (Parse) reads the main line back. Errors: w's.
func WriteSGF(w io.Writer, root *SGFNode) error {
	bw := bufio.NewWriter(w)
	// a frame is a node still to write, and whether a "(" opens before it
	type frame struct {
		n     *SGFNode
		open  bool
		close int // ")" to write after the node's subtree
	}
	stack := []frame{{n: root, open: true, close: 1}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.n == nil { // the end of a subtree: its parentheses
			for range f.close {
				bw.WriteByte(')')
			}
			continue
		}
		if f.open {
			bw.WriteByte('(')
		}
		bw.WriteByte(';')
		for _, p := range f.n.Props {
			bw.WriteString(p.ID)
			for _, v := range p.Values {
				bw.WriteByte('[')
				bw.WriteString(SGFText(v))
				bw.WriteByte(']')
			}
		}
		switch len(f.n.Children) {
		case 0:
			stack = append(stack, frame{n: nil, close: f.close})
		case 1:
			// the line goes on in the same sequence; the ")" it owes waits
			stack = append(stack, frame{n: f.n.Children[0], close: f.close})
		default:
			// variations: each child its own parenthesised sequence, the
			// first (the main line) first; then the ")" this node owes
			bw.WriteByte('\n')
			stack = append(stack, frame{n: nil, close: f.close})
			for i := len(f.n.Children) - 1; i >= 0; i-- {
				stack = append(stack, frame{n: f.n.Children[i], open: true, close: 1})
			}
		}
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// PointNames writes points in renju notation; never nil, so that JSON
// shows an empty list as [].
func PointNames(ps []engine.Point) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// NumberedLine numbers a line of moves written in notation: "1.h8 2.i9
// ...", or "-" for none.
func NumberedLine(line []string) string {
	var sb strings.Builder
	for i, m := range line {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(i + 1))
		sb.WriteByte('.')
		sb.WriteString(m)
	}
	if sb.Len() == 0 {
		return "-"
	}
	return sb.String()
}

// OutputStem is the part of an output file's name taken from a
// record's source (report pages, SGF files, SVG diagrams): the base name without its extension, "stdin" for standard input,
// with bytes outside [A-Za-z0-9._-] made "_" and at most 60 bytes kept (a
// long or odd input name must not make the page unwritable).
func OutputStem(source string) string {
	base := strings.TrimSuffix(filepath.Base(source), filepath.Ext(source))
	if base == "-" || base == "" || base == "." {
		return "stdin"
	}
	b := []byte(base)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 60 {
		b = b[:60]
	}
	return string(b)
}
