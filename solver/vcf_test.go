package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/datatest"
	"gomoku/solver/internal/cases"
	"gomoku/solver/proof"
)

// problem sets a position up as a problem for its attacker (or side to move).
func problem(t testing.TB, p *positions.Position) Problem {
	t.Helper()
	b, err := p.Board(p.Rule)
	if err != nil {
		t.Fatal(err)
	}
	att := p.Attacker
	if att == engine.Empty {
		att = p.ToMove
	}
	return Problem{Board: b, ToMove: p.ToMove, Attacker: att}
}

// limitOf returns the record's attacker-move limit.
func limitOf(p *positions.Position) int {
	if p.Puzzle != nil {
		return p.Puzzle.Limit
	}
	return 0
}

// quintetVCF returns quintet's VCF cases (datatest.Quintet).
func quintetVCF(t testing.TB) []*positions.Position { return cases.Quintet(t, "vcf") }

// TestQuintetVCF solves every quintet VCF case: proven ones give a line
// that replays within the limit, disproven ones no-win within the limit.
func TestQuintetVCF(t *testing.T) {
	v := NewVCF(16)
	v.Shortest = true
	for _, p := range quintetVCF(t) {
		pr := problem(t, p)
		lim := Limits{Depth: limitOf(p)}
		res, err := v.Search(context.Background(), pr, lim, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Label(), err)
		}
		switch p.Puzzle.Expect {
		case "win":
			if res.Status != StatusWin {
				t.Errorf("%s: %v, want win", p.Label(), res.Status)
				continue
			}
			end, err := pr.verifyLine(res.Line)
			// quintet's limits are the shortest lengths (the _short cases
			// one move less have no VCF), except the unlimited 255
			if lim.Depth < 255 && (attackerMoves(res.Line) != lim.Depth || !res.Shortest) {
				t.Errorf("%s: %d attacker moves (shortest %v), want the shortest, %d", p.Label(),
					attackerMoves(res.Line), res.Shortest, lim.Depth)
			}
			if err != nil || end != res.End || attackerMoves(res.Line) > lim.Depth {
				t.Errorf("%s: line %v fails: %v (end %v/%v, %d moves, limit %d)", p.Label(), res.Line, err,
					end, res.End, attackerMoves(res.Line), lim.Depth)
			}
		case "no-win":
			if res.Status != StatusNoWin || (res.Proven.Depth != lim.Depth && res.Proven.Depth != 0) {
				t.Errorf("%s: %v proven under %+v, want no-win within %d", p.Label(), res.Status, res.Proven, lim.Depth)
			}
		default:
			t.Fatalf("%s: expect %q", p.Label(), p.Puzzle.Expect)
		}
	}
}

// TestVCFPuzzleBooks solves every VCF-labelled puzzle of the shared data
// (lfz084's books, banbu, mintaka, tk) and reports the count and times.
func TestVCFPuzzleBooks(t *testing.T) {
	data := datatest.Shared(t)
	files, _ := filepath.Glob(filepath.Join(data, "*.jsonl"))
	v := NewVCF(64)
	v.Shortest = true
	total, solved, shorter := 0, 0, 0
	for _, f := range files {
		if strings.HasSuffix(f, "quintet.jsonl") {
			continue // TestQuintetVCF
		}
		var times []time.Duration
		for _, p := range cases.Load(t, f) {
			if p.Puzzle.Task != "vcf" || p.Puzzle.Expect != "win" {
				continue
			}
			total++
			pr := problem(t, p)
			lim := Limits{Depth: limitOf(p), Time: 10 * time.Second}
			res, err := v.Search(context.Background(), pr, lim, nil)
			if err != nil {
				t.Errorf("%s: %v", p.Label(), err)
				continue
			}
			if res.Status != StatusWin {
				t.Errorf("%s: %v after %d nodes, want win", p.Label(), res.Status, res.Nodes)
				continue
			}
			if _, err := pr.verifyLine(res.Line); err != nil {
				t.Errorf("%s: %v", p.Label(), err)
				continue
			}
			// a shortest line is no longer than the stored one, and banbu's
			// limits are the proven shortest lengths
			n := attackerMoves(res.Line)
			if !res.Shortest {
				t.Errorf("%s: shortest not proven", p.Label())
			}
			if len(p.Puzzle.Line) > 0 {
				switch stored := attackerMoves(p.Puzzle.Line); {
				case n > stored:
					t.Errorf("%s: shortest line %d attacker moves, the stored line %d", p.Label(), n, stored)
				case n < stored:
					shorter++
				}
			}
			if strings.HasPrefix(p.ID, "banbu/") && n != p.Puzzle.Limit {
				t.Errorf("%s: shortest %d, banbu's proven length %d", p.Label(), n, p.Puzzle.Limit)
			}
			// the source's answers (one-move wins) must each be winning lines
			for _, a := range p.Puzzle.Answers {
				if _, err := pr.verifyLine([]engine.Point{a}); err != nil {
					t.Errorf("%s: answer %v: %v", p.Label(), a, err)
				}
			}
			solved++
			times = append(times, res.Elapsed)
		}
		if len(times) > 0 {
			slices.Sort(times)
			t.Logf("%s: %d solved, median %v, max %v", filepath.Base(f), len(times), times[len(times)/2], times[len(times)-1])
		}
	}
	t.Logf("VCF puzzles: %d of %d solved; %d lines shorter than the stored ones", solved, total, shorter)
	if total < 1400 {
		t.Errorf("only %d VCF puzzles found in the shared data", total)
	}
}

