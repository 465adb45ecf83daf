package solver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// Deepening: a child of a whole-board proof that neither the repair nor
// the search over all moves decides is tried once more with a quiet
// attacker move whose every defence is answered by a whole-board proof of
// its own. The move is the parent's pass proof's first move (the
// attacker's best move had the defender passed, often still the best
// after a real defender move); the position after it, the defender to
// move, is proven by ProveOpening: its own pass proof, its zone's defender
// moves one by one (repaired or searched, and deepened again while levels
// are left). That is a threat one order above the searches' own (Thomsen's
// λ-search, 2000, section 3: a move after which a defender pass loses to a
// search of the order below), made of explicit proofs, as Allis's
// proof-number search over the whole board answered the moves the threat
// sequences could not (Allis 1994, section 5). The proof is the move with
// the opening's pass proof and listed defences (proof.Node), checked by
// the checker before it is returned.

// deepenBudget is the wall time a deepening may take, in multiples of the
// child's time limit; each search inside it gets the child's limits (a
// child of the deepened opening is as hard as a child of the opening: on
// freestyle's D3 after white g5 and black i9, the block g7 took 205 s on
// the loaded machine).
const deepenBudget = 8

// deepen tries the attacker's quiet move c in pr (the attacker to move) as
// described above, with levels-1 levels left for the children inside
// (levels ≥ 1). ok reports a checked win. Errors: ProveOpening's and
// the store's (a deadline of the deepening's own is no error: ok false),
// and an internal error when the assembled proof fails its check.
func (s *Solver) deepen(ctx context.Context, pr Problem, c engine.Point, levels int, lim Limits) (a Answer, ok bool, err error) {
	start := time.Now()
	a.Mode = ModeWin
	defer func() { a.Elapsed = time.Since(start) }()
	att, def := pr.Attacker, pr.Attacker.Opponent()
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	if levels < 1 || !b.OnBoard(c) || b.At(c) != engine.Empty || !b.Legal(att, c) {
		return a, false, nil
	}
	b.Play(c, att)
	if b.LastMoveWon() || b.Count(att, engine.FivePoints) > 0 {
		return a, false, nil // a five or a four: the searches' own ground
	}
	sub := lim
	if lim.Depth > 0 {
		if sub.Depth = lim.Depth - 1; sub.Depth <= 0 {
			return a, false, nil
		}
	}
	dctx := ctx
	if lim.Time > 0 {
		var cancel context.CancelFunc
		dctx, cancel = context.WithTimeout(ctx, deepenBudget*lim.Time)
		defer cancel()
	}
	rep, err := s.ProveOpening(dctx, Problem{Board: b, ToMove: def, Attacker: att}, sub, OpeningOptions{Jobs: 1, Deepen: levels - 1})
	a.Nodes = rep.Nodes
	switch {
	case ctx.Err() != nil:
		return a, false, nil // the caller's ctx: it sees it
	case err != nil && !errors.Is(err, context.DeadlineExceeded):
		return a, false, err
	case rep.Status != StatusWin:
		return a, false, nil
	}
	cert := rep.Certificate
	node := &proof.Node{Move: c, Pass: cert.Pass, Defences: cert.Defences}
	t := newProof(pr, lim.Depth, cert.ThreatLimit, node)
	checkStart := time.Now()
	_, err = proof.VerifyOn(ctx, t, pr.Board)
	a.CheckTime = time.Since(checkStart)
	if err != nil {
		if ctx.Err() != nil {
			return a, false, nil
		}
		return a, false, fmt.Errorf("internal error: a deepened proof fails its check: %w", err)
	}
	a.setWin(pr, t)
	return a, true, nil
}

// deepenChild runs deepen on a child that solveChild left unknown (pr, the
// attacker to move, a the unknown answer) with the pass proof's first
// move, and stores a win as Solve stores its results. ok reports a win;
// the answer then replaces a (nodes and time added up).
func (s *Solver) deepenChild(ctx context.Context, pr Problem, pass *proof.Tree, levels int, lim Limits, a Answer) (Answer, bool, error) {
	if pass == nil || pass.Root == nil || levels < 1 || ctx.Err() != nil {
		return a, false, nil
	}
	da, ok, err := s.deepen(ctx, pr, pass.Root.Move, levels, lim)
	da.Nodes += a.Nodes
	da.Elapsed += a.Elapsed
	if err != nil || !ok {
		a.Nodes, a.Elapsed = da.Nodes, da.Elapsed
		return a, false, err
	}
	return da, true, s.remember(pr, ModeWin, lim, da)
}
