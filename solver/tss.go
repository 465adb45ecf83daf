package solver

import "gomoku/engine"

// Threat-space search (Allis, van den Herik and Huntjens 1993; Allis 1994,
// ch. 4). A threat is an attacker move (its gain square) that forces the
// defender's reply: after a four, the five-point (one cost square); after an
// open three, every square that stops it becoming a straight four (two or
// three cost squares). Threat-space search plays the attacker's threats and
// lets the defender occupy all cost squares of each at once, a single-agent
// search that ignores the defender's counter-threats. Dependency-based
// search restricts every threat after the first to threats that use the
// previous gain square (the threat depends on it), which keeps the search
// narrow. A sequence that reaches a five or two five-points is a candidate
// winning line: not a proof (the defender may counter), but a good first
// guess for the proof-number search, which uses its first move first.

// tssBudget bounds the moves played by one threat-space search.
const tssBudget = 20000

type tss struct {
	b        *engine.Board
	att, def engine.Color
	played   int
	seq      []engine.Point
	moves    [][]engine.Point
}

// threatSpaceSearch returns a candidate winning threat sequence of the
// attacker, gain squares in order, of at most depth threats (capped at 8),
// or nil. It leaves b as it found it.
func threatSpaceSearch(b *engine.Board, att engine.Color, _ int, depth int) []engine.Point {
	t := &tss{b: b, att: att, def: att.Opponent()}
	for d := 1; d <= min(depth, 8); d++ {
		t.seq = t.seq[:0]
		if t.search(d, engine.NoPoint) {
			return append([]engine.Point(nil), t.seq...)
		}
		if t.played > tssBudget {
			break
		}
	}
	return nil
}

// search tries threats that depend on last (any threat when last is NoPoint).
func (t *tss) search(depth int, last engine.Point) bool {
	b := t.b
	if depth == 0 || t.played > tssBudget {
		return false
	}
	if b.Count(t.def, engine.FivePoints) > 0 {
		return false // the defender's four would have to be answered: not modelled
	}
	for len(t.moves) <= depth {
		t.moves = append(t.moves, nil)
	}
	gains := b.Points(t.att, engine.ThreePoints, t.moves[depth][:0])
	t.moves[depth] = gains
	for _, g := range gains {
		if last != engine.NoPoint && !onLine(g, last) {
			continue
		}
		if !b.Legal(t.att, g) {
			continue
		}
		b.Play(g, t.att)
		t.played++
		won := false
		switch fives := b.Count(t.att, engine.FivePoints); {
		case b.LastMoveWon() || fives >= 2:
			won = true
		case fives == 1:
			e := b.FirstPoint(t.att, engine.FivePoints)
			b.Play(e, t.def)
			t.played++
			won = t.search(depth-1, g)
			b.Undo()
		default:
			costs := t.threeCosts(g)
			if len(costs) > 0 {
				for _, c := range costs {
					b.Play(c, t.def)
				}
				t.played += len(costs)
				won = t.search(depth-1, g)
				for range costs {
					b.Undo()
				}
			}
		}
		b.Undo()
		if won {
			t.seq = append([]engine.Point{g}, t.seq...)
			return true
		}
	}
	return false
}

// threeCosts returns the cost squares of the open threes that the attacker's
// stone just played at g makes: the empty cells on their lines after whose
// occupation no straight-four point remains along that line.
func (t *tss) threeCosts(g engine.Point) []engine.Point {
	b := t.b
	var costs []engine.Point
	for d := engine.Direction(0); d < engine.NumDirs; d++ {
		step := engine.Dirs[d]
		straight := func() bool {
			for k := -4; k <= 4; k++ {
				q := engine.Point(int(g) + k*step)
				if b.OnBoard(q) && b.At(q) == engine.Empty && b.LinePattern(t.att, q, d) >= engine.StraightFour &&
					b.LinePattern(t.att, q, d) != engine.Five {
					return true
				}
			}
			return false
		}
		if !straight() {
			continue
		}
		for k := -5; k <= 5; k++ {
			x := engine.Point(int(g) + k*step)
			if k == 0 || !b.OnBoard(x) || b.At(x) != engine.Empty {
				continue
			}
			b.Play(x, t.def)
			t.played++
			stops := !straight()
			b.Undo()
			if stops {
				costs = append(costs, x)
			}
		}
	}
	return costs
}

// onLine reports whether a and b share a line within four steps, so that a
// threat at a can use a stone at b.
func onLine(a, b engine.Point) bool {
	dx, dy := a.X()-b.X(), a.Y()-b.Y()
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	return (dx == 0 || dy == 0 || dx == dy) && max(dx, dy) <= 4
}
