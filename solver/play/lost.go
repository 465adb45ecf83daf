package play

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gomoku/engine"
	"gomoku/solver"
	"gomoku/solver/proof"
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
// Most moves need no search: Lost first solves the opponent's threat (its
// VCF or VCT were c to pass) and replays that proof after each move of c
// with proof.VerifyOn, c's stone added to the proof's position; a move
// after which the proof still holds loses to it, checked by the proof
// checker, not by the search. Only the moves that break the proof (those
// near its lines) are searched. On a position of a freestyle game lost to
// Rapfi (ply 7 of freestyle.txt's fourth opening) the proof held after 175
// of white's 218 moves, 9.6 ms for all 175, where a search takes 3 to 50
// ms a move. Before each search, the proofs of the last lostReplays
// searched moves' losses are replayed the same way, the move's stone in
// place of theirs: on TestLostReplay's renju position 23 of the 39 moves
// the threat's proof missed were lost to such a proof (16 searched, where
// 39 had been; 77 ms in place of 162).
//
// lim is the whole budget: a quarter of it for the threat, then its Time
// shared out over the moves left to search as the checks go, each a
// quarter of them, as most are lost to an earlier move's proof (at
// least lostMinCheck each), else its Nodes (bestCheckNodes when both are
// 0) split evenly over them, a fixed share each, so that under a node
// limit the answer does not depend on how many nodes the earlier checks
// took (a solver with a store answers some from it). b is not changed.
// Errors: solver.ErrGameOver when b holds a five, and those of Solve.
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
	o := c.Opponent()
	threatLim := solver.Limits{Time: lim.Time / 4}
	if lim.Nodes > 0 {
		threatLim.Nodes = max(lim.Nodes/4, 1) // never 0, which is no limit
	}
	threat, err := s.Solve(ctx, solver.Problem{Board: bb, ToMove: c, Attacker: o, DefenderPasses: true}, solver.ModeVCT,
		threatLim, nil)
	if err != nil {
		return false, fmt.Errorf("the threat: %w", err)
	}
	if threat.Status == solver.StatusWin && threat.Proof != nil {
		vctx := ctx
		if lim.Time > 0 {
			var cancel context.CancelFunc
			vctx, cancel = context.WithDeadline(ctx, start.Add(lim.Time))
			defer cancel()
		}
		t, stone := withStone(threat.Proof, c)
		moves = slices.DeleteFunc(moves, func(p engine.Point) bool {
			*stone = p
			return provenLoss(vctx, bb, c, p, t)
		})
		if len(moves) == 0 {
			return true, nil
		}
	}
	nodes := lim.Nodes - threatLim.Nodes
	// the proofs of the opponent's wins after the moves searched so far, the
	// newest first: a move near one of them is often lost to the same
	// proof, with its stone in that move's place (holdsAfter)
	var found []foundLoss
	for i, p := range moves {
		if ctx.Err() != nil {
			return false, nil
		}
		if slices.ContainsFunc(found, func(f foundLoss) bool { return f.holdsAfter(ctx, bb, c, p) }) {
			continue
		}
		var per solver.Limits
		if lim.Time > 0 {
			left := lim.Time - time.Since(start)
			if left < lostMinCheck {
				return false, nil
			}
			// a quarter of the moves left, as most are lost to a proof
			// found after an earlier one (found)
			per.Time = max(left/time.Duration((len(moves)-i+3)/4), lostMinCheck)
		} else {
			per.Nodes = max(nodes/int64(len(moves)), 1)
		}
		a, err := opponentWin(ctx, s, bb, c, p, per)
		if err != nil {
			return false, fmt.Errorf("checking %v: %w", p, err)
		}
		if a.Status != solver.StatusWin {
			return false, nil
		}
		if a.Proof != nil {
			found = slices.Insert(found, 0, foundLoss{a.Proof, p})
			found = found[:min(len(found), lostReplays)]
		}
	}
	return true, nil
}

// lostReplays is how many of the latest proofs Lost replays after each
// move before it searches the move. On a renju position of a game lost to
// Rapfi (TestLostReplay's, after black's i8) 39 of white's moves broke
// the threat's proof and were searched one by one, 4 ms each.
const lostReplays = 4

// foundLoss is the proof of the opponent's win after c played move.
type foundLoss struct {
	proof *proof.Tree
	move  engine.Point
}

// holdsAfter says that the proof, with c's stone at p in place of f.move,
// proves the opponent's win after c plays p on b (b restored): the proof
// checker's answer on the real position, so true is a proof.
func (f foundLoss) holdsAfter(ctx context.Context, b *engine.Board, c engine.Color, p engine.Point) bool {
	t := *f.proof
	stones := &t.White
	if c == engine.Black {
		stones = &t.Black
	}
	i := slices.Index(*stones, f.move)
	if i < 0 {
		return false
	}
	*stones = slices.Clone(*stones)
	(*stones)[i] = p
	return provenLoss(ctx, b, c, p, &t)
}

// withStone returns a copy of the threat's proof with the opponent to move
// (the proof were c to pass, now after a move of c) and one more stone of
// c in its position, at the cell the returned pointer sets. The copy's
// stone list is its own, so threat is never changed, and one copy serves
// every candidate move: set the cell, then call provenLoss.
func withStone(threat *proof.Tree, c engine.Color) (*proof.Tree, *engine.Point) {
	t := *threat
	stones := &t.White
	if c == engine.Black {
		stones = &t.Black
	}
	*stones = append(slices.Clone(*stones), engine.NoPoint)
	t.ToMove, t.DefenderPasses = c.Opponent(), false
	return &t, &(*stones)[len(*stones)-1]
}

// provenLoss says that after c plays p on b (b is restored) the opponent
// still wins by threat: t, the proof of its win were c to pass with c's
// stone at p added to its position and the opponent to move (withStone),
// passes proof.VerifyOn. False when it does not, or when ctx ends first.
func provenLoss(ctx context.Context, b *engine.Board, c engine.Color, p engine.Point, t *proof.Tree) bool {
	b.Play(p, c)
	defer b.Undo()
	if b.LastMoveWon() {
		return false
	}
	_, err := proof.VerifyOn(ctx, t, b)
	return err == nil
}
