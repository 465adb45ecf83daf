package solver

import (
	"sync"
)

// jobPool bounds the goroutines of one whole-board proof (ProveOpening
// with OpeningOptions.Jobs) at every level of its deepenings: it holds
// Jobs tokens, and a goroutine deciding defender moves holds one. The
// top level starts as many workers as it has moves, up to Jobs; a
// deepening's inner proof runs its moves on the goroutine that deepens
// (on that goroutine's token), and any worker, each time it takes a
// move, starts a helper for the moves still waiting when a token is free
// (never waiting for one). A worker that runs out of moves returns its
// token. So the cores that the last top-level moves leave idle go to the
// deepenings still running (freestyle's D6 ended with its four hardest
// moves, deepened two at a time on two cores, and then one), and a
// deepening never waits for a token it does not hold: its time runs
// while it waits.
type jobPool struct {
	tokens chan struct{} // a value in it is a free token
	mu     sync.Mutex
	base   *Solver   // siblings are made from it
	spare  []*Solver // helpers' solvers, kept for the next helper
	// active is the workers running (the tokens held), peak its maximum:
	// TestJobPool reads them
	active, peak int
}

// newJobPool returns a pool of n tokens (n ≥ 1), all free, whose helpers'
// solvers are siblings of s (Solver.sibling: the store shared, tables of
// their own).
func newJobPool(s *Solver, n int) *jobPool {
	p := &jobPool{tokens: make(chan struct{}, max(1, n)), base: s}
	for range cap(p.tokens) {
		p.tokens <- struct{}{}
	}
	return p
}

// tryToken takes a free token, if there is one, without waiting.
func (p *jobPool) tryToken() bool {
	select {
	case <-p.tokens:
		p.count(1)
		return true
	default:
		return false
	}
}

// token waits for a free token and takes it.
func (p *jobPool) token() {
	<-p.tokens
	p.count(1)
}

// release returns a token.
func (p *jobPool) release() {
	p.count(-1)
	p.tokens <- struct{}{}
}

func (p *jobPool) count(d int) {
	p.mu.Lock()
	p.active += d
	p.peak = max(p.peak, p.active)
	p.mu.Unlock()
}

// solver returns a spare solver, or a new sibling of the base one.
func (p *jobPool) solver() *Solver {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.spare); n > 0 {
		s := p.spare[n-1]
		p.spare = p.spare[:n-1]
		return s
	}
	return p.base.sibling()
}

// put keeps a helper's solver for the next helper.
func (p *jobPool) put(s *Solver) {
	p.mu.Lock()
	p.spare = append(p.spare, s)
	p.mu.Unlock()
}

// run calls work(slv, k) once for each k in 0..n-1, in order of k as
// workers take them, until work returns false (then no further k is
// started; those running finish). The first worker is the calling
// goroutine with s: with top set the caller holds no token and takes one
// (the pool is new: one is free) and returns it when it runs out of
// moves; otherwise it works on the token it holds and keeps it, waiting
// for its helpers, so that it goes on at once after them. Each worker,
// taking a move while others wait, starts a helper (with a solver of the
// pool's) for each free token. run returns when every started call has.
func (p *jobPool) run(s *Solver, n int, top bool, work func(slv *Solver, k int) bool) {
	var mu sync.Mutex
	next, stopped := 0, false
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if stopped || next >= n {
			return 0, false
		}
		next++
		return next - 1, true
	}
	waiting := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return !stopped && next < n
	}
	var wg sync.WaitGroup
	var worker func(slv *Solver)
	worker = func(slv *Solver) {
		for {
			k, ok := take()
			if !ok {
				return
			}
			for waiting() && p.tryToken() {
				hs := p.solver()
				wg.Go(func() {
					defer p.release()
					defer p.put(hs)
					worker(hs)
				})
			}
			if !work(slv, k) {
				mu.Lock()
				stopped = true
				mu.Unlock()
			}
		}
	}
	if top {
		p.token()
		worker(s)
		p.release()
	} else {
		worker(s)
	}
	wg.Wait()
}
