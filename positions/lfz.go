package positions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"gomoku/engine"
)

// lfzPuzzle is one entry of an lfz084 puzzle file (github.com/lfz084/renju,
// puzzle/json/*.json): a JSON document {"puzzles": [...]} whose entries give
// the stones as a move string from black ("stones") and/or per side
// ("blackStones", "whiteStones"), the side to play and win (1 black, 2
// white), the rule (2 renju), the size, and the mode (32 VCF, 64 VCT; 0
// marks a cover page, which is skipped but keeps its index).
type lfzPuzzle struct {
	Side        int    `json:"side"`
	Rule        int    `json:"rule"`
	Size        int    `json:"size"`
	Mode        int    `json:"mode"`
	Stones      string `json:"stones"`
	BlackStones string `json:"blackStones"`
	WhiteStones string `json:"whiteStones"`
	Comment     string `json:"comment"`
}

// isLFZ reports whether data is one JSON document with a "puzzles" array.
func isLFZ(data []byte) bool {
	var doc struct {
		Puzzles []json.RawMessage `json:"puzzles"`
	}
	return json.Unmarshal(data, &doc) == nil && doc.Puzzles != nil
}

// LineCol converts byte offset off of data to a 1-based line and column
// (the column counts bytes); an offset past the end counts as the end.
func LineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, int(off) - bytes.LastIndexByte(before, '\n')
}

// parseLFZ reads an lfz084 puzzle file. Boards smaller than 15 are drawn in
// the top-left corner of lfz084's 15×15 grid, so their row numbers are
// shifted down by 15-size (row 10 of a 6×6 puzzle is row 1 here).
func parseLFZ(name string, data []byte, opt Options, out *sink) {
	dec := json.NewDecoder(bytes.NewReader(data))
	fail := func(off int64, index int, err error) *ParseError {
		l, c := LineCol(data, off)
		return &ParseError{File: name, Line: l, Column: c, Record: index, Err: err}
	}
	// walk to the "puzzles" array
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		out.add(nil, fail(dec.InputOffset(), -1, fmt.Errorf("%w: want a JSON object", ErrSyntax)))
		return
	}
	for {
		t, err := dec.Token()
		if err != nil {
			out.add(nil, fail(dec.InputOffset(), -1, fmt.Errorf("%w: %v", ErrSyntax, err)))
			return
		}
		if t == json.Delim('}') {
			out.add(nil, fail(dec.InputOffset(), -1, fmt.Errorf("%w: no \"puzzles\" array", ErrSyntax)))
			return
		}
		if key, _ := t.(string); key == "puzzles" {
			break
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			out.add(nil, fail(dec.InputOffset(), -1, fmt.Errorf("%w: %v", ErrSyntax, err)))
			return
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		out.add(nil, fail(dec.InputOffset(), -1, fmt.Errorf("%w: \"puzzles\" is not an array", ErrSyntax)))
		return
	}
	var bs boards
	for index := 0; dec.More(); index++ {
		off := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			out.add(nil, fail(off, index, fmt.Errorf("%w: %v", ErrSyntax, err)))
			return
		}
		// the entry starts after the separator and white space
		start := off + int64(len(data[off:])-len(bytes.TrimLeft(data[off:], ", \t\r\n")))
		if string(raw) == "null" {
			if !out.add(nil, fail(start, index, fmt.Errorf("%w: a null puzzle", ErrSyntax))) {
				return
			}
			continue
		}
		var e lfzPuzzle
		if err := json.Unmarshal(raw, &e); err != nil {
			if !out.add(nil, fail(start, index, fmt.Errorf("%w: %v", ErrSyntax, err))) {
				return
			}
			continue
		}
		if e.Mode == 0 && e.Stones == "" && e.BlackStones == "" && e.WhiteStones == "" {
			continue // cover page
		}
		p, err := lfzPosition(name, e, index, opt, &bs)
		if err != nil {
			if !out.add(nil, fail(start, index, err)) {
				return
			}
			continue
		}
		p.Line, _ = LineCol(data, start)
		if !out.add(p, nil) {
			return
		}
	}
}

func lfzPosition(name string, e lfzPuzzle, index int, opt Options, bs *boards) (*Position, error) {
	size := e.Size
	if size == 0 {
		size = engine.DefaultSize
	}
	if size < engine.MinSize || size > engine.DefaultSize {
		return nil, fmt.Errorf("size %d: %w", e.Size, ErrBadSize)
	}
	p := &Position{Source: name, Index: index, ID: fmt.Sprintf("%s#%d", name, index), Size: size, Rule: opt.Rule}
	switch e.Rule {
	case 2:
		p.Rule, p.RuleGiven = engine.Renju, true
	case 0:
	default:
		return nil, fmt.Errorf("%w: rule code %d (only 2, renju, is known)", ErrBadValue, e.Rule)
	}
	shift := engine.DefaultSize - size
	read := func(field, s string) ([]engine.Point, error) {
		var out []engine.Point
		for i := 0; i < len(s); {
			q, n := engine.ScanPoint(s[i:], engine.DefaultSize)
			if n == 0 {
				return nil, fmt.Errorf("%s: %w: %q is not a point", field, ErrSyntax, clip(s[i:]))
			}
			q = engine.PointAt(q.X(), q.Y()-shift)
			if !q.In(size) {
				return nil, fmt.Errorf("%s: %q on %dx%d: %w", field, s[i:i+n], size, size, ErrOffBoard)
			}
			out = append(out, q)
			i += n
		}
		return out, nil
	}
	moves, err := read("stones", strings.TrimSpace(e.Stones))
	if err != nil {
		return nil, err
	}
	for i, q := range moves {
		if i%2 == 0 {
			p.Black = append(p.Black, q)
		} else {
			p.White = append(p.White, q)
		}
	}
	if len(moves) > 0 && e.BlackStones == "" && e.WhiteStones == "" {
		p.Moves = moves
	}
	extraB, err := read("blackStones", strings.TrimSpace(e.BlackStones))
	if err != nil {
		return nil, err
	}
	extraW, err := read("whiteStones", strings.TrimSpace(e.WhiteStones))
	if err != nil {
		return nil, err
	}
	p.Black, p.White = append(p.Black, extraB...), append(p.White, extraW...)
	switch e.Side {
	case 1:
		p.ToMove = engine.Black
	case 2:
		p.ToMove = engine.White
	default:
		return nil, fmt.Errorf("%w: side %d (want 1 or 2)", ErrBadValue, e.Side)
	}
	p.Attacker = p.ToMove
	switch e.Mode {
	case 32:
		p.Puzzle = &Puzzle{Task: "vcf", Expect: "win"}
	case 64:
		p.Puzzle = &Puzzle{Task: "vct", Expect: "win"}
	}
	if err := p.check(bs); err != nil {
		return nil, err
	}
	return p, nil
}
