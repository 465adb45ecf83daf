package positions

import (
	"bytes"
	"errors"
	"fmt"

	"gomoku/engine"
)

// RenLib libraries. A RenLib .lib file (version 3) is a 20-byte header, 0xFF
// "RenLib" 0xFF, the major and minor version, then ten 0xFF bytes; then the
// nodes of a move tree in preorder, two bytes each:
//
//   - byte 0, the move: the low nibble is the column plus one (1 = a), the
//     high nibble the row counted from the top, 0-based (so 0x78 is h8 on
//     15×15); 0x00 is no move (an empty root);
//   - byte 1, flags: 0x80 the node has a next sibling ("down" in RenLib's
//     own terms, its tree being drawn sideways), 0x40 the node has no child
//     ("right"), 0x20 an old-style comment, 0x10 marked, 0x08 a comment,
//     0x04 a start mark, 0x02 no move, 0x01 an extension.
//
// A node with a comment is followed by the comment, NUL-terminated and
// padded with NULs to an even length; the first line (the title) is ended
// by 0x08 and further lines by CR LF. Preorder with those two flags
// determines the tree (Standish, Data Structure Techniques, §3.5.2): after
// a node that has a child the next node is its first child; after a leaf
// with a sibling, that sibling; after a leaf without one, the next sibling
// of the nearest ancestor that has one still to come.
//
// RenLib boards are always 15×15.

// renlibMagic is the first eight bytes of a RenLib file.
var renlibMagic = []byte{0xFF, 'R', 'e', 'n', 'L', 'i', 'b', 0xFF}

// renlibHeaderSize is the size of a RenLib header, in bytes.
const renlibHeaderSize = 20

// The RenLib node flags.
const (
	libSibling    = 0x80
	libLeaf       = 0x40
	libOldComment = 0x20
	libMark       = 0x10
	libComment    = 0x08
	libStart      = 0x04
	// libKeep are the flags kept as they are through a read and a write.
	libKeep = libMark | libStart | 0x02 | 0x01
)

// MaxLibDepth is the deepest node ParseRenLib accepts, counted from the
// top: four times the 225 points of the board, so that empty moves
// between real ones still fit, while a chain of millions of empty moves is
// refused (it would cost memory without end and says nothing).
const MaxLibDepth = 4 * 225

// ErrNotRenLib: data that does not start with the RenLib header.
var ErrNotRenLib = errors.New("not a RenLib file (no RenLib header)")

// LibNode is one node of a RenLib tree: a move (NoPoint for an empty root)
// with its comment, marks and children, in the file's order.
type LibNode struct {
	Move engine.Point
	// Comment is the node's comment as the file holds it, in the file's
	// code page (RenLib was a Windows program: often Windows-1252 or GBK),
	// with RenLib's 0x08 after the title line and CR LF between the others.
	// HasComment tells an empty comment from none.
	Comment    string
	HasComment bool
	// Flags are the other flag bits (mark 0x10, start 0x04, no move 0x02,
	// extension 0x01), kept for writing back.
	Flags    byte
	Children []*LibNode
}

// Library is a RenLib tree.
type Library struct {
	// Major and Minor are the version of the file (3 and 0 for most).
	Major, Minor byte
	// Root is the first node: an empty move whose children are the first
	// moves, or, as most files have it, the first move itself.
	Root *LibNode
	// virtual says Root is not in the file: the file has several top-level
	// nodes, Root's children, and Bytes writes them so.
	virtual bool
}

// ParseRenLib reads a RenLib library. Errors are *ParseError with the byte
// offset (Line 0): ErrNotRenLib, or ErrSyntax for a tree or comment cut
// short, a move off the 15×15 board, or a stone played twice on one line of
// play (wrapping ErrOccupied).
func ParseRenLib(name string, data []byte) (*Library, error) {
	fail := func(off int, err error) error {
		return &ParseError{File: name, Record: -1, Offset: int64(off), Err: err}
	}
	if len(data) < renlibHeaderSize || !bytes.Equal(data[:len(renlibMagic)], renlibMagic) {
		return nil, fail(0, ErrNotRenLib)
	}
	lib := &Library{Major: data[8], Minor: data[9]}
	type frame struct {
		parent *LibNode // the parent of a node whose next sibling is to come
		depth  int      // that node's depth
	}
	top := &LibNode{Move: engine.NoPoint} // holds the top-level nodes
	parent, depth := top, 0
	var pending []frame
	var line []engine.Point // the moves from the top to the node being placed
	off := renlibHeaderSize
	for {
		if off+2 > len(data) {
			return nil, fail(off, fmt.Errorf("%w: the tree ends before its last node", ErrSyntax))
		}
		pos, flags := data[off], data[off+1]
		n := &LibNode{Move: engine.NoPoint, Flags: flags & libKeep}
		if pos != 0 {
			x, y := int(pos&0x0f)-1, int(pos>>4)
			if x < 0 || y >= 15 {
				return nil, fail(off, fmt.Errorf("%w: move byte 0x%02x is off the 15x15 board", ErrSyntax, pos))
			}
			n.Move = engine.PointAt(x, 14-y)
		}
		start := off
		off += 2
		if flags&(libComment|libOldComment) != 0 {
			end := bytes.IndexByte(data[off:], 0)
			if end < 0 {
				return nil, fail(off, fmt.Errorf("%w: a comment without its terminating NUL", ErrSyntax))
			}
			n.Comment, n.HasComment = string(data[off:off+end]), true
			off += end + 1
			for off < len(data) && data[off] == 0 {
				off++
			}
		}
		line = line[:depth]
		if depth >= MaxLibDepth {
			return nil, fail(start, fmt.Errorf("%w: the tree is deeper than %d nodes", ErrSyntax, MaxLibDepth))
		}
		if n.Move != engine.NoPoint {
			for _, q := range line {
				if q == n.Move {
					return nil, fail(start, fmt.Errorf("%w: %v is played twice on one line: %w", ErrSyntax, n.Move, ErrOccupied))
				}
			}
		}
		line = append(line, n.Move)
		parent.Children = append(parent.Children, n)
		switch {
		case flags&libLeaf == 0: // the next node is n's first child
			if flags&libSibling != 0 {
				pending = append(pending, frame{parent, depth})
			}
			parent, depth = n, depth+1
		case flags&libSibling != 0: // the next node is n's sibling
		case len(pending) > 0: // the next node is an ancestor's sibling
			f := pending[len(pending)-1]
			pending = pending[:len(pending)-1]
			parent, depth = f.parent, f.depth
		default: // the tree is complete; RenLib ignores what follows, so do we
			if len(top.Children) == 1 {
				lib.Root = top.Children[0]
			} else {
				lib.Root, lib.virtual = top, true
			}
			return lib, nil
		}
	}
}

