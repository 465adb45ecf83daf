package solver

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/datatest"
	"gomoku/solver/internal/cases"
	"gomoku/solver/proof"
)

// quintetVCT returns quintet's VCT cases (datatest.Quintet).
func quintetVCT(t testing.TB) []*positions.Position { return cases.Quintet(t, "vct") }

// proveCase solves a quintet VCT case with its own threat limit and limit.
func proveCase(t testing.TB, v *VCT, p *positions.Position) (Result, *proof.Tree) {
	t.Helper()
	v.ThreatLimit = p.Puzzle.ThreatLimit
	res, tree, err := v.Prove(context.Background(), problem(t, p), Limits{Depth: p.Puzzle.Limit}, nil)
	if err != nil {
		t.Fatalf("%s: %v", p.Label(), err)
	}
	return res, tree
}

// TestQuintetVCT gives every quintet VCT case its expected verdict within its
// limits (the heavy ones, minutes for quintet's own solver, only without
// -short), and checks every proof with proof.Verify and through JSON.
func TestQuintetVCT(t *testing.T) {
	v := NewVCT(256)
	for _, p := range quintetVCT(t) {
		if p.Puzzle.Heavy && testing.Short() {
			continue
		}
		res, tree := proveCase(t, v, p)
		want := StatusWin
		if p.Puzzle.Expect == "no-win" {
			want = StatusNoWin
		}
		if res.Status != want {
			t.Errorf("%s: %v after %d nodes, want %v", p.Label(), res.Status, res.Nodes, want)
			continue
		}
		if want == StatusNoWin {
			if tree != nil || res.Proven.Depth != p.Puzzle.Limit {
				t.Errorf("%s: no-win proven under %+v, want limit %d", p.Label(), res.Proven, p.Puzzle.Limit)
			}
			continue
		}
		if extra := extraDefences(t, tree); extra != "" {
			t.Errorf("%s: %s", p.Label(), extra)
		}
		if tree.Limit != p.Puzzle.Limit || tree.ThreatLimit != p.Puzzle.ThreatLimit {
			t.Errorf("%s: proof limits %d/%d", p.Label(), tree.Limit, tree.ThreatLimit)
		}
		data, err := json.Marshal(tree)
		if err != nil {
			t.Fatal(err)
		}
		var back proof.Tree
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", p.Label(), err)
		}
		n, err := proof.Verify(&back)
		if err != nil || n != res.ProofNodes {
			t.Errorf("%s: the proof read back from JSON: %d moves, %v", p.Label(), n, err)
		}
		if !slices.Equal(back.MainLine(), res.Line) {
			t.Errorf("%s: main line changed through JSON", p.Label())
		}
		// the end read on the search's board (proof.LineEnd) is the one
		// the proof's own board gives
		if end := back.MainEnd(); end != res.End || end == proof.EndNone {
			t.Errorf("%s: the result ends %v, its proof's main line %v", p.Label(), res.End, end)
		}
		if !p.Puzzle.Heavy && !strings.Contains(p.Label(), "long") {
			back.Limit = back.RequiredDepth()
			if _, err := proof.Verify(&back); err != nil {
				t.Errorf("%s: fails under its required depth %d: %v", p.Label(), back.Limit, err)
			}
		}
	}
}

// TestSimulation searches quintet's VCT cases (the quick ones) and a sample
// of lfz084's VCT books with and without simulation: every verdict reached
// both ways must agree (a win's proof is checked by proof.Verify inside
// Prove either way), and simulation must have proven children somewhere.
func TestSimulation(t *testing.T) {
	var simulated int64
	agreed, total := agreeOnOff(t, "simulation", func(v *VCT, off bool) { v.noSimulation = off },
		func(p *positions.Position, v *VCT, off bool) {
			if !off {
				simulated += v.simulated
			} else if v.simulated != 0 {
				t.Fatalf("%s: %d simulated with simulation off", p.Label(), v.simulated)
			}
		})
	t.Logf("%d of %d positions decided both ways; %d children proven by simulation", agreed, total, simulated)
	if simulated == 0 {
		t.Error("simulation proved nothing")
	}
}

