package play

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// AlphaBeta is principal variation search over the learned evaluation
// (eval.go), as chess and gomoku engines run it:
//
//   - iterative deepening with aspiration windows around the last
//     iteration's score; principal variation search (a null window for
//     every move after the first, re-searched when it fails high);
//   - a transposition table shared by all threads, buckets of a
//     depth-preferred and an always-replaced slot, entries checked by the
//     xor of key and data (Hyatt and Mann's lockless hashing) (ttable.go);
//   - move ordering: the table's move, two killer moves per ply, the
//     counter-move to the opponent's last move, then by a static score
//     (the move's threat class for both sides and the evaluation tables'
//     values of its cell) plus the history heuristic;
//   - late move reductions (log depth · log index) of quiet moves and of
//     moves that make or block a three, from depth 2, re-searched at full
//     depth when they beat alpha; futility pruning of quiet moves near the
//     horizon and late move pruning; optional, off by default (measured):
//     singular extensions and the fail-high reduction (Stockfish's and
//     Rapfi's); each a named parameter (ABParams), which `gomoku tune --ga`
//     tunes by games;
//   - threat extensions: facing a threat of a straight four or a
//     four-three, the defences are searched without using depth, up to
//     ThreatExt times along a line (a four's block never uses depth);
//   - threat-aware move generation (movegen.go): facing a four only its
//     block (searched without using depth); facing a threat of a straight
//     four or a four-three only the moves that stop it, checked by playing
//     them, and the side's own fours; otherwise every empty cell within two
//     of a stone (three along a line with a stone of either side);
//   - at the horizon, a search of the side to move's fours and their
//     forced blocks (quiesce, after Rapfi's vcfsearch), which finds a VCF
//     and values the fours; reverse futility pruning and razoring into it
//     near the horizon;
//   - renju's forbidden points never played by black, and a white four
//     whose only block is forbidden counted as a win;
//   - Lazy SMP: Threads goroutines search the same root on their own boards
//     and share the table; helpers start one ply deeper every other thread;
//   - a stopped iteration's move that beat the last iteration's best with
//     an exact score is played (partialBest).
//
// Scores are from the side to move's point of view; WinScore-n is a win in
// n plies. An AlphaBeta is not safe for concurrent use (it runs its own
// goroutines); its table persists between searches.
type AlphaBeta struct {
	// Params are the search's parameters; NewAlphaBeta sets the defaults.
	Params ABParams
	// Weights are the evaluation's (DefaultWeights when nil).
	Weights *Weights
	// Threads is the number of search goroutines (1 when 0).
	Threads int

	tt      *ttable
	threads []*abThread
}

