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
// first line of another shape (the engines' names and a final number follow
// in files Piskvork writes). One record per file.
func parsePSQ(name string, data []byte, opt Options) ([]*Position, []error) {
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
	for i := 1; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		parts := strings.Split(line, ",")
		if len(parts) != 3 {
			break
		}
		x, e1 := strconv.Atoi(strings.TrimSpace(parts[0]))
		y, e2 := strconv.Atoi(strings.TrimSpace(parts[1]))
		_, e3 := strconv.Atoi(strings.TrimSpace(parts[2]))
		if e1 != nil || e2 != nil || e3 != nil {
			break
		}
		c := strings.Index(lines[i], line) + 1
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
