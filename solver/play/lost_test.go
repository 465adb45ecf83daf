package play

import (
	"context"
	"slices"
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
			if err := b.Put(mustPoint(t, s), engine.Color(c+1)); err != nil {
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

// TestProvenLoss: on freestyle.txt's fourth opening at ply 7, black
// threatens a VCT were white to pass. The threat's proof, replayed with
// white's stone added, still holds after a far move (a1, o15) and no longer
// after j9, the defence (black has no VCT there), nor after j10, which
// makes a four. Lost then searches only the moves the proof misses.
func TestProvenLoss(t *testing.T) {
	b := movesBoard(t, engine.Freestyle, "h8 h7 h9 g10 g8 i10 i9")
	s := solver.NewSolver(64)
	ctx := context.Background()
	threat, err := s.Solve(ctx, solver.Problem{Board: b, ToMove: engine.White, Attacker: engine.Black, DefenderPasses: true},
		solver.ModeVCT, solver.Limits{Nodes: 1_000_000}, nil)
	if err != nil || threat.Status != solver.StatusWin {
		t.Fatalf("black's threat: %v, %v", threat.Status, err)
	}
	before, whites := b.Hash(), len(threat.Proof.White)
	tree, stone := withStone(threat.Proof, engine.White) // one copy for every move, as Lost uses it
	for move, want := range map[string]bool{"a1": true, "o15": true, "j9": false, "j10": false} {
		p := mustPoint(t, move)
		*stone = p
		if got := provenLoss(ctx, b, engine.White, p, tree); got != want {
			t.Errorf("after white %s: the threat's proof holds %v, want %v", move, got, want)
		}
		if want {
			continue
		}
		// the proof fails where black has no VCT at all
		st, err := opponentAfter(ctx, s, b, engine.White, p, solver.Limits{Nodes: 1_000_000})
		if err != nil || st != solver.StatusNoWin {
			t.Errorf("black's VCT after white %s: %v, %v; want no-win", move, st, err)
		}
	}
	if b.Hash() != before {
		t.Error("the board changed")
	}
	if len(threat.Proof.White) != whites {
		t.Error("the threat's proof changed")
	}
}

// TestLostReplay: a renju game lost to Rapfi (2026-11-30, balanced opening
// 4, this program white): after black's quiet i8 white loses whatever it
// plays, and Lost proves it, most of the moves the threat's proof misses
// by the proof of an earlier move's loss (foundLoss). On the freestyle
// position of TestProvenLoss, black's win after white's far a1, with the
// stone moved, proves black's win after o15 too and not after j9, the
// defence.
func TestLostReplay(t *testing.T) {
	b := movesBoard(t, engine.Renju, "h8 j6 f10 i7 h10 h7 g7 i9 g10 i10 i8")
	lost, err := Lost(context.Background(), solver.NewSolver(64), b, engine.White, solver.Limits{Nodes: 4_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if !lost {
		t.Error("white after black's i8: not shown lost")
	}

	b = movesBoard(t, engine.Freestyle, "h8 h7 h9 g10 g8 i10 i9")
	ctx := context.Background()
	a, err := opponentWin(ctx, solver.NewSolver(64), b, engine.White, mustPoint(t, "a1"), solver.Limits{Nodes: 1_000_000})
	if err != nil || a.Status != solver.StatusWin || a.Proof == nil {
		t.Fatalf("black's win after white a1: %v, %v", a.Status, err)
	}
	before := b.Hash()
	f := foundLoss{a.Proof, mustPoint(t, "a1")}
	for move, want := range map[string]bool{"o15": true, "a2": true, "j9": false} {
		if got := f.holdsAfter(ctx, b, engine.White, mustPoint(t, move)); got != want {
			t.Errorf("after white %s: a1's proof holds %v, want %v", move, got, want)
		}
	}
	if b.Hash() != before {
		t.Error("the board changed")
	}
	if !slices.Contains(a.Proof.White, mustPoint(t, "a1")) {
		t.Error("the found proof lost its stone a1")
	}
}
