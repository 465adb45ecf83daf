package solver

import (
	"context"
	"path/filepath"
	"testing"

	"gomoku/engine"
	"gomoku/positions/datatest"
	"gomoku/solver/internal/cases"
)

// oneEmptyBoard is testdata/positions/drawn-5x5.txt: a 5x5 freestyle board
// with no five and one empty cell, e5; whoever fills it, the game is a draw.
func oneEmptyBoard(t *testing.T) *engine.Board {
	t.Helper()
	ps := cases.Load(t, filepath.Join(datatest.Local(t), "positions", "drawn-5x5.txt"))
	b, err := ps[0].Board(ps[0].Rule)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFullBoardNoWin: proof-number search over all moves on a board one
// move from full proves no win at once. It used to loop on the defender
// node with no legal move (34 M nodes in 3 s, for ever without a limit).
func TestFullBoardNoWin(t *testing.T) {
	b := oneEmptyBoard(t)
	for _, mode := range []Mode{ModeVCF, ModeVCT, ModeWin} {
		s := NewSolver(16)
		a, err := s.Solve(context.Background(), Problem{Board: b, ToMove: engine.Black, Attacker: engine.Black}, mode,
			Limits{Nodes: 1_000_000}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != StatusNoWin {
			t.Errorf("%v: %v after %d nodes, want no-win", mode, a.Status, a.Nodes)
		}
		if a.Nodes > 1000 {
			t.Errorf("%v: %d nodes for one empty cell", mode, a.Nodes)
		}
	}
}
