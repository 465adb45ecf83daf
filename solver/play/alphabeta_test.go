package play

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gomoku/engine"
	"gomoku/nnue"
	"gomoku/positions"
	"gomoku/positions/datatest"
	"gomoku/solver"
)

// TestPartialBest: of an interrupted iteration, a move searched to the end
// that beat the first move with an exact score is taken; nothing is taken
// when the first move's score is not exact (it failed low or high, or was
// itself cut off), when no move beat it, or when the better score lies
// beyond the window (a bound, not a value).
func TestPartialBest(t *testing.T) {
	a, b, c := engine.PointAt(0, 0), engine.PointAt(1, 0), engine.PointAt(2, 0)
	scores := func(s ...int32) []rootMove {
		out := []rootMove{}
		for i, v := range s {
			out = append(out, rootMove{p: []engine.Point{a, b, c}[i], score: v})
		}
		return out
	}
	for _, tc := range []struct {
		s           []rootMove
		done        int
		alpha, beta int32
		want        engine.Point // NoPoint: none
	}{
		{scores(10, 30, 20), 3, -100, 100, b},
		{scores(10, 30, 40), 2, -100, 100, b},            // c not searched to the end
		{scores(10, 5, 8), 3, -100, 100, engine.NoPoint}, // none beat a
		{scores(10, 30, 20), 1, -100, 100, engine.NoPoint},
		{scores(-150, 30, 20), 3, -100, 100, engine.NoPoint}, // a failed low
		{scores(10, 130, 20), 3, -100, 100, engine.NoPoint},  // b's 130 is a bound, and c's 20 one below it
		{scores(10, 130, 20), 3, -100, 200, b},
	} {
		m, ok := partialBest(tc.s, tc.done, tc.alpha, tc.beta)
		got := engine.NoPoint
		if ok {
			got = m.p
		}
		if got != tc.want {
			t.Errorf("%+v done %d in (%d, %d): %v, want %v", tc.s, tc.done, tc.alpha, tc.beta, got, tc.want)
		}
	}
}

