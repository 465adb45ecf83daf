package positions

import (
	"fmt"
	"strconv"
	"strings"

	"gomoku/engine"
)

// SGF game records (Smart Game Format, FF[4]; gomoku and renju are GM[4]).
// A file holds one or more game trees, "(;GM[4]SZ[15]...;B[hh];W[ii]...)";
// each becomes one record: its main line (the first variation at every
// fork) played from the setup stones (AB, AW). Points are two letters,
// column then row, both from "a", rows counted from the top (hh is h8 on
// 15×15). The properties read are SZ (square boards only), AB, AW, B, W,
// PL (the side to move of a setup), RE (the result: "B+...", "W+...",
// "0" or "Draw"), RU (rule: a name containing "renju", "standard" or
// "exact", else freestyle), GN and PB/PW (kept in the record's ID and
// note, and PB/PW in Players), EV and DT (Event, Date). Other properties
// are skipped.

// sgfProp is one property of a node, with where its first value starts.
type sgfProp struct {
	id     string
	values []string
	line   int
	col    int
}

// sgfScanner walks SGF text, tracking the line and column.
type sgfScanner struct {
	s         string
	i         int
	line, col int
}

func (sc *sgfScanner) next() byte {
	c := sc.s[sc.i]
	sc.i++
	if c == '\n' {
		sc.line, sc.col = sc.line+1, 1
	} else {
		sc.col++
	}
	return c
}

func (sc *sgfScanner) skipSpace() {
	for sc.i < len(sc.s) && strings.IndexByte(" \t\r\n", sc.s[sc.i]) >= 0 {
		sc.next()
	}
}

// parseSGF reads every game tree of an SGF file as a record.
func parseSGF(name string, data []byte, opt Options, out *sink) {
	sc := &sgfScanner{s: strings.TrimPrefix(string(data), "\xef\xbb\xbf"), line: 1, col: 1}
	for index := 0; ; index++ {
		sc.skipSpace()
		if sc.i >= len(sc.s) {
			break
		}
		line, col := sc.line, sc.col
		nodes, err := sc.gameTree()
		if err == nil {
			var p *Position
			p, err = sgfPosition(name, nodes, line, index, opt)
			if err == nil {
				if !out.add(p, nil) {
					return
				}
				continue
			}
		}
		if pe, ok := err.(*ParseError); ok {
			pe.File, pe.Record = name, index
		} else {
			err = &ParseError{File: name, Line: line, Column: col, Record: index, Err: err}
		}
		if !out.add(nil, err) {
			return
		}
		// skip to the next top-level tree
		depth := 0
		for sc.i < len(sc.s) {
			c := sc.next()
			if c == '(' {
				depth++
			} else if c == ')' {
				if depth--; depth <= 0 {
					break
				}
			} else if c == '[' {
				for sc.i < len(sc.s) {
					if d := sc.next(); d == '\\' && sc.i < len(sc.s) {
						sc.next()
					} else if d == ']' {
						break
					}
				}
			}
		}
	}
}

// gameTree reads "(" nodes and variations ")" and returns the nodes of its
// main line: the first variation at every fork. It walks the tree with an
// explicit stack of one flag per open parenthesis, not by recursion, so
// that deep nesting costs neither Go stack nor quadratic copying; the
// nodes of side variations are checked and dropped.
func (sc *sgfScanner) gameTree() ([][]sgfProp, error) {
	bad := func(format string, args ...any) error {
		return &ParseError{Line: sc.line, Column: sc.col, Err: fmt.Errorf("%w: "+format, append([]any{ErrSyntax}, args...)...)}
	}
	if sc.i >= len(sc.s) || sc.s[sc.i] != '(' {
		return nil, bad("a game tree starts with '('")
	}
	// onMain[i] says the tree opened at depth i lies on the main line;
	// forked says the innermost main-line tree has already given the main
	// line its first variation.
	type frame struct{ onMain, forked bool }
	stack := []frame{{onMain: true}}
	sc.next()
	var main [][]sgfProp
	for {
		sc.skipSpace()
		if sc.i >= len(sc.s) {
			return nil, bad("the game tree is not closed by ')'")
		}
		top := &stack[len(stack)-1]
		switch sc.s[sc.i] {
		case ';':
			sc.next()
			node, err := sc.node()
			if err != nil {
				return nil, err
			}
			if top.onMain && !top.forked {
				main = append(main, node)
			}
		case '(':
			sc.next()
			child := frame{onMain: top.onMain && !top.forked}
			if top.onMain {
				top.forked = true
			}
			stack = append(stack, child)
		case ')':
			sc.next()
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return main, nil
			}
		default:
			return nil, bad("unexpected %q", sc.s[sc.i])
		}
	}
}

