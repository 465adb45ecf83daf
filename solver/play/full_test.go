package play

import (
	"context"
	"path/filepath"
	"testing"

	"gomoku/engine"
	"gomoku/positions/datatest"
	"gomoku/solver"
	"gomoku/solver/internal/cases"
)

// TestFullBoardDraw: on testdata/positions/drawn-5x5.txt, with one empty cell and no five to be made, MCTS and
// alpha-beta value the move 0.5, and no search claims a win or a loss.
// MCTS used to read the full board as a loss for the side to move there,
// and best printed "e5 value 1.000, proven win".
func TestFullBoardDraw(t *testing.T) {
	ps := cases.Load(t, filepath.Join(datatest.Local(t), "positions", "drawn-5x5.txt"))
	b, err := ps[0].Board(ps[0].Rule)
	if err != nil {
		t.Fatal(err)
	}
	searchers := map[string]Searcher{"mcts": NewMCTS(1), "ab": NewAlphaBeta(1)}
	for name, sr := range searchers {
		rep, err := sr.Search(context.Background(), b, engine.Black, solver.Limits{Nodes: 2000}, 1, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := rep.Moves[0]
		if m.Proven != 0 || m.Value != 0.5 {
			t.Errorf("%s: %v value %.3f proven %d, want value 0.5 and no win or loss", name, m.Move, m.Value, m.Proven)
		}
	}
	rep, err := Best(context.Background(), solver.NewSolver(16), b, engine.Black, NewMCTS(1),
		solver.Limits{Nodes: 2000}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind == KindWin || rep.Moves[0].Proven != 0 {
		t.Errorf("best: kind %s, proven %d on a drawn board", rep.Kind, rep.Moves[0].Proven)
	}
	if !rep.Moves[0].Drawn {
		t.Errorf("MCTS did not prove the draw of a board filled by the only move")
	}
}
