package play

import (
	"context"
	"slices"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// TestSearchVerifiedRefutesUnprovenDefence replays a position of a game
// this program lost to Rapfi (freestyle, 2026-11-26, 300 ms a move): black
// to move, white threatens a VCT. Of the two defences Best's checks had
// left unproven at 300 ms, the search prefers i7, after which white wins
// by a VCT of 9 moves (found in about 19,000 nodes); h7 is a defence that
// longer checks prove. Restricted to the two, searchVerified must refute
// i7 by its check and choose h7.
func TestSearchVerifiedRefutesUnprovenDefence(t *testing.T) {
	b := movesBoard(t, engine.Freestyle, "h8 i8 i5 i9 j5 h9 h5 g5 k5 l5")
	i7, _ := engine.ParsePoint("i7", 15)
	h7, _ := engine.ParsePoint("h7", 15)
	only := []engine.Point{i7, h7}
	lim := solver.Limits{Nodes: 300_000}
	pre, err := NewAlphaBeta(16).Search(context.Background(), b, engine.Black, lim, 1, only, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the search alone prefers %v", pre.Moves[0].Move)
	rep, err := searchVerified(context.Background(), solver.NewSolver(64), b, engine.Black, NewAlphaBeta(16), lim,
		sharesFor(engine.Freestyle), 1, only, nil, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Moves) == 0 || rep.Moves[0].Move != h7 {
		t.Fatalf("chose %+v (refuted %v), want h7", rep.Moves, rep.Refuted)
	}
	if pre.Moves[0].Move == i7 && !slices.Contains(rep.Refuted, i7) {
		t.Errorf("the search preferred i7, but it is not among the refuted %v", rep.Refuted)
	}
}
