package analysis

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"gomoku/engine"
	"gomoku/solver"
	"gomoku/solver/play"
)

// EvalSetting is analyze's best-move search of every ply.
type EvalSetting struct {
	Limits  solver.Limits // of each ply's search
	Weights *play.Weights // nil: the built-in ones
}

// evaluatePly values the position b, c to move, for the analysis: a forced
// win is worth 1 with its line as the PV; otherwise the store's kept
// evaluation, or the alpha-beta search's within the setting's limit (kept
// in the store). The search starts afresh (Clear), so that under a node
// limit it repeats exactly.
func evaluatePly(ctx context.Context, ab *play.AlphaBeta, st *solver.Store, ev *EvalSetting, b *engine.Board,
	c engine.Color, r *solver.PlyResult) error {
	if r.Win != 0 {
		r.Value, r.PV = 1, r.Line
		if len(r.Line) > 0 {
			r.Best = r.Line[0]
		}
		return nil
	}
	if b.LastMoveWon() {
		return nil
	}
	if st != nil {
		e, ok, err := st.Evaluation(b, c)
		if err != nil {
			return err
		}
		if ok {
			r.Value, r.PV, r.EvalFromStore = e.Value, e.PV, true
			if len(e.PV) > 0 {
				r.Best = e.PV[0]
			}
			return nil
		}
	}
	ab.Clear()
	rep, err := ab.Search(ctx, b, c, ev.Limits, 1, nil, nil)
	if errors.Is(err, play.ErrNoMoves) {
		return nil
	}
	if err != nil || len(rep.Moves) == 0 || ctx.Err() != nil {
		return err
	}
	m := rep.Moves[0]
	r.Value, r.Best, r.PV = m.Value, m.Move, m.PV
	if st != nil {
		return st.PutEvaluation(b, c, solver.Evaluation{Value: m.Value, PV: m.PV})
	}
	return nil
}

// Run searches every ply of every game with jobs workers, each with
// its own Solver (memory shared out) and the common store, and writes each
// game as soon as it and all the games before it are done. It returns the
// number of games written; on cancellation the games not complete are not.
func Run(ctx context.Context, games []*Game, jobs, mib, threat int, store *solver.Store,
	lim solver.Limits, ev *EvalSetting, tick func(), out *Writer) int {
	tasks := make(chan task)
	var mu sync.Mutex
	next := 0 // the next game to write
	written := 0
	complete := func() {
		for next < len(games) && games[next].left == 0 {
			g := games[next]
			if g.err == nil {
				out.game(g)
				written++
			}
			next++
		}
	}
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slv := solver.NewSolver(max(8, mib/jobs))
			slv.Store, slv.ThreatLimit = store, threat
			// with a job per core, one VCT search per position gets the
			// core instead of the threat limits taking turns on it; under a
			// node limit, one search makes the results repeat exactly (which
			// of the side-by-side searches wins first is a matter of timing)
			slv.OneSearch = lim.Nodes > 0 || jobs >= runtime.GOMAXPROCS(0) && lim.Time > 0
			var ab *play.AlphaBeta
			if ev != nil {
				ab = play.NewAlphaBeta(max(4, mib/jobs/4))
				ab.Weights = ev.Weights
			}
			var b *engine.Board
			for t := range tasks {
				g := t.g
				if ctx.Err() != nil {
					continue
				}
				if b == nil || b.Size() != g.Pos.Size || b.Rule() != g.Rule {
					var err error
					if b, err = engine.NewBoard(g.Pos.Size, g.Rule); err != nil {
						mu.Lock()
						g.err, g.left = err, 0
						mu.Unlock()
						continue
					}
				}
				b.Reset()
				for i, q := range g.Pos.Moves[:t.ply] {
					b.Play(q, engine.Color(1+i%2))
				}
				c := engine.Color(1 + t.ply%2)
				r, err := slv.AnalyzePly(ctx, b, c, lim)
				r.Ply, r.Move, r.Forbidden = t.ply, g.Pos.Moves[t.ply], g.plies[t.ply].Forbidden
				if err == nil && ab != nil {
					err = evaluatePly(ctx, ab, store, ev, b, c, &r)
				}
				mu.Lock()
				last := false
				if ctx.Err() == nil {
					if err != nil && g.err == nil {
						g.err = err
					}
					g.plies[t.ply] = r
					// the last ply's worker checks the game's flagged
					// positions before the game counts as done
					last = g.left == 1
					if !last {
						g.left--
					}
				}
				mu.Unlock()
				if last {
					// every other ply is in: g is this worker's alone now
					if err := lostChecks(ctx, slv, g, lim); err != nil && g.err == nil {
						g.err = err
					}
					mu.Lock()
					if ctx.Err() == nil {
						g.left = 0
						g.elapsed = time.Since(g.start)
						complete()
					}
					mu.Unlock()
				}
				if tick != nil {
					tick()
				}
			}
		}()
	}
	for _, g := range games {
		g.start = time.Now()
		for ply := range g.plies {
			select {
			case tasks <- task{g, ply}:
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(tasks)
	wg.Wait()
	return written
}

// lostFactor is lostChecks's budget per position checked, in multiples of
// the per-position limit: each check plays every legal move and solves
// the opponent's VCT after it.
const lostFactor = 4

// lostChecks sets PlyResult.Lost on the plies of g that solver.Summarize
// flags as blunders (before any check: the move let the opponent have a
// VCF or VCT at the next ply that it did not have at its turn before,
// solved), a side with a forced win of its own left out. Each such
// position is checked with play.Lost, within
// lostFactor times lim. A position where every move loses was lost before
// the move, which then is no blunder (Summarize moves the blame to the
// side's move before). The checks bypass the store, so that their answers
// under a node limit do not depend on what it holds (a win stored by a
// larger search would answer a check that its own budget could not).
func lostChecks(ctx context.Context, slv *solver.Solver, g *Game, lim solver.Limits) error {
	st := slv.Store
	slv.Store = nil
	defer func() { slv.Store = st }()
	var b *engine.Board
	// the blunders do not depend on the winner or the last move
	for _, i := range solver.Summarize(g.plies, engine.Empty, false).Blunders {
		if ctx.Err() != nil {
			break
		}
		if g.plies[i].Win != 0 {
			continue // a missed win too: a side with a VCF or VCT is not lost
		}
		if b == nil {
			var err error
			if b, err = engine.NewBoard(g.Pos.Size, g.Rule); err != nil {
				return err
			}
		}
		b.Reset()
		for k, q := range g.Pos.Moves[:i] {
			b.Play(q, engine.Color(1+k%2))
		}
		budget := solver.Limits{Time: lostFactor * lim.Time, Nodes: lostFactor * lim.Nodes}
		if budget.Nodes > 0 {
			budget.Time = 0 // a node limit makes the checks repeat exactly
		}
		lost, err := play.Lost(ctx, slv, b, g.plies[i].ToMove, budget)
		if err != nil {
			return fmt.Errorf("ply %d: %w", i, err)
		}
		g.plies[i].Lost = lost
	}
	return nil
}
