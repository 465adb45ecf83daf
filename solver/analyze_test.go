package solver

import (
	"testing"

	"gomoku/engine"
)

// TestJudge classes moves by the win rate they lose: a move other than the
// engine's that drops the side from 0.44 to 0.08 is a blunder; the engine's
// own move with the same values is best and is charged no loss (the next
// ply's search saw further); giving the opponent a proven forced win is a
// blunder even when it was the engine's move; keeping a proven win is never
// worse than good.
func TestJudge(t *testing.T) {
	p := func(s string) engine.Point {
		q, err := engine.ParsePoint(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	ply := func(i int, move, best string, value float64) PlyResult {
		return PlyResult{Ply: i, ToMove: engine.Color(1 + i%2), Move: p(move), Best: p(best), Value: value, Solved: true}
	}
	for _, tc := range []struct {
		name      string
		plies     []PlyResult
		class     string
		loss      float64
		blunders0 int // black's blunder count
	}{
		{"other move", []PlyResult{ply(0, "h8", "i9", 0.44), ply(1, "h9", "h9", 0.92)}, ClassBlunder, 0.36, 1},
		{"engine's move", []PlyResult{ply(0, "h8", "h8", 0.44), ply(1, "h9", "h9", 0.92)}, ClassBest, 0, 0},
		{"engine's move, small drop", []PlyResult{ply(0, "h8", "h8", 0.50), ply(1, "h9", "h9", 0.52)}, ClassBest, 0, 0},
		{"other move, small drop", []PlyResult{ply(0, "h8", "i9", 0.50), ply(1, "h9", "h9", 0.55)}, ClassGood, 0.05, 0},
		{"engine's move gives a proven win", []PlyResult{ply(0, "h8", "h8", 0.44), func() PlyResult {
			r := ply(1, "h9", "h9", 0.92)
			r.Win = ModeVCT
			return r
		}()}, ClassBlunder, 0, 1},
	} {
		sum := Summarize(tc.plies, engine.Empty, false)
		js, stats := Judge(tc.plies, sum, false)
		j := js[0]
		if j.Class != tc.class || j.Loss < tc.loss-1e-9 || j.Loss > tc.loss+1e-9 {
			t.Errorf("%s: class %q loss %.3f, want %q %.3f", tc.name, j.Class, j.Loss, tc.class, tc.loss)
		}
		if got := stats[0].Classes[ClassBlunder]; got != tc.blunders0 {
			t.Errorf("%s: black's blunders %d, want %d", tc.name, got, tc.blunders0)
		}
	}
}