// ABParams are the tunable constants of AlphaBeta (the genetic tuner of
// tune.go reads and writes the same set).
type ABParams struct {
	// Aspiration is the half-width of the first aspiration window, in
	// evaluation units (0: full windows).
	Aspiration int32
	// LMRBase and LMRDiv set the reduction of the i-th quiet move at depth
	// d: LMRBase/100 + ln(d)·ln(i)/(LMRDiv/100) plies (LMRDiv 0: none).
	// Rapfi reduces by ln(d)·ln(i) in freestyle (its LMR table), and more
	// by its policy; here LMRBase 0 and LMRDiv 100 (2.2 times the default's
	// slope) lost to the default head to head at 300 ms a move (2026-11-30,
	// the balanced openings with colours swapped): freestyle 90 – 110,
	// 45.0%, −35 Elo [−84, +13]; renju 71 – 88, 1 drawn, 44.7%, −37 [−92,
	// +16].
	LMRBase, LMRDiv int
	// FutilityMargin is the margin per ply of depth below which a quiet
	// move at depth 1 or 2 is not searched (0: no futility pruning).
	FutilityMargin int32
	// LateMoves is how many moves are searched at depth 1 (and twice as
	// many at depth 2) before the quiet rest is pruned (0: all).
	LateMoves int
	// QFours is the most fours the search at the horizon plays in a row
	// (quiesce: a VCF of up to QFours fours is found). 0, the default,
	// leaves the horizon its forced blocks and the check for a straight
	// four or four-three: at 300 ms a move, QFours 0 scored 94 of 160
	// against 10 (+62 Elo; freestyle 35-25, renju 59-41) and QFours 2
	// 33 of 60, reaching depth 8 instead of 5 in a second (2026-11-26).
	QFours int
	// VCFDefDepth: at nodes this deep or deeper (0: none), when the
	// opponent would have a VCF were it to move (found within VCFDefNodes
	// nodes), only the side's fours and the cells of that VCF line that
	// leave the opponent no VCF (checked the same way) are searched. Off
	// by default: at 300 ms a move, 0 scored 55 of 100 against 2 (+35 Elo
	// [−32, +105], freestyle, 2026-11-26); the probes cost more depth than
	// the narrowing saved.
	VCFDefDepth int
	VCFDefNodes int64
	// ReverseMargin: at depth 1 to PruneDepth, a node off the principal
	// variation, facing no threat, whose static value is this much per ply
	// above beta stands (reverse futility pruning, Rapfi's "futility
	// pruning: child node"; 0: off). RazorMargin: such a node this much per
	// ply below alpha searches only its fours (razoring; 0: off).
	// RazorMargin 350 scored 12 / 160 against Rapfi where the default 700
	// had 18 / 160 (freestyle, 300 ms, 2026-11-28, interleaved).
	ReverseMargin, RazorMargin int32
	// PruneDepth is the deepest remaining depth, in plies, at which reverse
	// futility pruning and razoring apply (0: neither). The default, 8 with
	// ReverseMargin 150 (a quarter of the evaluation's Scale per ply, as
	// Rapfi's margin of about 63 per ply is of its scale of 200), replaced 3
	// with 500: TestPruneDepth's freestyle middle game took 108K nodes to
	// depth 8 where it had taken 496K (83K against 266K with the late move
	// reductions of LMRThrees; three middle games to depth 9: 3 to 7
	// times fewer), and against Rapfi at 300 ms a move
	// (2026-11-27, 40-game runs interleaved with the old setting) it scored
	// renju 23 / 120 against 18 / 120 and freestyle 13 / 120 against
	// 5 / 120 (then 20 / 120 and 10 / 120 again); in self-play against the
	// old setting 107.5 / 200. 100 per ply down to depth 12 was no better.
	PruneDepth int
	// MaxMoves and MovesPerPly cap the moves searched below the root at
	// MaxMoves + MovesPerPly·depth, best first by the move ordering
	// (MaxMoves 0: no cap), and PolicyMoves more where the network's
	// policy orders them (PolicyOrder). The moves against a threat are
	// never capped.
	// Measured at 300 ms a move against 10 + 2·depth (freestyle, Piskvork's
	// openings, 100 games each, 2026-11-26): 5 + depth scored 57.5 (+53
	// Elo [−15, +124]), 7 + depth 52, 14 + 3·depth 44.5; together with
	// VCFDefDepth 0, 55.5 in freestyle and 52.5 in renju.
	MaxMoves, MovesPerPly int
	// ThreatExt is how many times along one line a node facing the opponent's
	// threat of a straight four or a four-three (an open three, a four-three
	// point) searches its defences without using depth (0: none), so that a
	// threat sequence, a VCT, costs one ply per threat rather than two, as a
	// four's forced block costs none (Rapfi extends the answer to a four the
	// same way). The search then sees the opponent's threat sequences that the
	// horizon hid, at the price of depth: on the freestyle position of
	// TestThreatExt the win is proven at depth 8 with 4 and depth 6 with 8,
	// and not at depth 10 without; on the position before (black to move,
	// facing a VCT) depth 10 takes 2.8M nodes with 4 and 13.9M with 8, where
	// it took 106K without. Measured against Rapfi at 300 ms a move
	// (renju.txt, freestyle.txt, 40-game runs, 2026-11-27 04:56–06:58): renju
	// 17 / 80 with 2, 59 / 400 with 4, 47 / 240 with 8 (4 and 8 back to back:
	// 11 / 80 and 13 / 80), where 0 had 22 / 200 in the same hours; freestyle
	// 2 / 40, 6 / 80, 3 / 80 and 7 / 120. In self-play it is even: 8 against 0
	// in renju 50 / 100, 4 against 0 in freestyle 52.5 / 100.
	ThreatExt int
	// LMRMinDepth is the least depth at which late moves are reduced
	// (plies; 3 when 0). LMRThrees (0 or 1) reduces late moves that make or
	// block a three too (never a four, nor a defence against a threat):
	// in a middle game most moves near the stones do one or the other, so
	// with quiet moves alone the reductions seldom applied (Rapfi reduces
	// every late move from depth 2). The default, 2 and 1, replaced 3 and
	// 0: TestSearchKnobs's middle game takes 162K nodes to depth 9 where it
	// took 222K, and against Rapfi at 300 ms a move (2026-11-27 15:41–17:18,
	// 40-game runs interleaved with the old setting on one build) it scored
	// freestyle 30 / 240 (12.5%) against 21.5 / 240 (9.0%) and renju
	// 67 / 320 (20.9%) against 58 / 320 (18.1%); in self-play against the
	// old setting freestyle 52.5 / 100 and renju 44 / 100.
	LMRMinDepth, LMRThrees int
	// SingularDepth: at depth SingularDepth or more (0: never), a
	// table move that failed high at a depth at most two plies less is
	// tested for singularity (Stockfish's and Rapfi's singular
	// extension): the node is searched without it, to half the depth,
	// against singularBeta = its table score − SingularMargin·depth; when
	// every other move fails low there, the table move is searched one ply
	// deeper, and when the search without it still reaches beta ≥ the
	// node's beta, the node fails high at once (multi-cut). Off by default:
	// with FailHighMargin 45 and the default reductions, SingularDepth 6 and
	// SingularMargin 10 scored against Rapfi (300 ms, 2026-11-27 16:33–
	// 17:18, interleaved) freestyle 10 / 120 and renju 24 / 120 where the
	// defaults had 14 / 120 and 25 / 120; on TestSearchKnobs's middle game it
	// searches 3.6 times the nodes to depth 9, and sees the win there.
	SingularDepth  int
	SingularMargin int32
	// FailHighMargin: at a node off the principal variation whose static
	// value is at least beta + FailHighMargin·depth (0: off), every move
	// that makes no four is searched one ply less (Rapfi's fail-high
	// reduction). Off by default: alone, at 45, it takes TestSearchKnobs's
	// middle game to depth 9 in 128K nodes instead of 222K, but against
	// Rapfi at 300 ms a move (freestyle, 2026-11-27 18:28–18:59, 40-game
	// runs interleaved with the default) it scored 14 / 160 where the
	// default had 16 / 160; with the singular extension, above.
	FailHighMargin int32
	// MoveCount: when above 0, the cap on the moves searched below the
	// root is Rapfi's move-count pruning (its futilityMoveCount):
	// (MoveCount + ⌊depth^1.32⌋) / 2 moves, at least 1, at a node whose
	// static value is not above the value two plies before (not
	// "improving"), twice that at one that is; it replaces MaxMoves +
	// MovesPerPly·depth (0: that cap). LMRImproving (0 or 1) reduces a
	// late move one ply more, the child's depth kept at 1 or more, at a
	// node off the principal variation that is not improving, where it is
	// reduced at all (Rapfi's reduction). Both off by default: on 16
	// middle games of freestyle match games, depth 9 took 3.23M nodes
	// with MoveCount 3 and LMRImproving 1 instead of 6.93M (3.78M and
	// 5.28M apart), on 16 renju ones 6.05M instead of 5.67M; against
	// Rapfi at 300 ms a move (freestyle, 2026-11-27 21:19–21:48, 40-game
	// runs interleaved with the default) the pair scored 15 / 200 (4, 2,
	// 5, 3, 1) where the default had 17 / 200 (4, 3, 3, 5, 2). On
	// TestMoveCount's middle game it takes more nodes to depth 9 (the cap
	// at improving deep nodes is wider than 5 + depth) and loses j8.
	MoveCount    int
	LMRImproving int
	// PolicyReduce: at a node off the principal variation, a late move
	// that is reduced (LMR) and whose ordering score (genMoves's: its
	// threat classes and the evaluation tables' values of its cell, the
	// history's share, no table or killer bonus) is below PolicyReduce is
	// reduced one ply more, the child's depth kept at 1 or more (Rapfi's
	// policy-based reduction, with the ordering score as the policy; 0:
	// off). On TestSearchKnobs's middle game the reduced late moves score
	// 92, 239, 322, 401 and 442 at the 10th, 25th, 50th, 75th and 90th
	// percentiles. Off by default: against Rapfi at 300 ms a move
	// (freestyle, 2026-11-28 11:45–12:13, 40-game runs interleaved with the
	// default) 330 scored 4, 2, 3 = 9 / 120 and 400 scored 2, 2, 1 =
	// 5 / 120, where the default had 8, 2, 6 = 16 / 120 (that build reduced
	// a late move of negative score one ply more at 0 too, in all three);
	// 1 (scores of 0 or below) scored 17 / 160 where the default had
	// 15 / 160 (12:17–12:48). To depth 9 on that middle game 330 took 176K
	// nodes and 400 131K, against 162K.
	PolicyReduce int32
	// PolicyOrder, with a network evaluation (Weights.Nets), adds
	// PolicyOrder times the network's policy logit of each move to its
	// ordering score in genMoves (0: off), and PolicyMoves (moves, 0 to
	// 20) widens the cap on the moves searched below the root to
	// MaxMoves + PolicyMoves + MovesPerPly·depth: the policy picks the
	// moves the wider beam adds. The ordering decides which moves are
	// searched at all. The shipped networks' logits spread by about 3
	// (standard deviation over the empty cells of random middle games), so
	// 40 moves a score by about 120, as much as the tables' cell values.
	// The defaults, 40 and 3 (5 + 3 + depth moves with a network; the
	// tables keep 5 + depth), replaced 0 and 0 on 2026-12-02: against
	// Rapfi at 300 ms a move (the balanced openings with colours swapped,
	// AVX2 builds, each run side by side with the old defaults on the
	// same games) they scored freestyle 31.4% against 26.8% (516 games
	// each, in three runs: 32.8 / 25.9, 31.5 / 27.0, 30.5 / 27.3%),
	// standard 34.0% against 30.0% (200 each), renju 24.6% for both (114
	// each) and 30.0% against 28.0% (200 each), though the search takes
	// twice the time to depth 8 on BenchmarkAlphaBetaNodesNNUE's middle
	// game (1.8 times the nodes, 9% fewer a second; 3% fewer since the
	// policy's dot product is in int16, nnue.QP). PolicyOrder 40
	// alone, with the narrow beam, had scored freestyle 48.2% head to head
	// (−12 Elo [−61, +36]) and renju 52.2% (+16 [−32, +64]) on 2026-11-30.
	PolicyOrder int32
	// PolicyMoves is the number of moves (0 to 20; 3 by default) that
	// the policy's order adds to the cap below the root, as PolicyOrder
	// tells; nothing without a network or with PolicyOrder 0.
	PolicyMoves int
	// OppMoves widens the cap on the moves searched (MaxMoves +
	// MovesPerPly·depth) by this many at the nodes where the root's
	// opponent is to move (odd plies; 0: off, the default), so that the
	// search sees more of the opponent's quiet attacking moves than of
	// its own: a pessimistic beam, for a side that loses by defending
	// (this engine won 13 of 100 freestyle games as white against Rapfi
	// and 48 as black, 2026-12-02). Off by default: against Rapfi at 300
	// ms a move (freestyle balanced openings, `--shuffle 41`, AVX2,
	// 2026-12-02 12:37–13:00, side by side with the defaults on the same
	// games) OppMoves 5 scored 55 of 200 (27.5%, −168 [−214, −128] over
	// pairs; 11 won as white) where the defaults scored 59 (29.5%, −151
	// [−197, −110]; 14 as white), a ply shallower (depth 7 against 8 in a
	// second on the renju middle game of testdata/games/midgame.txt).
	OppMoves int
	// QVCF: at the horizon (quiesce), where the side to move has a four
	// and the evaluation would stand, a VCF search of the side to move of
	// at most QVCF nodes (solver.VCFProbe, its own table kept between
	// probes); a VCF found is valued as the win it is, as Rapfi's
	// quiescence search of fours finds one (0: off). Off by default: QVCF
	// 16 scored 55.0% head to head against the defaults (+35 [+1, +69]
	// over pairs, freestyle balanced openings, 300 ms a move) but 30.0%
	// against Rapfi on the same games, where the defaults had 29.5%
	// (2026-12-03).
	QVCF int64
}

