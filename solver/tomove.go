package solver

import (
	"context"

	"gomoku/engine"
)

// ProveToMove proves that pr's attacker, to move, wins whatever the
// defender plays, as ProveOpening proves a child of an opening that the
// repair cannot decide: first the search over all moves (Solve in
// ModeWin, with the Solver's PassThreats; the store read first, and a
// search the store records as ended unknown within no less budget not
// run again unless opt.Retry, as for a child), then, when that ends
// unknown and opt.Deepen is at least 1, a deepening at the root
// (deepen.go): the attacker's quiet moves (opt.Suggest's first, then by
// the five-cell windows' potential), probed and ordered by their pass
// proofs' relevance zones and the replies the store already holds, each
// played and the position after it proven whole-board (ProveOpening),
// with opt.Deepen-1 levels below it, all within opt.DeepenTime
// (deepenBudget times lim.Time when 0), shared out among the moves; and
// opt.Survey, opt.Retry and opt.ZoneExtensions as ProveOpening applies
// them, on opt.Jobs goroutines (the inner defender moves side by side).
// That is a threat one order above the searches' own, Thomsen's
// λ-search (ICGA Journal 23(4), 2000, section 3), made of explicit
// proofs: the way the children of freestyle's openings that no search
// decides are won, and what proving a quiet move as an opening of its own
// does by hand (docs/solving.md).
//
// The result is the root's, as one child of an opening: its Move is
// NoPoint, Deepened reports a win by the deepening (Stopped an unknown
// deepening's StoppedDeepenTime or StoppedDeepenMoves), Attempted an
// unknown read from the store's record. A win's proof (Answer.Proof, a
// tree whose quiet moves carry their pass proofs and listed defences) has
// passed proof.VerifyOn and is in the store. Errors: ErrDefenderToMove
// when the defender is to move or pr.DefenderPasses is set, Problem's,
// the searches' and the store's; ctx's end is none (unknown, Stopped
// "cancelled" or the deepening's).
func (s *Solver) ProveToMove(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions) (ch OpeningChild, err error) {
	att, _, err := pr.check()
	if err != nil {
		return ch, err
	}
	if pr.ToMove != att || pr.DefenderPasses {
		return ch, ErrDefenderToMove
	}
	// the deepening's inner proofs run on this goroutine's token and
	// start helpers on the others (jobPool)
	opt.pool = newJobPool(s, opt.Jobs)
	opt.pool.token()
	defer opt.pool.release()
	ch.Answer, _, ch.Attempted, err = s.attemptChild(ctx, pr, engine.NoPoint, nil, lim, opt)
	if err == nil && ch.Status == StatusUnknown && opt.Deepen > 0 && ctx.Err() == nil {
		ch.Answer, ch.Deepened, err = s.deepenAt(ctx, pr, "the root", engine.NoPoint, lim, ch.Answer, opt)
		if ch.Stopped == StoppedDeepenTime || ch.Stopped == StoppedDeepenMoves {
			ch.Attempted = false // deepened now, whatever the store said
		}
	}
	if err == nil && s.Store != nil {
		err = s.Store.Flush()
	}
	if err == nil && ch.Status == StatusUnknown && ctx.Err() != nil && ch.Stopped == "" {
		ch.Stopped = "cancelled"
	}
	return ch, err
}