// TestThreatExt: after black's h5 in a freestyle game against Rapfi (black
// lost with it), white wins by k8, a quiet move whose threat sequence runs
// past a depth-8 horizon. With threat extensions (ThreatExt 4) the search
// to depth 8 proves the win; without, it does not (the extensions are what
// finds it, so the test fails if they stop extending).
func TestThreatExt(t *testing.T) {
	const game = "h8i8i5i9j6i7i6k6j7k7h5"
	k8, _ := engine.ParsePoint("k8", 15)
	for _, ext := range []int{0, 4} {
		b := movesBoard(t, engine.Freestyle, game)
		a := NewAlphaBeta(16)
		a.Params.ThreatExt = ext
		rep, err := a.Search(context.Background(), b, engine.White, solver.Limits{Depth: 8}, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Moves[0]
		won := m.Proven == 1 && m.Move == k8
		if won != (ext > 0) {
			t.Errorf("ThreatExt %d: %v value %.3f proven %d after %d nodes; want a proven win by k8 only with extensions",
				ext, m.Move, m.Value, m.Proven, rep.Nodes)
		}
	}
}

// TestPruneDepth: reverse futility pruning down to depth 8 with the
// default margin (ABParams.PruneDepth, ReverseMargin) searches the
// freestyle middle game to depth 8 in under half the nodes of the old
// setting (depth 3, margin 500; about a fifth when measured), and both
// choose j8; with PruneDepth 0 the pruning is off, and more nodes are
// searched than with either.
func TestPruneDepth(t *testing.T) {
	old := DefaultABParams()
	old.PruneDepth, old.ReverseMargin = 3, 500
	off := DefaultABParams()
	off.PruneDepth = 0
	var nodes [3]int64
	for i, p := range []ABParams{DefaultABParams(), old, off} {
		rep := middleGameJ8(t, p, 8)
		nodes[i] = rep.Nodes
	}
	if 2*nodes[0] > nodes[1] || nodes[1] > nodes[2] {
		t.Errorf("nodes to depth 8: default %d, depth 3 margin 500 %d, off %d; want the default under half the second, the second at most the third",
			nodes[0], nodes[1], nodes[2])
	}
	t.Logf("nodes to depth 8: default %d, depth 3 margin 500 %d, off %d", nodes[0], nodes[1], nodes[2])
}

// TestSearchKnobs checks that the late move reductions of threes from
// depth 2 (LMRMinDepth, LMRThrees), the singular extension
// (SingularDepth) and the fail-high reduction (FailHighMargin) each change
// the tree as documented on the freestyle middle game of TestPruneDepth,
// deterministic at depth 9 with one thread: the reductions take fewer
// nodes, and every setting keeps j8.
func TestSearchKnobs(t *testing.T) {
	base := DefaultABParams()
	base.LMRMinDepth, base.LMRThrees, base.SingularDepth, base.FailHighMargin = 3, 0, 0, 0
	lmr := base
	lmr.LMRMinDepth, lmr.LMRThrees = 2, 1
	fh := base
	fh.FailHighMargin = 45
	se := base
	se.SingularDepth, se.SingularMargin = 6, 10
	names := []string{"none", "threes reduced from depth 2", "fail-high reduction", "singular extension"}
	var nodes [4]int64
	for i, p := range []ABParams{base, lmr, fh, se} {
		rep := middleGameJ8(t, p, 9)
		nodes[i] = rep.Nodes
		t.Logf("%s: %d nodes, value %.3f", names[i], rep.Nodes, rep.Moves[0].Value)
	}
	if nodes[1] >= nodes[0]*9/10 || nodes[2] >= nodes[0]*9/10 {
		t.Errorf("nodes to depth 9: none %d, threes reduced %d, fail-high reduction %d; want each reduction under 90%% of none",
			nodes[0], nodes[1], nodes[2])
	}
	if nodes[3] == nodes[0] {
		t.Errorf("the singular extension did not change the tree (%d nodes)", nodes[3])
	}
}

// TestMoveCount checks that Rapfi's move-count pruning with its extra
// reduction (MoveCount 3, LMRImproving 1) changes the tree of
// TestSearchKnobs's middle game at depth 9. Its cap is tighter than
// 5 + depth at shallow nodes and, at improving ones, wider at deep ones:
// here it takes more nodes than without (300,079 against 221,960 from
// the same base) and chooses i10, not j8; on the match positions of
// ABParams.MoveCount it took half the nodes.
func TestMoveCount(t *testing.T) {
	base := DefaultABParams()
	base.LMRMinDepth, base.LMRThrees = 3, 0
	mc := base
	mc.MoveCount, mc.LMRImproving = 3, 1
	without, with := middleGame(t, base, 9), middleGame(t, mc, 9)
	t.Logf("without %d nodes, %v; with %d nodes, %v", without.Nodes, without.Moves[0].Move, with.Nodes, with.Moves[0].Move)
	if with.Nodes == without.Nodes || with.Moves[0].Depth != 9 {
		t.Errorf("move-count pruning: %d nodes to depth %d, without it %d: want a different tree to depth 9",
			with.Nodes, with.Moves[0].Depth, without.Nodes)
	}
}

// middleGameJ8 searches the freestyle middle game "h8h9i9g7j10k11" (black
// to move) with parameters p to depth plies, one thread, and fails the
// test unless it chooses j8 at that depth.
func middleGameJ8(t *testing.T, p ABParams, depth int) SearchReport {
	t.Helper()
	j8, _ := engine.ParsePoint("j8", 15)
	rep := middleGame(t, p, depth)
	if rep.Moves[0].Move != j8 || rep.Moves[0].Depth != depth {
		t.Errorf("%+v: %v at depth %d, want j8 at depth %d", p, rep.Moves[0].Move, rep.Moves[0].Depth, depth)
	}
	return rep
}

// middleGame searches the freestyle middle game "h8h9i9g7j10k11" (black
// to move) with parameters p to depth plies, one thread.
func middleGame(t *testing.T, p ABParams, depth int) SearchReport {
	t.Helper()
	b := movesBoard(t, engine.Freestyle, "h8h9i9g7j10k11")
	a := NewAlphaBeta(16)
	a.Params = p
	rep, err := a.Search(context.Background(), b, engine.Black, solver.Limits{Depth: depth}, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestMultiPVValues: every move best --multipv lists has a real value,
// not a bound: its principal variation goes on past the move, the values
// are in order, and searched alone from a fresh table to the same depth the
// move gets the same value, within 0.08 of win rate (the two searches share
// no table or history, so their move orders and late-move reductions
// differ), most of them exactly. Before, the moves after the first were
// searched in the first's aspiration window: best --multipv 5 listed three
// at its edge, 0.770 each, with one-move lines, and one at 0.848 that
// searched alone was 0.758 (issue 57).
func TestMultiPVValues(t *testing.T) {
	same, all := 0, 0
	for _, rule := range []engine.Rule{engine.Renju, engine.Freestyle} {
		b := movesBoard(t, rule, midgame)
		c := toMove(b)
		for _, depth := range []int{6, 8} {
			rep, err := NewAlphaBeta(16).Search(context.Background(), b, c, solver.Limits{Depth: depth}, 4, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Moves) != 4 {
				t.Fatalf("%v: %d moves", rule, len(rep.Moves))
			}
			for i, m := range rep.Moves {
				if i > 0 && m.Value > rep.Moves[i-1].Value+1e-9 {
					t.Errorf("%v depth %d: move %d %v (%.3f) above the one before (%.3f)", rule, depth, i+1, m.Move, m.Value,
						rep.Moves[i-1].Value)
				}
				if len(m.PV) < 2 {
					t.Errorf("%v depth %d: %v has a line of %d moves: a bound", rule, depth, m.Move, len(m.PV))
				}
				alone, err := NewAlphaBeta(16).Search(context.Background(), b, c, solver.Limits{Depth: depth}, 1,
					[]engine.Point{m.Move}, nil)
				if err != nil {
					t.Fatal(err)
				}
				d := math.Abs(alone.Moves[0].Value - m.Value)
				if d > 0.08 {
					t.Errorf("%v depth %d: %v listed at %.3f, searched alone %.3f", rule, depth, m.Move, m.Value, alone.Moves[0].Value)
				}
				all++
				if d < 0.005 {
					same++
				}
			}
		}
	}
	if same*2 < all {
		t.Errorf("%d of %d listed values match the move searched alone", same, all)
	}
}

// TestPolicyMoves checks that PolicyMoves widens the cap on the moves
// below the root only where the network's policy orders them: on
// TestSearchKnobs's middle game at depth 7, with the tables the tree is the
// same node for node with PolicyMoves 0 and 3; with the shipped freestyle
// network it changes (15,934 nodes with 0, 12,927 with 3: the wider beam
// finds the cut-offs sooner), and PolicyMoves does nothing when
// PolicyOrder is 0.
func TestPolicyMoves(t *testing.T) {
	narrow := DefaultABParams()
	narrow.PolicyMoves = 0
	wide := DefaultABParams()
	wide.PolicyMoves = 3
	off, offWide := narrow, wide
	off.PolicyOrder, offWide.PolicyOrder = 0, 0
	net := *DefaultWeights()
	net.Nets[engine.Freestyle] = nnue.Default(engine.Freestyle)
	search := func(w *Weights, p ABParams) int64 {
		b := movesBoard(t, engine.Freestyle, "h8h9i9g7j10k11")
		a := NewAlphaBeta(16)
		a.Params, a.Weights = p, w
		rep, err := a.Search(context.Background(), b, engine.Black, solver.Limits{Depth: 7}, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Nodes
	}
	if n0, n3 := search(nil, narrow), search(nil, wide); n0 != n3 {
		t.Errorf("tables: %d nodes with PolicyMoves 0, %d with 3; want the same tree", n0, n3)
	}
	n0, n3 := search(&net, narrow), search(&net, wide)
	t.Logf("network: %d nodes with PolicyMoves 0, %d with 3", n0, n3)
	if n3 == n0 {
		t.Errorf("network: %d nodes with PolicyMoves 0 and 3; want another tree", n0)
	}
	if a, b := search(&net, off), search(&net, offWide); a != b {
		t.Errorf("network without the policy's order: %d nodes with PolicyMoves 0, %d with 3; want the same tree", a, b)
	}
}

// TestOppMoves checks that OppMoves widens the search: on
// TestPolicyMoves's middle game, with the tables (no policy), depth 5
// searches a larger tree with OppMoves 5 than with 0 (the cap at the
// opponent's nodes, plies 1 and 3, is wider).
func TestOppMoves(t *testing.T) {
	search := func(opp int) int64 {
		b := movesBoard(t, engine.Freestyle, "h8h9i9g7j10k11")
		a := NewAlphaBeta(16)
		a.Params = DefaultABParams()
		a.Params.OppMoves = opp
		rep, err := a.Search(context.Background(), b, engine.Black, solver.Limits{Depth: 5}, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Nodes
	}
	n0, n5 := search(0), search(5)
	t.Logf("depth 5: %d nodes with OppMoves 0, %d with 5", n0, n5)
	if n5 <= n0 {
		t.Errorf("depth 5: %d nodes with OppMoves 5, not more than %d with 0", n5, n0)
	}
}

// TestQVCF: on quintet's renju VCF case 3040 (testdata/quintet/vcf_black.txt,
// black to move, a VCF of 12 fours and nothing shorter), a search to depth
// 1 sees the win only with the horizon's VCF probe (ABParams.QVCF): its
// first four, then the probe at the horizon finds the rest.
func TestQVCF(t *testing.T) {
	path := filepath.Join(datatest.ModuleRoot(t), "testdata", "quintet", "vcf_black.txt")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps, errs := positions.Parse(path, data, positions.Auto, positions.Options{})
	if len(errs) > 0 || len(ps) != 1 {
		t.Fatalf("%s: %v", path, errs)
	}
	for _, q := range []int64{0, 10_000} {
		b, err := ps[0].Board(engine.Renju)
		if err != nil {
			t.Fatal(err)
		}
		a := NewAlphaBeta(16)
		a.Params.QVCF = q
		rep, err := a.Search(context.Background(), b, ps[0].ToMove, solver.Limits{Depth: 1}, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Moves[0]
		if won := m.Proven == 1; won != (q > 0) {
			t.Errorf("QVCF %d: %v value %.3f proven %d after %d nodes; want a win at depth 1 only with the probe",
				q, m.Move, m.Value, m.Proven, rep.Nodes)
		}
	}
}
