package play

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/nnue"
	"gomoku/positions/datatest"
	"gomoku/solver"
)

// midgame is the first 16 moves of a renju game between Rapfi and mintaka
// (../shared/data/games/renju/003.psq): a 15×15 middle game, black to move,
// with no VCF for either side (black has a long VCT).
const midgame = "h8h7h9g7i7g9i8g8g10j7h11f9h10h12i6i9"

// mustPoint parses a 15x15 coordinate such as "j10", failing tb on a bad one.
func mustPoint(tb testing.TB, s string) engine.Point {
	tb.Helper()
	p, err := engine.ParsePoint(s, 15)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// movesBoard plays a move list (black first) on an empty 15×15 board.
func movesBoard(tb testing.TB, r engine.Rule, moves string) *engine.Board {
	tb.Helper()
	b, err := engine.NewBoard(15, r)
	if err != nil {
		tb.Fatal(err)
	}
	for i, s := 0, moves; len(s) > 0; i++ {
		for len(s) > 0 && s[0] == ' ' {
			s = s[1:]
		}
		if len(s) == 0 {
			break
		}
		p, n := engine.ScanPoint(s, 15)
		if n == 0 {
			tb.Fatalf("bad move list at %q", s)
		}
		if err := b.Put(p, engine.Color(1+i%2)); err != nil {
			tb.Fatalf("move %d %v: %v", i+1, p, err)
		}
		s = s[n:]
	}
	return b
}

// toMove is the side to move after a game's moves, black first.
func toMove(b *engine.Board) engine.Color { return engine.Color(1 + b.Stones()%2) }

// BenchmarkMCTSPlayouts measures MCTS playouts on the renju middle game with
// one goroutine; playouts/s is the figure of the README.
func BenchmarkMCTSPlayouts(b *testing.B) {
	for _, r := range []engine.Rule{engine.Freestyle, engine.Renju} {
		b.Run(r.String(), func(b *testing.B) {
			bd := movesBoard(b, r, midgame)
			m := NewMCTS(1)
			b.ResetTimer()
			rep, err := m.Search(context.Background(), bd, toMove(bd), solver.Limits{Nodes: int64(b.N)}, 1, nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(rep.Playouts)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}

func TestMCTSSmoke(t *testing.T) {
	bd := movesBoard(t, engine.Renju, midgame)
	m := NewMCTS(2)
	rep, err := m.Search(context.Background(), bd, toMove(bd), solver.Limits{Time: time.Second}, 5, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range rep.Moves {
		t.Logf("%v value %.3f visits %d pv %v", mv.Move, mv.Value, mv.Visits, mv.PV)
	}
	t.Logf("%d playouts in %v", rep.Playouts, rep.Elapsed)
}

// BenchmarkAlphaBetaNodes measures alpha-beta nodes per second on the renju
// middle game, searched to a fixed depth.
func BenchmarkAlphaBetaNodes(b *testing.B) {
	bd := movesBoard(b, engine.Renju, midgame)
	var nodes int64
	for b.Loop() {
		a := NewAlphaBeta(16)
		rep, err := a.Search(context.Background(), bd, toMove(bd), solver.Limits{Depth: 8}, 1, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes += rep.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func TestAlphaBetaSmoke(t *testing.T) {
	bd := movesBoard(t, engine.Renju, midgame)
	a := NewAlphaBeta(16)
	rep, err := a.Search(context.Background(), bd, toMove(bd), solver.Limits{Time: time.Second}, 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range rep.Moves {
		t.Logf("%v value %.3f depth %d pv %v", mv.Move, mv.Value, mv.Depth, mv.PV)
	}
	t.Logf("%d nodes in %v", rep.Nodes, rep.Elapsed)
}

// TestMCTSThreads runs MCTS with several goroutines on one tree (CI runs it
// under -race): the root's visits must account for every playout, and the
// tree is reused by the next search from a following position.
func TestMCTSThreads(t *testing.T) {
	bd := movesBoard(t, engine.Freestyle, midgame)
	m := NewMCTS(3)
	rep, err := m.Search(context.Background(), bd, toMove(bd), solver.Limits{Nodes: 3000}, 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var visits int64
	for _, mv := range rep.Moves {
		visits += mv.Visits
	}
	if rep.Playouts < 3000 || len(rep.Moves) != 4 || visits == 0 || visits > rep.Playouts+rep.Reused {
		t.Fatalf("%d playouts, %d visits over the top moves %+v", rep.Playouts, visits, rep.Moves)
	}
	// play the best move and the opponent's reply from its PV: the tree below is reused
	best := rep.Moves[0]
	if len(best.PV) < 2 {
		t.Skipf("PV %v too short to follow", best.PV)
	}
	bd.Play(best.PV[0], toMove(bd))
	bd.Play(best.PV[1], toMove(bd))
	rep2, err := m.Search(context.Background(), bd, toMove(bd), solver.Limits{Nodes: 1000}, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Reused == 0 {
		t.Errorf("the tree was not reused")
	}
}

// TestAlphaBetaClear: under a node limit a search after Clear goes exactly
// as a fresh searcher's, whatever was searched before (the per-ply analysis
// and its resume from a store depend on it). The earlier searches grow the
// VCF probe's table; Clear must take it back to its first size.
func TestAlphaBetaClear(t *testing.T) {
	search := func(a *AlphaBeta, moves string, nodes int64) SearchReport {
		t.Helper()
		bd := movesBoard(t, engine.Renju, moves)
		rep, err := a.Search(context.Background(), bd, toMove(bd), solver.Limits{Nodes: nodes}, 1, nil, nil)
		if err != nil || len(rep.Moves) == 0 {
			t.Fatalf("%s: %v, %d moves", moves, err, len(rep.Moves))
		}
		return rep
	}
	// the positions of a long renju game with fights on the whole board
	data, err := os.ReadFile(filepath.Join(datatest.ModuleRoot(t), "testdata", "games", "long-renju.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	fields := strings.Fields(lines[len(lines)-1])
	a := NewAlphaBeta(4)
	search(a, strings.Join(fields[:60], ""), 300000)
	for n := 10; n < len(fields); n += 10 {
		moves := strings.Join(fields[:n], "")
		want := search(NewAlphaBeta(4), moves, 20000)
		a.Clear()
		got := search(a, moves, 20000)
		w, g := want.Moves[0], got.Moves[0]
		if w.Move != g.Move || w.Value != g.Value || fmt.Sprint(w.PV) != fmt.Sprint(g.PV) || want.Nodes != got.Nodes {
			t.Errorf("%d moves: after Clear %v %.4f %v (%d nodes), fresh %v %.4f %v (%d nodes)", n,
				g.Move, g.Value, g.PV, got.Nodes, w.Move, w.Value, w.PV, want.Nodes)
		}
	}
}

// BenchmarkAlphaBetaNodesNNUE is BenchmarkAlphaBetaNodes with the shipped
// renju network as the evaluation (to depth 8; it reports nodes/s).
func BenchmarkAlphaBetaNodesNNUE(b *testing.B) {
	bd := movesBoard(b, engine.Renju, midgame)
	w := *DefaultWeights()
	w.Nets[engine.Renju] = nnue.Default(engine.Renju)
	var nodes int64
	for b.Loop() {
		a := NewAlphaBeta(16)
		a.Weights = &w
		rep, err := a.Search(context.Background(), bd, toMove(bd), solver.Limits{Depth: 8}, 1, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes += rep.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestMCTSPolicyPrior: with a network for the rule, the root's candidates
// are ordered and biased by the network's policy (the softmax over them,
// the best at 1), not by the tables' move scores; HeuristicPrior restores
// the heuristic.
func TestMCTSPolicyPrior(t *testing.T) {
	bd := movesBoard(t, engine.Renju, midgame)
	s := toMove(bd)
	net := nnue.Default(engine.Renju)
	if net == nil {
		t.Fatal("no shipped renju network")
	}
	w := *DefaultWeights()
	w.Nets[engine.Renju] = net
	acc := nnue.NewAcc(net, bd)
	for _, heuristic := range []bool{false, true} {
		m := NewMCTS(1)
		m.Weights = &w
		m.Params.HeuristicPrior = heuristic
		if _, err := m.Search(context.Background(), bd, s, solver.Limits{Nodes: 200}, 1, nil, nil); err != nil {
			t.Fatal(err)
		}
		cands := m.root.cands
		if len(cands) < 10 {
			t.Fatalf("root has %d candidates", len(cands))
		}
		best := float32(math.Inf(-1))
		for _, c := range cands {
			best = max(best, acc.Policy(s, c.p))
		}
		matches := 0
		for i, c := range cands {
			want := float32(math.Exp(float64(acc.Policy(s, c.p) - best)))
			if math.Abs(float64(c.h-want)) < 1e-5 {
				matches++
			}
			if i > 0 && !heuristic && c.h > cands[i-1].h {
				t.Fatalf("candidate %d (%v, %.4f) ranks above %v (%.4f)", i, c.p, c.h, cands[i-1].p, cands[i-1].h)
			}
		}
		switch {
		case !heuristic && matches != len(cands):
			t.Errorf("policy prior: %d of %d priors are the policy's softmax", matches, len(cands))
		case heuristic && matches == len(cands):
			t.Errorf("HeuristicPrior: the priors are still the policy's")
		}
		if cands[0].h != 1 {
			t.Errorf("the best prior is %v, want 1", cands[0].h)
		}
	}
}
