package play

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// lostMinCheck is the least time Lost gives one move's check under a time
// limit.
const lostMinCheck = 2 * time.Millisecond

// Lost reports whether c, to move on b, loses whatever it plays: after
// every legal move of c the opponent has a forced win by VCF or VCT that
// Solve proves (each proof checked by proof.Verify, as Solve checks every
// win). It checks c's moves one by one, the candidates near the stones
// first, best first by H (the likeliest to hold, so that a position that
// is not lost is known so after few checks), then every other empty cell
// c may play; it answers false at the first move not shown to lose (a
// disproof, or a check that ran out of its budget) and when the budget
// runs out before every move is checked. So true is a proof, false only
// "not shown lost". A move that makes five is not a loss.
//
// lim is the whole budget: its Time shared out evenly over the moves left
// as the checks go (at least lostMinCheck each), else its Nodes
// (bestCheckNodes when both are 0) split evenly over the moves, a fixed
// share each, so that under a node limit the answer does not depend on
// how many nodes the earlier checks took (a solver with a store answers
// some from it). b is not changed. Errors:
// solver.ErrGameOver when b holds a five, and those of Solve.
func Lost(ctx context.Context, s *solver.Solver, b *engine.Board, c engine.Color, lim solver.Limits) (bool, error) {
	if b.LastMoveWon() {
		return false, solver.ErrGameOver
	}
	start := time.Now()
	if lim.Time <= 0 && lim.Nodes <= 0 {
		lim.Nodes = bestCheckNodes
	}
	seen := make([]bool, engine.NumCells)
	near := candidates(b, c, nil, seen)
	hs := make(map[engine.Point]int32, len(near))
	for _, p := range near {
		hs[p] = heuristic(b, c, p)
	}
	slices.SortStableFunc(near, func(x, y engine.Point) int { return int(hs[y] - hs[x]) })
	moves := near
	for _, p := range near {
		seen[p] = true
	}
	for y := range b.Size() {
		for x := range b.Size() {
			if p := engine.PointAt(x, y); !seen[p] && b.At(p) == engine.Empty && b.Legal(c, p) {
				moves = append(moves, p)
			}
		}
	}
	if len(moves) == 0 {
		return false, nil // a full board, or nothing c may play: not a loss to a forced win
	}
	bb := b.Clone()
	for i, p := range moves {
		if ctx.Err() != nil {
			return false, nil
		}
		var per solver.Limits
		if lim.Time > 0 {
			left := lim.Time - time.Since(start)
			if left < lostMinCheck {
				return false, nil
			}
			per.Time = max(left/time.Duration(len(moves)-i), lostMinCheck)
		} else {
			per.Nodes = max(lim.Nodes/int64(len(moves)), 1)
		}
		st, err := opponentAfter(ctx, s, bb, c, p, per)
		if err != nil {
			return false, fmt.Errorf("checking %v: %w", p, err)
		}
		if st != solver.StatusWin {
			return false, nil
		}
	}
	return true, nil
}
