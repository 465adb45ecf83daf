package solver

import (
	"context"
	"sync"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/positions/datatest"
	"gomoku/solver/proof"
)

// TestSharedTableNesting checks the nesting rule of sharedTable.lookup: a
// proof holds at its threat limit and above, a disproof at its limit and
// below, a new generation forgets both, and the proving move and work come
// back as stored.
func TestSharedTableNesting(t *testing.T) {
	s := newSharedTable(1)
	const proved, refuted = uint64(0x1234_5678_9abc_def0), uint64(0x0fed_cba9_8765_4321)
	m := engine.Point(7*engine.Stride + 7)
	s.store(proved, 3, true, m, 40)
	s.store(refuted, 3, false, engine.NoPoint, 9)
	for limit := 1; limit <= 5; limit++ {
		found, proven, best, work := s.lookup(proved, limit)
		if want := limit >= 3; found != want || found && (!proven || best != m || work != 40) {
			t.Errorf("proof at 3, lookup at %d: found %v proven %v best %v work %d", limit, found, proven, best, work)
		}
		found, proven, _, work = s.lookup(refuted, limit)
		if want := limit <= 3; found != want || found && (proven || work != 9) {
			t.Errorf("disproof at 3, lookup at %d: found %v proven %v work %d", limit, found, proven, work)
		}
	}
	if found, _, _, _ := s.lookup(proved^1, 5); found {
		t.Error("a key never stored was found")
	}
	// the limits above 7 (--threat-limit 8 runs limits 1 to 8 side by side)
	// and above maxSharedLimit
	s.store(proved^2, 8, true, m, 1)
	s.store(refuted^2, maxSharedLimit+5, false, engine.NoPoint, 1)
	s.store(proved^3, maxSharedLimit+1, true, m, 1)
	for _, c := range []struct {
		key          uint64
		limit        int
		found, prove bool
	}{
		{proved ^ 2, 7, false, false}, {proved ^ 2, 8, true, true}, {proved ^ 2, 9, true, true},
		{refuted ^ 2, maxSharedLimit, true, false}, {refuted ^ 2, 8, true, false},
		{proved ^ 3, maxSharedLimit + 1, false, false},
	} {
		if found, proven, _, _ := s.lookup(c.key, c.limit); found != c.found || proven != c.prove {
			t.Errorf("key %#x at limit %d: found %v proven %v, want %v %v", c.key, c.limit, found, proven, c.found, c.prove)
		}
	}
	s.nextGeneration()
	if found, _, _, _ := s.lookup(proved, 5); found {
		t.Error("an entry of the last generation was found")
	}
	// a full bucket keeps the entries with the most work
	base := uint64(1) << 40 // same bucket: the index bits are the low ones
	for i := range uint64(sharedBucket + 1) {
		s.store(base*(i+1), 2, true, m, uint32(100+i))
	}
	if found, _, _, _ := s.lookup(base, 2); found {
		t.Error("the entry with the least work was kept over the others")
	}
	for i := uint64(1); i <= sharedBucket; i++ {
		if found, _, _, _ := s.lookup(base*(i+1), 2); !found {
			t.Errorf("entry %d, work %d, was replaced", i, 100+i)
		}
	}
}

// TestSharedTableConcurrent writes and reads one small table from several
// goroutines (run with -race): every entry read back is one some goroutine
// wrote, never a mix of two.
func TestSharedTableConcurrent(t *testing.T) {
	s := newSharedTable(1)
	const writers, keys = 4, 1 << 14
	// each key's data is a function of the key, so a torn entry would
	// show as a mismatch
	want := func(k uint64) (engine.Point, uint32) { return engine.Point(k % 1000), uint32(k%5000 + 1) }
	var wg sync.WaitGroup
	errs := make(chan string, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range uint64(keys) {
				k := splitmixAt(i*writers + uint64(w)%2) // two writers per key
				best, work := want(k)
				s.store(k, 3, true, best, work)
				if found, proven, b, wk := s.lookup(k, 3); found && (!proven || b != best || wk != work) {
					errs <- "torn entry read back"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestSharedAcrossLimits runs, on quintet's VCT cases and a sample of
// lfz084's books, a search at one threat limit and then one at another on
// the same shared table (down from 5 to 3: the disproofs carry; up from 2
// to 4: the proofs carry, and the proof must be built from them), and
// checks the second search's verdict against the same limit searched alone
// wherever both are decided. Every win's proof is checked by Prove itself.
func TestSharedAcrossLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute: run without -short")
	}
	ps := quintetVCT(t)
	if datatest.HasShared(t) {
		ps = append(ps, lfzVCT(t, 24)...)
	}
	s := newSharedTable(16)
	for _, pair := range [][2]int{{5, 3}, {2, 4}} {
		agreed, hits := 0, int64(0)
		for _, p := range ps {
			if p.Puzzle.Heavy {
				continue
			}
			lim := Limits{Depth: p.Puzzle.Limit, Nodes: 200_000}
			run := func(limit int, shared *sharedTable) (Status, int64) {
				v := NewVCT(32)
				v.ThreatLimit, v.shared = limit, shared
				res, _, err := v.Prove(context.Background(), problem(t, p), lim, nil)
				if err != nil {
					t.Fatalf("%s at threat limit %d: %v", p.Label(), limit, err)
				}
				return res.Status, v.sharedHits
			}
			s.nextGeneration()
			run(pair[0], s)
			with, h := run(pair[1], s)
			alone, _ := run(pair[1], nil)
			hits += h
			if with != StatusUnknown && alone != StatusUnknown {
				agreed++
				if with != alone {
					t.Errorf("%s at threat limit %d: %v after limit %d, %v alone", p.Label(), pair[1], with, pair[0], alone)
				}
			}
		}
		t.Logf("threat limit %d after %d: %d of %d decided both ways, %d answers from the shared table", pair[1], pair[0], agreed, len(ps), hits)
		if hits == 0 {
			t.Errorf("threat limit %d after %d: no answer came from the shared table", pair[1], pair[0])
		}
	}
}

// TestPortfolioShareSolved runs the automatic portfolio with
// Solver.ShareSolved on a sample of lfz084's VCT books: the searches must
// read each other's entries (shared hits), every win comes with a proof that
// proof.Verify accepts, and no puzzle is proven a no-win that the portfolio
// without sharing wins (the shared entries are sound).
func TestPortfolioShareSolved(t *testing.T) {
	if testing.Short() {
		t.Skip("half a minute: run without -short")
	}
	lim := Limits{Time: 2 * time.Second}
	shared, plain := NewSolver(64), NewSolver(64)
	shared.ShareSolved = true
	hits := int64(0)
	for _, p := range lfzVCT(t, 53) {
		pr := problem(t, p)
		a, err := shared.Solve(context.Background(), pr, ModeVCT, lim, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Label(), err)
		}
		for _, v := range shared.vcts {
			hits += v.sharedHits
			v.sharedHits = 0 // a puzzle the VCF search settles runs no VCT search to reset it
		}
		if a.Status == StatusWin {
			if _, err := proof.Verify(a.Proof); err != nil {
				t.Errorf("%s: %v", p.Label(), err)
			}
		}
		b, err := plain.Solve(context.Background(), pr, ModeVCT, lim, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Label(), err)
		}
		if a.Status != StatusUnknown && b.Status != StatusUnknown && a.Status != b.Status {
			t.Errorf("%s: %v with the shared table, %v without", p.Label(), a.Status, b.Status)
		}
	}
	if hits == 0 {
		t.Error("no search read the shared table")
	}
}
