package positions

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gomoku/engine"
)

// The text formats: move lists and diagrams, with "key: value" headers.
//
// A header sets a property of the records that follow. File-wide keys stay
// in force until changed: rule, size, black_symbol. Record keys apply to the
// next record only: mode (or task), attacker, to_move, limit, threat_limit,
// expect, tags, name, id, comment, and board (which only announces a
// diagram). Lines starting with "#" or "//" are comments.
//
// A diagram is a block of rows, top row first, of the cells "." "+" "-" "_"
// (empty) and "x" "X" "o" "O" (stones), separated by spaces or not, with or
// without row numbers at either end; rows of column letters are skipped. By
// default x is black; quintet's case files (which carry a "mode:" header)
// draw black as o, as quintet does, and "black_symbol: o" says so for any
// file.
//
// A move list is one game per line: renju points, spaced or not ("h8 i9",
// "h8i9"), or Piskvork pairs "x,y" (0-based, y from the top), black first.
// A line of four or more comma-separated integers is a Gomocup opening in
// offset form, "dx,dy, dx,dy, ...": moves relative to the centre cell
// (size/2, size/2) in Piskvork coordinates (y grows downwards), black first.

// textState is the header state while reading a text source.
type textState struct {
	name     string
	opt      Options
	rule     engine.Rule
	ruleSet  bool
	size     int
	sizeSet  bool
	blackSym byte // 0: default
	rec      map[string]headerVal
	boards   boards
}

type headerVal struct {
	value     string
	line, col int
}

var recordKeys = map[string]bool{"mode": true, "task": true, "attacker": true, "to_move": true, "limit": true,
	"threat_limit": true, "expect": true, "tags": true, "name": true, "id": true, "comment": true, "board": true}

// header splits "key: value" lines. Keys are lower-case letters, digits,
// spaces and underscores ("to move" reads as "to_move"), starting with a
// letter.
func header(line string) (key, value string, ok bool) {
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	k := strings.ToLower(strings.TrimSpace(line[:i]))
	if k == "" || k[0] < 'a' || k[0] > 'z' {
		return "", "", false
	}
	for j := 0; j < len(k); j++ {
		c := k[j]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == ' ' || c == '-') {
			return "", "", false
		}
	}
	k = strings.NewReplacer(" ", "_", "-", "_").Replace(k)
	return k, strings.TrimSpace(line[i+1:]), true
}