// node reads the properties of one node.
func (sc *sgfScanner) node() ([]sgfProp, error) {
	var props []sgfProp
	for {
		sc.skipSpace()
		if sc.i >= len(sc.s) {
			return props, nil
		}
		c := sc.s[sc.i]
		if c < 'A' || c > 'Z' {
			if c >= 'a' && c <= 'z' { // old-style lower-case letters in identifiers
				sc.next()
				continue
			}
			return props, nil
		}
		p := sgfProp{line: sc.line, col: sc.col}
		for sc.i < len(sc.s) && ((sc.s[sc.i] >= 'A' && sc.s[sc.i] <= 'Z') || (sc.s[sc.i] >= 'a' && sc.s[sc.i] <= 'z')) {
			if c := sc.next(); c >= 'A' && c <= 'Z' {
				p.id += string(c)
			}
		}
		sc.skipSpace()
		for sc.i < len(sc.s) && sc.s[sc.i] == '[' {
			sc.next()
			var v strings.Builder
			closed := false
			for sc.i < len(sc.s) {
				d := sc.next()
				if d == '\\' && sc.i < len(sc.s) {
					v.WriteByte(sc.next())
					continue
				}
				if d == ']' {
					closed = true
					break
				}
				v.WriteByte(d)
			}
			if !closed {
				return nil, &ParseError{Line: p.line, Column: p.col, Err: fmt.Errorf("%w: property %s: value not closed by ']'", ErrSyntax, p.id)}
			}
			p.values = append(p.values, v.String())
			sc.skipSpace()
		}
		if len(p.values) == 0 {
			return nil, &ParseError{Line: p.line, Column: p.col, Err: fmt.Errorf("%w: property %s has no value", ErrSyntax, p.id)}
		}
		props = append(props, p)
	}
}

// sgfPoint reads a two-letter SGF point on a size×size board; "" and "tt"
// (on boards up to 19) are a pass, returned as NoPoint.
func sgfPoint(v string, size int) (engine.Point, error) {
	if v == "" || (v == "tt" && size <= 19) {
		return engine.NoPoint, nil
	}
	if len(v) != 2 || v[0] < 'a' || v[0] > 'z' || v[1] < 'a' || v[1] > 'z' {
		return engine.NoPoint, fmt.Errorf("%w: %q is not an SGF point", ErrSyntax, v)
	}
	x, y := int(v[0]-'a'), int(v[1]-'a')
	if x >= size || y >= size {
		return engine.NoPoint, fmt.Errorf("%q on %dx%d: %w", v, size, size, ErrOffBoard)
	}
	return engine.PointAt(x, size-1-y), nil
}

