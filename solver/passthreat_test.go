package solver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/positions/datatest"
	"gomoku/solver/internal/cases"
	"gomoku/solver/proof"
)

// passThreatProblem is the position after 57 moves of the shared data's
// freestyle game 010 (Rapfi against mintaka), white to move and winning:
// no VCT at threat limit 3, and the search over all moves proves the win
// through threats of order 3 (found 2026-11-29).
func passThreatProblem(t *testing.T) Problem {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(datatest.Shared(t), "games", "freestyle", "010.psq"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	kept := []string{lines[0]}
	for _, l := range lines[1:] {
		if len(kept) == 58 || strings.Count(l, ",") != 2 {
			break
		}
		kept = append(kept, l)
	}
	if len(kept) != 58 {
		t.Fatalf("010.psq: %d moves, want at least 57", len(kept)-1)
	}
	path := filepath.Join(t.TempDir(), "010-57.psq")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps := cases.Load(t, path)
	return problem(t, ps[0])
}

// passNode returns the first node of the tree, in depth-first order, that
// has a pass proof, or nil.
func passNode(n *proof.Node) *proof.Node {
	if n == nil {
		return nil
	}
	if n.Pass != nil {
		return n
	}
	for _, d := range n.Defences {
		if p := passNode(d.Answer); p != nil {
			return p
		}
	}
	return nil
}

// cloneNode returns a deep copy of the subtree of n.
func cloneNode(n *proof.Node) *proof.Node {
	if n == nil {
		return nil
	}
	out := &proof.Node{Move: n.Move, Pass: cloneNode(n.Pass)}
	for _, d := range n.Defences {
		out.Defences = append(out.Defences, proof.Defence{Move: d.Move, Answer: cloneNode(d.Answer)})
	}
	return out
}

// TestPassThreatProof: with PassThreats the search over all moves proves
// the shared game's position through a threat of order 3, the proof
// carries the pass proof and passes the independent check (Solve checks it
// before it answers), survives its JSON form and the store's encoding, and
// the check rejects the proof with the pass proof's first cell, one of the
// zone's listed defences, left out (the defender stone there leaves the
// pass proof's first move unplayable), with the pass proof dropped, and
// with a pass proof on a move that wins at once.
func TestPassThreatProof(t *testing.T) {
	pr := passThreatProblem(t)
	s := NewSolver(64)
	s.PassThreats = true
	a, err := s.Solve(context.Background(), pr, ModeWin, Limits{Nodes: 3_000_000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != StatusWin || a.Proof == nil {
		t.Fatalf("status %v (stopped %q), want a win with its proof", a.Status, a.Stopped)
	}
	pn := passNode(a.Proof.Root)
	if pn == nil {
		t.Fatal("the proof has no threat of order 3")
	}
	if _, err := proof.VerifyOn(context.Background(), a.Proof, pr.Board); err != nil {
		t.Fatalf("the proof fails its check: %v", err)
	}

	// the file form and the store's encoding keep the pass proofs
	data, err := json.Marshal(a.Proof)
	if err != nil {
		t.Fatal(err)
	}
	var back proof.Tree
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Len() != a.Proof.Len() || passNode(back.Root) == nil {
		t.Fatalf("JSON round trip: %d moves, want %d, with the pass proof", back.Len(), a.Proof.Len())
	}
	if _, err := proof.Verify(&back); err != nil {
		t.Fatalf("the proof read back fails its check: %v", err)
	}
	e, err := decodeEntry(storeEntry{status: StatusWin, depth: 1, threat: 3, proof: a.Proof.Root}.encode())
	if err != nil || e.proof.Len() != a.Proof.Len() || passNode(e.proof) == nil {
		t.Fatalf("store encoding: %v, %d moves, want %d with the pass proof", err, e.proof.Len(), a.Proof.Len())
	}

	// corrupted: each must be rejected
	corrupt := func(name string, edit func(root *proof.Node)) {
		t.Helper()
		bad := *a.Proof
		bad.Root = cloneNode(a.Proof.Root)
		edit(bad.Root)
		_, err := proof.Verify(&bad)
		var pe *proof.Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: accepted (%v)", name, err)
		}
	}
	first := pn.Pass.Move
	corrupt("zone cell of the pass proof's first move dropped", func(root *proof.Node) {
		n := passNode(root)
		for i, d := range n.Defences {
			if d.Move == first {
				n.Defences = append(n.Defences[:i], n.Defences[i+1:]...)
				return
			}
		}
		t.Fatalf("the pass proof's first move %v is not among the listed defences", first)
	})
	corrupt("pass proof dropped", func(root *proof.Node) { passNode(root).Pass = nil })
	corrupt("pass proof's first move moved onto a stone", func(root *proof.Node) {
		n := passNode(root)
		n.Pass.Move = n.Move
	})
	corrupt("pass proof on a four", func(root *proof.Node) {
		b := engine.Scratch(pr.Board)
		defer engine.Release(b)
		n := fiveNode(b, pr.Attacker, root)
		if n == nil {
			t.Fatal("no move of the proof is a four")
		}
		n.Pass = &proof.Node{Move: engine.PointAt(0, 0)}
	})
}

// fiveNode returns the first node of the tree below n (played on b, att to
// move) whose move makes a four or five, or nil; b is left as it was.
func fiveNode(b *engine.Board, att engine.Color, n *proof.Node) *proof.Node {
	if n == nil {
		return nil
	}
	b.Play(n.Move, att)
	defer b.Undo()
	if b.LastMoveWon() || b.Count(att, engine.FivePoints) > 0 {
		return n
	}
	for _, d := range n.Defences {
		b.Play(d.Move, att.Opponent())
		f := fiveNode(b, att, d.Answer)
		b.Undo()
		if f != nil {
			return f
		}
	}
	return nil
}

// TestPassThreatZoneTooSmall: zones cut short of the pass proof's first
// cell (the defender stone there leaves the pass proof unplayable) make
// every proof with a pass proof fail its check; Solve then claims nothing
// from that search and searches again answering every move, which proves
// the win without pass proofs.
func TestPassThreatZoneTooSmall(t *testing.T) {
	pr := passThreatProblem(t)
	passZoneCut = func(zone []engine.Point, pass *proof.Node) []engine.Point {
		return slices.DeleteFunc(zone, func(p engine.Point) bool { return p == pass.Move })
	}
	defer func() { passZoneCut = nil }()
	s := NewSolver(64)
	s.PassThreats = true
	a, err := s.Solve(context.Background(), pr, ModeWin, Limits{Nodes: 3_000_000}, nil)
	if err != nil {
		t.Fatalf("a rejected pass proof became an error: %v", err)
	}
	if a.Status != StatusWin || a.Proof == nil || passNode(a.Proof.Root) != nil {
		t.Fatalf("status %v (stopped %q), want a win proven without pass proofs", a.Status, a.Stopped)
	}
	if _, err := proof.VerifyOn(context.Background(), a.Proof, pr.Board); err != nil {
		t.Fatal(err)
	}
}

// TestPassThreatStoppedByTime: a search over all moves with threats of
// order 3 that runs out of time says so ("time"), also when the deadline
// passes inside a pass search (it said "nodes"). Freestyle's D4 after a
// white pass (black h8 i9, white h9, black to move) takes minutes.
func TestPassThreatStoppedByTime(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []string{"h8", "h9", "i9"} {
		p, _ := engine.ParsePoint(s, 15)
		b.Play(p, engine.Color(1+i%2))
	}
	s := NewSolver(64)
	s.PassThreats = true
	a, err := s.Solve(context.Background(), Problem{Board: b, ToMove: engine.White, Attacker: engine.Black, DefenderPasses: true},
		ModeWin, Limits{Time: 500 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != StatusUnknown || a.Stopped != "time" {
		t.Errorf("status %v, stopped %q: want unknown, stopped by the time", a.Status, a.Stopped)
	}
}
