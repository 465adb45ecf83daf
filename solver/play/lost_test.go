package play

import (
	"context"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// lostBoard puts the stones of each side (black's, white's) on an empty
// freestyle board.
func lostBoard(t *testing.T, black, white []string) *engine.Board {
	t.Helper()
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	for c, list := range [2][]string{black, white} {
		for _, s := range list {
			p, err := engine.ParsePoint(s, 15)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Put(p, engine.Color(c+1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b
}

// TestLost: white, to move against black's two open threes (h8-j8 and
// h8-h10), loses whatever it plays (it blocks one three at most, and the
// other becomes a straight four); against one open three it does not, and
// the answer comes after few checks. The board is unchanged.
func TestLost(t *testing.T) {
	far := []string{"a1", "a3", "o15", "o13"}
	for _, c := range []struct {
		name  string
		black []string
		want  bool
	}{
		{"two open threes", []string{"h8", "i8", "j8", "h9", "h10"}, true},
		{"one open three", []string{"h8", "i8", "j8", "c12", "m3"}, false},
	} {
		b := lostBoard(t, c.black, far)
		before := b.Hash()
		lost, err := Lost(context.Background(), solver.NewSolver(64), b, engine.White, solver.Limits{Nodes: 2_000_000})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if lost != c.want {
			t.Errorf("%s: lost %v, want %v", c.name, lost, c.want)
		}
		if b.Hash() != before {
			t.Errorf("%s: the board changed", c.name)
		}
	}
}

// TestLostBudget: a budget that runs out before every move is checked is
// no proof: a time limit shorter than one check, or a cancelled context.
func TestLostBudget(t *testing.T) {
	b := lostBoard(t, []string{"h8", "i8", "j8", "h9", "h10"}, []string{"a1", "a3", "o15", "o13"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, c := range map[string]struct {
		ctx context.Context
		lim solver.Limits
	}{
		"1 µs":      {context.Background(), solver.Limits{Time: time.Microsecond}},
		"cancelled": {ctx, solver.Limits{Nodes: 2_000_000}},
	} {
		lost, err := Lost(c.ctx, solver.NewSolver(64), b, engine.White, c.lim)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if lost {
			t.Errorf("%s: lost, want not shown", name)
		}
	}
}