// agreeOnOff proves quintet's quick VCT cases and every 24th lfz084 VCT
// puzzle (when the shared data is there) with a feature off and on (set
// switches it on the searcher), at threat limit 3 or the case's own if
// larger, 200,000 nodes each, and reports a test error wherever both
// verdicts are decided and differ. after, if not nil, sees each searcher
// once it has searched. It returns how many positions were decided both
// ways, of how many.
func agreeOnOff(t *testing.T, feature string, set func(v *VCT, off bool), after func(p *positions.Position, v *VCT, off bool)) (agreed, total int) {
	ps := quintetVCT(t)
	if datatest.HasShared(t) {
		ps = append(ps, lfzVCT(t, 24)...)
	}
	for _, p := range ps {
		if p.Puzzle.Heavy {
			continue
		}
		var status [2]Status
		for i, off := range []bool{true, false} {
			v := NewVCT(32)
			set(v, off)
			v.ThreatLimit = max(p.Puzzle.ThreatLimit, 3)
			res, _, err := v.Prove(context.Background(), problem(t, p), Limits{Depth: p.Puzzle.Limit, Nodes: 200_000}, nil)
			if err != nil {
				t.Fatalf("%s: %v", p.Label(), err)
			}
			status[i] = res.Status
			if after != nil {
				after(p, v, off)
			}
		}
		if status[0] != StatusUnknown && status[1] != StatusUnknown {
			if status[0] != status[1] {
				t.Errorf("%s: %v without %s, %v with it", p.Label(), status[0], feature, status[1])
			}
			agreed++
		}
	}
	return agreed, len(ps)
}

