package solver

import (
	"context"
	"testing"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// openingProblem sets up a position from moves (black first) with the side
// after the last move to move, and the other side attacking.
func openingProblem(t *testing.T, r engine.Rule, moves ...string) Problem {
	t.Helper()
	b, err := engine.NewBoard(15, r)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range moves {
		p, err := engine.ParsePoint(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		b.Play(p, engine.Color(1+i%2))
	}
	toMove := engine.Color(1 + len(moves)%2)
	return Problem{Board: b, ToMove: toMove, Attacker: toMove.Opponent()}
}

// TestProveOpeningJobs proves a renju opening symmetric about the
// diagonal (black's 2x2 square on it, white's three stones on it, white to
// move) with one and with two children searched at once (CI runs it under
// -race): both give a certificate that the checker accepts, with the same
// defender moves, the images of searched moves decided by symmetry.
func TestProveOpeningJobs(t *testing.T) {
	pr := openingProblem(t, engine.Renju, "h8", "a1", "i8", "o15", "h9", "b2", "i9")
	var moves [2][]engine.Point
	var passSize [2]int
	for j, jobs := range []int{1, 2} {
		s := NewSolver(64)
		s.PassThreats = true
		rep, err := s.ProveOpening(context.Background(), pr, Limits{Nodes: 200_000}, OpeningOptions{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != StatusWin || rep.Certificate == nil {
			t.Fatalf("jobs %d: %v (won %d, unknown %d, no-win %d)", jobs, rep.Status, rep.Won, rep.Unknown, rep.NoWin)
		}
		passSize[j] = rep.Pass.ProofNodes
		sym := 0
		for _, ch := range rep.Children {
			moves[j] = append(moves[j], ch.Move)
			if ch.Symmetric {
				sym++
			}
		}
		if sym == 0 {
			t.Errorf("jobs %d: no defender move decided by symmetry", jobs)
		}
		if _, err := proof.VerifyCertificate(context.Background(), rep.Certificate); err != nil {
			t.Errorf("jobs %d: %v", jobs, err)
		}
	}
	if passSize[0] != passSize[1] {
		t.Logf("the pass proofs differ (%d and %d moves): the zones may too", passSize[0], passSize[1])
		return
	}
	if len(moves[0]) != len(moves[1]) {
		t.Fatalf("%d and %d defender moves", len(moves[0]), len(moves[1]))
	}
	for i := range moves[0] {
		if moves[0][i] != moves[1][i] {
			t.Fatalf("defender move %d: %v and %v", i, moves[0][i], moves[1][i])
		}
	}
}
