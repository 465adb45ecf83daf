package play

import (
	"slices"

	"gomoku/engine"
)

// nearOffsets are the cells a stone makes candidates: within two in every
// direction, and three along its four lines (Rapfi's "square2_line3").
var nearOffsets = func() []int {
	var out []int
	for dy := -3; dy <= 3; dy++ {
		for dx := -3; dx <= 3; dx++ {
			ax, ay := max(dx, -dx), max(dy, -dy)
			square2 := ax <= 2 && ay <= 2
			line3 := (dx == 0 || dy == 0 || ax == ay) && max(ax, ay) == 3
			if (dx != 0 || dy != 0) && (square2 || line3) {
				out = append(out, dy*engine.Stride+dx)
			}
		}
	}
	return out
}()

// resetNear recomputes the candidate counts from the thread's board.
func (t *abThread) resetNear() {
	t.near = [engine.NumCells]uint8{}
	b := t.e.B
	for i := range b.Stones() {
		p, _ := b.Move(i)
		t.addNear(p, 1)
	}
}

// addNear adds d to the candidate counts around p.
func (t *abThread) addNear(p engine.Point, d uint8) {
	for _, off := range nearOffsets {
		q := (int(p) + off) & (engine.NumCells - 1)
		t.near[q] += d
	}
}

// play plays p for c on the thread's board and evaluation.
func (t *abThread) play(p engine.Point, c engine.Color) {
	t.e.Play(p, c)
	t.addNear(p, 1)
}

// undo takes back the last play.
func (t *abThread) undo() {
	p, _ := t.e.B.LastMove()
	t.addNear(p, 255) // -1
	t.e.Undo()
}

// Move ordering bonuses, above any static score.
const (
	orderTT      = 1 << 30
	orderKiller  = 1 << 28
	orderCounter = 1 << 27
)

// threatOrder is the ordering value of a move's threat class for the
// mover (attack) and for the opponent it blocks (defence).
var (
	attackOrder  = [engine.NumThreats]int32{0, 0, 20, 30, 300, 600, 500, 5000, 8000, 100000}
	defenceOrder = [engine.NumThreats]int32{0, 0, 10, 15, 200, 400, 300, 3000, 6000, 50000}
)

// genMoves returns the moves of the side to move at ply, scored, in the
// thread's buffer for the ply; sorted best first when sorted is true, else
// in board order for pickMove. With vcfThreat, the opponent's VCF line is
// marked in defMark and only the side's fours and the marked cells that
// stop the VCF (stopsVCF) are kept. Facing a threat of a straight four or
// a four-three (the opponent wins in two unless stopped), only the moves
// that stop it and the side's own fours are kept. A kept quiet move is
// checked (stops, stopsVCF) at once when sorted is true; otherwise it is
// returned with its check pending (scoredMove.check), for the search to
// run when it reaches the move (verified): most nodes cut off after their
// first moves, and the checks are the costly part of such a node. A
// position with no candidate returns no move.
func (t *abThread) genMoves(ply int, ttMove engine.Point, sorted, vcfThreat bool) []scoredMove {
	e := t.e
	b := e.B
	c, o := t.sides(ply)
	ci := (c - 1) & 1
	buf := t.moves[ply][:0]
	n := b.Size()
	if b.Stones() == 0 {
		buf = append(buf, scoredMove{p: engine.PointAt(n/2, n/2)})
		t.moves[ply] = buf
		return buf
	}
	threatened := e.WinThreats(o) > 0
	var reach *reachMarks
	if threatened {
		reach = t.threatReach(o)
	}
	var last engine.Point
	if k := b.Stones(); k > 0 {
		last, _ = b.Move(k - 1)
	}
	killers := t.killers[min(ply, MaxPly-1)]
	counter := engine.NoPoint
	if last != engine.NoPoint {
		counter = t.counter[ci][last]
	}
	tc := &e.t[ci]
	to := &e.t[(o-1)&1]
	policy := t.policyWeight()
	for y := 0; y < n; y++ {
		row := engine.PointAt(0, y)
		for x := 0; x < n; x++ {
			p := row + engine.Point(x)
			if t.near[p] == 0 || b.At(p) != engine.Empty {
				continue
			}
			thC, thO := b.Threat(c, p), b.Threat(o, p)
			if thC == engine.ThreatForbidden || !b.Legal(c, p) {
				continue
			}
			check := checkNone
			if threatened && thC < engine.ThreatFour {
				if !reach.has(p) {
					continue
				}
				check = checkStops
			}
			if vcfThreat && thC < engine.ThreatFour {
				if t.defMark[p] != t.defGen {
					continue
				}
				check |= checkVCF
			}
			if sorted && check != checkNone {
				if !t.verified(c, scoredMove{p: p, check: check}) {
					continue
				}
				check = checkNone
			}
			st := b.State(p)
			s := attackOrder[thC] + defenceOrder[thO] + tc.Move[codeOf[st.Patterns(c)]] + to.Wait[codeOf[st.Patterns(o)]]/2 +
				t.history[ci][p]/16
			if policy != 0 {
				s += int32(policy * e.acc.Policy(c, p))
			}
			switch p {
			case ttMove:
				s += orderTT
			case killers[0], killers[1]:
				s += orderKiller
			case counter:
				s += orderCounter
			}
			buf = append(buf, scoredMove{p: p, score: s, check: check})
		}
	}
	if !sorted {
		t.moves[ply] = buf
		return buf
	}
	slices.SortFunc(buf, func(a, b scoredMove) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return int(a.p) - int(b.p) // deterministic ties
	})
	t.moves[ply] = buf
	return buf
}