// DefaultABParams are the defaults of ABParams.
func DefaultABParams() ABParams {
	return ABParams{Aspiration: 150, LMRBase: 50, LMRDiv: 220, FutilityMargin: 400, LateMoves: 12, QFours: 0, ReverseMargin: 150, RazorMargin: 700, VCFDefDepth: 0, VCFDefNodes: 300,
		MaxMoves: 5, MovesPerPly: 1, ThreatExt: 4, PruneDepth: 8, LMRMinDepth: 2, LMRThrees: 1,
		PolicyOrder: 40, PolicyMoves: 3}
}

// NewAlphaBeta returns an AlphaBeta whose table takes about mib MiB
// (DefaultMemoryMiB/4 when 0), with the default parameters and weights.
func NewAlphaBeta(mib int) *AlphaBeta {
	if mib <= 0 {
		mib = solver.DefaultMemoryMiB / 4
	}
	return &AlphaBeta{Params: DefaultABParams(), tt: newTTable(mib)}
}

// abThread is one search goroutine's state.
type abThread struct {
	a      *AlphaBeta
	id     int
	e      *Eval
	root   engine.Color
	nodes  int64
	seldep int
	stop   *atomic.Bool
	bu     *solver.Budget // the main thread's; helpers poll stop only
	// progress, on the main thread only, hears of each completed
	// iteration (its depth, value and principal variation)
	progress solver.ProgressFunc
	killers  [MaxPly][2]engine.Point
	history  [2][engine.NumCells]int32
	counter  [2][engine.NumCells]engine.Point
	moves    [MaxPly][]scoredMove
	near     [engine.NumCells]uint8 // stones within reach of each cell (movegen.go)
	reach    reachMarks             // threatReach's scratch
	fours    []engine.Point         // stops's scratch
	vcf      *solver.VCFProbe
	defMark  [engine.NumCells]uint32 // cells of the opponent's VCF line, stamped defGen
	defGen   uint32
	exts     int // threat extensions on the current line (ThreatExt)
	pv       [MaxPly][MaxPly]engine.Point
	pvLen    [MaxPly]int
	// excluded[ply] is the move a singular extension's test search leaves
	// out at ply (engine.NoPoint: none).
	excluded [MaxPly]engine.Point
	// statics[ply] is the static value of the node at ply on the current
	// line, noStatic where it was not taken (a forced block).
	statics [MaxPly]int32
}

