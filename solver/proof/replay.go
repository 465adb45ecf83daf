package solver

import (
	"errors"
	"fmt"

	"gomoku/engine"
)

// ReplayError is returned by Search when a line it found fails Verify: an
// internal error, never a result.
type ReplayError struct {
	Line []engine.Point
	Err  error
}

// Error names the line and the flaw found in it.
func (e *ReplayError) Error() string {
	return fmt.Sprintf("%v: %v: %v", ErrReplay, e.Line, e.Err)
}

// Unwrap lets errors.Is match ErrReplay.
func (e *ReplayError) Unwrap() []error { return []error{ErrReplay, e.Err} }

var errOverLimit = errors.New("line longer than the depth limit")

// Verify replays a VCF line on a fresh copy of the problem's board and
// returns how it ends. It checks, move by move, independently of the search:
//   - every attacker move is on an empty cell, legal (not forbidden to black
//     under renju), and is a five or a four;
//   - before each attacker four, the defender has no five-point unless the
//     attacker's move blocks it; after it, the defender has no five-point
//     (else the defender would make five instead of blocking);
//   - every defender move is the single five-point of the attacker's four;
//   - the line stops exactly where the win is certain: a five, two or more
//     five-points for the attacker, or a single five-point forbidden to a
//     black defender. Fives are checked by walking the lines through the
//     move (engine.Board.FiveThrough), not with the pattern tables.
//
// The error describes the first flaw, with the move's index and point.
func Verify(pr Problem, line []engine.Point) (LineEnd, error) {
	att, def, err := pr.check()
	if err != nil {
		return EndNone, err
	}
	b := pr.Board.Clone()
	if len(line) == 0 {
		return EndNone, errors.New("empty line")
	}
	for i := 0; i < len(line); i += 2 {
		m := line[i]
		if !b.OnBoard(m) || b.At(m) != engine.Empty {
			return EndNone, fmt.Errorf("move %d (%v): not an empty point", i+1, m)
		}
		if !b.Legal(att, m) {
			return EndNone, fmt.Errorf("move %d (%v): forbidden to black (%v)", i+1, m, b.Forbidden(m))
		}
		defFives := b.Points(def, engine.FivePoints, nil)
		b.Play(m, att)
		if b.FiveThrough(m) {
			if i != len(line)-1 {
				return EndNone, fmt.Errorf("move %d (%v): a five, but the line goes on", i+1, m)
			}
			return EndFive, nil
		}
		for _, q := range defFives {
			if q != m {
				return EndNone, fmt.Errorf("move %d (%v): the defender's four at %v is left open", i+1, m, q)
			}
		}
		if b.Count(def, engine.FivePoints) > 0 {
			return EndNone, fmt.Errorf("move %d (%v): the defender can make five at %v", i+1, m,
				b.FirstPoint(def, engine.FivePoints))
		}
		fives := b.Points(att, engine.FivePoints, nil)
		if len(fives) == 0 {
			return EndNone, fmt.Errorf("move %d (%v): not a four", i+1, m)
		}
		for _, f := range fives { // each five-point really makes a five
			b.Play(f, att)
			ok := b.FiveThrough(f)
			b.Undo()
			if !ok {
				return EndNone, fmt.Errorf("move %d (%v): five-point %v makes no five", i+1, m, f)
			}
		}
		last := i == len(line)-1
		switch {
		case len(fives) >= 2:
			if !last {
				return EndNone, fmt.Errorf("move %d (%v): the win is certain here, but the line goes on", i+1, m)
			}
			return EndDoubleFour, nil
		case def == engine.Black && b.Rule() == engine.Renju && b.Forbidden(fives[0]) != engine.NotForbidden:
			if !last {
				return EndNone, fmt.Errorf("move %d (%v): the block is forbidden here, but the line goes on", i+1, m)
			}
			return EndForbiddenBlock, nil
		case last:
			return EndNone, fmt.Errorf("move %d (%v): the line ends before the win is certain", i+1, m)
		}
		if line[i+1] != fives[0] {
			return EndNone, fmt.Errorf("move %d (%v): the defender must block at %v", i+2, line[i+1], fives[0])
		}
		b.Play(fives[0], def)
		if b.FiveThrough(fives[0]) {
			return EndNone, fmt.Errorf("move %d (%v): the block makes a five", i+2, fives[0])
		}
	}
	return EndNone, errors.New("the line ends on a defender move")
}