// sgfPosition plays a game tree's main line into a record.
func sgfPosition(name string, nodes [][]sgfProp, line, index int, opt Options) (*Position, error) {
	p := &Position{Source: name, Index: index, Line: line, Size: engine.DefaultSize, Rule: opt.Rule}
	bad := func(pr sgfProp, err error) error {
		return &ParseError{File: name, Line: pr.line, Column: pr.col, Record: index, Err: err}
	}
	// the root node's properties first: size, rule, names
	var toMove engine.Color
	var names []string
	if len(nodes) > 0 {
		for _, pr := range nodes[0] {
			v := strings.TrimSpace(pr.values[0])
			switch pr.id {
			case "SZ":
				n, err := strconv.Atoi(v)
				if err != nil || n < engine.MinSize || n > engine.MaxSize {
					return nil, bad(pr, fmt.Errorf("SZ[%s]: %w", v, ErrBadSize))
				}
				p.Size = n
			case "GM":
				if v != "4" {
					return nil, bad(pr, fmt.Errorf("GM[%s]: %w (gomoku and renju are GM[4])", v, ErrBadValue))
				}
			case "RU":
				switch l := strings.ToLower(v); {
				case strings.Contains(l, "renju"):
					p.Rule = engine.Renju
				case strings.Contains(l, "standard"), strings.Contains(l, "exact"):
					p.Rule = engine.Standard
				default:
					p.Rule = engine.Freestyle
				}
				p.RuleGiven = true
			case "RE":
				switch l := strings.ToLower(v); {
				case strings.HasPrefix(l, "b"):
					p.Result = "black"
				case strings.HasPrefix(l, "w"):
					p.Result = "white"
				case l == "0" || strings.HasPrefix(l, "draw"):
					p.Result = "draw"
				}
			case "GN":
				p.ID = v
			case "PB", "PW":
				names = append(names, pr.id+"="+v)
				p.Players[map[string]int{"PB": 0, "PW": 1}[pr.id]] = v
			case "EV":
				p.Event = v
			case "DT":
				p.Date = v
			}
		}
	}
	b, err := engine.NewBoard(p.Size, p.Rule)
	if err != nil {
		return nil, err
	}
	place := func(pr sgfProp, v string, c engine.Color, move bool) error {
		q, err := sgfPoint(v, p.Size)
		if err != nil {
			return bad(pr, err)
		}
		if q == engine.NoPoint {
			return bad(pr, fmt.Errorf("%w: a pass (gomoku has none)", ErrBadValue))
		}
		if b.LastMoveWon() {
			return bad(pr, fmt.Errorf("%v: %w", q, ErrAfterFive))
		}
		if err := b.Put(q, c); err != nil {
			return bad(pr, err)
		}
		if c == engine.Black {
			p.Black = append(p.Black, q)
		} else {
			p.White = append(p.White, q)
		}
		if move {
			p.Moves = append(p.Moves, q)
		}
		return nil
	}
	setup := false
	for _, node := range nodes {
		for _, pr := range node {
			switch pr.id {
			case "AB", "AW":
				c := engine.Black
				if pr.id == "AW" {
					c = engine.White
				}
				for _, v := range pr.values {
					if err := place(pr, v, c, false); err != nil {
						return nil, err
					}
				}
				setup = true
			case "B", "W":
				c := engine.Black
				if pr.id == "W" {
					c = engine.White
				}
				if toMove == engine.Empty && !setup && c == engine.White {
					return nil, bad(pr, fmt.Errorf("%w: W[%s]: white moves first (black opens a game; a setup with AB/AW or PL[W] may say otherwise)",
						ErrSideToMove, pr.values[0]))
				}
				if toMove != engine.Empty && c != toMove {
					return nil, bad(pr, fmt.Errorf("%w: %s[%s]: %v moves twice in a row", ErrSideToMove, pr.id, pr.values[0], c))
				}
				if err := place(pr, strings.TrimSpace(pr.values[0]), c, true); err != nil {
					return nil, err
				}
				toMove = c.Opponent()
			case "PL":
				c, err := ParseColorSGF(pr.values[0])
				if err != nil {
					return nil, bad(pr, err)
				}
				toMove = c
			}
		}
	}
	if setup {
		p.Moves = nil // the order of play is not known for setup stones
	}
	if toMove == engine.Empty {
		switch {
		case len(p.Black) == len(p.White):
			toMove = engine.Black
		case len(p.Black) == len(p.White)+1:
			toMove = engine.White
		default:
			return nil, &ParseError{File: name, Line: line, Record: index, Err: ErrSideToMove}
		}
	}
	p.ToMove = toMove
	if len(names) > 0 {
		p.Puzzle = &Puzzle{Note: strings.Join(names, " ")}
	}
	return p, nil
}

// ParseColorSGF reads an SGF colour, "B" or "W" (any case). The error wraps
// ErrBadValue.
func ParseColorSGF(v string) (engine.Color, error) {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "B":
		return engine.Black, nil
	case "W":
		return engine.White, nil
	}
	return engine.Empty, fmt.Errorf("%w: colour %q (want B or W)", ErrBadValue, v)
}
