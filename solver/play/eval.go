package play

import (
	"math"

	"gomoku/engine"
	"gomoku/nnue"
)

// The evaluation, after Rapfi's classical evaluator (per-cell pattern codes
// read through tables of learned weights, kept incrementally) and García's
// incremental potentials: the value of a position for the side to move is
//
//	E = Σ over empty cells q of Move[c][code_c(q)] − Wait[o][code_o(q)]
//	    + Threat[c][mask]
//
// where c is the side to move and o its opponent, code_s(q) is the
// combination of side s's four line patterns at q (engine.LinePatterns,
// the directions' order forgotten: a multiset of four of the twelve
// LinePatterns, NumCodes of them), Move and Wait are the tables of a side
// to move and of a side that waits (the same shape means more to the side
// that moves next), and mask is the threat mask of the side to move (which
// of its and its opponent's threat classes are on the board: a four, a
// four-three, an open three... ; NumMasks of them). The tables are per rule
// and colour (renju's are not symmetric) and are fitted to game results by
// `gomoku tune` (tune.go): the win rate of the side to move is
// 1/(1+exp(-E/Scale)).
//
// The sums are kept by Eval as moves are played: a move changes the
// patterns of at most 40 cells (engine.Board.LastChanges), so an update
// reads O(changed cells) table entries and a position is never rescanned.

// NumCodes is the number of pattern codes: the multisets of four line
// patterns out of twelve, C(15, 4).
const NumCodes = 1365

// NumMasks is the number of threat masks (11 bits, see threatMask).
const NumMasks = 1 << 11

// codeOf maps four packed line patterns (engine.LinePatterns) to their
// code: the index of the sorted 4-tuple among all sorted 4-tuples of
// patterns 0..11. Nibbles above 11 never occur and map to code 0.
var codeOf = func() *[1 << 16]uint16 {
	var idx [12][12][12][12]uint16
	n := uint16(0)
	for a := 0; a < 12; a++ {
		for b := a; b < 12; b++ {
			for c := b; c < 12; c++ {
				for d := c; d < 12; d++ {
					idx[a][b][c][d] = n
					n++
				}
			}
		}
	}
	var t [1 << 16]uint16
	for k := range t {
		p := [4]int{k & 0xf, k >> 4 & 0xf, k >> 8 & 0xf, k >> 12 & 0xf}
		if p[0] > 11 || p[1] > 11 || p[2] > 11 || p[3] > 11 {
			continue
		}
		for i := 1; i < 4; i++ { // sort the four
			for j := i; j > 0 && p[j] < p[j-1]; j-- {
				p[j], p[j-1] = p[j-1], p[j]
			}
		}
		t[k] = idx[p[0]][p[1]][p[2]][p[3]]
	}
	return &t
}()

// codePatterns lists each code's four line patterns, weakest first.
var codePatterns = func() (t [NumCodes][4]engine.LinePattern) {
	n := 0
	for a := 0; a < 12; a++ {
		for b := a; b < 12; b++ {
			for c := b; c < 12; c++ {
				for d := c; d < 12; d++ {
					t[n] = [4]engine.LinePattern{engine.LinePattern(a), engine.LinePattern(b), engine.LinePattern(c), engine.LinePattern(d)}
					n++
				}
			}
		}
	}
	return t
}()

// CodePatterns returns the four line patterns of a code in [0, NumCodes),
// weakest first.
func CodePatterns(code int) [4]engine.LinePattern { return codePatterns[code] }

// Table is the evaluation's weights for one rule and colour, in the
// evaluation's units (Weights.Scale of them make a win rate of 0.73).
type Table struct {
	// Move and Wait are the values of a cell's code for this colour when
	// it is to move and when it waits.
	Move, Wait [NumCodes]int32
	// Threat is the value of the threat mask when this colour is to move.
	Threat [NumMasks]int32
}

