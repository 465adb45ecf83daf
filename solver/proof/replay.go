package proof

import (
	"errors"
	"fmt"

	"gomoku/engine"
)

// VerifyLine replays a VCF line of attacker on a fresh copy of board b (the
// attacker moves first) and returns how it ends. It checks, move by move, independently of the search:
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
// The error describes the first flaw, with the move's index and point; it
// is ErrNoAttacker when attacker is not black or white, and ErrDefenderFive
// when the defender already has a five on b.
func VerifyLine(b *engine.Board, attacker engine.Color, line []engine.Point) (End, error) {
	if attacker != engine.Black && attacker != engine.White {
		return EndNone, ErrNoAttacker
	}
	att, def := attacker, attacker.Opponent()
	if b.HasFive(def) {
		return EndNone, ErrDefenderFive
	}
	b = engine.Scratch(b)
	defer engine.Release(b)
	if len(line) == 0 {
		return EndNone, errors.New("empty line")
	}
	// the five-points, in buffers on the stack: a cold process would fault
	// in fresh heap for each list
	var defBuf, attBuf [8]engine.Point
	for i := 0; i < len(line); i += 2 {
		m := line[i]
		if !b.OnBoard(m) || b.At(m) != engine.Empty {
			return EndNone, fmt.Errorf("move %d (%v): not an empty point", i+1, m)
		}
		if !b.Legal(att, m) {
			return EndNone, fmt.Errorf("move %d (%v): forbidden to black (%v)", i+1, m, b.Forbidden(m))
		}
		defFives := b.Points(def, engine.FivePoints, defBuf[:0])
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
		fives := b.Points(att, engine.FivePoints, attBuf[:0])
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