// TestDefenderVCF checks the cut by the defender's own VCF (defenderVCF).
// On a freestyle board where white, the defender, has an open three (a VCF
// of one move: the straight four), black's quiet moves at the root must be
// cut to the cells that may stop it, while without the cut black's own
// threes are there too; and quintet's VCT cases and a sample of lfz084's
// books reach the same verdicts with the cut and without it.
func TestDefenderVCF(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	put := func(c engine.Color, points ...string) {
		for _, s := range points {
			p, err := engine.ParsePoint(s, 15)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Put(p, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	put(engine.White, "e5", "f5", "g5")
	put(engine.Black, "j10", "k10", "h6", "h7")
	stoppers := map[string]bool{"d5": true, "h5": true, "c5": true, "i5": true}
	for _, cut := range []bool{true, false} {
		v := NewVCT(8)
		v.noDefenderVCF = !cut
		v.ThreatLimit = 1
		r := v.newRun(b.Clone(), engine.Black, NewBudget(context.Background(), Limits{}, nil))
		moves := r.attacks(10)
		var listed []string
		outside := false
		for _, m := range moves {
			listed = append(listed, m.String())
			outside = outside || !stoppers[m.String()]
		}
		if cut && (outside || len(moves) == 0) {
			t.Errorf("with the cut: moves %v, want a non-empty subset of %v", listed, stoppers)
		}
		if !cut && !outside {
			t.Errorf("without the cut: moves %v, want black's threes too", listed)
		}
		if r.defThreat != cut {
			t.Errorf("cut %v: defThreat %v", cut, r.defThreat)
		}
		t.Logf("cut %v: %v", cut, listed)
	}

	agreed, total := agreeOnOff(t, "the cut", func(v *VCT, off bool) { v.noDefenderVCF = off }, nil)
	t.Logf("%d of %d positions decided both ways", agreed, total)
	if agreed < total/2 {
		t.Errorf("only %d of %d positions decided both ways", agreed, total)
	}
}

// extraDefences walks a proof and returns the first defence listed after a
// quiet move that is no defence (the attacker still has a VCF of at most
// min(ThreatLimit, moves left) moves after it), or "". proof.Verify accepts
// such a listing; a proof built by the search must not have one (the
// candidates it keeps untested are filtered by exactDefences).
func extraDefences(t *testing.T, p *proof.Tree) string {
	b, err := p.Board()
	if err != nil {
		t.Fatal(err)
	}
	att := p.Attacker
	vr := newVCFRun(b, att, newFailTable(1), NewBudget(context.Background(), Limits{}, nil))
	var walk func(n *proof.Node, left int) string
	walk = func(n *proof.Node, left int) string {
		b.Play(n.Move, att)
		defer b.Undo()
		quiet := !b.LastMoveWon() && b.Count(att, engine.FivePoints) == 0
		for _, d := range n.Defences {
			b.Play(d.Move, att.Opponent())
			_, _, still := vr.find(min(max(1, p.ThreatLimit), left-1))
			msg := ""
			if quiet && still {
				msg = fmt.Sprintf("after %v, %v is listed but leaves a VCF", n.Move, d.Move)
			} else if d.Answer != nil {
				msg = walk(d.Answer, left-1)
			}
			b.Undo()
			if msg != "" {
				return msg
			}
		}
		return ""
	}
	left := p.Limit
	if left <= 0 {
		left = maxVCTDepth
	}
	return walk(p.Root, left)
}

// BenchmarkVCT solves each quick quintet VCT case; ns/op is one whole
// search including the proof check.
func BenchmarkVCT(b *testing.B) {
	for _, p := range quintetVCT(b) {
		if !slices.Contains(p.Puzzle.Tags, "quick") {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p.Label()), "quintet/"), ".txt#0")
		b.Run(name, func(b *testing.B) {
			v := NewVCT(256)
			var nodes int64
			b.ResetTimer() // the tables' allocation is not the search's
			for i := 0; i < b.N; i++ {
				res, _ := proveCase(b, v, p)
				nodes = res.Nodes
			}
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}

// TestWidenThreatLimit: lfz-6x6-2/40 has no VCT at threat limit 3 (a
// quick disproof) but one at 4. The automatic limit widens beyond 3 when
// the search has a budget (autoLimits: 2 and 8, then 8 weak, 5, 4), so a win is
// wanted at limit 4 or above; an explicit limit of 3, or no budget, does
// not widen.
func TestWidenThreatLimit(t *testing.T) {
	pr := sharedProblem(t, "lfz-6x6-2.jsonl", "lfz-6x6-2/40")
	for _, c := range []struct {
		threat int
		lim    Limits
		want   Status
		wantT  int
	}{
		{0, Limits{Nodes: 5_000_000}, StatusWin, 4},
		{0, Limits{Time: time.Minute}, StatusWin, 4},
		{0, Limits{}, StatusNoWin, 3},
		{3, Limits{Nodes: 5_000_000}, StatusNoWin, 3},
	} {
		s := NewSolver(64)
		s.ThreatLimit = c.threat
		a, err := s.Solve(context.Background(), pr, ModeVCT, c.lim, nil)
		if err != nil || a.Status != c.want || !relayLimitOK(a, c.wantT) {
			t.Errorf("threat limit %d, %+v: %v at threat limit %d (%v), want %v at %d",
				c.threat, c.lim, a.Status, a.ThreatLimit, err, c.want, c.wantT)
			continue
		}
		if a.Status == StatusWin {
			if _, err := proof.Verify(a.Proof); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestThreatLimitRelay: on lfz-gaofei/239 threat limit 3 finds no VCT in
// its share of the nodes, while limit 4 wins within a few hundred thousand.
// With the automatic limit the searches of limits 2 and 8 start, and the
// one of limit 2, which proves no VCT at once, hands its place and the rest
// of its nodes to limit 5 (the relay of Solver.portfolio); a win at 4 to 8
// is wanted. An explicit limit of 3 does not relay and gives unknown.
func TestThreatLimitRelay(t *testing.T) {
	pr := sharedProblem(t, "lfz-gaofei.jsonl", "lfz-gaofei/239")
	lim := Limits{Nodes: 6_000_000}
	for _, c := range []struct {
		threat int
		want   Status
		wantT  int
	}{
		{0, StatusWin, 4},
		{3, StatusUnknown, 3},
	} {
		s := NewSolver(64)
		s.ThreatLimit = c.threat
		a, err := s.Solve(context.Background(), pr, ModeVCT, lim, nil)
		if err != nil || a.Status != c.want || !relayLimitOK(a, c.wantT) {
			t.Errorf("threat limit %d: %v at threat limit %d (%v), want %v at %d",
				c.threat, a.Status, a.ThreatLimit, err, c.want, c.wantT)
			continue
		}
		if a.Status == StatusWin {
			if _, err := proof.Verify(a.Proof); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestNoDeferralAboveFive: lfz-tengu/33's win (quintet's line, 15
// attacker moves) needs a quiet move that orderAttacks ranks 46th of 195
// candidates. At threat limit 8, where the deferral of later moves no
// longer applies (deferThreatMax), it is won in about 0.4 M nodes; with the
// deferral it stayed unknown after 7 M (15 s). The proof is checked.
func TestNoDeferralAboveFive(t *testing.T) {
	pr := sharedProblem(t, "lfz-tengu.jsonl", "lfz-tengu/33")
	v := NewVCT(64)
	v.ThreatLimit = 8
	res, tree, err := v.Prove(context.Background(), pr, Limits{Nodes: 2_000_000}, nil)
	if err != nil || res.Status != StatusWin {
		t.Fatalf("threat limit 8: %v after %d nodes (%v), want a win", res.Status, res.Nodes, err)
	}
	if _, err := proof.Verify(tree); err != nil {
		t.Error(err)
	}
}

// sharedProblem returns the problem of the record labelled label in the
// shared data's file (fatal when it is not there).
func sharedProblem(t *testing.T, file, label string) Problem {
	t.Helper()
	for _, p := range cases.Load(t, filepath.Join(datatest.Shared(t), file)) {
		if p.Label() == label {
			return problem(t, p)
		}
	}
	t.Fatalf("%s not found in %s", label, file)
	return Problem{}
}

// relayLimitOK reports whether a's threat limit is the one wanted: exactly
// wantT for a no-win or unknown, and for a win wantT or any larger limit of
// the relay, since the limits from wantT up run side by side and the first
// to prove a win answers.
func relayLimitOK(a Answer, wantT int) bool {
	if a.Status == StatusWin {
		return a.ThreatLimit >= wantT && a.ThreatLimit <= MaxAutoThreatLimit
	}
	return a.ThreatLimit == wantT
}

// TestSimultaneousProofs solves puzzles whose threat-limit searches prove
// their roots within milliseconds of one another, several times each: the
// first proof must be built and reported, and a second one arriving while it
// is built must not stop it. (When the second proof stopped the first, 14 of
// lfz084's VCT puzzles came back unknown within 0.5 s, these among them.)
func TestSimultaneousProofs(t *testing.T) {
	want := map[string]bool{"lfz-gaofei/10": true, "lfz-gaofei/90": true, "lfz-tengu/103": true,
		"lfz-white-win100/55": true, "lfz-white-win100/56": true, "lfz-white-win100/67": true,
		"lfz-white-win100/100": true}
	var prs []Problem
	var labels []string
	for _, p := range lfzVCT(t, 1) {
		if want[p.Label()] {
			prs, labels = append(prs, problem(t, p)), append(labels, p.Label())
		}
	}
	if len(prs) != len(want) {
		t.Fatalf("%d of %d puzzles found", len(prs), len(want))
	}
	s := NewSolver(64)
	for round := range 4 {
		for i, pr := range prs {
			a, err := s.Solve(context.Background(), pr, ModeVCT, Limits{Time: time.Minute}, nil)
			if err != nil || a.Status != StatusWin {
				t.Errorf("%s, round %d: %v at threat limit %d, %q (%v), want a win",
					labels[i], round, a.Status, a.ThreatLimit, a.Stopped, err)
			}
		}
	}
}

// TestWinMode checks the proof-number search over all moves: an exhaustive
// disproof on a small board, and wins found by the VCF and VCT stages.
func TestWinMode(t *testing.T) {
	s := NewSolver(16)
	b, err := engine.NewBoard(6, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	pr := Problem{Board: b, ToMove: engine.Black, Attacker: engine.Black}
	a, err := s.Solve(context.Background(), pr, ModeWin, Limits{Depth: 2}, nil)
	if err != nil || a.Status != StatusNoWin || a.Mode != ModeWin || a.Proven.Depth != 2 {
		t.Errorf("empty 6x6 within 2 moves: %v %v %+v %v", a.Status, a.Mode, a.Proven, err)
	}
	for _, p := range quintetVCT(t) {
		if !strings.Contains(p.Label(), "vct_black") || p.Puzzle.Expect != "win" || strings.Contains(p.Label(), "long") {
			continue
		}
		s.ThreatLimit = p.Puzzle.ThreatLimit
		a, err := s.Solve(context.Background(), problem(t, p), ModeWin, Limits{Depth: p.Puzzle.Limit}, nil)
		if err != nil || a.Status != StatusWin || a.Mode != ModeVCT {
			t.Errorf("%s in win mode: %v by %v, %v", p.Label(), a.Status, a.Mode, err)
		}
		if _, err := proof.Verify(a.Proof); err != nil {
			t.Errorf("%s: %v", p.Label(), err)
		}
	}
}

// lateCancel is a context that reports itself cancelled from its after-th
// Err call on. Its Done channel never closes, so contexts derived from it
// (the portfolio's) do not see the cancellation: only the checks made on it
// directly do.
type lateCancel struct {
	context.Context
	calls, after int
}

func (c *lateCancel) Err() error {
	if c.calls++; c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestWinModeCancelled: a win-mode search cancelled after its VCT searches
// found no VCT has not proven that there is no win (the search over all
// moves did not run), so it must not say no-win; that claim would be
// stored. The CI run of stop 7 caught this as a no-win in the store.
func TestWinModeCancelled(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"h8", "h9"} {
		p, _ := engine.ParsePoint(m, 15)
		b.Play(p, engine.Black+engine.Color(i))
	}
	pr := Problem{Board: b, ToMove: engine.Black, Attacker: engine.Black}
	sawUnknown := false
	for after := 0; after < 3; after++ {
		s := NewSolver(16)
		ctx := &lateCancel{Context: context.Background(), after: after}
		a, err := s.Solve(ctx, pr, ModeWin, Limits{Nodes: 20_000}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status == StatusNoWin {
			t.Fatalf("cancelled after %d checks: no-win claimed (%+v)", after, a.Result)
		}
		sawUnknown = sawUnknown || a.Status == StatusUnknown
	}
	if !sawUnknown {
		t.Error("no run was cancelled")
	}
}

// lfzVCTNodes and lfzVCTStride make TestVCTPuzzleBooks's default run: every
// lfzVCTStride-th VCT puzzle of lfz084's books, within lfzVCTNodes nodes
// each (about a second; a node limit, unlike a time limit, does not depend
// on the machine's load), which keeps the suite to about a minute on two
// cores. GOMOKU_VCT_BOOKS=10s runs every puzzle within the given time
// instead, the measure (about 15 minutes).
const (
	lfzVCTNodes  = 3_000_000
	lfzVCTStride = 4
)

// lfzVCTMin is the fewest puzzles of the default sample (133 of 531) that
// TestVCTPuzzleBooks must solve within lfzVCTNodes each: a floor under
// regressions, measured (118 with the VCF's transposition cutoff, 117
// before it, 2026-11-26; node limits make the count the same run to run).
const lfzVCTMin = 116

// lfzVCT returns every stride-th VCT-labelled puzzle of lfz084's books in
// the shared data (the first, then every stride-th after it), in file order.
func lfzVCT(t *testing.T, stride int) []*positions.Position {
	files, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "lfz-*.jsonl"))
	var ps []*positions.Position
	seen := 0
	for _, f := range files {
		for _, p := range cases.Load(t, f) {
			if p.Puzzle.Task == "vct" {
				if seen%stride == 0 {
					ps = append(ps, p)
				}
				seen++
			}
		}
	}
	return ps
}

// TestVCTPuzzleBooks solves the VCT-labelled puzzles of lfz084's books in
// the shared data (a sample by default, see lfzVCTStride) and checks every
// win's proof. A no-win is reported: these labels are the books' claims, and
// some need a threat limit above the default. Where the VCT proves that
// there is no VCT, the time or nodes left go to solve --mode win with
// quiet threats (Solver.QuietThreats), as a user would go on: lfz-tengu/123's
// answer starts with a quiet move.
func TestVCTPuzzleBooks(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes: run without -short")
	}
	lim, stride := Limits{Nodes: lfzVCTNodes}, lfzVCTStride
	if env := os.Getenv("GOMOKU_VCT_BOOKS"); env != "" {
		d, err := time.ParseDuration(env)
		if err != nil {
			t.Fatalf("GOMOKU_VCT_BOOKS: %v", err)
		}
		lim, stride = Limits{Time: d}, 1
	}
	s := NewSolver(256)
	count := map[Status]int{}
	var times []time.Duration
	late := 0  // wins reported after the time limit (the proof is built and checked after the search)
	quiet := 0 // wins by a quiet threat after the VCT's no-win
	for _, p := range lfzVCT(t, stride) {
		pr := problem(t, p)
		a, err := s.Solve(context.Background(), pr, ModeVCT, lim, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Label(), err)
		}
		if rest, stopped := remaining(lim, time.Now().Add(-a.Elapsed), a.Nodes); a.Status == StatusNoWin && stopped == "" {
			// no VCT in this search's model: solve --mode win (the VCT
			// again, then quiet threats) with what is left
			s.QuietThreats = true
			w, err := s.Solve(context.Background(), pr, ModeWin, rest, nil)
			s.QuietThreats = false
			if err != nil {
				t.Fatalf("%s: %v", p.Label(), err)
			}
			if w.Status == StatusWin {
				quiet++
				w.Nodes, w.Elapsed = w.Nodes+a.Nodes, w.Elapsed+a.Elapsed
				a = w
			}
		}
		count[a.Status]++
		if a.Status == StatusWin {
			times = append(times, a.Elapsed)
			if lim.Time > 0 && a.Elapsed > lim.Time {
				late++
			}
			if _, err := proof.Verify(a.Proof); err != nil {
				t.Errorf("%s: %v", p.Label(), err)
			}
		}
		t.Logf("%s: %v threat limit %d, %v", p.Label(), a.Status, a.ThreatLimit, a.Elapsed.Round(time.Millisecond))
	}
	slices.Sort(times)
	total := count[StatusWin] + count[StatusNoWin] + count[StatusUnknown]
	t.Logf("lfz084 VCT puzzles within %+v each: %d of %d solved (%d of them by a quiet threat after the VCT's no-win; median %v, %d reported after the time limit), %d no-win, %d unknown",
		lim, count[StatusWin], total, quiet, times[len(times)/2], late, count[StatusNoWin], count[StatusUnknown])
	if stride == lfzVCTStride && count[StatusWin] < lfzVCTMin {
		t.Errorf("%d solved, fewer than %d", count[StatusWin], lfzVCTMin)
	}
}

// TestThreatCandidatesComplete searches quintet's VCT cases (under their
// depth limits) and a sample of lfz084's VCT books at threat limits 2 and 3
// and, at every attacker node, plays every legal attacker move outside
// threatCandidates and looks for a VCF of at most the node's threat limit
// (min(limit, moves left - 1)): there must be none, except where the
// VCF's line, replayed without the move, has a black move that is forbidden
// there (the renju case threatCandidates documents as not covered).
func TestThreatCandidatesComplete(t *testing.T) {
	ps := quintetVCT(t)
	if datatest.HasShared(t) {
		ps = append(ps, lfzVCT(t, 24)...)
	}
	checked, threats, excused := 0, 0, 0
	var failures []string
	candidateCheck = func(r *vctRun, k int, cands []engine.Point) {
		b := r.b
		vcf := newVCFRun(b, r.att, newFailTable(1), NewBudget(context.Background(), Limits{}, nil))
		for _, m := range legalMoves(r.b, r.att) {
			if slices.Contains(cands, m) {
				continue
			}
			checked++
			b.Play(m, r.att)
			line, _, ok := vcf.find(k)
			line = slices.Clone(line)
			b.Undo()
			if !ok {
				continue
			}
			threats++
			if r.renjuAtt && forbiddenWithout(b, r.att, line) {
				excused++
				continue
			}
			if len(failures) < 5 {
				failures = append(failures, fmt.Sprintf("%v threatens %v (threat limit %d) but is no candidate", m, line, k))
			}
		}
	}
	defer func() { candidateCheck = nil }()
	for _, p := range ps {
		for _, th := range []int{2, 3} {
			v := NewVCT(16)
			v.ThreatLimit = th
			lim := Limits{Nodes: 3000}
			if p.Puzzle != nil && p.Puzzle.Limit < 255 {
				lim.Depth = p.Puzzle.Limit // near it, the candidates of a smaller limit
			}
			if _, _, err := v.Prove(context.Background(), problem(t, p), lim, nil); err != nil {
				t.Fatalf("%s: %v", p.Label(), err)
			}
			for _, f := range failures {
				t.Errorf("%s: %s", p.Label(), f)
			}
			failures = failures[:0]
		}
	}
	t.Logf("%d positions, %d moves outside the candidates checked: %d threats, %d of them the renju case not covered",
		len(ps), checked, threats, excused)
	if checked == 0 {
		t.Error("no move was checked")
	}
}

// forbiddenWithout reports whether a VCF line (attacker first) found after
// a move, replayed on b where that move is not played, has an attacker move
// that is forbidden when its turn comes: the threat then rests on the move
// changing what is forbidden.
func forbiddenWithout(b *engine.Board, att engine.Color, line []engine.Point) bool {
	c := att
	played := 0
	defer func() {
		for ; played > 0; played-- {
			b.Undo()
		}
	}()
	for _, m := range line {
		if b.At(m) != engine.Empty {
			return false
		}
		if c == att && !b.Legal(c, m) {
			return true
		}
		b.Play(m, c)
		played++
		c = c.Opponent()
	}
	return false
}

// TestSortMoves checks sortMoves against a stable sort on the same scores:
// highest first, ties in input order, over random lists of up to
// engine.MaxSize² moves with scores across the whole range, many of them
// tied.
func TestSortMoves(t *testing.T) {
	r := &vctRun{}
	seed := uint64(1)
	next := func() uint64 { seed = splitmixAt(seed); return seed }
	for trial := 0; trial < 200; trial++ {
		n := int(next() % (engine.MaxSize*engine.MaxSize + 1))
		moves := make([]engine.Point, n)
		score := map[engine.Point]int64{}
		for i := range moves {
			moves[i] = engine.Point(i*7 + 3)
			switch next() % 3 {
			case 0:
				score[moves[i]] = int64(next() % 4) // many ties
			case 1:
				score[moves[i]] = int64(next() % uint64(scoreCeil+1))
			default:
				score[moves[i]] = scoreCeil - int64(next()%2)
			}
		}
		want := slices.Clone(moves)
		slices.SortStableFunc(want, func(a, b engine.Point) int { return cmp.Compare(score[b], score[a]) })
		got := r.sortMoves(moves, func(m engine.Point) int64 { return score[m] })
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d moves): sortMoves differs from a stable sort by score", trial, n)
		}
	}
}

// TestProofNearNodeLimit: a win proven just inside the node limit still
// comes with its proof, which gets a budget of its own (Prove); before, the
// attacker's VCF search kept the search's node cap and the proof's
// extraction stopped there, so such a win came back unknown ("cancelled").
// The position is freestyle game 004 of the shared records after 13 moves
// (Piskvork coordinates), black to move and win at threat limit 2. Over
// node limits just below the nodes a win takes, every answer must be a win
// or unknown for lack of nodes, and no limit may lose a win that a smaller
// one found.
func TestProofNearNodeLimit(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	c := engine.Black
	for _, m := range [][2]int{{8, 8}, {9, 9}, {7, 11}, {8, 7}, {6, 10}, {9, 8}, {5, 9}, {4, 8}, {5, 11}, {9, 7}, {8, 12}, {9, 13}, {7, 9}} {
		b.Play(engine.PointAt(m[0]-1, m[1]-1), c)
		c = c.Opponent()
	}
	pr := Problem{Board: b, ToMove: c, Attacker: c}
	v := NewVCT(16)
	v.ThreatLimit = 2
	full, _, err := v.Prove(context.Background(), pr, Limits{}, nil)
	if err != nil || full.Status != StatusWin {
		t.Fatalf("unlimited: %v %v", full.Status, err)
	}
	won := false
	for n := max(1, full.Nodes-600); n <= full.Nodes; n += 8 {
		res, _, err := v.Prove(context.Background(), pr, Limits{Nodes: n}, nil)
		switch {
		case err != nil:
			t.Fatalf("%d nodes: %v", n, err)
		case res.Status == StatusWin:
			won = true
		case won:
			t.Fatalf("%d nodes: %v (%s) after a win with fewer", n, res.Status, res.Stopped)
		case res.Status != StatusUnknown || res.Stopped != "nodes":
			t.Fatalf("%d nodes: %v, stopped %q; want a win or unknown for nodes", n, res.Status, res.Stopped)
		}
	}
	if !won {
		t.Errorf("no win up to the %d nodes of the unlimited search", full.Nodes)
	}
}

// TestSingleLimit: a VCT of one threat limit (Solver.single, on the calling
// goroutine) gives each of quintet's limit-1 cases its expected verdict at
// that limit, with a proof that passes proof.Verify, and, solved again on
// the same Solver (the next search takes over the last one's buffers), the
// same answer; with a cancelled context it claims nothing.
func TestSingleLimit(t *testing.T) {
	s := NewSolver(64)
	cases := 0
	for _, p := range quintetVCT(t) {
		if p.Puzzle.ThreatLimit != 1 || p.Puzzle.Heavy {
			continue
		}
		cases++
		s.ThreatLimit = 1
		want := StatusWin
		if p.Puzzle.Expect == "no-win" {
			want = StatusNoWin
		}
		var first Answer
		for run := range 2 {
			a, err := s.Solve(context.Background(), problem(t, p), ModeVCT, Limits{Depth: p.Puzzle.Limit}, nil)
			if err != nil || a.Status != want || a.Mode == ModeVCT && a.ThreatLimit != 1 {
				t.Fatalf("%s run %d: %v at threat limit %d (%v), want %v at 1", p.Label(), run, a.Status, a.ThreatLimit, err, want)
			}
			if a.Status == StatusWin {
				if _, err := proof.Verify(a.Proof); err != nil {
					t.Errorf("%s: %v", p.Label(), err)
				}
			}
			if run == 0 {
				first = a
			} else if a.Nodes != first.Nodes || !slices.Equal(a.Line, first.Line) {
				t.Errorf("%s: again %d nodes, line %v; first %d nodes, line %v", p.Label(), a.Nodes, a.Line, first.Nodes, first.Line)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if a, err := s.Solve(ctx, problem(t, p), ModeVCT, Limits{Depth: p.Puzzle.Limit}, nil); err != nil ||
			a.Status == StatusWin && a.Mode == ModeVCT {
			t.Errorf("%s cancelled: %v (%v)", p.Label(), a.Status, err)
		}
	}
	if cases == 0 {
		t.Fatal("no case of threat limit 1")
	}
}

// TestQuietMovesOrder checks quietMoves against its definition: the
// attacker's legal moves not among the threats, nearest a stone first,
// then by both sides' potential, highest first, then by Point, as a stable
// sort of the board-ordered list by that score gives, on middle games of
// all three rules (renju's forbidden points left out for black), and that
// a second call, reusing the buffers, gives the same list.
func TestQuietMovesOrder(t *testing.T) {
	v := NewVCT(16)
	for _, tc := range []struct {
		rule  engine.Rule
		moves string
		size  int // 0: 15
	}{
		{engine.Freestyle, "h8 h9 i8 i7 g8 j8 g9 f10 g7 g10", 0},
		{engine.Standard, "h8 i9 j10 g7 h10 h7 i7 g9", 0},
		{engine.Renju, "h8 h9 i8 i7 j7 g9 j9 k10 j8 j6 g8 k8 f8", 0},
		// other sides, stones at the edge: the far cells' order is the size's
		{engine.Freestyle, "c3 a1 d3 b2 e3 f6", 9},
		{engine.Renju, "h8 a19 i8 s1 j8 b18", 19},
		{engine.Freestyle, "h8 a1 i8 a2 h9 o15", 0},
	} {
		size := tc.size
		if size == 0 {
			size = engine.DefaultSize
		}
		b, err := engine.NewBoard(size, tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		c := engine.Black
		for _, s := range strings.Fields(tc.moves) {
			p, err := engine.ParsePoint(s, size)
			if err != nil {
				t.Fatal(err)
			}
			b.Play(p, c)
			c = c.Opponent()
		}
		// one VCT throughout: each run takes the last one's scratch, the
		// far cells' order of another size among it
		r := v.newRun(b, c, NewBudget(context.Background(), Limits{}, nil))
		v.run = r
		threats := r.threatCandidates(nil, 3)
		near := func(m engine.Point) int64 {
			best := int64(15)
			for d := 1; d <= 4 && best == 15; d++ {
				for _, dir := range engine.Dirs {
					for _, sign := range []int{1, -1} {
						q := engine.Point(int(m) + sign*d*dir)
						// a stone within d along a line, with no wall between
						if blocked := func() bool {
							for k := 1; k <= d; k++ {
								if !b.OnBoard(engine.Point(int(m) + sign*k*dir)) {
									return true
								}
							}
							return false
						}(); !blocked && b.At(q) != engine.Empty {
							best = int64(d)
						}
					}
				}
			}
			return best
		}
		var want []engine.Point
		score := map[engine.Point]int64{}
		for _, m := range legalMoves(b, c) {
			if slices.Contains(threats, m) {
				continue
			}
			want = append(want, m)
			score[m] = -near(m)<<40 + int64(b.Potential(c, m)) + int64(b.Potential(c.Opponent(), m))
		}
		slices.SortStableFunc(want, func(a, b engine.Point) int { return cmp.Compare(score[b], score[a]) })
		got := slices.Clone(r.quietMoves(threats))
		if !slices.Equal(got, want) {
			t.Errorf("%v %s: quietMoves\n%v\nwant\n%v", tc.rule, tc.moves, got, want)
		}
		if again := r.quietMoves(threats); !slices.Equal(again, got) {
			t.Errorf("%v: a second call gives %v", tc.rule, again)
		}
		if len(threats) == 0 || len(got) == 0 {
			t.Errorf("%v: %d threats, %d quiet moves: the position tests nothing", tc.rule, len(threats), len(got))
		}
	}
}

// TestWeakNumbers checks weak proof-number search's sums (weakSum) on a
// few children, and that quintet's VCT cases and a sample of lfz084's
// books reach the same verdicts with VCT.WeakNumbers as without.
func TestWeakNumbers(t *testing.T) {
	for _, c := range []struct {
		vals     [][2]uint32
		k        int
		sum, out uint32
	}{
		{[][2]uint32{{3, 1}, {5, 1}, {2, 1}}, 0, 10, 7},        // 5 + 2 more unsolved
		{[][2]uint32{{0, pnInf}, {4, 2}, {0, pnInf}}, 0, 4, 4}, // proven children do not count
		{[][2]uint32{{1, 9}, {1, 3}}, 1, 12, 10},
		{[][2]uint32{{0, pnInf}, {0, pnInf}}, 0, 0, 0}, // all proven: the sum, 0
		{[][2]uint32{{pnInf - 1, 1}, {pnInf - 1, 1}}, 0, pnInf - 1, pnInf - 1},
	} {
		if got := weakSum(c.vals, c.k, c.sum); got != c.out {
			t.Errorf("weakSum(%v, %d, %d) = %d, want %d", c.vals, c.k, c.sum, got, c.out)
		}
	}
	agreed, total := agreeOnOff(t, "weak numbers", func(v *VCT, off bool) { v.WeakNumbers = !off }, nil)
	t.Logf("%d of %d positions decided both ways", agreed, total)
	if agreed < total/2 {
		t.Errorf("only %d of %d decided both ways", agreed, total)
	}
}