// Weights are the evaluation's tables, one per rule and colour (index
// colour-1), and the scale of its win rate.
type Weights struct {
	Tables [engine.NumRules][2]Table
	// Scale is the value at which the win rate of the side to move is
	// 1/(1+e^-1) ≈ 0.73; win rate = 1/(1+exp(-E/Scale)).
	Scale float64
	// Nets, where set, replace the tables' value with the rule's network
	// (package nnue): Value is then Scale·logit(W + D/2) of the network's
	// win, draw and loss probabilities. Not part of the weights file.
	Nets [engine.NumRules]*nnue.Net `json:"-"`
}

// WinRate converts an evaluation to the side to move's win rate, 0 to 1.
func (w *Weights) WinRate(v int32) float64 {
	switch {
	case v >= WinScore-MaxPly:
		return 1
	case v <= -WinScore+MaxPly:
		return 0
	}
	return 1 / (1 + math.Exp(-float64(v)/w.Scale))
}

// threatMask is the threat mask of side c to move from the threat class
// counts of both sides (bits after Rapfi's: the opponent's five; each
// side's straight four, four-three (or better), four, double three and
// three).
func threatMask(cnt *[2][engine.NumThreats]int16, c engine.Color) int {
	s, o := &cnt[(c-1)&1], &cnt[(2-c)&1]
	b := func(v int16, bit int) int {
		if v > 0 {
			return 1 << bit
		}
		return 0
	}
	return b(o[engine.ThreatFive], 0) |
		b(s[engine.ThreatStraightFour], 1) | b(o[engine.ThreatStraightFour], 2) |
		b(s[engine.ThreatFourThree], 3) | b(s[engine.ThreatFour], 4) |
		b(s[engine.ThreatDoubleThree], 5) | b(s[engine.ThreatThree], 6) |
		b(o[engine.ThreatFourThree], 7) | b(o[engine.ThreatFour], 8) |
		b(o[engine.ThreatDoubleThree], 9) | b(o[engine.ThreatThree], 10)
}

// evalSums are the running sums of an Eval, saved per ply for Undo.
type evalSums struct {
	move, wait [2]int32                    // by colour index: Σ Move, Σ Wait over empty cells
	count      [2][engine.NumThreats]int16 // by colour index: empty cells per threat class
}

// Eval keeps the evaluation of a board as moves are played and undone
// through it (Play, Undo: use them instead of the board's). It is not safe
// for concurrent use; each search goroutine has its own.
type Eval struct {
	B     *engine.Board
	w     *Weights
	t     *[2]Table // w.Tables[rule]
	sums  evalSums
	saved []evalSums
	stamp [engine.NumCells]uint32
	gen   uint32
	acc   *nnue.Acc // the network's accumulators, if w.Nets has the rule's
}

// NewEval sets up an evaluation of b (which it then plays on) with
// weights w, summing every empty cell once.
func NewEval(w *Weights, b *engine.Board) *Eval {
	e := &Eval{B: b, w: w, t: &w.Tables[b.Rule()]}
	if n := w.Nets[b.Rule()]; n != nil {
		e.acc = nnue.NewAcc(n, b)
	}
	e.Reset()
	return e
}

// Reset recomputes the sums from the board (after it was changed other
// than through the Eval).
func (e *Eval) Reset() {
	e.sums = evalSums{}
	e.saved = e.saved[:0]
	if e.acc != nil {
		e.acc.Refresh()
	}
	n := e.B.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if p := engine.PointAt(x, y); e.B.At(p) == engine.Empty {
				e.add(e.B.State(p), 1)
			}
		}
	}
}

// add adds (sign 1) or removes (sign -1) one empty cell's state from the
// sums.
func (e *Eval) add(s engine.CellState, sign int32) {
	for i := range 2 {
		c := engine.Color(i + 1)
		code := codeOf[s.Patterns(c)]
		t := &e.t[i]
		e.sums.move[i] += sign * t.Move[code]
		e.sums.wait[i] += sign * t.Wait[code]
		e.sums.count[i][s.Threat(c)] += int16(sign)
	}
}

