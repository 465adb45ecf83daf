package play

import (
	"context"
	"slices"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver"
	"gomoku/solver/internal/cases"
	"gomoku/solver/proof"
)

// searchers returns one searcher of each kind, fresh.
func searchers() map[string]Searcher {
	return map[string]Searcher{"mcts": NewMCTS(2), "ab": NewAlphaBeta(16)}
}

// bestOf runs Best on a move list's position and returns the report.
func bestOf(t *testing.T, s Searcher, r engine.Rule, moves string, d time.Duration) (*engine.Board, Report) {
	t.Helper()
	b := movesBoard(t, r, moves)
	rep, err := Best(context.Background(), solver.NewSolver(64), b, toMove(b), s, solver.Limits{Time: d}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Moves) == 0 {
		t.Fatalf("no move reported: %+v", rep)
	}
	return b, rep
}

func TestBestTakesFive(t *testing.T) {
	for name, s := range searchers() {
		// black's open four h8-k8; white has three in a row below
		b, rep := bestOf(t, s, engine.Freestyle, "h8 h9 i8 i9 j8 j9 k8 a1", 300*time.Millisecond)
		m := rep.Moves[0].Move
		b.Play(m, engine.Black)
		if rep.Kind != KindWin || !b.LastMoveWon() {
			t.Errorf("%s: kind %s, move %v does not make five", name, rep.Kind, m)
		}
	}
}

