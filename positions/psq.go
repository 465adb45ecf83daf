package positions

import (
	"fmt"
	"strconv"
	"strings"

	"gomoku/engine"
)

// parsePSQ reads a Gomocup/Piskvork .psq game record: a first line
// "Piskvorky WxH, ..." (W = H), then one "x,y,time" line per move, 1-based,
// x from the left and y from the top, black first. The move lines end at the
// first line without a comma (the engines' names and a final number follow
// in files Piskvork writes); a line with commas that is not a move, or a
// move line after that end, is an error. One record per file.
func parsePSQ(name string, data []byte, opt Options, out *sink) {
	ps, errs := parsePSQRecord(name, data, opt)
	for _, e := range errs {
		out.add(nil, e)
	}
	for _, p := range ps {
		out.add(p, nil)
	}
}

// parsePSQRecord reads the one record of a .psq file.
func parsePSQRecord(name string, data []byte, opt Options) ([]*Position, []error) {
	lines := strings.Split(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\n")
	bad := func(line, col int, err error) []error {
		return []error{&ParseError{File: name, Line: line, Column: col, Record: 0, Err: err}}
	}
	head := strings.TrimSpace(lines[0])
	if !strings.HasPrefix(strings.ToLower(head), "piskvorky") {
		return nil, bad(1, 1, fmt.Errorf("%w: a .psq record starts with \"Piskvorky WxH\"", ErrSyntax))
	}
	f := strings.FieldsFunc(head[len("piskvorky"):], func(r rune) bool { return r == ' ' || r == ',' })
	if len(f) == 0 {
		return nil, bad(1, 0, fmt.Errorf("%w: no board size", ErrSyntax))
	}
	wh := strings.SplitN(strings.ToLower(f[0]), "x", 2)
	w, err1 := strconv.Atoi(wh[0])
	h, err2 := -1, error(nil)
	if len(wh) == 2 {
		h, err2 = strconv.Atoi(wh[1])
	}
	col := strings.Index(lines[0], f[0]) + 1
	if err1 != nil || err2 != nil || len(wh) != 2 {
		return nil, bad(1, col, fmt.Errorf("%w: board size %q", ErrSyntax, f[0]))
	}
	if w != h || w < engine.MinSize || w > engine.MaxSize {
		return nil, bad(1, col, fmt.Errorf("%w: %dx%d", ErrBadSize, w, h))
	}
	p := &Position{Source: name, Line: 1, Size: w, Rule: opt.PSQRule}
	b, err := engine.NewBoard(w, p.Rule)
	if err != nil {
		return nil, bad(1, col, err)
	}
	ended := 0 // the line that ended the moves
	for i := 1; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		c := strings.Index(lines[i], line) + 1
		if line == "" {
			continue
		}
		parts := strings.Split(line, ",")
		if ended > 0 || len(parts) == 1 {
			if len(parts) == 3 && psqMove(parts) {
				return nil, bad(i+1, c, fmt.Errorf("%w: a move after the end of the moves at line %d", ErrSyntax, ended))
			}
			if ended == 0 {
				ended = i + 1
			}
			continue
		}
		if len(parts) != 3 || !psqMove(parts) {
			return nil, bad(i+1, c, fmt.Errorf("%w: %q is not a move line (x,y,time)", ErrSyntax, clip(line)))
		}
		x, _ := strconv.Atoi(strings.TrimSpace(parts[0]))
		y, _ := strconv.Atoi(strings.TrimSpace(parts[1]))
		if x < 1 || y < 1 || x > w || y > w {
			return nil, bad(i+1, c, fmt.Errorf("move %d (%d,%d on %dx%d): %w", len(p.Moves)+1, x, y, w, w, ErrOffBoard))
		}
		q := engine.PointAt(x-1, w-y)
		if b.LastMoveWon() {
			return nil, bad(i+1, c, fmt.Errorf("move %d (%v): %w", len(p.Moves)+1, q, ErrAfterFive))
		}
		color := engine.Color(1 + len(p.Moves)%2)
		if err := b.Put(q, color); err != nil {
			return nil, bad(i+1, c, fmt.Errorf("move %d: %w", len(p.Moves)+1, err))
		}
		p.Moves = append(p.Moves, q)
		if color == engine.Black {
			p.Black = append(p.Black, q)
		} else {
			p.White = append(p.White, q)
		}
	}
	p.ToMove = engine.Color(1 + len(p.Moves)%2)
	return []*Position{p}, nil
}

// psqMove reports whether the three fields of a .psq line are integers.
func psqMove(parts []string) bool {
	for _, f := range parts {
		if _, err := strconv.Atoi(strings.TrimSpace(f)); err != nil {
			return false
		}
	}
	return true
}