// noStatic marks abThread.statics entries not taken.
const noStatic = math.MinInt32

// scoredMove is a move with its ordering score, and the checks it must
// still pass before it is searched (genMoves's checkStops, checkVCF).
type scoredMove struct {
	p     engine.Point
	check uint8
	score int32
}

// lmrTable[d][i] is the reduction of the i-th move at depth d, in plies
// (none below LMRMinDepth).
type lmrTable [64][64]int8

func (a *AlphaBeta) lmr() *lmrTable {
	var t lmrTable
	if a.Params.LMRDiv <= 0 {
		return &t
	}
	from := a.Params.LMRMinDepth
	if from <= 0 {
		from = 3
	}
	for d := from; d < 64; d++ {
		for i := 1; i < 64; i++ {
			r := float64(a.Params.LMRBase)/100 + math.Log(float64(d))*math.Log(float64(i))/(float64(a.Params.LMRDiv)/100)
			t[d][i] = int8(max(0, min(float64(d-1), r)))
		}
	}
	return &t
}

// Search runs iterative deepening on position b with c to move within lim
// (Time, Nodes, Depth in plies; at least one, or a cancellable ctx) and
// reports the multipv best moves of the deepest completed iteration with
// their scores as win rates (the evaluation's sigmoid), the depth and the
// principal variation. rootMoves, when not empty, restricts the root moves.
// Errors: ErrNoMoves; solver.ErrGameOver when the board holds a five.
func (a *AlphaBeta) Search(ctx context.Context, b *engine.Board, c engine.Color, lim solver.Limits, multipv int,
	rootMoves []engine.Point, progress solver.ProgressFunc) (SearchReport, error) {
	if b.LastMoveWon() {
		return SearchReport{}, solver.ErrGameOver
	}
	w := a.Weights
	if w == nil {
		w = DefaultWeights()
	}
	n := max(1, a.Threads)
	if a.tt == nil {
		a.tt = newTTable(solver.DefaultMemoryMiB / 4)
	}
	a.tt.newSearch()
	lmr := a.lmr()
	var stop atomic.Bool
	bu := solver.NewBudget(ctx, solver.Limits{Time: lim.Time, Nodes: lim.Nodes}, progress)
	for len(a.threads) < n {
		a.threads = append(a.threads, &abThread{a: a, id: len(a.threads), vcf: solver.NewVCFProbe(2)})
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxPly-8 {
		maxDepth = MaxPly - 8
	}
	results := make([]rootResult, n)
	var wg sync.WaitGroup
	for i := range n {
		t := a.threads[i]
		t.e = NewEval(w, b.Clone())
		t.root, t.nodes, t.stop, t.bu, t.exts, t.progress = c, 0, &stop, nil, 0, nil
		if i == 0 {
			t.bu, t.progress = bu, progress
		}
		t.resetNear()
		t.ageHistory()
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[t.id] = t.iterate(lmr, maxDepth, multipv, rootMoves)
			if t.id == 0 {
				stop.Store(true) // helpers end with the main thread
			}
		}()
	}
	wg.Wait()
	res := results[0]
	var nodes int64
	for _, t := range a.threads[:n] {
		nodes += t.nodes
	}
	if len(res.moves) == 0 {
		return SearchReport{}, ErrNoMoves
	}
	var rep SearchReport
	for _, m := range res.moves {
		ms := MoveStat{Move: m.p, Value: w.WinRate(m.score), Depth: res.depth, PV: m.pv}
		switch {
		case m.score >= WinScore-MaxPly:
			ms.Proven = 1
		case m.score <= -WinScore+MaxPly:
			ms.Proven = -1
		}
		rep.Moves = append(rep.Moves, ms)
	}
	rep.Nodes, rep.Elapsed = nodes, time.Since(bu.Start())
	return rep, nil
}

