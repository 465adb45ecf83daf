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

// TestSummarizeLost: black's move at ply 2 let white win by VCT at ply 3,
// but every black move at ply 2 was shown to lose (Lost): the blame moves
// to black's move at ply 0, which let white's winning quiet move at ply 1
// in; ply 1 counts as a win kept, the game decided there, and ply 2's move
// is no blunder.
func TestSummarizeLost(t *testing.T) {
	ply := func(i int, win Mode, lost bool) PlyResult {
		return PlyResult{Ply: i, ToMove: engine.Color(1 + i%2), Win: win, Solved: true, Lost: lost,
			Move: engine.PointAt(i, 0), Best: engine.NoPoint, Value: 0.5}
	}
	plies := []PlyResult{ply(0, 0, false), ply(1, 0, false), ply(2, 0, true), ply(3, ModeVCT, false)}
	sum := Summarize(plies, engine.White, false)
	if len(sum.Blunders) != 1 || sum.Blunders[0] != 0 {
		t.Errorf("blunders %v, want [0]", sum.Blunders)
	}
	if sum.Decided != 1 {
		t.Errorf("decided at ply %d, want 1", sum.Decided)
	}
	if sum.Kept[1] == nil || !*sum.Kept[1] {
		t.Errorf("ply 1: kept %v, want true", sum.Kept[1])
	}
	js, _ := Judge(plies, sum, false)
	if js[0].Class != ClassBlunder || js[2].Class == ClassBlunder || js[2].Class == ClassMistake {
		t.Errorf("classes %q, %q, want a blunder at ply 0 and none at ply 2", js[0].Class, js[2].Class)
	}
	// without the check, ply 2 is the blunder as before
	plies[2].Lost = false
	if sum := Summarize(plies, engine.White, false); len(sum.Blunders) != 1 || sum.Blunders[0] != 2 || sum.Decided != 3 {
		t.Errorf("without Lost: blunders %v decided %d, want [2] and 3", sum.Blunders, sum.Decided)
	}
}