func TestBestFindsVCF(t *testing.T) {
	ps := cases.Quintet(t, "vcf")
	wins := 0
	for name, s := range searchers() {
		for _, p := range ps {
			if p.Puzzle.Expect != "win" || (p.Attacker != engine.Empty && p.ToMove != p.Attacker) {
				continue
			}
			b, err := p.Board(p.Rule)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Best(context.Background(), solver.NewSolver(64), b, p.ToMove, s, solver.Limits{Time: 2 * time.Second}, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Kind != KindWin {
				t.Errorf("%s %s: kind %s, want win", name, p.Label(), rep.Kind)
				continue
			}
			if rep.Win.Mode == solver.ModeVCF {
				if _, err := proof.VerifyLine(b, p.ToMove, rep.Win.Line); err != nil {
					t.Errorf("%s %s: line %v: %v", name, p.Label(), rep.Win.Line, err)
				}
			}
			if rep.Moves[0].Move != rep.Win.Line[0] {
				t.Errorf("%s %s: best move %v is not the line's first %v", name, p.Label(), rep.Moves[0].Move, rep.Win.Line[0])
			}
			wins++
		}
	}
	if wins < 4 {
		t.Errorf("only %d quintet VCF wins checked", wins)
	}
}

func TestBestBlocksFour(t *testing.T) {
	for name, s := range searchers() {
		// black's four h8-k8, blocked at g8: white must take l8
		_, rep := bestOf(t, s, engine.Freestyle, "h8 g8 i8 h9 j8 i9 k8", 300*time.Millisecond)
		if want := engine.PointAt(11, 7); rep.Moves[0].Move != want {
			t.Errorf("%s: played %v, want the block %v (kind %s)", name, rep.Moves[0].Move, want, rep.Kind)
		}
		// the searchers alone block too
		b := movesBoard(t, engine.Freestyle, "h8 g8 i8 h9 j8 i9 k8")
		sr, err := s.Search(context.Background(), b, engine.White, solver.Limits{Time: 100 * time.Millisecond}, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := engine.PointAt(11, 7); sr.Moves[0].Move != want {
			t.Errorf("%s alone: played %v, want the block %v", name, sr.Moves[0].Move, want)
		}
	}
}

func TestBestDefendsOpenThree(t *testing.T) {
	for name, s := range searchers() {
		for _, r := range []engine.Rule{engine.Freestyle, engine.Renju} {
			// black's open three h8-j8, white to move with two stones
			b, rep := bestOf(t, s, r, "h8 h9 i8 i9 j8", time.Second)
			if rep.Kind != KindDefend || rep.Refutations == 0 {
				t.Errorf("%s %v: kind %s with %d proven defences, want defend", name, r, rep.Kind, rep.Refutations)
				continue
			}
			m := rep.Moves[0].Move
			b.Play(m, engine.White)
			a, err := solver.NewSolver(64).Solve(context.Background(), solver.Problem{Board: b, ToMove: engine.Black, Attacker: engine.Black},
				solver.ModeVCT, solver.Limits{Time: 5 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != solver.StatusNoWin {
				t.Errorf("%s %v: after %v black's VCT is %v, want no-win", name, r, m, a.Status)
			}
		}
	}
}

func TestBestNeverForbidden(t *testing.T) {
	// j8 is a double-three for black, and the most tempting cell
	const moves = "h8 a1 i8 a3 j9 a5 j10 a7"
	for name, s := range searchers() {
		b, rep := bestOf(t, s, engine.Renju, moves, 500*time.Millisecond)
		if b.Forbidden(engine.PointAt(9, 7)) != engine.DoubleThree {
			t.Fatal("j8 is not a double-three: the fixture is wrong")
		}
		for _, m := range rep.Moves {
			if !b.Legal(engine.Black, m.Move) {
				t.Errorf("%s: reported the forbidden point %v", name, m.Move)
			}
		}
	}
	if p := QuickMove(movesBoard(t, engine.Renju, moves), engine.Black); p == engine.PointAt(9, 7) {
		t.Errorf("QuickMove chose the forbidden point j8")
	}
}

// TestBestLostPosition: a side that cannot stop the opponent's open four
// still gets moves to play, legal and valued as losses, from either
// search (MCTS answered "no legal move"; issue 37, item 18).
func TestBestLostPosition(t *testing.T) {
	for name, s := range searchers() {
		b, err := engine.NewBoard(15, engine.Freestyle)
		if err != nil {
			t.Fatal(err)
		}
		for c, list := range [2][]string{{"d8", "e8", "f8", "g8"}, {"a1", "o15", "a15"}} {
			for _, p := range list {
				q, _ := engine.ParsePoint(p, 15)
				if err := b.Put(q, engine.Color(c+1)); err != nil {
					t.Fatal(err)
				}
			}
		}
		rep, err := Best(context.Background(), solver.NewSolver(64), b, engine.White, s,
			solver.Limits{Time: 300 * time.Millisecond}, 3, nil)
		if err != nil || rep.Kind != KindLost || len(rep.Moves) == 0 {
			t.Fatalf("%s: %v, kind %s, %d moves", name, err, rep.Kind, len(rep.Moves))
		}
		for _, m := range rep.Moves {
			if !b.Legal(engine.White, m.Move) || m.Value != 0 {
				t.Errorf("%s: move %v, value %.2f", name, m.Move, m.Value)
			}
		}
	}
}

// scripted is a Searcher that answers each search with the next of its
// moves, and counts the searches and the time each was given; each search
// reports 1,000 nodes.
type scripted struct {
	moves []engine.Point
	times []time.Duration
}

func (s *scripted) Search(_ context.Context, _ *engine.Board, _ engine.Color, lim solver.Limits, _ int,
	_ []engine.Point, _ solver.ProgressFunc) (SearchReport, error) {
	s.times = append(s.times, lim.Time)
	m := s.moves[min(len(s.times), len(s.moves))-1]
	return SearchReport{Moves: []MoveStat{{Move: m, Value: 0.5, PV: []engine.Point{m}}}, Nodes: 1000}, nil
}

// TestBestExtends: the time the check of the search's choice leaves goes to
// a second search (extend), whose move is taken when the check proves the
// opponent has no VCT after it, and left out (Refuted) when the opponent
// wins after it; with too little time left there is no second search. The
// second search's nodes are added to the report's either way.
func TestBestExtends(t *testing.T) {
	// black's open three h8-j8, white to move: g8 stops it, a1 does not
	b := movesBoard(t, engine.Freestyle, "h8 h9 i8 i9 j8")
	g8, k8, a1 := engine.PointAt(6, 7), engine.PointAt(10, 7), engine.PointAt(0, 0)
	for _, c := range []struct {
		second, want engine.Point
		refuted      bool
	}{{k8, k8, false}, {a1, g8, true}} {
		s := &scripted{moves: []engine.Point{c.second}}
		rep := Report{SearchReport: SearchReport{Moves: []MoveStat{{Move: g8}}, Nodes: 500}}
		extend(context.Background(), solver.NewSolver(16), b, engine.White, s, solver.Limits{Time: 2 * time.Second}, 1, nil, nil, nil,
			time.Now().Add(2*time.Second), &rep)
		if rep.Nodes != 1500 {
			t.Errorf("second %v: %d nodes, want 500 + 1000", c.second, rep.Nodes)
		}
		if len(s.times) != 1 || s.times[0] < time.Second || s.times[0] > 4*time.Second/3 {
			t.Errorf("second %v: searches given %v, want one of about two thirds of 2s", c.second, s.times)
		}
		if rep.Moves[0].Move != c.want || (len(rep.Refuted) == 1) != c.refuted {
			t.Errorf("second %v: plays %v, refuted %v; want %v", c.second, rep.Moves[0].Move, rep.Refuted, c.want)
		}
	}
	s := &scripted{moves: []engine.Point{a1}}
	rep := Report{SearchReport: SearchReport{Moves: []MoveStat{{Move: g8}}}}
	extend(context.Background(), solver.NewSolver(16), b, engine.White, s, solver.Limits{Time: 2 * time.Second}, 1, nil, nil, nil,
		time.Now().Add(100*time.Millisecond), &rep)
	if len(s.times) != 0 || rep.Moves[0].Move != g8 {
		t.Errorf("with 100ms of 2s left: searches %v, plays %v; want none and g8", s.times, rep.Moves[0].Move)
	}
}

// TestDefencesRankedTogether: on freestyle.txt's fourth opening, white to
// move at ply 7, j10 stops black's VCT (a quick proof) but the search
// proves it loses all the same, while j9, whose check needs tens of
// thousands of nodes, holds. Best searches the proven and the unproven
// defences together (searchVerified with the proven ones safe): the
// search's choice j9 is checked and kept; a4, which loses to a VCT, is
// refuted when the search chooses it, and the proven j10 is played when it
// is the only other move.
func TestDefencesRankedTogether(t *testing.T) {
	b := movesBoard(t, engine.Freestyle, "h8 h7 h9 g10 g8 i10 i9")
	j10, j9, a4 := mustPoint(t, "j10"), mustPoint(t, "j9"), mustPoint(t, "a4")
	s := solver.NewSolver(64)
	s.OneSearch, s.ThreatLimit = true, solver.MaxAutoThreatLimit
	ctx := context.Background()
	for _, c := range []struct {
		move engine.Point
		want solver.Status
	}{{j10, solver.StatusNoWin}, {j9, solver.StatusNoWin}, {a4, solver.StatusWin}} {
		st, err := opponentAfter(ctx, s, b, engine.White, c.move, solver.Limits{Nodes: 1_000_000})
		if err != nil || st != c.want {
			t.Fatalf("black's VCT after white %v: %v, %v; want %v", c.move, st, err, c.want)
		}
	}
	ab := NewAlphaBeta(16)
	ab.Threads = 1
	sr, err := ab.Search(ctx, b, engine.White, solver.Limits{Nodes: 200_000}, 1, []engine.Point{j10}, nil)
	if err != nil || len(sr.Moves) != 1 || sr.Moves[0].Proven != -1 {
		t.Fatalf("the search on j10 alone: %+v, %v; want it proven lost", sr.Moves, err)
	}
	lim := solver.Limits{Nodes: 300_000}
	sh := sharesFor(engine.Freestyle)
	safe := []engine.Point{j10}
	got, err := searchVerified(ctx, s, b, engine.White, ab, lim, sh, 1, []engine.Point{j10, a4, j9}, safe, nil, time.Now())
	if err != nil || len(got.Moves) == 0 || got.Moves[0].Move != j9 {
		t.Fatalf("j10 proven, a4 and j9 unproven: %v, moves %+v; want j9", err, got.Moves)
	}
	if got.Checked == 0 {
		t.Errorf("j9 was played unchecked")
	}
	got, err = searchVerified(ctx, s, b, engine.White, ab, lim, sh, 1, []engine.Point{j10, a4}, safe, nil, time.Now())
	if err != nil || len(got.Moves) == 0 || got.Moves[0].Move != j10 {
		t.Fatalf("j10 proven, a4 unproven: %v, moves %+v (refuted %v); want j10", err, got.Moves, got.Refuted)
	}
	if slices.Contains(got.Refuted, j10) {
		t.Errorf("the proven j10 was refuted: %v", got.Refuted)
	}
}

// TestLongestResistance: black to move has lost (white's closed four at
// c5-f5 and an open three at h10-j10: blocking g5 leaves the three to
// become an open four). Both searches, behind Best, play the block, and
// list no move after which white makes five at once; resistance narrows a
// lost side's choice to the blocks of the opponent's five-points (issue
// 57: a held-out renju game's best chose k7, which lost at once, over the
// block at c9; before, alpha-beta here listed d15, f15 and h15 after g5).
func TestLongestResistance(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"c5", "d5", "e5", "f5", "h10", "i10", "j10"} {
		if err := b.Put(mustPoint(t, s), engine.White); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"b5", "a15", "c15", "e15", "g15", "i15", "k15"} {
		if err := b.Put(mustPoint(t, s), engine.Black); err != nil {
			t.Fatal(err)
		}
	}
	g5 := mustPoint(t, "g5")
	if got := resistance(b, engine.Black); len(got) != 1 || got[0] != g5 {
		t.Errorf("resistance: %v, want [g5]", got)
	}
	for name, sr := range map[string]Searcher{"ab": NewAlphaBeta(16), "mcts": NewMCTS(1)} {
		rep, err := Best(context.Background(), solver.NewSolver(16), b, engine.Black, sr, solver.Limits{Nodes: 20_000}, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != KindLost || len(rep.Moves) == 0 || rep.Moves[0].Move != g5 {
			t.Errorf("%s: kind %s, moves %v; want lost, g5 first", name, rep.Kind, rep.Moves)
		}
		for _, m := range rep.Moves {
			if m.Move != g5 {
				t.Errorf("%s lists %v, which loses at once", name, m.Move)
			}
		}
	}
}