// rootMove is a root move's result in an iteration.
type rootMove struct {
	p     engine.Point
	score int32
	pv    []engine.Point
}

// rootResult is what a thread's iterative deepening reached.
type rootResult struct {
	moves []rootMove
	depth int
}

// iterate runs iterative deepening at the root and returns the multipv
// best moves of the last completed iteration.
func (t *abThread) iterate(lmr *lmrTable, maxDepth, multipv int, rootMoves []engine.Point) rootResult {
	b := t.e.B
	moves := t.rootMoves(rootMoves)
	if len(moves) == 0 {
		return rootResult{}
	}
	multipv = max(1, min(multipv, len(moves)))
	var best rootResult
	prev := int32(0)
	start := 1 + t.id%2 // helpers on odd ids start a ply deeper
	for depth := start; depth <= maxDepth; depth++ {
		// aspiration windows around the last score, widened on failure
		delta := t.a.Params.Aspiration
		alpha, beta := int32(-WinScore-1), int32(WinScore+1)
		// with several moves to report, no aspiration: each of the first
		// multipv moves is searched with the full window, so every value
		// reported is exact, not the bound a narrow window leaves (best
		// --multipv listed three moves at the window's edge, 0.770)
		if depth >= 4 && delta > 0 && prev > -EvalMax && prev < EvalMax && multipv == 1 {
			alpha, beta = prev-delta, prev+delta
		}
		var scores []rootMove
		done := 0
		for {
			scores, done = t.searchRoot(lmr, moves, depth, alpha, beta, multipv)
			if t.stop.Load() {
				break
			}
			s := scores[0].score
			switch {
			case s <= alpha && alpha > -WinScore-1:
				alpha, delta = max(-WinScore-1, alpha-delta), delta*2
				continue
			case s >= beta && beta < WinScore+1:
				beta, delta = min(WinScore+1, beta+delta), delta*2
				continue
			}
			break
		}
		if t.stop.Load() && depth > start {
			if m, ok := partialBest(scores, done, alpha, beta); ok && multipv == 1 && len(best.moves) > 0 {
				best = rootResult{moves: []rootMove{m}, depth: depth - 1}
			}
			break
		}
		// reorder the root moves by this iteration's scores
		slices.SortStableFunc(scores, func(x, y rootMove) int { return int(y.score) - int(x.score) })
		for i, s := range scores {
			moves[i] = s.p
		}
		prev = scores[0].score
		best = rootResult{moves: scores[:multipv], depth: depth}
		if t.progress != nil && !t.stop.Load() {
			w := t.a.Weights
			if w == nil {
				w = DefaultWeights()
			}
			t.progress(solver.Progress{Nodes: t.nodes, Elapsed: time.Since(t.bu.Start()), Depth: depth, Value: w.WinRate(prev),
				PV: slices.Clone(scores[0].pv)})
		}
		if t.stop.Load() || prev >= WinScore-MaxPly || prev <= -WinScore+MaxPly && len(moves) == 1 {
			break
		}
	}
	b.Reset()
	return best
}

