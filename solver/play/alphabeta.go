package play

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// AlphaBeta is negamax alpha-beta search with iterative deepening and a
// transposition table, in the manner of Liu & Zhang's gomoku engine and the
// seeds' minimax: at every node only the candidate moves (empty cells within
// two of a stone) are considered, and of them only the TopK best by the
// heuristic H (see heuristic.go); forced replies to a four are searched
// alone and do not use up depth; at the horizon a bounded VCF search for the
// side to move replaces the static evaluation when it finds a win.
// Scores are from the side to move's point of view; abWin-ply is a win in
// ply plies. An AlphaBeta value is not safe for concurrent use.
type AlphaBeta struct {
	// TopK is the number of moves searched per node, best by H (12 when 0).
	TopK int
	// VCFNodes is the node limit of the VCF check at the horizon (1024
	// when 0; negative turns it off).
	VCFNodes int64

	tt    []abEntry
	vcf   *solver.VCFProbe
	b     *engine.Board
	bu    *solver.Budget
	nodes int64
	stop  bool
	seen  []bool
	bufs  [][]engine.Point
	hbufs [][]int32
}

// abEntry is a transposition table slot.
type abEntry struct {
	key   uint64
	score int32
	depth int8
	flag  uint8 // abExact, abLower, abUpper
	move  engine.Point
}

const (
	abExact = iota + 1
	abLower
	abUpper
)

// abWin is the score of a five on the board; wins found later score less.
const abWin = 1 << 20

// NewAlphaBeta returns an AlphaBeta whose table takes about mib MiB
// (solver.DefaultMemoryMiB/4 when 0).
func NewAlphaBeta(mib int) *AlphaBeta {
	if mib <= 0 {
		mib = solver.DefaultMemoryMiB / 4
	}
	n := 1
	for n*2*24 <= mib<<20 {
		n *= 2
	}
	return &AlphaBeta{tt: make([]abEntry, n), vcf: solver.NewVCFProbe(8), seen: make([]bool, engine.NumCells)}
}

// Search runs iterative deepening on position b, c to move, within lim
// (Time, Nodes, Depth in plies; at least one, or a cancellable ctx) and
// reports the multipv best moves of the deepest completed iteration with
// their scores squashed to win rates, the depth and the principal
// variation. rootMoves, when not empty, restricts the root moves. Errors:
// ErrNoMoves; solver.ErrGameOver when the board already holds a five.
func (a *AlphaBeta) Search(ctx context.Context, b *engine.Board, c engine.Color, lim solver.Limits, multipv int,
	rootMoves []engine.Point, progress solver.ProgressFunc) (SearchReport, error) {
	if b.LastMoveWon() {
		return SearchReport{}, solver.ErrGameOver
	}
	a.b, a.nodes, a.stop = b.Clone(), 0, false
	a.bu = solver.NewBudget(ctx, solver.Limits{Time: lim.Time, Nodes: lim.Nodes}, progress)
	root := candidates(a.b, c, nil, a.seen)
	if len(rootMoves) > 0 {
		root = slices.DeleteFunc(root, func(p engine.Point) bool { return !slices.Contains(rootMoves, p) })
	}
	if len(root) == 0 {
		return SearchReport{}, ErrNoMoves
	}
	multipv = max(1, min(multipv, len(root)))
	type scored struct {
		p     engine.Point
		score int32
	}
	order := make([]scored, len(root))
	for i, p := range root {
		order[i] = scored{p, heuristic(a.b, c, p)}
	}
	slices.SortStableFunc(order, func(x, y scored) int { return int(y.score - x.score) })
	var rep SearchReport
	maxDepth := lim.Depth
	if maxDepth <= 0 {
		maxDepth = 64
	}
	for depth := 1; depth <= maxDepth; depth++ {
		cur := make([]scored, 0, len(order))
		top := make([]int32, 0, multipv+1) // the multipv best scores so far, best first
		for _, m := range order {
			alpha := int32(-abWin - 1)
			if len(top) == multipv {
				alpha = top[multipv-1] // only the multipv best need exact scores
			}
			a.b.Play(m.p, c)
			s := -a.negamax(depth-1, 1, -abWin-1, -alpha)
			a.b.Undo()
			if a.stop {
				break
			}
			cur = append(cur, scored{m.p, s})
			i, _ := slices.BinarySearchFunc(top, s, func(x, y int32) int { return cmp.Compare(y, x) })
			top = slices.Insert(top, i, s)[:min(len(top)+1, multipv)]
		}
		if a.stop && depth > 1 {
			break
		}
		// moves not reached keep their old order behind the searched ones
		slices.SortStableFunc(cur, func(x, y scored) int { return int(y.score - x.score) })
		for _, m := range order {
			if !slices.ContainsFunc(cur, func(s scored) bool { return s.p == m.p }) {
				cur = append(cur, scored{m.p, math.MinInt32 / 2})
			}
		}
		order = cur
		rep.Moves = rep.Moves[:0]
		for _, m := range order[:multipv] {
			ms := MoveStat{Move: m.p, Value: squash(m.score), Depth: depth, PV: a.pv(m.p, c, depth)}
			switch {
			case m.score > abWin/2:
				ms.Proven = 1
			case m.score < -abWin/2:
				ms.Proven = -1
			}
			rep.Moves = append(rep.Moves, ms)
		}
		if a.stop || order[0].score > abWin/2 || order[0].score < -abWin/2 && len(order) == 1 {
			break
		}
	}
	rep.Nodes, rep.Elapsed = a.nodes, time.Since(a.bu.Start())
	return rep, nil
}

