package solver

import (
	"context"
	"sync/atomic"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// VCF searches for a victory by continuous fours: every attacker move is a
// four (or the final five), so every defender move is forced onto the four's
// five-point. It is a depth-first search over attacker moves with a table of
// disproved positions (failTable), in the spirit of Allis's threat-space
// search restricted to fours (Allis, Searching for Solutions in Games and
// Artificial Intelligence, 1994, ch. 4), which is also how puzzle solvers such
// as quintet and mintaka search VCF.
//
// The rules of the search:
//   - At each attacker turn: a five-point of the attacker wins at once. If the
//     defender has a four (a five-point), the attacker must block it, and the
//     block must itself be a four; two defender five-points refute the line.
//   - Otherwise the attacker tries every four, under renju never a forbidden
//     one for black, ordered deterministically (see order).
//   - After the four: a five-point of the defender refutes it (the defender
//     makes five instead of blocking); two or more attacker five-points win
//     (straight four or double four); a single five-point that is forbidden
//     to a black defender wins (forbidden block); else the defender blocks
//     there and the search goes on.
//   - A block is not played where the line cannot go on from it: when the
//     attacker would have no four left (foursAfterBlock), or, with one
//     attacker move left, when no cell could then win at once
//     (winnerAfterBlock).
//   - A four whose position after the block the table already refutes at
//     the depth left is not played (childKeys: an enhanced transposition
//     cutoff, since the same fours in different orders meet).
//
// A VCF value is reusable across Search calls; its table is sized once.
type VCF struct {
	tt *failTable
	// Shortest makes Search return a shortest winning line: after a win of
	// L attacker moves it searches the limit L-1, and again below each
	// shorter win, until a limit has no win, which proves the last line
	// shortest (Result.Shortest). Disproofs cost nothing more.
	Shortest bool
	// run is the state of the search, kept so that its buffers serve the
	// next one
	run vcfRun
}

// NewVCF returns a VCF searcher with a transposition table of mib MiB
// (DefaultMemoryMiB when mib is 0).
func NewVCF(mib int) *VCF {
	if mib <= 0 {
		mib = DefaultMemoryMiB
	}
	return &VCF{tt: newFailTable(mib)}
}

// vcfRun is the state of one search.
type vcfRun struct {
	b        *engine.Board
	att, def engine.Color
	renjuDef bool // the defender is black under renju: its blocks can be forbidden
	renjuAtt bool // the attacker is black under renju: its fours can be forbidden
	tt       *failTable
	bu       *Budget
	nodes    int64
	hits     int64
	// nodeCap stops the search once nodes exceed it: the budget's node
	// limit, or a smaller cap of one call (capped then says so)
	nodeCap   int64
	capped    bool
	depthLim  int
	cutoff    bool // some branch stopped at the depth limit
	stop      bool
	line      []engine.Point // built in reverse while the win unwinds
	fwd       []engine.Point // the line of find, in order
	end       proof.End
	moveBufs  [][]engine.Point
	scoreBufs [][]int32
	keyBufs   [][]uint64     // per ply: the children's keys (childKeys)
	sink      uint64         // defeats the elimination of childKeys's loads
	cells     []engine.Point // scratch of the block cuts
	// noBlockCuts turns the block cuts (foursAfterBlock, winnerAfterBlock)
	// off, noTransCut the table probe of a four's child before it is played
	// (childKeys); tests compare the two
	noBlockCuts bool
	noTransCut  bool
}

// newVCFRun prepares a VCF search of att on b (which it plays on and
// restores), with table tt and budget bu; def is att's opponent.
func newVCFRun(b *engine.Board, att engine.Color, tt *failTable, bu *Budget) *vcfRun {
	r := &vcfRun{}
	r.reset(b, att, tt, bu)
	return r
}

// reset prepares r for a new search as newVCFRun does, keeping its buffers.
func (r *vcfRun) reset(b *engine.Board, att engine.Color, tt *failTable, bu *Budget) {
	def := att.Opponent()
	*r = vcfRun{b: b, att: att, def: def, tt: tt, bu: bu, nodeCap: bu.maxNodes,
		renjuDef: b.Rule() == engine.Renju && def == engine.Black,
		renjuAtt: b.Rule() == engine.Renju && att == engine.Black,
		line:     r.line[:0], fwd: r.fwd[:0], moveBufs: r.moveBufs, scoreBufs: r.scoreBufs, keyBufs: r.keyBufs, cells: r.cells}
}

// setBudget moves r onto budget bu, with its node cap (a cap left at the
// old budget's limit would stop the search there).
func (r *vcfRun) setBudget(bu *Budget) {
	r.bu, r.nodeCap = bu, bu.maxNodes
}

// find searches the current position (attacker to move) for a VCF of at
// most depth attacker moves. On a win it returns the line, in a buffer that
// the next call reuses, and how it ends. It returns false when there is no
// such VCF or the budget ran out (r.stop).
func (r *vcfRun) find(depth int) ([]engine.Point, proof.End, bool) {
	r.depthLim, r.cutoff, r.line = depth, false, r.line[:0]
	if !r.attack(depth, 0) {
		return nil, proof.EndNone, false
	}
	r.fwd = r.fwd[:0]
	for i := len(r.line) - 1; i >= 0; i-- {
		r.fwd = append(r.fwd, r.line[i])
	}
	return r.fwd, r.end, true
}

// maxVCFDepth is the depth used when Limits.Depth is zero: more attacker
// moves than any board can hold fours for.
const maxVCFDepth = engine.MaxSize * engine.MaxSize / 2

// Search implements Searcher for VCF. Errors: ErrBadProblem,
// ErrDefenderToMove, ErrGameOver for problems it cannot take, ErrReplay if a
// line it found fails verification (never expected).
func (v *VCF) Search(ctx context.Context, pr Problem, lim Limits, progress ProgressFunc) (Result, error) {
	att, _, err := pr.check()
	if err != nil {
		return Result{}, err
	}
	if v.tt == nil {
		v.tt = newFailTable(DefaultMemoryMiB)
	}
	v.tt.nextGeneration()
	b := engine.Scratch(pr.Board)
	r := &v.run
	bu := NewBudget(ctx, lim, progress)
	bu.annotate = func(p *Progress) { p.Search = "vcf" }
	r.reset(b, att, v.tt, bu)
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > maxVCFDepth {
		maxDepth = maxVCFDepth
	}
	res := r.deepen(maxDepth, maxDepth, lim)
	for res.Status == StatusWin && v.Shortest && !res.Shortest {
		// Look for a line shorter than L: one search limited to L-1
		// attacker moves; a win there starts the next round, none proves L
		// shortest. The limits go down, so every failure the table holds
		// (a depth that does not suffice from a position) still cuts in
		// the rounds that follow. Before (2026-11-26), the limits 1..L-1
		// were searched in increasing order: every one of them in full;
		// quintet's vcf_long, L=15, took 0.10 ms warm in all.
		n := attackerMoves(res.Line)
		if n <= 1 {
			res.Shortest = true
			break
		}
		shorter := r.deepen(n-1, n-1, lim)
		switch shorter.Status {
		case StatusWin:
			res.Line, res.End = shorter.Line, shorter.End
			continue
		case StatusNoWin:
			res.Shortest = true
			continue
		}
		res.Stopped = r.bu.stopped // the win stands; its length is not proven minimal
		break
	}
	if res.Status == StatusWin && attackerMoves(res.Line) == 1 {
		res.Shortest = true
	}
	res.Nodes, res.TTHits, res.Elapsed = r.nodes, r.hits, time.Since(r.bu.start)
	// the search's board goes back to the pool before the line is checked,
	// so the check reuses it: in a fresh process a second board would be
	// new memory, its pages faulted in for one short replay
	r.b = nil
	engine.Release(b)
	if res.Status == StatusWin {
		check := time.Now()
		end, err := pr.verifyLine(res.Line)
		res.CheckTime = time.Since(check)
		res.Elapsed = time.Since(r.bu.start) // the check included
		if err != nil || end != res.End {
			return Result{}, &ReplayError{Line: res.Line, Err: err}
		}
		if lim.Depth > 0 && attackerMoves(res.Line) > lim.Depth {
			return Result{}, &ReplayError{Line: res.Line, Err: errOverLimit}
		}
	}
	return res, nil
}

// deepen searches the depth limits from first to last in turn and returns
// the first win, the disproof under last (or an exhaustive one, as soon as an
// iteration reaches no limit), or unknown when the budget runs out.
func (r *vcfRun) deepen(first, last int, lim Limits) Result {
	res := Result{Status: StatusNoWin, Proven: Limits{Depth: last, Nodes: lim.Nodes, Time: lim.Time}}
	for depth := first; depth <= last; depth++ {
		r.depthLim, r.cutoff, r.line = depth, false, r.line[:0]
		if r.attack(depth, 0) {
			line := make([]engine.Point, len(r.line))
			for i, m := range r.line {
				line[len(line)-1-i] = m
			}
			return Result{Status: StatusWin, Line: line, End: r.end}
		}
		if r.stop {
			return Result{Status: StatusUnknown, Stopped: r.bu.stopped}
		}
		if !r.cutoff { // exhaustive: no VCF at any depth
			res.Proven.Depth = 0
			return res
		}
	}
	return res
}

// attackerMoves returns the number of attacker moves of a line.
func attackerMoves(line []engine.Point) int { return (len(line) + 1) / 2 }

// attack searches the attacker-to-move position with depth attacker moves
// left; ply counts attacker moves played so far. It returns true on a win,
// with the line (reversed) in r.line.
func (r *vcfRun) attack(depth, ply int) bool {
	b := r.b
	r.nodes++
	if r.nodeCap > 0 && r.nodes > r.nodeCap {
		if r.bu.maxNodes > 0 && r.nodes > r.bu.maxNodes {
			r.bu.stopped = "nodes"
		} else {
			r.capped = true
		}
		r.stop = true
		return false
	}
	if r.nodes&(PollInterval-1) == 0 && !r.bu.Poll(r.nodes, r.depthLim) {
		r.stop = true
		return false
	}
	if b.Count(r.att, engine.FivePoints) > 0 {
		r.line = append(r.line[:0], b.FirstPoint(r.att, engine.FivePoints))
		r.end = proof.EndFive
		return true
	}
	if depth <= 0 {
		r.cutoff = true
		return false
	}
	for len(r.moveBufs) <= ply {
		r.moveBufs = append(r.moveBufs, make([]engine.Point, 0, 64))
		r.scoreBufs = append(r.scoreBufs, make([]int32, 0, 64))
		r.keyBufs = append(r.keyBufs, make([]uint64, 0, 64))
	}
	if depth == 1 {
		return r.lastFour(ply) // cheaper than a table probe
	}
	h := b.Hash()
	if r.refuted(h, depth) {
		return false
	}
	moves := r.moveBufs[ply][:0]
	switch n := b.Count(r.def, engine.FivePoints); {
	case n > 1:
		r.tt.store(h, depthInfinite) // two defender fours: lost whatever the depth
		return false
	case n == 1:
		q := b.FirstPoint(r.def, engine.FivePoints)
		if b.Threat(r.att, q) < engine.ThreatFour {
			r.tt.store(h, depthInfinite)
			return false
		}
		moves = append(moves, q)
	default:
		moves = b.Points(r.att, engine.FourPoints, moves)
	}
	moves = r.order(moves, ply)
	r.moveBufs[ply] = moves
	outer := r.cutoff
	r.cutoff = false
	// the children's own table probes (attack at depth-1 >= 2), made here
	// before each four and its block are played (childKeys, refuted)
	var kids []uint64
	if depth >= 3 && !r.noTransCut {
		kids = r.childKeys(h, moves, ply)
	}
	for i, m := range moves {
		if r.renjuAtt && b.Forbidden(m) != engine.NotForbidden {
			continue
		}
		if kids != nil && kids[i] != 0 && r.refuted(kids[i], depth-1) {
			continue
		}
		b.Play(m, r.att)
		win := r.defend(depth, ply)
		b.Undo()
		if win {
			r.line = append(r.line, m)
			return true
		}
		if r.stop {
			return false
		}
	}
	if r.cutoff {
		r.tt.store(h, depth)
	} else {
		r.tt.store(h, depthInfinite)
	}
	r.cutoff = r.cutoff || outer
	return false
}

// childKeys returns, per attacker four of moves at the position of hash h,
// the hash of the position after it and its forced block, or 0 where that
// is not asked (refuted); it loads each one's table slot without waiting,
// so that the cache misses overlap (as pnTable.touch does). The slice is
// ply's buffer.
//
// The keys serve an enhanced transposition cutoff (Plaat, Schaeffer, Pijls
// and de Bruin, "Nearly optimal minimax tree search?", 1994): the child's
// own table probe, made before the four and its block are played. In a VCF
// the same fours played in different orders meet in one position, so most
// children are such transpositions: on lfz084's VCT puzzles about half the
// attacker nodes below a VCF search's root answered from the table (2.0M of
// 4.3M on gaofei/141 at threat limit 8). Only a single four is asked about
// (FourBlock names its block); a straight or double four wins at once.
// The block must be the defender's legal reply: under renju a black block
// outside black's MaybeForbidden set, which the white four cannot enlarge
// (engine's TestFourBlock), so that it is not a forbidden block, which
// would win for the attacker whatever the table says of the position after
// it.
func (r *vcfRun) childKeys(h uint64, moves []engine.Point, ply int) []uint64 {
	b := r.b
	keys := r.keyBufs[ply][:0]
	var sink uint64
	for _, m := range moves {
		e := b.FourBlock(r.att, m)
		if e == engine.NoPoint || (r.renjuDef && b.InSet(engine.Black, engine.MaybeForbidden, e)) {
			keys = append(keys, 0)
			continue
		}
		k := h ^ engine.ZobristKey(r.att, m) ^ engine.ZobristKey(r.def, e)
		keys = append(keys, k)
		sink ^= atomic.LoadUint64(&r.tt.slots[k&r.tt.mask]) // atomic: a portfolio may share the table
	}
	r.keyBufs[ply], r.sink = keys, sink
	return keys
}

// refuted reports whether the table holds the position of hash h (the
// current one, or a child named by childKeys) as lost with depth attacker
// moves left. A refutation that was itself limited by depth sets r.cutoff:
// the caller's failure is then depth-limited too.
func (r *vcfRun) refuted(h uint64, depth int) bool {
	d := r.tt.probe(h)
	if d < depth {
		return false
	}
	r.hits++
	if d < depthInfinite {
		r.cutoff = true
	}
	return true
}

// lastFour is attack with one attacker move left. A move that leaves two
// five-points wins, and the Threat class tells that without playing; a
// single four wins only by a forbidden block, which is possible only where
// black has a forbidden or double-three-candidate cell (white stones never
// make another cell forbidden), and only those fours are played out.
func (r *vcfRun) lastFour(ply int) bool {
	b := r.b
	var one [1]engine.Point
	moves := one[:0]
	switch n := b.Count(r.def, engine.FivePoints); {
	case n > 1:
		return false
	case n == 1:
		moves = append(moves, b.FirstPoint(r.def, engine.FivePoints))
	default:
		moves = b.Points(r.att, engine.FourPoints, r.moveBufs[ply][:0])
		r.moveBufs[ply] = moves
	}
	blocks := r.renjuDef && b.Count(engine.Black, engine.MaybeForbidden) > 0
	anyFour := false
	for _, m := range moves {
		t := b.Threat(r.att, m)
		if t < engine.ThreatFour || (r.renjuAtt && b.Forbidden(m) != engine.NotForbidden) {
			continue
		}
		if t >= engine.ThreatStraightFour {
			r.line, r.end = append(r.line[:0], m), proof.EndDoubleFour
			return true
		}
		anyFour = true
		if blocks {
			b.Play(m, r.att)
			won := false
			if b.Count(r.def, engine.FivePoints) == 0 && b.Count(r.att, engine.FivePoints) == 1 {
				won = b.Forbidden(b.FirstPoint(r.att, engine.FivePoints)) != engine.NotForbidden
			}
			b.Undo()
			if won {
				r.line, r.end = append(r.line[:0], m), proof.EndForbiddenBlock
				return true
			}
		}
	}
	if anyFour {
		r.cutoff = true // a deeper search could go on from these fours
	}
	return false
}

// defend answers the attacker's four just played.
func (r *vcfRun) defend(depth, ply int) bool {
	b := r.b
	if b.Count(r.def, engine.FivePoints) > 0 {
		return false // the defender makes five instead of blocking
	}
	switch b.Count(r.att, engine.FivePoints) {
	case 0:
		return false // not a four after all (cannot happen for a FourPoints move)
	case 1:
	default:
		r.line, r.end = r.line[:0], proof.EndDoubleFour
		return true
	}
	e := b.FirstPoint(r.att, engine.FivePoints)
	if r.renjuDef && b.Forbidden(e) != engine.NotForbidden {
		r.line, r.end = r.line[:0], proof.EndForbiddenBlock
		return true
	}
	if !r.noBlockCuts {
		if !r.foursAfterBlock() {
			return false // no four after the block: the line ends, at any depth
		}
		if depth == 2 && !r.renjuDef && !r.winnerAfterBlock(e) {
			r.cutoff = true // the last four cannot win; a deeper search could go on
			return false
		}
	}
	b.Play(e, r.def)
	win := r.attack(depth-1, ply+1)
	b.Undo()
	if win {
		r.line = append(r.line, e)
	}
	return win
}

// foursAfterBlock reports whether the attacker, after its four just played
// and the defender's block of it, could have a four left: a four-point
// other than the block's cell, or under renju a black forbidden point
// (blackForbiddenPoint), which the white block can turn into a legal four.
// Without one the line ends there, whatever the depth (a block that makes a
// defender four must itself be answered by a four), so the block is not
// played: on lfz084's VCT puzzles that is about one four in five at three
// or more attacker moves left.
func (r *vcfRun) foursAfterBlock() bool {
	return r.b.Count(r.att, engine.FourPoints) > 1 || r.blackForbiddenPoint()
}

// winnerAfterBlock reports whether, after the attacker's four just played
// (single five-point e) and the defender's block at e, the attacker could
// still have a move that wins at once: a cell other than e where it makes a
// straight four or a double four. The block only takes cells from the
// attacker (an opponent stone never raises a line pattern), so such a cell
// must be one now: a cell of Threat StraightFour, or under renju a black
// forbidden point (blackForbiddenPoint), which the white block can turn
// into a legal straight four by killing one of its fours. It does not cover
// the forbidden block (a black defender under renju), which the caller
// leaves to lastFour. With one attacker move left after the block (defend
// at depth 2), a false answer means the line fails, so the block and
// lastFour need not be played: on lfz084's VCT puzzles about one VCF node
// in ten is such a lastFour, and 99% of them fail.
func (r *vcfRun) winnerAfterBlock(e engine.Point) bool {
	b := r.b
	r.cells = b.Points(r.att, engine.FourPoints, r.cells[:0])
	for _, q := range r.cells {
		if q != e && b.Threat(r.att, q) >= engine.ThreatStraightFour {
			return true
		}
	}
	return r.blackForbiddenPoint()
}

// blackForbiddenPoint reports, for black attacking under renju, whether
// black has a cell of Threat ThreatForbidden (an overline or a double
// four): a white stone can kill one four of a double four and leave a legal
// four or straight four there, so the block cuts must count such cells. It
// is false for every other attacker.
func (r *vcfRun) blackForbiddenPoint() bool {
	b := r.b
	if !r.renjuAtt || b.Count(engine.Black, engine.MaybeForbidden) == 0 {
		return false
	}
	r.cells = b.Points(engine.Black, engine.MaybeForbidden, r.cells[:0])
	for _, q := range r.cells {
		if b.Threat(engine.Black, q) == engine.ThreatForbidden {
			return true
		}
	}
	return false
}

// order sorts the attacker's fours, best first, deterministically: moves
// that win at once (straight four, double four) first, then four-threes, then
// plain fours; within a class, moves closer to the attacker's last stones
// first, then by Point.
func (r *vcfRun) order(moves []engine.Point, ply int) []engine.Point {
	if len(moves) < 2 {
		return moves
	}
	b := r.b
	last, _ := b.LastMove() // the defender's block
	scores := r.scoreBufs[ply][:0]
	for _, m := range moves {
		s := int32(b.Threat(r.att, m)) << 8
		s -= int32(chebyshev(m, last)) << 2
		s += b.Potential(r.att, m) >> 12
		scores = append(scores, s)
	}
	r.scoreBufs[ply] = scores
	// insertion sort: stable, so equal scores keep Point order
	for i := 1; i < len(moves); i++ {
		m, s := moves[i], scores[i]
		j := i
		for ; j > 0 && scores[j-1] < s; j-- {
			moves[j], scores[j] = moves[j-1], scores[j-1]
		}
		moves[j], scores[j] = m, s
	}
	return moves
}

// chebyshev returns the king-move distance between two points, capped at 15;
// NoPoint is far from everything.
func chebyshev(a, b engine.Point) int {
	if a == engine.NoPoint || b == engine.NoPoint {
		return 15
	}
	dx, dy := a.X()-b.X(), a.Y()-b.Y()
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	return min(max(dx, dy), 15)
}