// Play plays p for c on the board and updates the sums from the cells the
// move changed.
func (e *Eval) Play(p engine.Point, c engine.Color) {
	e.saved = append(e.saved, e.sums)
	e.B.Play(p, c)
	e.gen++
	if e.gen == 0 {
		clear(e.stamp[:])
		e.gen = 1
	}
	for _, ch := range e.B.LastChanges() {
		q := ch.Point()
		if e.stamp[q] == e.gen {
			continue // a later entry of a cell already counted
		}
		e.stamp[q] = e.gen
		if e.B.At(q) == engine.Empty {
			e.change(ch.Old(), e.B.State(q))
		} else {
			e.add(ch.Old(), -1)
		}
	}
	if e.acc != nil {
		e.acc.Push()
	}
}

// change moves one empty cell's contribution to the sums from state old to
// state s, side by side: a side whose patterns at the cell are the same in
// both (its threat class follows from them) is left as it is, which is most
// of the cells a move changes for the side it does not concern.
func (e *Eval) change(old, s engine.CellState) {
	for i := range 2 {
		c := engine.Color(i + 1)
		po, pn := old.Patterns(c), s.Patterns(c)
		if po == pn {
			continue
		}
		if e.acc == nil { // the network's value reads the counts only
			co, cn := codeOf[po], codeOf[pn]
			t := &e.t[i]
			e.sums.move[i] += t.Move[cn] - t.Move[co]
			e.sums.wait[i] += t.Wait[cn] - t.Wait[co]
		}
		e.sums.count[i][old.Threat(c)]--
		e.sums.count[i][s.Threat(c)]++
	}
}

// Undo takes back the last move played through Play.
func (e *Eval) Undo() {
	if e.acc != nil {
		e.acc.Pop()
	}
	e.B.Undo()
	e.sums = e.saved[len(e.saved)-1]
	e.saved = e.saved[:len(e.saved)-1]
}

// Value returns the evaluation for side c to move, in the evaluation's
// units, within ±EvalMax: the tables' sums, or the network's win rate
// converted (Weights.Nets).
func (e *Eval) Value(c engine.Color) int32 {
	if e.acc != nil {
		wr := max(1e-6, min(1-1e-6, nnue.WinRate(e.acc.WDL(c))))
		v := int32(e.w.Scale * math.Log(wr/(1-wr)))
		return max(-EvalMax, min(EvalMax, v))
	}
	i, o := (c-1)&1, (2-c)&1
	v := e.sums.move[i] - e.sums.wait[o] + e.t[i].Threat[threatMask(&e.sums.count, c)]
	return max(-EvalMax, min(EvalMax, v))
}

// Counts returns side c's number of empty cells of threat class t (kept
// with the sums).
func (e *Eval) Counts(c engine.Color, t engine.Threat) int { return int(e.sums.count[(c-1)&1][t]) }

// WinThreats returns side c's number of empty cells where it makes a
// straight four or a four-three (winsInTwo): the threats of a win in two.
func (e *Eval) WinThreats(c engine.Color) int {
	return e.Counts(c, engine.ThreatStraightFour) + e.Counts(c, engine.ThreatFourThree)
}

// winsInTwo reports whether a move of threat class th wins in two unless
// stopped: a straight four (or two fours), or a four and an open three.
func winsInTwo(th engine.Threat) bool {
	return th == engine.ThreatStraightFour || th == engine.ThreatFourThree
}

// WinScore is the score of a won position (a five on the board), from the
// winner's side; a win in n plies scores WinScore-n. EvalMax bounds the
// evaluation well below it; MaxPly bounds the plies of a search.
const (
	WinScore = 1 << 20
	MaxPly   = 256
	EvalMax  = WinScore / 2
)