// threatReach marks the cells that can stop o's threats of a straight
// four or a four-three, and must do so for every threat cell: the cell
// itself, and the cells within five steps of it along the lines on which
// o's pattern there is an open three or better. A threat cell's class
// comes from those lines alone (engine's combine: a straight four or two
// fours, or a four and an open three), and a stone off a line leaves that
// line's pattern as it is, so a move elsewhere leaves the threat standing.
// (Under renju a white stone can make one of black's threes real where it
// was not, never the other way, so it cannot take away a four-three
// either.) The marks are in the thread's scratch array, valid until the
// next call.
func (t *abThread) threatReach(o engine.Color) *reachMarks {
	b := t.e.B
	r := &t.reach
	r.clear()
	var buf [64]engine.Point
	for _, q := range b.Points(o, engine.FourPoints, buf[:0]) {
		if !winsInTwo(b.Threat(o, q)) {
			continue
		}
		r.threats++
		r.mark(q)
		for i, d := range engine.Dirs {
			if b.LinePattern(o, q, engine.Direction(i)) < engine.FlexThree {
				continue
			}
			for k := 1; k <= engine.Pad; k++ {
				r.mark(engine.Point(int(q)+k*d) & (engine.NumCells - 1))
				r.mark(engine.Point(int(q)-k*d) & (engine.NumCells - 1))
			}
		}
	}
	return r
}

// reachMarks counts, per cell, the threat cells whose reach holds it
// (threatReach); only the cells marked are ever non-zero, so clearing
// costs what marking did.
type reachMarks struct {
	count   [engine.NumCells]uint8
	touched []engine.Point
	threats int
}

// mark counts one more threat cell reaching p.
func (r *reachMarks) mark(p engine.Point) {
	if r.count[p] == 0 {
		r.touched = append(r.touched, p)
	}
	r.count[p]++
}

// has reports whether p is in the reach of every threat cell.
func (r *reachMarks) has(p engine.Point) bool {
	return r.threats > 0 && int(r.count[p&(engine.NumCells-1)]) >= r.threats
}

// clear zeroes the marks.
func (r *reachMarks) clear() {
	for _, p := range r.touched {
		r.count[p] = 0
	}
	r.touched, r.threats = r.touched[:0], 0
}

// moveScore is the static ordering score of c's move p (genMoves's, without
// the search's own history and killers): its threat classes for both
// sides and the evaluation tables' values of its cell.
func moveScore(e *Eval, c engine.Color, p engine.Point) int32 {
	b := e.B
	o := c.Opponent()
	st := b.State(p)
	return attackOrder[b.Threat(c, p)] + defenceOrder[b.Threat(o, p)] + e.t[(c-1)&1].Move[codeOf[st.Patterns(c)]] +
		e.t[(o-1)&1].Wait[codeOf[st.Patterns(o)]]/2
}

// The checks a move of genMoves may have pending (scoredMove.check).
const (
	checkNone  uint8 = 0
	checkStops uint8 = 1 << iota // stops: it must leave no straight four or four-three
	checkVCF                     // stopsVCF: it must leave no VCF
)

// verified runs m's pending checks for c and reports whether it passes
// them all.
func (t *abThread) verified(c engine.Color, m scoredMove) bool {
	if m.check&checkStops != 0 && !t.stops(c, m.p) {
		return false
	}
	return m.check&checkVCF == 0 || t.stopsVCF(c, m.p)
}

// stopsVCF reports whether c's move p leaves the opponent no VCF (found
// within the VCFDefNodes budget). The move is played on the board alone:
// the evaluation's sums are not needed, and the board comes back as it was.
func (t *abThread) stopsVCF(c engine.Color, p engine.Point) bool {
	t.nodes++
	b := t.e.B
	b.Play(p, c)
	_, won := t.vcf.Win(b, c.Opponent(), t.a.Params.VCFDefNodes)
	t.nodes += t.vcf.Nodes()
	b.Undo()
	return !won
}

// stops reports whether c's move p leaves the opponent no straight four or
// four-three to make (the threats of a win in two). A move that leaves one
// of the threat cells as it is fails without being played; the others are
// played on the board alone (the evaluation's sums, which Eval.Play would
// update at about the cost of the board's own update, are not needed) and
// the opponent's four-points, where such a cell would be, are read.
func (t *abThread) stops(c engine.Color, p engine.Point) bool {
	o := c.Opponent()
	t.nodes++
	b := t.e.B
	// a threat cell that keeps its class with p played (engine's ThreatIf,
	// read from the line table) shows at once that p does not stop it
	t.fours = b.Points(o, engine.FourPoints, t.fours[:0])
	for _, q := range t.fours {
		if q != p && winsInTwo(b.Threat(o, q)) && winsInTwo(b.ThreatIf(o, q, c, p)) {
			return false
		}
	}
	b.Play(p, c)
	ok := true
	if b.Count(o, engine.FourPoints) > 0 {
		t.fours = b.Points(o, engine.FourPoints, t.fours[:0])
		for _, q := range t.fours {
			if winsInTwo(b.Threat(o, q)) {
				ok = false
				break
			}
		}
	}
	b.Undo()
	return ok
}

// policyWeight is the weight of the network's policy logit in the move
// ordering: ABParams.PolicyOrder with a network evaluation, 0 with the
// tables (no policy). Where it is not 0 the cap on the moves below the
// root takes ABParams.PolicyMoves more.
func (t *abThread) policyWeight() float32 {
	if t.e.acc == nil {
		return 0
	}
	return float32(t.a.Params.PolicyOrder)
}