// Nodes returns the number of nodes of the tree, the root included.
func (l *Library) Nodes() int {
	n := 0
	l.Walk(func([]engine.Point, *LibNode) bool { n++; return true })
	return n
}

// Walk calls fn for every node in preorder with the line of moves from the
// root to it (empty moves left out; the slice is reused, copy it to keep
// it). fn returns false to skip the node's subtree. It keeps its own stack
// rather than recursing, so a deep tree costs no Go stack.
func (l *Library) Walk(fn func(line []engine.Point, n *LibNode) bool) {
	if l.Root == nil {
		return
	}
	type frame struct {
		n    *LibNode
		next int // the next child to visit
		line int // len(line) before n's move
	}
	var line []engine.Point
	visit := func(n *LibNode, stack []frame) []frame {
		k := len(line)
		if n.Move != engine.NoPoint {
			line = append(line, n.Move)
		}
		if !fn(line, n) {
			line = line[:k]
			return stack
		}
		return append(stack, frame{n: n, line: k})
	}
	stack := visit(l.Root, nil)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.n.Children) {
			line = line[:f.line]
			stack = stack[:len(stack)-1]
			continue
		}
		c := f.n.Children[f.next]
		f.next++
		stack = visit(c, stack)
	}
}

// Bytes encodes the library as a RenLib version 3 file (the version read,
// 3.0 for a new library); ParseRenLib of the result gives the same tree.
func (l *Library) Bytes() []byte {
	major, minor := l.Major, l.Minor
	if major == 0 {
		major, minor = 3, 0
	}
	out := append([]byte{}, renlibMagic...)
	out = append(out, major, minor)
	for range renlibHeaderSize - len(out) {
		out = append(out, 0xFF)
	}
	if l.Root == nil {
		return append(out, 0, libLeaf)
	}
	top := []*LibNode{l.Root}
	if l.virtual {
		top = l.Root.Children
	}
	var enc func(n *LibNode, sibling bool)
	enc = func(n *LibNode, sibling bool) {
		pos := byte(0)
		if n.Move != engine.NoPoint {
			pos = byte(14-n.Move.Y())<<4 | byte(n.Move.X()+1)
		}
		flags := n.Flags & libKeep
		if sibling {
			flags |= libSibling
		}
		if len(n.Children) == 0 {
			flags |= libLeaf
		}
		if n.HasComment {
			flags |= libComment
		}
		out = append(out, pos, flags)
		if n.HasComment {
			out = append(out, n.Comment...)
			out = append(out, 0)
			if len(n.Comment)%2 == 0 {
				out = append(out, 0) // pad to an even length, as RenLib does
			}
		}
		for i, c := range n.Children {
			enc(c, i < len(n.Children)-1)
		}
	}
	for i, n := range top {
		enc(n, i < len(top)-1)
	}
	return out
}

// Title returns the first line of a RenLib comment (up to RenLib's 0x08 or
// a line break) and the rest, with CR LF turned into LF.
func Title(comment string) (title, rest string) {
	i := bytes.IndexAny([]byte(comment), "\b\r\n")
	if i < 0 {
		return comment, ""
	}
	title, rest = comment[:i], comment[i+1:]
	rest = string(bytes.ReplaceAll([]byte(rest), []byte("\r\n"), []byte("\n")))
	return title, string(bytes.TrimLeft([]byte(rest), "\n"))
}

// parseRenLibPositions reads a RenLib library as records: one per node with
// a comment, the position after the moves from the root to it (black
// first), its title as the ID and the comment, turned into UTF-8 lines where
// it is valid UTF-8, as the puzzle comment. Records are 15×15 renju.
func parseRenLibPositions(name string, data []byte, out *sink) {
	lib, err := ParseRenLib(name, data)
	if err != nil {
		out.add(nil, err)
		return
	}
	index := 0
	lib.Walk(func(line []engine.Point, n *LibNode) bool {
		if out.stopped {
			return false
		}
		if !n.HasComment {
			return true
		}
		p := &Position{Source: name, Index: index, Size: 15, Rule: engine.Renju,
			Moves: append([]engine.Point(nil), line...)}
		for i, q := range line {
			if i%2 == 0 {
				p.Black = append(p.Black, q)
			} else {
				p.White = append(p.White, q)
			}
		}
		p.ToMove = engine.Color(1 + len(line)%2)
		title, rest := Title(n.Comment)
		p.Puzzle = &Puzzle{Name: title, Comment: rest}
		index++
		return out.add(p, nil)
	})
}
