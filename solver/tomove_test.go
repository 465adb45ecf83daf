package solver

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// TestProveToMove: on the square opening after white h10 (black to move),
// the search over all moves within 100 nodes is unknown, and so is
// ProveToMove without deepening; with one level (and one zone extension)
// the deepening at the root wins, the proof (a quiet move with its pass
// proof and listed defences) passes the checker on the position, and a
// second call reads it from the store. With the defender to move it is
// ErrDefenderToMove.
func TestProveToMove(t *testing.T) {
	cpr, _, _ := squareAfterH10(t)
	lim := Limits{Nodes: 100}
	ctx := context.Background()
	s, _ := storedSolver(t)
	if a, err := s.Solve(ctx, cpr, ModeWin, lim, nil); err != nil || a.Status != StatusUnknown {
		t.Fatalf("the search alone: %v, %v; want unknown (the test needs the deepening)", a.Status, err)
	}
	ch, err := s.ProveToMove(ctx, cpr, lim, OpeningOptions{})
	if err != nil || ch.Status != StatusUnknown || ch.Deepened {
		t.Fatalf("without deepening: %v (deepened %v), %v; want unknown", ch.Status, ch.Deepened, err)
	}
	var lines []string
	opt := OpeningOptions{Deepen: 1, ZoneExtensions: 1, Retry: true, Log: func(l string) { lines = append(lines, l) }}
	ch, err = s.ProveToMove(ctx, cpr, lim, opt)
	if err != nil || ch.Status != StatusWin || !ch.Deepened || ch.Proof == nil {
		t.Fatalf("deepened: %v (deepened %v), %v; log %q", ch.Status, ch.Deepened, err, lines)
	}
	root := ch.Proof.Root
	if root == nil || root.Pass == nil || len(root.Defences) == 0 {
		t.Fatalf("the proof's first move is not a quiet move with a pass proof and listed defences: %+v", root)
	}
	if _, err := proof.VerifyOn(ctx, ch.Proof, cpr.Board); err != nil {
		t.Fatalf("the checker rejects the proof: %v", err)
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "deepening the root: ") }) {
		t.Errorf("no deepening of the root in the log: %q", lines)
	}
	again, err := s.ProveToMove(ctx, cpr, lim, OpeningOptions{})
	if err != nil || again.Status != StatusWin || !again.FromStore {
		t.Errorf("again: %v (from the store %v), %v; want the stored win", again.Status, again.FromStore, err)
	}
	// the same on two goroutines, a fresh store (go test -race)
	s2, _ := storedSolver(t)
	opt.Jobs, opt.Log = 2, nil
	if ch, err := s2.ProveToMove(ctx, cpr, lim, opt); err != nil || ch.Status != StatusWin {
		t.Errorf("two jobs: %v, %v; want a win", ch.Status, err)
	}
	def := cpr
	def.Attacker = engine.White
	if _, err := s.ProveToMove(ctx, def, lim, opt); !errors.Is(err, ErrDefenderToMove) {
		t.Errorf("the defender to move: %v; want ErrDefenderToMove", err)
	}
}
