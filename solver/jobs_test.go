package solver

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gomoku/engine"
)

// TestJobPool: a pool of n tokens runs every job once and never more than
// n at a time (and n when the jobs are long enough); a worker's inner run
// takes the token that a finished top-level worker returned, so that the
// last top-level job's inner jobs run two at a time on two tokens; a job
// that returns false stops the jobs after it; every token is back at the
// end. Run with -race.
func TestJobPool(t *testing.T) {
	s := NewSolver(4)
	t.Run("bound", func(t *testing.T) {
		p := newJobPool(s, 3)
		var runs [20]atomic.Int32
		var now, most atomic.Int32
		p.run(s, len(runs), true, func(slv *Solver, k int) bool {
			if slv == nil {
				t.Error("no solver")
			}
			m := now.Add(1)
			for o := most.Load(); m > o && !most.CompareAndSwap(o, m); o = most.Load() {
			}
			time.Sleep(5 * time.Millisecond)
			now.Add(-1)
			runs[k].Add(1)
			return true
		})
		for k := range runs {
			if n := runs[k].Load(); n != 1 {
				t.Errorf("job %d ran %d times", k, n)
			}
		}
		if most.Load() != 3 || p.peak != 3 || p.active != 0 || len(p.tokens) != 3 {
			t.Errorf("at most %d at once (peak %d), %d active, %d tokens free; want 3, 3, 0, 3", most.Load(), p.peak, p.active, len(p.tokens))
		}
	})
	t.Run("nested", func(t *testing.T) {
		p := newJobPool(s, 2)
		var inner overlap
		p.run(s, 2, true, func(slv *Solver, k int) bool {
			if k == 0 {
				return true // returns its token soon
			}
			p.run(slv, 8, false, func(*Solver, int) bool {
				inner.hold(20 * time.Millisecond)
				return true
			})
			return true
		})
		if most := inner.peak(); most != 2 || p.active != 0 || len(p.tokens) != 2 {
			t.Errorf("inner jobs at most %d at once, %d active, %d tokens free; want 2, 0, 2", most, p.active, len(p.tokens))
		}
	})
	t.Run("stop", func(t *testing.T) {
		p := newJobPool(s, 1)
		var ran []int
		p.run(s, 10, true, func(_ *Solver, k int) bool {
			ran = append(ran, k)
			return k != 3
		})
		if len(ran) != 4 || ran[3] != 3 {
			t.Errorf("ran %v; want 0 to 3", ran)
		}
	})
}

// TestProveOpeningDeepenJobs proves renju's square opening (black's 2x2
// square, white to move) with searches of 5,000 nodes and one level of
// deepening, on one goroutine and on a pool of two: both are wins with
// every zone move won, at least one of them by deepening, and the
// certificate (checked inside ProveOpening) holds as many defences; with
// two jobs each line of the deepenings' log names its child. Run
// with -race: the deepenings' inner moves run beside the other children.
func TestProveOpeningDeepenJobs(t *testing.T) {
	pr := openingProblem(t, engine.Renju, "h8", "a1", "i8", "o15", "h9", "a15", "i9")
	var reps []OpeningReport
	for _, jobs := range []int{1, 2} {
		s := NewSolver(16)
		s.PassThreats = true
		var mu sync.Mutex
		var lines []string
		logf := func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() }
		rep, err := s.ProveOpening(context.Background(), pr, Limits{Nodes: 5_000}, OpeningOptions{Jobs: jobs, Deepen: 1, Log: logf})
		if err != nil {
			t.Fatal(err)
		}
		deepened := 0
		for _, ch := range rep.Children {
			if ch.Deepened {
				deepened++
			}
		}
		if rep.Status != StatusWin || rep.Won != rep.Total || rep.Certificate == nil || len(rep.Certificate.Defences) != rep.Total {
			t.Fatalf("jobs %d: %v, %d of %d won", jobs, rep.Status, rep.Won, rep.Total)
		}
		t.Logf("jobs %d: %d of %d won, %d deepened, %d nodes", jobs, rep.Won, rep.Total, deepened, rep.Nodes)
		if deepened == 0 {
			t.Logf("jobs %d: nothing deepened this time (the pass proof varies)", jobs)
		} else if len(lines) == 0 {
			t.Errorf("jobs %d: %d deepened, nothing logged", jobs, deepened)
		}
		// with two jobs each line names the child deepened, and only then
		for _, l := range lines {
			if tagged := strings.HasPrefix(l, "[") && strings.Contains(l, "] "); tagged != (jobs > 1) {
				t.Errorf("jobs %d: log line %q", jobs, l)
				break
			}
		}
		reps = append(reps, rep)
	}
	if reps[0].Total != reps[1].Total {
		t.Errorf("zones of %d and %d moves", reps[0].Total, reps[1].Total)
	}
}

// TestSiblingSettings: a worker of prove --jobs searches as the first one
// does: the same store, threat limit, settings and checkpoint interval
// (without the interval, a deepening run on several jobs left no
// checkpoints but the first worker's).
func TestSiblingSettings(t *testing.T) {
	s := NewSolver(64)
	s.Store = memStore(t)
	s.OneSearch, s.ThreatLimit, s.ShareSolved, s.PassThreats = true, 3, true, true
	s.CheckpointEvery = time.Hour
	o := s.sibling()
	if o.Store != s.Store || o.OneSearch != s.OneSearch || o.ThreatLimit != s.ThreatLimit ||
		o.ShareSolved != s.ShareSolved || o.PassThreats != s.PassThreats || o.CheckpointEvery != s.CheckpointEvery {
		t.Errorf("sibling %+v of %+v", o, s)
	}
	if o.VCF == s.VCF || o.totalMiB != s.totalMiB {
		t.Error("the sibling shares the first worker's tables, or not their size")
	}
}

// overlap counts the goroutines inside hold at once, and the most seen.
type overlap struct {
	mu        sync.Mutex
	now, most int
}

// hold is inside for d.
func (o *overlap) hold(d time.Duration) {
	o.mu.Lock()
	o.now++
	o.most = max(o.most, o.now)
	o.mu.Unlock()
	time.Sleep(d)
	o.mu.Lock()
	o.now--
	o.mu.Unlock()
}

// peak is the most goroutines seen inside hold at once.
func (o *overlap) peak() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.most
}

// reset forgets the most seen.
func (o *overlap) reset() {
	o.mu.Lock()
	o.most = 0
	o.mu.Unlock()
}