// rootMoves returns the root's legal candidate moves, ordered, restricted
// to only when it is not empty.
func (t *abThread) rootMoves(only []engine.Point) []engine.Point {
	b, c := t.e.B, t.root
	ms := t.genMoves(0, engine.NoPoint, true, false)
	var out []engine.Point
	for _, m := range ms {
		if len(only) > 0 && !slices.Contains(only, m.p) {
			continue
		}
		out = append(out, m.p)
	}
	if len(out) == 0 && len(only) > 0 {
		for _, p := range only { // moves outside the generator's choice, as asked
			if b.Legal(c, p) {
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 && len(only) == 0 {
		// a lost position: any legal move
		n := b.Size()
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				if p := engine.PointAt(x, y); b.Legal(c, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// searchRoot searches every root move at depth within (alpha, beta): the
// first multipv with a full window below beta, the rest with a null window
// at the multipv-th best score. It returns a result per move, in the order
// of moves, and how many of them, from the first, were searched to the
// end (all but the last reached when the search is stopped).
func (t *abThread) searchRoot(lmr *lmrTable, moves []engine.Point, depth int, alpha, beta int32, multipv int) ([]rootMove, int) {
	c := t.root
	out := make([]rootMove, 0, len(moves))
	a := alpha
	done := 0
	for i, m := range moves {
		t.play(m, c)
		var s int32
		if i < multipv {
			s = -t.search(lmr, depth-1, -beta, -alpha, 1, true)
		} else {
			s = -t.search(lmr, depth-1, -a-1, -a, 1, false)
			if s > a && !t.stop.Load() {
				s = -t.search(lmr, depth-1, -beta, -a, 1, true)
			}
		}
		t.undo()
		if t.stop.Load() {
			if len(out) > 0 {
				break
			}
		} else {
			done++
		}
		pv := append([]engine.Point{m}, t.pv[1][:t.pvLen[1]]...)
		out = append(out, rootMove{p: m, score: s, pv: pv})
		if len(out) >= multipv {
			k := make([]int32, len(out))
			for j, r := range out {
				k[j] = r.score
			}
			slices.Sort(k)
			a = max(alpha, k[len(k)-multipv])
		}
	}
	for _, m := range moves[len(out):] { // not reached: behind the searched
		out = append(out, rootMove{p: m, score: -WinScore - 1, pv: []engine.Point{m}})
	}
	return out, done
}

// partialBest returns the move of an interrupted iteration that beat the
// first (the last iteration's best, searched first) with an exact score,
// among the done moves searched to the end within (alpha, beta), if there
// is one: it is better at this depth than the move the last complete
// iteration chose, as engines take it (Stockfish keeps the best move of an
// unfinished iteration). Measured at 300 ms a move against the same build
// without it (Piskvork's openings, 100 games each, 2026-11-26): freestyle
// 52.5 (+17 Elo [−51, +87]), renju 57 (+49 [−19, +121]).
func partialBest(scores []rootMove, done int, alpha, beta int32) (rootMove, bool) {
	if done < 2 || scores[0].score <= alpha || scores[0].score >= beta {
		return rootMove{}, false
	}
	best := scores[0]
	for _, r := range scores[1:done] {
		if r.score >= beta {
			return rootMove{}, false // a bound: the window was to widen
		}
		if r.score > best.score {
			best = r
		}
	}
	return best, best.p != scores[0].p
}

// poll counts a node and checks the budget; it returns false once the
// search must stop.
func (t *abThread) poll(ply int) bool {
	t.nodes++
	t.seldep = max(t.seldep, ply)
	if t.nodes&1023 == 0 && t.bu != nil && !t.bu.Poll(t.nodes, ply) {
		t.stop.Store(true)
	}
	return !t.stop.Load()
}

// sides returns the side to move at ply plies below the root and its
// opponent.
func (t *abThread) sides(ply int) (c, o engine.Color) {
	c = t.root
	if ply%2 == 1 {
		c = c.Opponent()
	}
	return c, c.Opponent()
}

// decided returns the score of a position already decided for c, to move at
// ply: lost when the last move made a five, won in one when c has a
// five-point.
func (t *abThread) decided(c engine.Color, ply int) (int32, bool) {
	b := t.e.B
	if b.LastMoveWon() {
		return -(WinScore - int32(ply)), true
	}
	if b.Count(c, engine.FivePoints) > 0 {
		return WinScore - int32(ply) - 1, true
	}
	return 0, false
}

// search returns the score of the position for the side to move, depth
// plies above the horizon and ply plies below the root, within (alpha,
// beta); pv says the node may be on the principal variation.
func (t *abThread) search(lmr *lmrTable, depth int, alpha, beta int32, ply int, pv bool) int32 {
	t.pvLen[ply] = 0
	if !t.poll(ply) {
		return 0
	}
	e := t.e
	b := e.B
	c, o := t.sides(ply)
	if v, ok := t.decided(c, ply); ok {
		return v
	}
	// mate distance pruning
	alpha = max(alpha, -(WinScore - int32(ply)))
	beta = min(beta, WinScore-int32(ply)-1)
	if alpha >= beta {
		return alpha
	}
	if ply >= MaxPly-4 {
		return e.Value(c)
	}
	if n := b.Count(o, engine.FivePoints); n > 0 {
		p := b.FirstPoint(o, engine.FivePoints)
		if n >= 2 || !b.Legal(c, p) {
			return -(WinScore - int32(ply) - 2)
		}
		// the forced block costs no depth
		t.statics[ply] = noStatic
		t.play(p, c)
		s := -t.search(lmr, depth, -beta, -alpha, ply+1, pv)
		t.undo()
		t.setPV(ply, p)
		return s
	}
	// a straight four or four-three wins when the opponent has no four to
	// delay it with
	if b.Count(o, engine.FourPoints) == 0 && e.WinThreats(c) > 0 {
		if p := t.winningThreat(c); p != engine.NoPoint {
			t.leafPV(ply, p)
			return WinScore - int32(ply) - 3
		}
	}
	if depth <= 0 {
		return t.quiesce(alpha, beta, ply, 0)
	}
	key := ttKey(b, c)
	ttMove := engine.NoPoint
	skip := t.excluded[ply] // a singular extension's test search neither reads nor writes the table
	var en ttEntry
	ttHit := false
	if skip == engine.NoPoint {
		en, ttHit = t.a.tt.probe(key)
	}
	if ttHit {
		ttMove = en.move
		if !pv && int(en.depth) >= depth {
			s := fromTT(en.score, ply)
			switch {
			case en.bound == boundExact,
				en.bound == boundLower && s >= beta,
				en.bound == boundUpper && s <= alpha:
				return s
			}
		}
	}
	static := int32(noStatic)
	if ttHit {
		static = en.static // the table keeps it (ttable.go)
	}
	if static == noStatic {
		static = e.Value(c)
	}
	t.statics[ply] = static
	// improving: the static value is above the one two plies before (or
	// that one was not taken)
	improving := ply < 2 || t.statics[ply-2] == noStatic || static > t.statics[ply-2]
	threatened := e.WinThreats(o) > 0
	p := &t.a.Params
	if !pv && !threatened && static < WinScore-MaxPly && static > -WinScore+MaxPly {
		// reverse futility: far above beta near the horizon, stand
		if depth <= p.PruneDepth && p.ReverseMargin > 0 && static-p.ReverseMargin*int32(depth) >= beta {
			return static
		}
		// razoring: far below alpha, only fours can save it
		if depth <= p.PruneDepth && p.RazorMargin > 0 && static+p.RazorMargin*int32(depth) < alpha {
			return t.quiesce(alpha, alpha+1, ply, 0)
		}
	}
	// facing a VCF (were the opponent to move), only the moves that stop it
	vcfThreat := false
	if p.VCFDefDepth > 0 && depth >= p.VCFDefDepth && !threatened && b.Count(o, engine.FourPoints) > 0 {
		line := t.vcf.WinLine(b, o, p.VCFDefNodes)
		t.nodes += t.vcf.Nodes()
		if line != nil {
			vcfThreat = true
			t.defGen++
			for _, q := range line {
				t.defMark[q] = t.defGen
			}
		}
	}
	// singular extension: is the table move the only good one?
	singular := engine.NoPoint
	if p.SingularDepth > 0 && depth >= p.SingularDepth && ttHit && ttMove != engine.NoPoint && !threatened &&
		en.bound == boundLower && int(en.depth) >= depth-2 {
		if ts := fromTT(en.score, ply); ts < WinScore-MaxPly && ts > -WinScore+MaxPly {
			sb := ts - p.SingularMargin*int32(depth)
			t.excluded[ply] = ttMove
			v := t.search(lmr, depth/2, sb-1, sb, ply, false)
			t.excluded[ply] = engine.NoPoint
			t.pvLen[ply] = 0
			if t.stop.Load() {
				return 0
			}
			if v < sb {
				singular = ttMove
			} else if sb >= beta {
				return sb // multi-cut: another move beats beta too
			}
		}
	}
	failHigh := !pv && p.FailHighMargin > 0 && !threatened && static >= beta+p.FailHighMargin*int32(depth)
	moves := t.genMoves(ply, ttMove, false, vcfThreat)
	if len(moves) == 0 {
		if b.Stones() >= b.Size()*b.Size() {
			return 0
		}
		return -(WinScore - int32(ply) - 2) // every move loses to the threat
	}
	limit := len(moves)
	if !threatened && !vcfThreat {
		switch {
		case p.MoveCount > 0:
			mc := moveCounts[min(depth, 63)] + p.MoveCount
			if !improving {
				mc /= 2
			}
			limit = min(limit, max(mc, 1))
		case p.MaxMoves > 0:
			mm := p.MaxMoves
			if t.policyWeight() != 0 {
				mm += p.PolicyMoves
			}
			if ply%2 == 1 {
				mm += p.OppMoves
			}
			limit = min(limit, mm+p.MovesPerPly*depth)
		}
	}
	bestScore, bestMove := int32(-WinScore-1), engine.NoPoint
	origAlpha := alpha
	quietSeen := 0
	var last engine.Point
	if n := b.Stones(); n > 0 {
		last, _ = b.Move(n - 1)
	}
	passed := 0 // the moves that passed their checks
	// facing a threat, the defences may be searched without using depth
	ext := threatened && t.exts < p.ThreatExt
	cd := depth - 1
	if ext {
		cd = depth
	}
	for j := range limit {
		m := pickMove(moves, j)
		if m.p == skip {
			continue
		}
		if m.check != checkNone && !t.verified(c, m) {
			continue
		}
		i := passed // the move's place among them
		passed++
		// quiet: the move makes no three or better for c and blocks none
		// of the opponent's
		own := b.Threat(c, m.p)
		quiet := !threatened && own < engine.ThreatThree && b.Threat(o, m.p) < engine.ThreatThree
		// reducible: quiet, or (LMRThrees) any move but a four facing no threat
		reducible := quiet || p.LMRThrees > 0 && !threatened && own < engine.ThreatFour
		if quiet && bestScore > -WinScore+MaxPly && !pv {
			quietSeen++
			// late move pruning and futility pruning near the horizon
			if p.LateMoves > 0 && depth <= 2 && quietSeen > p.LateMoves*depth {
				continue
			}
			if p.FutilityMargin > 0 && depth <= 2 && static+p.FutilityMargin*int32(depth) <= alpha {
				continue
			}
		}
		md := cd // the child's depth
		if m.p == singular {
			md++
		} else if failHigh && own < engine.ThreatFour {
			md--
		}
		t.play(m.p, c)
		var s int32
		if ext {
			t.exts++
		}
		if i == 0 {
			s = -t.search(lmr, md, -beta, -alpha, ply+1, pv)
		} else {
			r := 0
			if reducible {
				r = int(lmr[min(depth, 63)][min(i, 63)])
				if pv {
					r = max(0, r-1)
				} else {
					if r > 0 && r < md-1 && !improving && p.LMRImproving > 0 {
						r++ // one more, the child's depth kept at 1 or more
					}
					if p.PolicyReduce > 0 && r > 0 && r < md-1 && m.score < p.PolicyReduce {
						r++
					}
				}
			}
			s = -t.search(lmr, md-r, -alpha-1, -alpha, ply+1, false)
			if s > alpha && r > 0 {
				s = -t.search(lmr, md, -alpha-1, -alpha, ply+1, false)
			}
			if s > alpha && s < beta && pv {
				s = -t.search(lmr, md, -beta, -alpha, ply+1, true)
			}
		}
		if ext {
			t.exts--
		}
		t.undo()
		if t.stop.Load() {
			return 0
		}
		if s > bestScore {
			bestScore, bestMove = s, m.p
			if s > alpha {
				alpha = s
				t.setPV(ply, m.p)
				if s >= beta {
					if quiet {
						t.goodQuiet(c, ply, m.p, last, depth)
					}
					break
				}
			}
		}
	}
	if passed == 0 {
		return -(WinScore - int32(ply) - 2) // no move stops the threat
	}
	if bestMove == engine.NoPoint { // everything pruned
		return static
	}
	bound := boundExact
	switch {
	case bestScore <= origAlpha:
		bound = boundUpper
	case bestScore >= beta:
		bound = boundLower
	}
	if skip == engine.NoPoint {
		t.a.tt.store(key, toTT(bestScore, ply), int8(depth), bound, bestMove, static)
	}
	return bestScore
}

// whiteToMove is xored into the table key of a node with white to move.
// Board.Hash is of the stones alone, and the table persists between
// searches, whose roots may hold the same stones with the other side to
// move (a position given with as many stones of each side, white to move;
// a swap); inside one search the side to move follows from the stones'
// count.
const whiteToMove = 0x9e3779b97f4a7c15

// ttKey is the table key of position b with c to move.
func ttKey(b *engine.Board, c engine.Color) uint64 {
	if c == engine.White {
		return b.Hash() ^ whiteToMove
	}
	return b.Hash()
}

// moveCounts[d] is d^1.32 rounded down, the growth with depth of
// Rapfi's move-count pruning (ABParams.MoveCount).
var moveCounts = func() (t [64]int) {
	for d := range t {
		t[d] = int(math.Pow(float64(d), 1.32))
	}
	return t
}()

// pickMove moves the best-ordered of moves[i:] to moves[i] and returns it
// (a selection sort done only as far as the search goes: most nodes cut
// off after a few moves).
func pickMove(moves []scoredMove, i int) scoredMove {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if moves[j].score > moves[best].score || moves[j].score == moves[best].score && moves[j].p < moves[best].p {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	return moves[i]
}

// quiesce is the horizon: a four of the opponent is blocked (searched on),
// a straight four or four-three with no opposing four is a win, and with
// Params.QFours above 0 a search of fours in the manner of Rapfi's
// vcfsearch and vcfdefend: the side to move may stand on the static
// evaluation or play its fours (each answered by its forced block, which
// is searched on), so that a VCF of up to QFours fours is found and valued
// as a win, and a four that gains something is valued by the position it
// leads to. It returns within (alpha, beta) or a bound beyond them.
func (t *abThread) quiesce(alpha, beta int32, ply, fours int) int32 {
	t.pvLen[ply] = 0
	if !t.poll(ply) {
		return 0
	}
	e := t.e
	b := e.B
	c, o := t.sides(ply)
	if v, ok := t.decided(c, ply); ok {
		return v
	}
	if n := b.Count(o, engine.FivePoints); n > 0 {
		p := b.FirstPoint(o, engine.FivePoints)
		if n >= 2 || !b.Legal(c, p) {
			return -(WinScore - int32(ply) - 2)
		}
		if ply >= MaxPly-4 {
			return e.Value(c)
		}
		t.play(p, c)
		s := -t.quiesce(-beta, -alpha, ply+1, fours)
		t.undo()
		t.setPV(ply, p)
		return s
	}
	if b.Count(o, engine.FourPoints) == 0 && e.WinThreats(c) > 0 {
		if p := t.winningThreat(c); p != engine.NoPoint {
			t.leafPV(ply, p)
			return WinScore - int32(ply) - 3
		}
	}
	stand := e.Value(c)
	if t.a.Params.QVCF > 0 && fours == 0 && stand < beta && b.Count(c, engine.FourPoints) > 0 {
		line := t.vcf.WinLine(b, c, t.a.Params.QVCF)
		t.nodes += t.vcf.Nodes()
		if len(line) > 0 {
			t.leafPV(ply, line[0])
			return WinScore - int32(ply) - int32(len(line))
		}
	}
	if stand >= beta || fours >= t.a.Params.QFours || ply >= MaxPly-4 || b.Count(c, engine.FourPoints) == 0 {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	var buf [64]engine.Point
	pts := b.Points(c, engine.FourPoints, buf[:0])
	// the strongest fours first: four-threes, then the rest
	for pass := 0; pass < 2; pass++ {
		for _, p := range pts {
			th := b.Threat(c, p)
			if (pass == 0) != (th >= engine.ThreatFourThree) || !b.Legal(c, p) {
				continue
			}
			t.play(p, c)
			s := -t.quiesce(-beta, -alpha, ply+1, fours+1)
			t.undo()
			if t.stop.Load() {
				return 0
			}
			if s > best {
				best = s
				if s > alpha {
					alpha = s
					t.setPV(ply, p)
					if s >= beta {
						return s
					}
				}
			}
		}
	}
	return best
}

// winningThreat returns a legal move of c that makes a straight four or a
// four-three, or NoPoint.
func (t *abThread) winningThreat(c engine.Color) engine.Point {
	b := t.e.B
	var buf [64]engine.Point
	for _, p := range b.Points(c, engine.FourPoints, buf[:0]) {
		if winsInTwo(b.Threat(c, p)) && b.Legal(c, p) {
			return p
		}
	}
	return engine.NoPoint
}

// setPV makes m followed by the child's variation ply's variation.
func (t *abThread) setPV(ply int, m engine.Point) {
	t.pv[ply][0] = m
	n := 0
	if ply+1 < MaxPly {
		n = copy(t.pv[ply][1:], t.pv[ply+1][:t.pvLen[ply+1]])
	}
	t.pvLen[ply] = 1 + n
}

// leafPV makes m alone ply's variation (a move whose child was not
// searched: the child's variation array holds another line's).
func (t *abThread) leafPV(ply int, m engine.Point) {
	t.pv[ply][0] = m
	t.pvLen[ply] = 1
}

// goodQuiet records a quiet move that cut off: a killer, the counter-move
// to the opponent's last move, and a history bonus of depth².
func (t *abThread) goodQuiet(c engine.Color, ply int, m, last engine.Point, depth int) {
	k := &t.killers[ply]
	if k[0] != m {
		k[1], k[0] = k[0], m
	}
	ci := (c - 1) & 1
	if last != engine.NoPoint {
		t.counter[ci][last] = m
	}
	h := &t.history[ci][m]
	*h += int32(depth * depth)
	if *h > 1<<20 {
		for i := range t.history[ci] {
			t.history[ci][i] /= 2
		}
	}
}

// ageHistory halves the history scores between searches.
func (t *abThread) ageHistory() {
	for c := range t.history {
		for i := range t.history[c] {
			t.history[c][i] /= 2
		}
	}
	t.killers = [MaxPly][2]engine.Point{}
}

// Clear forgets everything learned in earlier searches: the table, the
// VCF probes' tables, the history, killer and counter moves. A search after Clear depends on its
// position and limits alone, so that under a node limit it repeats
// exactly (analyze's --per-position-nodes).
func (a *AlphaBeta) Clear() {
	if a.tt != nil {
		clear(a.tt.words)
	}
	for _, t := range a.threads {
		t.vcf.Clear()
		t.history = [2][engine.NumCells]int32{}
		t.counter = [2][engine.NumCells]engine.Point{}
		t.killers = [MaxPly][2]engine.Point{}
	}
}