// squash maps a score to a win rate in [0, 1]: 1 and 0 for proven wins and
// losses, a logistic curve (scale 600) otherwise.
func squash(s int32) float64 {
	switch {
	case s > abWin/2:
		return 1
	case s < -abWin/2:
		return 0
	}
	return 1 / (1 + math.Exp(-float64(s)/600))
}

// pv follows the table's best moves from the position after first.
func (a *AlphaBeta) pv(first engine.Point, c engine.Color, depth int) []engine.Point {
	line := []engine.Point{first}
	a.b.Play(first, c)
	played := 1
	for s := c.Opponent(); played < depth+4; s = s.Opponent() {
		if a.b.LastMoveWon() {
			break
		}
		e := &a.tt[a.b.Hash()&uint64(len(a.tt)-1)]
		if e.key != a.b.Hash() || e.move == engine.NoPoint || a.b.At(e.move) != engine.Empty || !a.b.Legal(s, e.move) {
			break
		}
		line = append(line, e.move)
		a.b.Play(e.move, s)
		played++
	}
	for range played {
		a.b.Undo()
	}
	return line
}

// negamax returns the score of the position for the side to move, depth
// plies from the horizon, ply plies from the root, within (alpha, beta).
func (a *AlphaBeta) negamax(depth, ply int, alpha, beta int32) int32 {
	b := a.b
	a.nodes++
	if a.nodes&(solver.PollInterval-1) == 0 && !a.bu.Poll(a.nodes, depth) {
		a.stop = true
	}
	if a.stop {
		return 0
	}
	_, mover := b.LastMove()
	if b.LastMoveWon() {
		return -abWin + int32(ply)
	}
	s := mover.Opponent()
	o := mover
	if b.Count(s, engine.FivePoints) > 0 {
		return abWin - int32(ply) - 1
	}
	switch nf := b.Count(o, engine.FivePoints); {
	case nf >= 2:
		return -abWin + int32(ply) + 2
	case nf == 1:
		p := b.FirstPoint(o, engine.FivePoints)
		if !b.Legal(s, p) {
			return -abWin + int32(ply) + 2
		}
		b.Play(p, s)
		v := -a.negamax(depth, ply+1, -beta, -alpha) // forced: no depth used
		b.Undo()
		return v
	}
	for _, p := range a.fourPoints(s, ply) {
		if b.Threat(s, p) >= engine.ThreatStraightFour && b.Legal(s, p) {
			return abWin - int32(ply) - 3
		}
	}
	if depth <= 0 {
		if n := a.vcfNodes(); n > 0 {
			if _, ok := a.vcf.Win(b, s, n); ok {
				return abWin/2 + 1 // a VCF of unknown length
			}
		}
		return a.evaluate(s, ply)
	}
	h := b.Hash()
	e := &a.tt[h&uint64(len(a.tt)-1)]
	ttMove := engine.NoPoint
	if e.key == h {
		ttMove = e.move
		if int(e.depth) >= depth {
			switch {
			case e.flag == abExact,
				e.flag == abLower && e.score >= beta,
				e.flag == abUpper && e.score <= alpha:
				return e.score
			}
		}
	}
	moves := a.ordered(s, ply, ttMove)
	if len(moves) == 0 {
		return 0 // no move: a draw
	}
	best, bestMove := int32(-abWin-1), engine.NoPoint
	origAlpha := alpha
	for _, p := range moves {
		b.Play(p, s)
		v := -a.negamax(depth-1, ply+1, -beta, -alpha)
		b.Undo()
		if a.stop {
			return 0
		}
		if v > best {
			best, bestMove = v, p
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	flag := uint8(abExact)
	switch {
	case best <= origAlpha:
		flag = abUpper
	case best >= beta:
		flag = abLower
	}
	*e = abEntry{key: h, score: best, depth: int8(min(depth, 127)), flag: flag, move: bestMove}
	return best
}

func (a *AlphaBeta) vcfNodes() int64 {
	switch {
	case a.VCFNodes < 0:
		return 0
	case a.VCFNodes == 0:
		return 1024
	}
	return a.VCFNodes
}

// buffers returns ply's move and score buffers, emptied.
func (a *AlphaBeta) buffers(ply int) ([]engine.Point, []int32) {
	for len(a.bufs) <= ply {
		a.bufs = append(a.bufs, make([]engine.Point, 0, 64))
		a.hbufs = append(a.hbufs, make([]int32, 0, 64))
	}
	return a.bufs[ply][:0], a.hbufs[ply][:0]
}

func (a *AlphaBeta) fourPoints(s engine.Color, ply int) []engine.Point {
	buf, _ := a.buffers(ply)
	buf = a.b.Points(s, engine.FourPoints, buf)
	a.bufs[ply] = buf
	return buf
}

// ordered returns the TopK candidate moves of s by H, the table's move
// first.
func (a *AlphaBeta) ordered(s engine.Color, ply int, ttMove engine.Point) []engine.Point {
	moves, hs := a.buffers(ply)
	moves = candidates(a.b, s, moves, a.seen)
	for _, p := range moves {
		h := heuristic(a.b, s, p)
		if p == ttMove {
			h = math.MaxInt32
		}
		hs = append(hs, h)
	}
	// selection of the TopK by insertion, stable
	k := a.TopK
	if k <= 0 {
		k = 12
	}
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && hs[j] > hs[j-1]; j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
			moves[j], moves[j-1] = moves[j-1], moves[j]
		}
	}
	a.bufs[ply], a.hbufs[ply] = moves, hs
	return moves[:min(k, len(moves))]
}

// evaluate scores a quiet position for s to move: the line-length scores of
// every candidate cell for s minus those for its opponent, s's best cell
// counting in full (s moves next) and the opponent's at a half.
func (a *AlphaBeta) evaluate(s engine.Color, ply int) int32 {
	moves, _ := a.buffers(ply)
	moves = candidates(a.b, s, moves, a.seen)
	a.bufs[ply] = moves
	o := s.Opponent()
	var sumS, sumO, maxS, maxO int32
	for _, p := range moves {
		x := lineScores(&attackScore, a.b.LinePatterns(s, p))
		y := lineScores(&attackScore, a.b.LinePatterns(o, p))
		sumS += x
		sumO += y
		maxS, maxO = max(maxS, x), max(maxO, y)
	}
	return (sumS-sumO)/4 + maxS - maxO/2
}