// pos sets up a position from black and white stones in renju notation.
func pos(t *testing.T, r engine.Rule, black, white string) *engine.Board {
	t.Helper()
	b, err := engine.NewBoard(15, r)
	if err != nil {
		t.Fatal(err)
	}
	for i, list := range []string{black, white} {
		for _, s := range strings.Fields(list) {
			p, err := engine.ParsePoint(s, 15)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Put(p, engine.Color(i+1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b
}

// TestVCFRules checks the rules of the search on small constructed positions.
func TestVCFRules(t *testing.T) {
	tests := []struct {
		name         string
		rule         engine.Rule
		black, white string
		attacker     engine.Color
		want         Status
		end          proof.End
	}{
		// h8 would be a double four: forbidden to black under renju, a win otherwise.
		{"double four forbidden", engine.Renju, "e8 f8 g8 h5 h6 h7", "d8 h4 a1", engine.Black, StatusNoWin, proof.EndNone},
		{"double four freestyle", engine.Freestyle, "e8 f8 g8 h5 h6 h7", "d8 h4 a1", engine.Black, StatusWin, proof.EndDoubleFour},
		// g8 makes six: a five only where overlines win.
		{"overline freestyle", engine.Freestyle, "c8 d8 e8 f8 h8", "b8 a1 a2 a3", engine.Black, StatusWin, proof.EndFive},
		{"overline standard", engine.Standard, "c8 d8 e8 f8 h8", "b8 a1 a2 a3", engine.Black, StatusNoWin, proof.EndNone},
		{"overline renju black", engine.Renju, "c8 d8 e8 f8 h8", "b8 a1 a2 a3", engine.Black, StatusNoWin, proof.EndNone},
		{"overline renju white", engine.Renju, "b8 a1 a2 a3 o15", "c8 d8 e8 f8 h8", engine.White, StatusWin, proof.EndFive},
		// a straight four is no use while the defender has a four to complete
		{"defender's four first", engine.Freestyle, "h8 i8 j8 c3", "a1 a2 a3 a4", engine.Black, StatusNoWin, proof.EndNone},
		{"straight four", engine.Freestyle, "h8 i8 j8 c3", "a1 a2 a3 b5", engine.Black, StatusWin, proof.EndDoubleFour},
	}
	v := NewVCF(1)
	for i, tc := range tests {
		t.Run(strconv.Itoa(i)+"_"+tc.name, func(t *testing.T) {
			b := pos(t, tc.rule, tc.black, tc.white)
			pr := Problem{Board: b, ToMove: tc.attacker, Attacker: tc.attacker}
			res, err := v.Search(context.Background(), pr, Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want || res.End != tc.end {
				t.Fatalf("%v %v (line %v), want %v %v", res.Status, res.End, res.Line, tc.want, tc.end)
			}
		})
	}
}

// TestProblemErrors checks the problems Search refuses.
func TestProblemErrors(t *testing.T) {
	b := pos(t, engine.Renju, "h8 i8 j8", "a1 a2")
	v := NewVCF(1)
	if _, err := v.Search(context.Background(), Problem{Board: b, ToMove: engine.White, Attacker: engine.Black}, Limits{}, nil); !errors.Is(err, ErrDefenderToMove) {
		t.Errorf("defender to move: %v", err)
	}
	res, err := v.Search(context.Background(), Problem{Board: b, ToMove: engine.White, Attacker: engine.Black, DefenderPasses: true}, Limits{}, nil)
	if err != nil || res.Status != StatusWin {
		t.Errorf("with a pass: %v %v", res.Status, err)
	}
	over := pos(t, engine.Renju, "h8 i8 j8 k8 l8", "a1 a2 a3 a4")
	if _, err := v.Search(context.Background(), Problem{Board: over, ToMove: engine.White, Attacker: engine.White}, Limits{}, nil); !errors.Is(err, ErrGameOver) {
		t.Errorf("defender has five: %v", err)
	}
	if _, err := v.Search(context.Background(), Problem{}, Limits{}, nil); !errors.Is(err, ErrBadProblem) {
		t.Errorf("no board: %v", err)
	}
}

// TestLimitsStop checks that node limits, time limits and cancellation give
// StatusUnknown with the reason, never a verdict.
func TestLimitsStop(t *testing.T) {
	var long *positions.Position
	for _, p := range quintetVCF(t) {
		if strings.Contains(p.Label(), "vcf_long") {
			long = p
		}
	}
	pr := problem(t, long)
	v := NewVCF(1)
	res, err := v.Search(context.Background(), pr, Limits{Nodes: 10}, nil)
	if err != nil || res.Status != StatusUnknown || res.Stopped != "nodes" || res.Nodes > 11 {
		t.Errorf("node limit: %v %q %d %v", res.Status, res.Stopped, res.Nodes, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// cancellation is polled every PollInterval nodes; the whole search is
	// smaller, so it either finishes (a verified win) or reports "cancelled"
	res, err = v.Search(ctx, pr, Limits{}, nil)
	if err != nil || (res.Status != StatusWin && res.Stopped != "cancelled") {
		t.Errorf("cancelled: %v %q %v", res.Status, res.Stopped, err)
	}
}

// TestDeterministic checks that node counts do not depend on the searcher's
// history or table size: the bench signature relies on it.
func TestDeterministic(t *testing.T) {
	cases := quintetVCF(t)
	count := func(v *VCF) (n []int64) {
		for _, p := range cases {
			res, err := v.Search(context.Background(), problem(t, p), Limits{Depth: limitOf(p)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			n = append(n, res.Nodes)
		}
		return n
	}
	v := NewVCF(4)
	a, b, c := count(v), count(v), count(NewVCF(64))
	if !slices.Equal(a, b) || !slices.Equal(a, c) {
		t.Errorf("node counts vary: %v %v %v", a, b, c)
	}
}

// TestVerifyRejects corrupts a winning line in every way Verify checks.
func TestVerifyRejects(t *testing.T) {
	var p *positions.Position
	for _, q := range quintetVCF(t) {
		if strings.Contains(q.Label(), "vcf_black") && q.Puzzle.Expect == "win" {
			p = q
		}
	}
	pr := problem(t, p)
	res, err := NewVCF(1).Search(context.Background(), pr, Limits{}, nil)
	if err != nil || res.Status != StatusWin {
		t.Fatal(res.Status, err)
	}
	good := res.Line
	if _, err := pr.verifyLine(good); err != nil {
		t.Fatalf("the found line fails: %v", err)
	}
	pt := func(s string) engine.Point { q, _ := engine.ParsePoint(s, 15); return q }
	with := func(i int, q engine.Point) []engine.Point { l := slices.Clone(good); l[i] = q; return l }
	corrupt := map[string][]engine.Point{
		"empty":              nil,
		"cut short":          good[:len(good)-2],
		"ends on a defender": good[:len(good)-1],
		"goes on after win":  append(slices.Clone(good), pt("a1"), pt("a2")),
		"wrong block":        with(1, pt("a1")),
		"not a four":         with(0, pt("a1")),
		"occupied":           with(0, p.Black[0]),
		"off board":          with(0, engine.PointAt(20, 20)),
	}
	for name, line := range corrupt {
		if _, err := pr.verifyLine(line); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// a forbidden four for black (h8, a double four) is rejected
	b := pos(t, engine.Renju, "e8 f8 g8 h5 h6 h7", "d8 h4 a1")
	if _, err := proof.VerifyLine(b, engine.Black, []engine.Point{pt("h8")}); err == nil ||
		!strings.Contains(err.Error(), "forbidden") {
		t.Errorf("forbidden double four: %v", err)
	}
}

// TestTableGrowth fills tables that start small: every entry stored is
// found after the doublings (but for the few that a direct-mapped
// failTable overwrites), the tables stop at their memory, and a new
// generation starts again from the least size with nothing in it; a table
// grown by full keeps its size.
func TestTableGrowth(t *testing.T) {
	ft := newFailTable(1)
	pt := newPNTable(1)
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, 16000)
	for i := range keys {
		keys[i] = max(1, rng.Uint64()) // pn entries: a key is never 0
	}
	for gen := range 2 {
		for i, k := range keys {
			if gen == 1 && i == len(keys)/2 {
				ft.full() // a shared table: grown at once, its size kept
			}
			ft.store(k, 1+i%7)
			pt.store(k, uint32(1+i%5), 7, uint32(i), engine.NoPoint, 0)
		}
		if len(ft.slots) < 4*len(keys) || uint64(len(ft.slots)) > ft.maxSlots || pt.mask+1 != pt.maxBuckets {
			t.Errorf("generation %d: fail table %d of %d slots, pn table %d of %d buckets", gen, len(ft.slots), ft.maxSlots, pt.mask+1, pt.maxBuckets)
		}
		lostF, lostP := 0, 0
		for i, k := range keys {
			if d := ft.probe(k); d != 1+i%7 {
				lostF++
			}
			if e := pt.lookup(k); e == nil || e.pn != uint32(1+i%5) || e.work != uint32(i) {
				lostP++
			}
		}
		// 16000 keys in 2^16 direct-mapped slots collide in about 11% (and
		// more in the small tables before: 18%); the pn table's 2^13
		// buckets of four keep most (6% lost, most while it was small)
		if lostF > len(keys)/5 || lostP > len(keys)/12 {
			t.Errorf("generation %d: %d fail and %d pn entries lost of %d", gen, lostF, lostP, len(keys))
		}
		ft.nextGeneration()
		pt.nextGeneration()
		if want := map[int]int{0: minFailSlots, 1: 1 << 17}[gen]; len(ft.slots) != want || pt.mask+1 != minPNBuckets {
			t.Errorf("generation %d: the next starts at %d slots (want %d) and %d buckets", gen, len(ft.slots), want, pt.mask+1)
		}
		for _, k := range keys {
			if ft.probe(k) != 0 || pt.lookup(k) != nil {
				t.Fatalf("generation %d: an entry outlived its generation", gen)
			}
		}
	}
}

// TestTableEntry pins the size of a table slot: one uint64 (see tt.go).
func TestTableEntry(t *testing.T) {
	tt := newFailTable(1)
	if s := unsafe.Sizeof(tt.slots[0]); s != 8 {
		t.Errorf("slot is %d bytes, want 8", s)
	}
	if len(tt.slots) != minFailSlots || tt.maxSlots != 1<<17 {
		t.Errorf("1 MiB table has %d slots, up to %d; want %d, up to %d", len(tt.slots), tt.maxSlots, minFailSlots, 1<<17)
	}
	tt.store(0xdeadbeef12345678, 7)
	if d := tt.probe(0xdeadbeef12345678); d != 7 {
		t.Errorf("probe = %d, want 7", d)
	}
	if d := tt.probe(0xdeadbeef12345678 ^ 1<<40); d != 0 {
		t.Errorf("a different tag matched: %d", d)
	}
	tt.store(0xdeadbeef12345678, 3) // shallower: kept the deeper proof
	if d := tt.probe(0xdeadbeef12345678); d != 7 {
		t.Errorf("shallower store replaced a deeper proof: %d", d)
	}
	tt.nextGeneration()
	if d := tt.probe(0xdeadbeef12345678); d != 0 {
		t.Errorf("entry survived a new generation: %d", d)
	}
}

// BenchmarkVCF solves each quintet VCF case; ns/op is one whole search.
// BenchmarkVCF/shortest also proves the line shortest, as solve does.
func BenchmarkVCF(b *testing.B) {
	b.Run("first", func(b *testing.B) { benchVCF(b, false) })
	b.Run("shortest", func(b *testing.B) { benchVCF(b, true) })
}

func benchVCF(b *testing.B, shortest bool) {
	for _, p := range quintetVCF(b) {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p.Label()), "quintet/"), ".txt#0")
		b.Run(name, func(b *testing.B) {
			pr := problem(b, p)
			v := NewVCF(16)
			v.Shortest = shortest
			lim := Limits{Depth: limitOf(p)}
			var nodes int64
			for i := 0; i < b.N; i++ {
				res, err := v.Search(context.Background(), pr, lim, nil)
				if err != nil {
					b.Fatal(err)
				}
				nodes = res.Nodes
			}
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}

// TestBlockCuts checks the VCF's cuts (the block cuts foursAfterBlock and
// winnerAfterBlock, and the transposition cutoff of childKeys) against the
// search without them: on quintet's VCT cases and every fourth lfz084 VCT
// puzzle (all of them without -short), for the position and for every
// quiet attacker move that could be a threat (the defender passing, as at
// the VCT search's defender nodes), a VCF of at most 2 to 5 moves is found
// with the cuts exactly when without them, and every line found with them
// replays. The cuts are checked twice: with a table cleared before each
// search, and with one kept across the depths 2 to 5, as a VCT search keeps
// it, so that entries of a smaller depth limit are met.
func TestBlockCuts(t *testing.T) {
	ps := quintetVCT(t)
	stride := 4
	if !testing.Short() {
		stride = 1
	}
	if datatest.HasShared(t) {
		ps = append(ps, lfzVCT(t, stride)...)
	}
	bu := NewBudget(context.Background(), Limits{}, nil)
	v := NewVCT(1) // its runs list the quiet threat candidates
	v.ThreatLimit = 5
	searches, wins, cut := 0, 0, 0
	for _, p := range ps {
		pr := problem(t, p)
		b := pr.Board.Clone()
		att := pr.Attacker
		on := newVCFRun(b, att, newFailTable(1), bu)
		keep := newVCFRun(b, att, newFailTable(1), bu)
		off := newVCFRun(b, att, newFailTable(1), bu)
		off.noBlockCuts, off.noTransCut = true, true
		check := func(where string) {
			keep.tt.nextGeneration()
			for k := 2; k <= 5; k++ {
				on.tt.nextGeneration()
				off.tt.nextGeneration()
				on.nodes, off.nodes = 0, 0
				_, _, kept := keep.find(k)
				line, _, won := on.find(k)
				if won {
					line = slices.Clone(line)
				}
				_, _, want := off.find(k)
				searches++
				cut += int(off.nodes - on.nodes)
				if won != want || kept != want {
					t.Fatalf("%s %s, VCF of at most %d: %v with the cuts (%v with the table kept), %v without",
						p.Label(), where, k, won, kept, want)
				}
				if !won {
					continue
				}
				wins++
				q := Problem{Board: b.Clone(), ToMove: att, Attacker: att}
				if _, err := q.verifyLine(line); err != nil {
					t.Fatalf("%s %s, VCF of at most %d: line %v: %v", p.Label(), where, k, line, err)
				}
			}
		}
		if pr.ToMove == att {
			check("as given")
		}
		for _, m := range v.newRun(b, att, bu).threatCandidates(nil, v.ThreatLimit) {
			if b.Threat(att, m) >= engine.ThreatFour {
				continue
			}
			b.Play(m, att)
			check("after " + m.String())
			b.Undo()
		}
	}
	t.Logf("%d positions, %d searches, %d won, %d nodes fewer with the cuts", len(ps), searches, wins, cut)
}
