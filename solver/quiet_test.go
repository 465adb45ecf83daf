package solver

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"gomoku/engine"
	"gomoku/positions/datatest"
	"gomoku/solver/internal/cases"
	"gomoku/solver/proof"
)

// quietProblem is testdata/positions/quiet-threat.txt: freestyle, black to
// move, no VCT, and a win that starts with a quiet move.
func quietProblem(t *testing.T) Problem {
	t.Helper()
	ps := cases.Load(t, filepath.Join(datatest.Local(t), "positions", "quiet-threat.txt"))
	return problem(t, ps[0])
}

// quietNodes is the node limit of TestQuietThreat's searches. QuietThreat's
// first round gives each search a 64th of it. (The search over all moves
// alone, solve's default without --pass-threats, wins in 1.75 M nodes,
// about 12 s, where QuietThreat with a 10 s limit wins in 0.8 s; with node
// limits as small as that, QuietThreat's shares are too small to win.)
const quietNodes = 6_000_000

// checkQuietWin fails unless a is a win by a quiet threat of pr's attacker
// whose proof passes the checker: the first move makes no four and the
// proof's root carries a pass proof.
func checkQuietWin(t *testing.T, pr Problem, a Answer) {
	t.Helper()
	if a.Status != StatusWin || a.Proof == nil || !a.ByQuietThreat() {
		t.Fatalf("%v (%s), quiet threat %v, after %d nodes: want a win by a quiet threat", a.Status, a.Stopped, a.ByQuietThreat(), a.Nodes)
	}
	if _, err := proof.Verify(a.Proof); err != nil {
		t.Fatalf("the proof fails its check: %v", err)
	}
	b := pr.Board.Clone()
	b.Play(a.Line[0], pr.Attacker)
	if b.LastMoveWon() || b.Count(pr.Attacker, engine.FivePoints) > 0 {
		t.Errorf("the first move %v makes a four or a five, not a quiet move", a.Line[0])
	}
}

// TestQuietThreat: on a position without a VCT, QuietThreat finds a quiet
// move whose every defence loses, with a checked proof; Solve in ModeWin
// finds it with QuietThreats, and its search over all moves alone does
// not within the same nodes. A problem with the defender to move is
// refused.
func TestQuietThreat(t *testing.T) {
	pr := quietProblem(t)
	ctx := context.Background()
	s := NewSolver(64)
	vct, err := s.Solve(ctx, pr, ModeVCT, Limits{Nodes: 2_000_000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vct.Status != StatusNoWin {
		t.Fatalf("VCT: %v, want no-win (the position is chosen to have none)", vct.Status)
	}
	var steps []string
	q, err := s.QuietThreat(ctx, pr, Limits{Nodes: quietNodes}, func(l string) { steps = append(steps, l) })
	if err != nil {
		t.Fatal(err)
	}
	checkQuietWin(t, pr, q)
	if len(steps) < 2 {
		t.Errorf("log: %q, want the probes and the moves tried", steps)
	}

	// Solve: the VCT's no-win, then the quiet threat (solve's defaults,
	// PassThreats off)
	s = NewSolver(64)
	s.QuietThreats = true
	a, err := s.Solve(ctx, pr, ModeWin, Limits{Nodes: quietNodes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkQuietWin(t, pr, a)
	if !s.QuietThreats {
		t.Error("QuietThreats left off after the search")
	}

	defPr := pr
	defPr.ToMove = pr.Attacker.Opponent()
	if _, err := s.QuietThreat(ctx, defPr, Limits{Nodes: 1000}, nil); !errors.Is(err, ErrDefenderToMove) {
		t.Errorf("the defender to move: %v, want ErrDefenderToMove", err)
	}
}

// TestQuietThreatBook: lfz-tengu/123 (renju, white to move), a VCT puzzle
// of lfz084's books whose VCT proves no win within threat limit 8: white's
// win starts with a quiet move (Rapfi's line starts with i9 too), which
// Solve in ModeWin proves with QuietThreats, the proof checked.
func TestQuietThreatBook(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of a few million nodes")
	}
	pr := sharedProblem(t, "lfz-tengu.jsonl", "lfz-tengu/123")
	s := NewSolver(256)
	ctx := context.Background()
	vct, err := s.Solve(ctx, pr, ModeVCT, Limits{Nodes: 2_000_000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vct.Status != StatusNoWin {
		t.Fatalf("VCT: %v, want no-win", vct.Status)
	}
	s.QuietThreats = true
	a, err := s.Solve(ctx, pr, ModeWin, Limits{Nodes: 20_000_000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkQuietWin(t, pr, a)
	t.Logf("%v in %d nodes, line %v, proof %d moves", a.Status, a.Nodes, a.Line, a.ProofNodes)
}

// TestByZone: the moves without a win are dropped, the others sorted by
// zone, ties in the given order.
func TestByZone(t *testing.T) {
	p := func(x int) engine.Point { return engine.PointAt(x, 0) }
	moves := []engine.Point{p(0), p(1), p(2), p(3), p(4)}
	got := byZone(moves, []int{7, noZone, 3, 7, 1})
	want := []engine.Point{p(4), p(2), p(0), p(3)}
	if !slices.Equal(got, want) {
		t.Errorf("byZone = %v, want %v", got, want)
	}
	if got := byZone(moves, []int{noZone, noZone, noZone, noZone, noZone}); len(got) != 0 {
		t.Errorf("byZone of no wins = %v", got)
	}
}
