package play

import (
	"gomoku/engine"
)

// Move heuristics for the best-move searches (MCTS and alpha-beta).
//
// The heuristic value H of a move combines two measures:
//
//   - the line-length formula of Kang & Kim: each of the four lines through
//     the cell scores by the length of the line the move makes and whether it
//     is open (both ends free: FlexTwo, FlexThree, StraightFour) or
//     half-closed (BlockedTwo, BlockedThree, Four), for the mover (attack)
//     and for the opponent (the same cell blocks the opponent's line: defence);
//   - García's monomial potential v(p) = Σ s(m) over the five-cell windows
//     covering p (engine.Board.Potentials), for both sides.
//
// Both are read from state the board keeps incrementally, so H costs a few
// table reads per cell.

// attackScore and defenceScore are the line-length scores, per LinePattern,
// of a line the mover makes (attack) and of the opponent's line the move
// occupies (defence). Open lines score several times their half-closed
// counterparts of the same length; a straight four or a five dwarfs all.
var (
	attackScore = [16]int32{
		engine.Dead: 0, engine.Overline: 0, engine.BlockedOne: 1, engine.FlexOne: 3,
		engine.BlockedTwo: 6, engine.FlexTwo: 20, engine.BlockedThree: 24, engine.FlexThree: 120,
		engine.Four: 150, engine.StraightFour: 3000, engine.DoubleFourLine: 3000, engine.Five: 100000,
	}
	defenceScore = [16]int32{
		engine.Dead: 0, engine.Overline: 0, engine.BlockedOne: 1, engine.FlexOne: 2,
		engine.BlockedTwo: 4, engine.FlexTwo: 14, engine.BlockedThree: 16, engine.FlexThree: 100,
		engine.Four: 110, engine.StraightFour: 2000, engine.DoubleFourLine: 2000, engine.Five: 50000,
	}
)

// lineScores sums a score table over the four packed line patterns of a cell.
func lineScores(tab *[16]int32, packed uint16) int32 {
	return tab[packed&0xf] + tab[packed>>4&0xf] + tab[packed>>8&0xf] + tab[packed>>12&0xf]
}

// heuristic returns H for side c playing the empty cell p: the line-length
// score of attack plus defence, plus both sides' window potentials scaled
// down by 16. It is at least 1 for an on-board empty cell, so that it can
// divide, and about 1e5 for a five.
func heuristic(b *engine.Board, c engine.Color, p engine.Point) int32 {
	h := lineScores(&attackScore, b.LinePatterns(c, p)) + lineScores(&defenceScore, b.LinePatterns(c.Opponent(), p))
	vb, vw := b.Potentials(p)
	return 1 + h + (vb+vw)/16
}

// candidates appends to buf the empty cells within Chebyshev distance 2 of a
// stone, each once, that c may play (renju: black's forbidden points are
// left out), in increasing Point order; the centre on an empty board. seen
// is scratch space of engine.NumCells bools, all false on entry and on
// return.
func candidates(b *engine.Board, c engine.Color, buf []engine.Point, seen []bool) []engine.Point {
	n := b.Size()
	if b.Stones() == 0 {
		return append(buf, engine.PointAt(n/2, n/2))
	}
	start := len(buf)
	for i := range b.Stones() {
		s, _ := b.Move(i)
		x, y := s.X(), s.Y()
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				q := engine.PointAt(x+dx, y+dy)
				if !q.In(n) || seen[q] || b.At(q) != engine.Empty {
					continue
				}
				seen[q] = true
				buf = append(buf, q)
			}
		}
	}
	out := buf[:start]
	for _, q := range buf[start:] {
		seen[q] = false
		if c == engine.Black && b.Rule() == engine.Renju && !b.Legal(c, q) {
			continue
		}
		out = append(out, q)
	}
	return out
}

// QuickMove returns a legal move for c on b at once, for when there is no
// time to search: c's five if it has one, else the block of the opponent's
// five-point if it is legal, else the candidate of highest H; NoPoint when
// c has no legal move at all.
func QuickMove(b *engine.Board, c engine.Color) engine.Point {
	if p := b.FirstPoint(c, engine.FivePoints); p != engine.NoPoint {
		return p
	}
	if p := b.FirstPoint(c.Opponent(), engine.FivePoints); p != engine.NoPoint && b.Legal(c, p) {
		return p
	}
	best, bestH := engine.NoPoint, int32(-1)
	for _, p := range candidates(b, c, nil, make([]bool, engine.NumCells)) {
		if h := heuristic(b, c, p); h > bestH {
			best, bestH = p, h
		}
	}
	if best != engine.NoPoint {
		return best
	}
	return b.FirstLegal(c)
}
