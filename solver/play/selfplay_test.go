package play

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// TestStartPosition: the start a seed draws is the one PlayGame plays
// from (the same opening and random plies), and an opening that ends in a
// five leaves no game (solver.ErrGameOver).
func TestStartPosition(t *testing.T) {
	open := []engine.Point{engine.PointAt(7, 7), engine.PointAt(7, 8), engine.PointAt(8, 8)}
	cfg := func() SelfPlayConfig {
		return SelfPlayConfig{Rule: engine.Freestyle, Opening: open, RandomPlies: 4, Time: 2 * time.Millisecond,
			Rand: rand.New(rand.NewPCG(5, 9))}
	}
	start, err := StartPosition(cfg())
	if err != nil || len(start) != 7 || !slices.Equal(start[:3], open) {
		t.Fatalf("start %v, %v: want the opening and 4 random plies", start, err)
	}
	s := solver.NewSolver(8)
	rec, err := SelfPlay(context.Background(), cfg(), s, NewAlphaBeta(1))
	if err != nil || rec.Opening != len(start) || !slices.Equal(rec.Moves[:rec.Opening], start) {
		t.Fatalf("the game starts %v (opening %d, %v), StartPosition %v", rec.Moves[:min(len(rec.Moves), 7)], rec.Opening, err, start)
	}
	five := SelfPlayConfig{Rule: engine.Freestyle, Rand: rand.New(rand.NewPCG(1, 1))}
	for i := range 5 {
		five.Opening = append(five.Opening, engine.PointAt(i, 0), engine.PointAt(i, 5))
	}
	five.Opening = five.Opening[:9] // black's a1-e1 is the ninth move
	if _, err := StartPosition(five); !errors.Is(err, solver.ErrGameOver) {
		t.Errorf("an opening ending in five: %v, want ErrGameOver", err)
	}
}
