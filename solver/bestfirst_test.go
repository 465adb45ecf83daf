package solver

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
	"gomoku/solver/store"
)

// squareAfterG8 is TestDescendOpening's position: the square opening
// after white h10 and black g8, white to move, black the attacker.
func squareAfterG8(t *testing.T) Problem {
	t.Helper()
	cpr, _, _ := squareAfterH10(t)
	b := cpr.Board.Clone()
	g8, _ := engine.ParsePoint("g8", 15)
	b.Play(g8, engine.Black)
	return Problem{Board: b, ToMove: engine.White, Attacker: engine.Black}
}

// TestBestFirstOpening: within 20 nodes a search, ProveOpening leaves
// squareAfterG8 unknown (its pass proof's zone known); the best-first
// search over the quiet moves proves it, with no suggestions (the pass
// proof's first move and the potentials only) and with them, in both
// cases a certificate that proof.VerifyCertificate accepts, and the log
// shows quiet moves opened below a reply, proven and written back up.
// The same on two jobs, and with two expansions at once, whose quiet-move
// listings overlap (go test -race). The replies' longer searches
// (OpeningOptions.Escalate) are off here: TestBestFirstLonger has them.
func TestBestFirstOpening(t *testing.T) {
	pr := squareAfterG8(t)
	lim := Limits{Nodes: 20}
	ctx := context.Background()
	// a suggestion that waits a little, to see expansions overlap
	var listings overlap
	slowSuggest := func(ctx context.Context, b *engine.Board, att engine.Color) []engine.Point {
		listings.hold(20 * time.Millisecond)
		return passFirstMove(ctx, b, att)
	}
	for _, tc := range []struct {
		name             string
		suggest          func(context.Context, *engine.Board, engine.Color) []engine.Point
		jobs, expansions int
	}{{"unguided", nil, 1, 1}, {"suggested", passFirstMove, 1, 1}, {"two jobs", passFirstMove, 2, 1},
		{"two expansions", slowSuggest, 1, 2}, {"two expansions of two jobs", nil, 2, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := storedSolver(t)
			rep, err := s.ProveOpening(ctx, pr, lim, OpeningOptions{})
			if err != nil || rep.Status != StatusUnknown || !rep.PassZone {
				t.Fatalf("without it: %v (zone %v), %v; want unknown with a zone", rep.Status, rep.PassZone, err)
			}
			var lines []string
			opt := OpeningOptions{Suggest: tc.suggest, Jobs: tc.jobs, Expansions: tc.expansions, Log: func(l string) { lines = append(lines, l) }}
			if tc.jobs > 1 || tc.expansions > 1 {
				opt.Log = nil // the searches' lines from several goroutines
			}
			listings.reset()
			rep, err = s.bestFirstOpening(ctx, pr, lim, opt, 0, 0, bfUnknownStep)
			if err != nil || rep.Status != StatusWin || rep.Certificate == nil {
				t.Fatalf("best-first: %v, %v (%d of %d won); log:\n%s", rep.Status, err, rep.Won, rep.Total, strings.Join(lines, "\n"))
			}
			if _, err := proof.VerifyCertificate(ctx, rep.Certificate); err != nil {
				t.Fatalf("the checker rejects the certificate: %v", err)
			}
			if most := listings.peak(); tc.expansions > 1 && tc.suggest != nil && most < 2 {
				t.Errorf("two expansions: at most %d quiet-move listings at once, want 2", most)
			}
			if opt.Log == nil {
				return
			}
			t.Logf("log:\n%s", strings.Join(lines, "\n"))
			opened := slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "quiet moves probed, opened") })
			backed := slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "won, every reply proven") })
			if !opened || !backed {
				t.Errorf("no quiet moves opened, or none written back up, in the log:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}

// TestBestFirstLonger: with the replies' longer searches (Escalate 8,
// 8 times the 20 nodes), the best-first search proves squareAfterG8 without
// opening a quiet move: each reply the evaluation left unknown (f8, j8)
// is won by its own search of 160 nodes, stored, and the opening made
// again from the store has a certificate that the checker accepts. A
// longer search that ends unknown (f8 within 4 nodes) leaves the leaf's
// numbers as they were and is recorded as an attempt, so that a new node
// of the same reply (a rerun) does not search it again.
func TestBestFirstLonger(t *testing.T) {
	pr := squareAfterG8(t)
	lim := Limits{Nodes: 20}
	ctx := context.Background()
	s, _ := storedSolver(t)
	var lines []string
	opt := OpeningOptions{Log: func(l string) { lines = append(lines, l) }, Escalate: 8}
	rep, err := s.BestFirstOpening(ctx, pr, lim, opt, 0)
	if err != nil || rep.Status != StatusWin || rep.Certificate == nil {
		t.Fatalf("best-first: %v, %v; log:\n%s", rep.Status, err, strings.Join(lines, "\n"))
	}
	if _, err := proof.VerifyCertificate(ctx, rep.Certificate); err != nil {
		t.Fatalf("the checker rejects the certificate: %v", err)
	}
	longer := 0
	for _, l := range lines {
		if strings.Contains(l, "quiet moves") {
			t.Errorf("a quiet move opened: %s", l)
		}
		if strings.Contains(l, "a longer search (160 nodes): win") {
			longer++
		}
	}
	if longer != 2 {
		t.Errorf("%d replies won by a longer search, want 2 (f8, j8); log:\n%s", longer, strings.Join(lines, "\n"))
	}

	// a longer search of 4 nodes: f8 left unknown, the attempt recorded,
	// and not searched again by a new node of the same reply
	s, _ = storedSolver(t)
	lines = nil
	opt.Escalate = 2
	bf := &bestFirst{s: s, pr: pr, lim: Limits{Nodes: 2}, opt: opt, step: bfUnknownStep}
	b := pr.Board.Clone()
	b.Play(testPoint(t, "f8"), engine.White)
	for i := range 2 {
		leaf := &bfNode{move: testPoint(t, "f8"), attacker: true, pn: 1, dn: 1}
		if err := bf.longer(ctx, b, []*bfNode{{move: engine.NoPoint}, leaf}); err != nil {
			t.Fatal(err)
		}
		if !leaf.tried || leaf.pn != 1 || leaf.dn != 1 {
			t.Errorf("run %d: tried %v, numbers (%d, %d); want tried, (1, 1)", i+1, leaf.tried, leaf.pn, leaf.dn)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "after f8: a longer search (4 nodes): unknown") {
		t.Errorf("want one longer search of f8, unknown; log:\n%s", strings.Join(lines, "\n"))
	}

	// EscalateDepth: the same reply as a leaf two quiet moves down (the
	// path's moves are only counted, the board is f8's) is marked without
	// a search at depth 1 and searched at depth 2
	for _, depth := range []int{1, 2} {
		s, _ = storedSolver(t)
		lines = nil
		opt.EscalateDepth = depth
		bf := &bestFirst{s: s, pr: pr, lim: Limits{Nodes: 2}, opt: opt, step: bfUnknownStep}
		leaf := &bfNode{move: testPoint(t, "f8"), attacker: true, pn: 1, dn: 1}
		path := []*bfNode{{move: engine.NoPoint}, {move: testPoint(t, "a1"), attacker: true}, {move: testPoint(t, "a2")},
			{move: testPoint(t, "a3"), attacker: true}, {move: testPoint(t, "a4")}, leaf}
		if err := bf.longer(ctx, b, path); err != nil {
			t.Fatal(err)
		}
		want := 0
		if depth == 2 {
			want = 1
		}
		if !leaf.tried || len(lines) != want {
			t.Errorf("EscalateDepth %d, two quiet moves above: tried %v, %d longer searches logged, want %d; log:\n%s",
				depth, leaf.tried, len(lines), want, strings.Join(lines, "\n"))
		}
	}
}

// TestBestFirstResumes: a best-first search cut short after three
// expansions (two replies opened, one quiet move evaluated) leaves its
// results in an on-disk store; a new process's search (a new Solver on
// the reopened store) goes on from them to a checked win, in fewer nodes
// than a fresh search of the whole takes.
func TestBestFirstResumes(t *testing.T) {
	pr := squareAfterG8(t)
	lim := Limits{Nodes: 20}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "tt")
	open := func() (*Solver, *Store) {
		st, err := OpenStore(dir, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := NewSolver(16)
		s.PassThreats, s.Store = true, st
		return s, st
	}
	s, st := open()
	rep, err := s.bestFirstOpening(ctx, pr, lim, OpeningOptions{}, 0, 3, bfUnknownStep)
	if err != nil || rep.Status == StatusWin {
		t.Fatalf("cut short: %v, %v; want no win (the test needs a cut)", rep.Status, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	s, st = open()
	defer st.Close()
	resumed, err := s.bestFirstOpening(ctx, pr, lim, OpeningOptions{}, 0, 0, bfUnknownStep)
	if err != nil || resumed.Status != StatusWin || resumed.Certificate == nil {
		t.Fatalf("resumed: %v, %v", resumed.Status, err)
	}
	if _, err := proof.VerifyCertificate(ctx, resumed.Certificate); err != nil {
		t.Fatalf("the checker rejects the certificate: %v", err)
	}
	fresh, _ := storedSolver(t)
	whole, err := fresh.bestFirstOpening(ctx, pr, lim, OpeningOptions{}, 0, 0, bfUnknownStep)
	if err != nil || whole.Status != StatusWin {
		t.Fatalf("fresh: %v, %v", whole.Status, err)
	}
	if resumed.Nodes >= whole.Nodes {
		t.Errorf("resumed in %d nodes, fresh in %d: nothing read back", resumed.Nodes, whole.Nodes)
	}
	t.Logf("cut after 3 expansions: %d nodes; resumed %d nodes; fresh %d nodes", rep.Nodes, resumed.Nodes, whole.Nodes)
}

// TestBestFirstUnknownCap: an evaluation capped at one reply left unknown
// (OpeningOptions.unknownCap) decides squareAfterG8's e8 and j8 and stops
// before f8. In the best-first tree, black's g9 after white f8, its
// evaluation capped at one reply left unknown, gets that reply and a rest
// leaf; evaluated again, the cap one higher each time, the rest is
// decided within three evaluations, the rest leaf gone, and the first
// reply keeps its node (with what was below it).
func TestBestFirstUnknownCap(t *testing.T) {
	pr := squareAfterG8(t)
	lim := Limits{Nodes: 20}
	ctx := context.Background()
	s, _ := storedSolver(t)
	rep, err := s.ProveOpening(ctx, pr, lim, OpeningOptions{inner: true, unknownCap: 1})
	if err != nil || rep.Status != StatusUnknown || rep.Unknown != 1 || len(rep.Children) >= rep.Total {
		t.Fatalf("capped at 1: %v, %v; %d of %d decided, %d unknown; want a cut after the first unknown", rep.Status, err, len(rep.Children), rep.Total, rep.Unknown)
	}
	// the best-first tree's node for g9 below f8, evaluated twice
	s, _ = storedSolver(t)
	bf := &bestFirst{s: s, pr: pr, lim: lim, step: 1}
	b := pr.Board.Clone()
	f8, _ := engine.ParsePoint("f8", 15)
	g9, _ := engine.ParsePoint("g9", 15)
	b.Play(f8, engine.White)
	b.Play(g9, engine.Black)
	and := &bfNode{move: g9}
	path := []*bfNode{{move: engine.NoPoint, expanded: true}, {move: f8, attacker: true, expanded: true}, and}
	if err := bf.expand(ctx, b, path); err != nil {
		t.Fatal(err)
	}
	if len(and.kids) != 2 || !and.kids[1].more || and.kids[0].more || and.pn < 2 {
		t.Fatalf("capped at 1: %d children (want a reply and the rest leaf), pn %d", len(and.kids), and.pn)
	}
	first := and.kids[0]
	first.pn = 7 // a subtree below it, to be kept
	more := func() bool { return slices.ContainsFunc(and.kids, func(k *bfNode) bool { return k.more }) }
	for more() && and.cap < 3 {
		if err := bf.expand(ctx, b, path); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(and.kids, first) || and.pn < 8 {
			t.Fatalf("continued at cap %d: the first reply's node not kept (pn %d)", and.cap, and.pn)
		}
	}
	if more() || and.cap < 2 {
		t.Errorf("after %d evaluations: the rest leaf still there (zone 3)", and.cap)
	}
}

// TestBestFirstNumbers: the numbers of proof-number search (Allis 1994,
// section 2.3) on a hand-made tree: an OR node takes its children's least
// proof number and the sum of their disproof numbers, an AND node the
// reverse; pick follows the least proof number at an OR node and the
// least disproof number at an AND node, passing decided children; sums
// saturate at bfInf.
func TestBestFirstNumbers(t *testing.T) {
	or := &bfNode{attacker: true, expanded: true, kids: []*bfNode{{pn: 5, dn: 1}, {pn: 2, dn: 3}, {pn: 0, dn: bfInf}}}
	or.update()
	if or.pn != 0 || or.dn != bfInf {
		t.Errorf("OR with a proven child: pn %d dn %d, want 0 and infinite", or.pn, or.dn)
	}
	if k := or.pick(); k != or.kids[1] {
		t.Errorf("OR picks %+v, want the undecided child of least proof number", k)
	}
	or.kids = or.kids[:2]
	or.update()
	if or.pn != 2 || or.dn != 4 {
		t.Errorf("OR: pn %d dn %d, want 2 and 4", or.pn, or.dn)
	}
	and := &bfNode{expanded: true, kids: []*bfNode{{attacker: true, pn: 3, dn: 2}, {attacker: true, pn: 4, dn: 1}, {attacker: true, pn: 0, dn: bfInf}}}
	and.update()
	if and.pn != 7 || and.dn != 1 {
		t.Errorf("AND: pn %d dn %d, want 7 and 1", and.pn, and.dn)
	}
	if k := and.pick(); k != and.kids[0] {
		t.Errorf("AND picks %+v, want the child of least proof number", k)
	}
	and.kids[1].pn = 3
	if k := and.pick(); k != and.kids[1] {
		t.Errorf("AND picks %+v, want the least disproof number among equal proof numbers", k)
	}
	and.kids[1].pn = 4
	and.kids = append(and.kids, &bfNode{attacker: true, pn: bfInf, dn: 0})
	and.update()
	if and.pn != bfInf || and.dn != 0 {
		t.Errorf("AND with a disproven child: pn %d dn %d, want infinite and 0", and.pn, and.dn)
	}
	for zone, want := range map[int]int64{0: 1, 1: 2, 3: 2, 50: 2, 51: 3, 177: 3} {
		if got := bfInitial(zone); got != want {
			t.Errorf("bfInitial(%d) = %d, want %d", zone, got, want)
		}
	}
	if bfAdd(bfInf-1, 5) != bfInf || bfAdd(2, 3) != 5 {
		t.Errorf("bfAdd does not saturate")
	}
}

// TestBestFirstStatus: the status line names the root's numbers and each
// open reply with its quiet move of least proof number and that move's
// open replies, and leaves out the decided ones.
func TestBestFirstStatus(t *testing.T) {
	pt := func(s string) engine.Point { return testPoint(t, s) }
	quiet := &bfNode{move: pt("j8"), expanded: true, kids: []*bfNode{
		{move: pt("g8"), attacker: true, pn: 2, dn: 1},
		{move: pt("k8"), attacker: true, pn: 0, dn: bfInf},
		{move: pt("i9"), attacker: true, pn: 3, dn: 2},
	}}
	quiet.update()
	g9 := &bfNode{move: pt("g9"), attacker: true, expanded: true, kids: []*bfNode{quiet, {move: pt("g7"), pn: 7, dn: 1}}}
	g9.update()
	root := &bfNode{move: engine.NoPoint, expanded: true, kids: []*bfNode{g9, {move: pt("g8"), attacker: true, pn: 0, dn: bfInf}}}
	root.update()
	bf := &bestFirst{expansions: 300}
	got := bf.status(root)
	want := "best-first: 300 expansions, root proof number 5, disproof number 2; g9 (5, 2) by j8 (5, 1; 2 replies open)"
	if got != want {
		t.Errorf("status:\n got %q\nwant %q", got, want)
	}
}

// TestBestFirstStoredCandsFiltered: quiet moves kept in the store from
// before deepenMoves dropped the losing ones are filtered when an OR node
// reads them back: against white's open three g9 h9 i9, f7 and k9 (after
// which white makes a straight four) are not opened, f9 and j9 are; a
// kept list of losing moves only is probed again.
func TestBestFirstStoredCandsFiltered(t *testing.T) {
	pt := func(s string) engine.Point { return testPoint(t, s) }
	pr := blackAttacks(t, "h8 h9 i7 g9 j8 g8 g7 i9")
	s, st := storedSolver(t)
	b := pr.Board
	run := func(lead, rest []bfCand) (*bfNode, string) {
		if err := st.putBFCands(b, engine.Black, lead, rest); err != nil {
			t.Fatal(err)
		}
		return expandStoredOR(t, s, b, pt("f9"), pt("i9"), OpeningOptions{})
	}
	n, log := run([]bfCand{{pt("f7"), 2}}, []bfCand{{pt("k9"), 2}, {pt("j9"), 2}, {pt("f9"), 3}})
	if got := kidMoves(n); !slices.Equal(got, []engine.Point{pt("j9"), pt("f9")}) || !strings.Contains(log, "from the store") {
		t.Errorf("kept list filtered: opened %v, log %q", got, log)
	}
	n, log = run([]bfCand{{pt("f7"), 2}}, []bfCand{{pt("k9"), 2}})
	if !strings.Contains(log, "probed") {
		t.Errorf("a kept list of losing moves only: not probed again: %q", log)
	}
	for _, k := range n.kids {
		if k.move != pt("f9") && k.move != pt("j9") {
			t.Errorf("probed again: opened %v", k.move)
		}
	}
}

// TestBestFirstOpenNoWin: a reply after which the attacker has no VCT is
// no refutation of a quiet move in the best-first tree (the attacker may
// go on with quiet moves): after black's open three j8 (freestyle, h8 h9
// i7 g9 i9 g7 i8 i10 j8), white's block g8 leaves black no VCT; the
// evaluation with openNoWin reports the move unknown and setAND opens g8
// as an OR leaf, where without it the move is a no-win.
func TestBestFirstOpenNoWin(t *testing.T) {
	pr := openingProblem(t, engine.Freestyle, strings.Fields("h8 h9 i7 g9 i9 g7 i8 i10 j8")...)
	s, _ := storedSolver(t)
	lim := Limits{Nodes: 200_000}
	closed, err := s.ProveOpening(context.Background(), pr, lim, OpeningOptions{inner: true})
	if err != nil || closed.Status != StatusNoWin {
		t.Fatalf("without openNoWin: %v, %v; want a no-win", closed.Status, err)
	}
	rep, err := s.ProveOpening(context.Background(), pr, lim, OpeningOptions{inner: true, openNoWin: true})
	if err != nil || rep.Status != StatusUnknown || rep.NoWin == 0 {
		t.Fatalf("with openNoWin: %v (%d no-win), %v; want unknown with a no-win reply", rep.Status, rep.NoWin, err)
	}
	bf := &bestFirst{s: s, pr: pr, lim: lim}
	n := &bfNode{move: testPoint(t, "j8")}
	bf.setAND(n, rep)
	open := kidMoves(n)
	if !slices.Contains(open, testPoint(t, "g8")) || n.pn == 0 || n.pn >= bfInf {
		t.Errorf("setAND: open %v, pn %d; want g8 open and the move undecided", open, n.pn)
	}
}

// TestBestFirstForcedBlockKept: facing the defender's four, an OR node's
// quiet moves are the block alone, listed without asking the engine for
// suggestions (their search would be thrown away), and a stored list that
// is the block alone is read back, not probed again at every rebuild; a
// stale list holding other moves is probed again and written over. D8's
// line of 2026-12-06 down to white's j9, whose block is i9.
func TestBestFirstForcedBlockKept(t *testing.T) {
	pt := func(s string) engine.Point { return testPoint(t, s) }
	pr := blackAttacks(t, "h8 h9 i7 g9 j8 g8 h6 k9 g7 f7 e6 f6 f8 i10 j11 i5 j10 j9")
	s, st := storedSolver(t)
	b := pr.Board
	asked := 0
	suggest := func(context.Context, *engine.Board, engine.Color) []engine.Point {
		asked++
		return []engine.Point{pt("a15")}
	}
	if qs, _, _, err := s.quietCandidates(context.Background(), pr, engine.NoPoint, OpeningOptions{Suggest: suggest}); err != nil || !slices.Equal(qs, []engine.Point{pt("i9")}) || asked != 0 {
		t.Fatalf("quietCandidates: %v, %v, the engine asked %d times; want i9 alone, not asked", qs, err, asked)
	}
	run := func() (*bfNode, string) {
		return expandStoredOR(t, s, b, pt("f9"), pt("j9"), OpeningOptions{Suggest: suggest})
	}
	if err := st.putBFCands(b, engine.Black, []bfCand{{pt("f7"), 2}}, []bfCand{{pt("k9"), 2}}); err != nil {
		t.Fatal(err)
	}
	n, log := run()
	if got := kidMoves(n); !slices.Equal(got, []engine.Point{pt("i9")}) || !strings.Contains(log, "probed") {
		t.Errorf("a stale stored list: opened %v, log %q; want i9 alone, probed again", got, log)
	}
	n, log = run()
	if got := kidMoves(n); !slices.Equal(got, []engine.Point{pt("i9")}) || !strings.Contains(log, "from the store") {
		t.Errorf("the block's stored list: opened %v, log %q; want i9 alone, from the store", got, log)
	}
	if asked != 0 {
		t.Errorf("the engine asked for suggestions %d times facing a four", asked)
	}
}

// expandStoredOR expands, on s (with a store), the OR leaf reached by the
// defender's reply (b the position after it, the attacker black to move)
// below a root whose pass proof began with first, and returns the leaf
// and the best-first log; opt's Log is set here.
func expandStoredOR(t *testing.T, s *Solver, b *engine.Board, first, reply engine.Point, opt OpeningOptions) (*bfNode, string) {
	t.Helper()
	var lines []string
	opt.Log = func(l string) { lines = append(lines, l) }
	bf := &bestFirst{s: s, pr: Problem{Board: b, ToMove: engine.White, Attacker: engine.Black}, lim: Limits{Nodes: 1000}, opt: opt}
	root := &bfNode{move: engine.NoPoint, expanded: true, first: first}
	n := &bfNode{move: reply, attacker: true, pn: 1, dn: 1}
	if err := bf.expand(context.Background(), b, []*bfNode{root, n}); err != nil {
		t.Fatal(err)
	}
	return n, strings.Join(lines, "\n")
}

// kidMoves is the moves of n's children, in order.
func kidMoves(n *bfNode) (moves []engine.Point) {
	for _, k := range n.kids {
		moves = append(moves, k.move)
	}
	return moves
}

// blackAttacks is the freestyle position after moves (space-separated,
// black first), black the attacker, the side to move by the count.
func blackAttacks(t *testing.T, moves string) Problem {
	t.Helper()
	pr := openingProblem(t, engine.Freestyle, strings.Fields(moves)...)
	pr.Attacker = engine.Black
	return pr
}