// isCell reports whether c draws a diagram cell.
func isCell(c byte) bool {
	switch c {
	case '.', '+', '-', '_', 'x', 'X', 'o', 'O':
		return true
	}
	return false
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// diagramRow returns the cells of a diagram row, or ok=false for any other
// line. A row that starts a diagram has at least engine.MinSize cells; the
// rows after it need only one, so that a short row is reported as such.
func diagramRow(line string, minCells int) (cells []byte, ok bool) {
	f := strings.Fields(line)
	if len(f) > 0 && isNumber(f[0]) {
		f = f[1:]
	}
	if len(f) > 0 && isNumber(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	if len(f) == 1 {
		for i := 0; i < len(f[0]); i++ {
			if !isCell(f[0][i]) {
				return nil, false
			}
		}
		cells = []byte(f[0])
	} else {
		for _, t := range f {
			if len(t) != 1 || !isCell(t[0]) {
				return nil, false
			}
			cells = append(cells, t[0])
		}
	}
	return cells, len(cells) >= minCells && len(cells) > 0
}

// labelRow reports whether a line is a row of column letters, "A B C ..." or
// "abcde...", in sequence from a.
func labelRow(line string) bool {
	s := strings.ToLower(strings.Join(strings.Fields(line), ""))
	if len(s) < engine.MinSize {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != byte('a'+i) {
			return false
		}
	}
	return true
}

func parseText(name string, data []byte, f Format, opt Options, out *sink) {
	st := &textState{name: name, opt: opt, rule: opt.Rule, size: opt.Size, rec: map[string]headerVal{}}
	lines := strings.Split(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\n")
	index := 0
	fail := func(line, col int, err error) {
		out.add(nil, &ParseError{File: name, Line: line, Column: col, Record: index, Err: err})
		index++
	}
	// add records one record's outcome; the record headers end with it
	add := func(p *Position, err error) {
		st.rec = map[string]headerVal{}
		out.add(p, err)
		index++
	}
	for i := 0; i < len(lines) && !out.stopped; i++ {
		raw := strings.TrimRight(lines[i], "\r")
		line := strings.TrimSpace(raw)
		lineNo := i + 1
		col := strings.Index(raw, line) + 1
		switch {
		case line == "" || isComment(line):
			continue
		case labelRow(line):
			continue
		}
		if k, v, ok := header(line); ok {
			if err := st.setHeader(k, v, lineNo, col); err != nil {
				out.add(nil, err)
			}
			continue
		}
		// in a diagram file a row too short for a board starts a block too,
		// so that the fault named is the board's size
		minCells := engine.MinSize
		if f == Diagram {
			minCells = 1
		}
		if _, ok := diagramRow(line, minCells); ok {
			// a block of rows, possibly ending with a label row
			start := i
			var rows [][]byte
			var rowLines []int
			for ; i < len(lines); i++ {
				l := strings.TrimSpace(strings.TrimRight(lines[i], "\r"))
				cells, ok := diagramRow(l, 1)
				if !ok {
					break
				}
				rows, rowLines = append(rows, cells), append(rowLines, i+1)
			}
			i-- // the loop's i++ moves past the block
			if f == MoveList {
				fail(start+1, col, fmt.Errorf("%w: a diagram row in a move list", ErrSyntax))
				st.rec = map[string]headerVal{}
				continue
			}
			add(st.diagram(rows, rowLines, index))
			continue
		}
		if f == Diagram {
			fail(lineNo, col, fmt.Errorf("%w: expected a diagram row or a header, got %q", ErrSyntax, clip(line)))
			continue
		}
		if offsetLine(line) {
			add(st.offsets(raw, lineNo, index))
		} else {
			add(st.moveList(raw, lineNo, index))
		}
	}
}

// pointText returns the point written at the start of s, of which
// engine.ScanPoint read n bytes, with any digits that follow (ScanPoint
// stops at two): "z99" rather than "z9" in an error message.
func pointText(s string, n int) string {
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n]
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// setHeader applies one header line.
func (st *textState) setHeader(k, v string, line, col int) error {
	bad := func(err error) error {
		return &ParseError{File: st.name, Line: line, Column: col, Record: -1, Err: err}
	}
	switch k {
	case "rule":
		r, err := engine.ParseRule(v)
		if err != nil {
			return bad(fmt.Errorf("%w: rule: %w", ErrBadValue, err))
		}
		st.rule, st.ruleSet = r, true
	case "size":
		n, err := strconv.Atoi(v)
		if err != nil || n < engine.MinSize || n > engine.MaxSize {
			return bad(fmt.Errorf("size %q: %w", v, ErrBadSize))
		}
		st.size, st.sizeSet = n, true
	case "black_symbol":
		if len(v) != 1 || (v[0]|0x20 != 'x' && v[0]|0x20 != 'o') {
			return bad(fmt.Errorf("%w: black_symbol %q (want x or o)", ErrBadValue, v))
		}
		st.blackSym = v[0] | 0x20
	default:
		if !recordKeys[k] {
			return bad(fmt.Errorf("%w: unknown header %q", ErrSyntax, k))
		}
		if k == "task" {
			k = "mode"
		}
		st.rec[k] = headerVal{value: v, line: line, col: col}
	}
	return nil
}

// newPosition starts a record with the file-wide settings.
func (st *textState) newPosition(line, index int) *Position {
	p := &Position{Source: st.name, Index: index, Line: line, Rule: st.rule, RuleGiven: st.ruleSet, Size: st.size}
	if h, ok := st.rec["name"]; ok {
		p.ID = h.value
	}
	if h, ok := st.rec["id"]; ok {
		p.ID = h.value
	}
	return p
}

// colorValue reads a side from a header value: a colour name, or a diagram
// symbol under the record's symbol convention.
func (st *textState) colorValue(h headerVal, blackSym byte) (engine.Color, error) {
	v := strings.ToLower(h.value)
	if v == "x" || v == "o" {
		if v[0] == blackSym {
			return engine.Black, nil
		}
		return engine.White, nil
	}
	c, err := engine.ParseColor(v)
	if err != nil {
		return engine.Empty, &ParseError{File: st.name, Line: h.line, Column: h.col, Record: -1,
			Err: fmt.Errorf("%w: %w", ErrBadValue, err)}
	}
	return c, nil
}

// puzzle applies the record headers to p.
func (st *textState) puzzle(p *Position, blackSym byte) error {
	for _, side := range []struct {
		key string
		dst *engine.Color
	}{{"attacker", &p.Attacker}, {"to_move", &p.ToMove}} {
		if h, ok := st.rec[side.key]; ok {
			c, err := st.colorValue(h, blackSym)
			if err != nil {
				return err
			}
			*side.dst = c
		}
	}
	bad := func(h headerVal, err error) error {
		return &ParseError{File: st.name, Line: h.line, Column: h.col, Record: p.Index, Err: err}
	}
	mode, isPuzzle := st.rec["mode"]
	for _, k := range []string{"limit", "threat_limit", "expect"} {
		_, ok := st.rec[k]
		isPuzzle = isPuzzle || ok
	}
	if !isPuzzle {
		return nil
	}
	pz := &Puzzle{}
	p.Puzzle = pz
	switch m := strings.ToLower(mode.value); {
	case m == "" && mode.line == 0:
		// limits without a mode: the command's mode applies
	case m == "vcf":
		pz.Task = "vcf"
	case strings.HasPrefix(m, "vct"):
		pz.Task = "vct"
	case m == "forbidden" || m == "block":
		pz.Task = m
	default:
		return bad(mode, fmt.Errorf("%w: mode %q", ErrBadValue, mode.value))
	}
	for _, k := range []string{"limit", "threat_limit"} {
		h, ok := st.rec[k]
		if !ok {
			continue
		}
		n, err := strconv.Atoi(h.value)
		if err != nil || n < 0 {
			return bad(h, fmt.Errorf("%w: %s %q", ErrBadValue, k, h.value))
		}
		if k == "limit" {
			pz.Limit = n
		} else {
			pz.ThreatLimit = n
		}
	}
	if h, ok := st.rec["tags"]; ok {
		pz.Tags = strings.Fields(h.value)
		for _, t := range pz.Tags {
			pz.Heavy = pz.Heavy || t == "heavy"
		}
	}
	if h, ok := st.rec["comment"]; ok {
		pz.Comment = h.value
	}
	if h, ok := st.rec["expect"]; ok {
		switch v := strings.ToLower(h.value); v {
		case "disproven", "no-win", "nowin":
			pz.Expect = "no-win"
		case "proven", "win":
			pz.Expect = "win"
		default:
			var pts []engine.Point
			for _, s := range strings.Split(v, ",") {
				q, err := engine.ParsePoint(s, p.Size)
				if err != nil {
					return bad(h, fmt.Errorf("expect: %w", err))
				}
				pts = append(pts, q)
			}
			switch pz.Task {
			case "vcf":
				pz.Expect, pz.Line = "win", pts
			case "vct":
				pz.Expect, pz.PV = "win", pts
			default:
				pz.ExpectPoints = pts
			}
		}
	}
	return nil
}

// diagram turns a block of rows into a position.
func (st *textState) diagram(rows [][]byte, rowLines []int, index int) (*Position, error) {
	first := rowLines[0]
	bad := func(line, col int, err error) error {
		return &ParseError{File: st.name, Line: line, Column: col, Record: index, Err: err}
	}
	n := len(rows[0])
	for i, r := range rows {
		if len(r) != n {
			return nil, bad(rowLines[i], 0, fmt.Errorf("%w: this row has %d cells, the first has %d",
				ErrBadSize, len(r), n))
		}
	}
	if len(rows) != n {
		return nil, bad(first, 0, fmt.Errorf("%w: %d rows of %d cells (boards are square)", ErrBadSize, len(rows), n))
	}
	if n < engine.MinSize || n > engine.MaxSize {
		return nil, bad(first, 0, fmt.Errorf("%w: %dx%d", ErrBadSize, n, n))
	}
	if st.sizeSet && st.size != n {
		return nil, bad(first, 0, fmt.Errorf("%w: size header says %d, the diagram is %dx%d", ErrBadSize, st.size, n, n))
	}
	blackSym := byte('x')
	if _, quintet := st.rec["mode"]; quintet {
		blackSym = 'o'
	}
	if st.blackSym != 0 {
		blackSym = st.blackSym
	}
	p := st.newPosition(first, index)
	p.Size = n
	for i, r := range rows {
		y := n - 1 - i
		for x, c := range r {
			switch c | 0x20 {
			case 'x', 'o':
				pt := engine.PointAt(x, y)
				if c|0x20 == blackSym {
					p.Black = append(p.Black, pt)
				} else {
					p.White = append(p.White, pt)
				}
			}
		}
	}
	if err := st.puzzle(p, blackSym); err != nil {
		return nil, err
	}
	if p.ToMove == engine.Empty {
		p.ToMove = p.Attacker
	}
	if p.ToMove == engine.Empty {
		switch len(p.Black) - len(p.White) {
		case 0:
			p.ToMove = engine.Black
		case 1:
			p.ToMove = engine.White
		default:
			return nil, bad(first, 0, fmt.Errorf("%w: %d black and %d white stones; add a to_move header",
				ErrSideToMove, len(p.Black), len(p.White)))
		}
	}
	if err := p.check(&st.boards); err != nil {
		return nil, bad(first, 0, err)
	}
	return p, nil
}

// offsetLine reports whether a line is a Gomocup offset opening: four or
// more comma-separated integers, in pairs.
func offsetLine(line string) bool {
	line, _, _ = strings.Cut(line, "#") // a trailing comment
	f := strings.Split(strings.TrimRight(line, ", "), ",")
	if len(f) < 4 || len(f)%2 != 0 {
		return false
	}
	for _, x := range f {
		if _, err := strconv.Atoi(strings.TrimSpace(x)); err != nil {
			return false
		}
	}
	return true
}

// offsets reads a Gomocup offset opening; the moves are checked by moveList
// once turned into Piskvork pairs, so errors point at the right column.
func (st *textState) offsets(raw string, line, index int) (*Position, error) {
	var sb strings.Builder
	var cols []int
	raw, _, _ = strings.Cut(raw, "#") // a trailing comment
	fields := strings.Split(raw, ",")
	off := 0
	for i := 0; i+1 < len(fields); i += 2 {
		dx, e1 := strconv.Atoi(strings.TrimSpace(fields[i]))
		dy, e2 := strconv.Atoi(strings.TrimSpace(fields[i+1]))
		if e1 != nil || e2 != nil {
			break
		}
		c := st.size / 2
		fmt.Fprintf(&sb, "%d,%d ", c+dx, c+dy)
		cols = append(cols, off+1)
		off += len(fields[i]) + len(fields[i+1]) + 2
	}
	p, err := st.moveList(sb.String(), line, index)
	if pe, ok := err.(*ParseError); ok && pe.Column > 0 {
		// map the column in the rewritten text back to the pair's column
		n := strings.Count(sb.String()[:pe.Column-1], " ")
		if n < len(cols) {
			pe.Column = cols[n]
		}
	}
	return p, err
}

// moveList reads one move-list line.
func (st *textState) moveList(raw string, line, index int) (*Position, error) {
	p := st.newPosition(line, index)
	bad := func(col int, err error) error {
		return &ParseError{File: st.name, Line: line, Column: col, Record: index, Err: err}
	}
	b, err := st.boards.get(p.Size, p.Rule)
	if err != nil {
		return nil, bad(0, err)
	}
	text := raw
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	pos := 0
	for pos < len(text) {
		c := text[pos]
		if c == ' ' || c == '\t' || c == '\r' || c == ';' {
			pos++
			continue
		}
		start := pos
		end := pos
		for end < len(text) && text[end] != ' ' && text[end] != '\t' && text[end] != '\r' && text[end] != ';' {
			end++
		}
		tok := text[start:end]
		pos = end
		var pts []engine.Point
		var cols []int
		if strings.IndexByte(tok, ',') >= 0 {
			q, err := engine.ParsePoint(tok, p.Size)
			if err != nil {
				return nil, bad(start+1, err)
			}
			pts, cols = append(pts, q), append(cols, start+1)
		} else {
			for i := 0; i < len(tok); {
				q, n := engine.ScanPoint(tok[i:], p.Size)
				if n == 0 {
					return nil, bad(start+i+1, fmt.Errorf("%w: %q is not a move", ErrSyntax, clip(tok[i:])))
				}
				if !q.In(p.Size) {
					return nil, bad(start+i+1, fmt.Errorf("%q on %dx%d: %w", pointText(tok[i:], n), p.Size, p.Size, ErrOffBoard))
				}
				pts, cols = append(pts, q), append(cols, start+i+1)
				i += n
			}
		}
		for j, q := range pts {
			if b.LastMoveWon() {
				return nil, bad(cols[j], fmt.Errorf("move %d (%v): %w", len(p.Moves)+1, q, ErrAfterFive))
			}
			color := engine.Color(1 + len(p.Moves)%2)
			if err := b.Put(q, color); err != nil {
				return nil, bad(cols[j], fmt.Errorf("move %d: %w", len(p.Moves)+1, err))
			}
			p.Moves = append(p.Moves, q)
			if color == engine.Black {
				p.Black = append(p.Black, q)
			} else {
				p.White = append(p.White, q)
			}
		}
	}
	if len(p.Moves) == 0 {
		return nil, bad(0, fmt.Errorf("%w: empty move list", ErrSyntax))
	}
	p.ToMove = engine.Color(1 + len(p.Moves)%2)
	if err := st.puzzle(p, 'x'); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Record = index
		}
		return nil, err
	}
	return p, nil
}
