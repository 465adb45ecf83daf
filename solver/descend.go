package solver

import (
	"context"
	"fmt"

	"gomoku/engine"
)

// Descent: "down a line, then back up" (docs/solving.md), the way
// freestyle's I7 was proven by hand (2026-12-05). A child of an opening
// that the repair, the search and the deepening leave unknown is the
// attacker to move; the attacker plays the move an engine prefers there
// (OpeningOptions.Suggest) and the position after it is proven as an
// opening of its own, with the whole OpeningOptions (its own pass proof and
// zone, every reply decided, each deepened within DeepenTime), and its
// replies left unknown are descended in turn, one attacker move deeper,
// until a line is proven at its bottom. Each result is in the store, so
// going back up costs look-ups: the quiet move is deepened one level from
// the store (deepen), which writes the child's win, and the opening above
// is proven again, its child now read from the store. A deepening tries a
// quiet move with a budget that the other moves share, and fails fast at
// its first reply left unknown; a descent gives the line's one move every
// reply's full budget, and goes as deep as the line needs (I7's g9 took 19
// plies below the opening). It is proof-number search's most-proving-node
// choice made by an engine's judgement instead of the numbers (Allis 1994,
// "Searching for solutions in games and artificial intelligence", section
// 2.3), with the store as its tree.

// DescendOpening proves pr (the defender to move) as ProveOpening does,
// then, when that leaves defender moves unknown (and none a no-win, the
// pass proof won), descends each one (descendToMove) with opt.Descend
// levels, in order, and stops at the first not proven; when every one is,
// proves pr again from the store. The report is the last ProveOpening's.
// Errors: ProveOpening's, deepen's and the store's; ctx's when cancelled.
func (s *Solver) DescendOpening(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions) (OpeningReport, error) {
	return s.descendOpening(ctx, pr, lim, opt, opt.Descend, nil)
}

// DescendToMove proves pr (the attacker to move) as ProveToMove does,
// then, when that ends unknown, by descent with opt.Descend levels: each
// of the first opt.DescendMoves of opt.Suggest's quiet moves in turn
// played and the position after it proven by DescendOpening with one
// level less. A win's proof has passed proof.VerifyOn and is in the
// store. Errors: ProveToMove's, DescendOpening's and the store's.
func (s *Solver) DescendToMove(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions) (OpeningChild, error) {
	ch, err := s.ProveToMove(ctx, pr, lim, opt)
	if err != nil || ch.Status != StatusUnknown || opt.Descend < 1 || ctx.Err() != nil {
		return ch, err
	}
	a, ok, err := s.descendToMove(ctx, pr, lim, opt, opt.Descend, nil)
	if err != nil || !ok {
		return ch, err
	}
	ch.Answer, ch.Deepened, ch.Attempted = a, true, false
	return ch, nil
}

// descendOpening is DescendOpening with levels left, the moves played
// below the outermost position in path (for the log).
func (s *Solver) descendOpening(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions, levels int, path []engine.Point) (OpeningReport, error) {
	rep, err := s.ProveOpening(ctx, pr, lim, opt)
	if err != nil || rep.Status != StatusUnknown || levels < 1 || !rep.PassZone || rep.Skipped > 0 || ctx.Err() != nil {
		return rep, err
	}
	var open []engine.Point
	for _, ch := range rep.Children {
		if ch.Status == StatusUnknown {
			open = append(open, ch.Move)
		}
	}
	if len(open) == 0 {
		return rep, nil // cut short: nothing to descend
	}
	descentLog(opt, path, fmt.Sprintf("%d of %d replies left unknown (%s): descending each, %d levels", len(open), rep.Total, engine.FormatPoints(open), levels))
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	def := pr.Attacker.Opponent()
	for _, m := range open {
		b.Play(m, def)
		_, ok, err := s.descendToMove(ctx, Problem{Board: b, ToMove: pr.Attacker, Attacker: pr.Attacker}, lim, opt, levels, append(path, m))
		b.Undo()
		if err != nil || !ok {
			if err == nil && ctx.Err() == nil {
				descentLog(opt, path, fmt.Sprintf("%v not proven: the opening stays unknown", m))
			}
			return rep, err
		}
	}
	descentLog(opt, path, "every reply proven below: the opening again, from the store")
	return s.ProveOpening(ctx, pr, lim, opt)
}

// descendToMove tries, in pr (the attacker to move, its search and
// deepening left unknown), the first opt.DescendMoves (1 when 0) quiet
// moves of opt.Suggest (deepenMoves's filter: empty, legal, no four or
// five; without Suggest, the first by potential), each proven by
// descendOpening with levels-1 levels and then deepened one level from the
// store, which checks the proof and writes pr's win. ok reports a win.
func (s *Solver) descendToMove(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions, levels int, path []engine.Point) (a Answer, ok bool, err error) {
	n := max(1, opt.DescendMoves)
	var suggested []engine.Point
	if opt.Suggest != nil {
		suggested = opt.Suggest(ctx, pr.Board.Clone(), pr.Attacker)
	}
	moves, guided := deepenMoves(pr, engine.NoPoint, suggested, n)
	if guided > 0 {
		moves = moves[:min(n, guided)]
	} else {
		moves = moves[:min(n, len(moves))]
	}
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	for _, c := range moves {
		if ctx.Err() != nil {
			return a, false, nil
		}
		descentLog(opt, path, fmt.Sprintf("%v: proving the position after it as an opening (%d levels left)", c, levels-1))
		b.Play(c, pr.Attacker)
		below := append(path, c)
		sub := opt // the replies below go to the log, not to the caller's Progress
		sub.Progress = func(ch OpeningChild, decided, total int) { descentLog(opt, below, childLine(ch, decided, total)) }
		rep, err := s.descendOpening(ctx, Problem{Board: b, ToMove: pr.Attacker.Opponent(), Attacker: pr.Attacker}, lim, sub, levels-1, below)
		b.Undo()
		if err != nil {
			return a, false, err
		}
		if rep.Status != StatusWin {
			descentLog(opt, path, fmt.Sprintf("%v: %v (%d of %d replies won)", c, rep.Status, rep.Won, rep.Total))
			continue
		}
		// back up: the quiet move's replies are in the store
		up := opt
		up.Log, up.Progress, up.pool = nil, nil, nil
		a, ok, err = s.deepen(ctx, pr, c, 1, lim, up)
		if err != nil || !ok {
			return a, false, err
		}
		descentLog(opt, path, fmt.Sprintf("%v: won, every reply proven (proof %d moves)", c, a.Proof.Len()))
		return a, true, s.remember(pr, ModeWin, lim, a)
	}
	return a, false, nil
}

// descentLog sends a descent's step to opt.Log (if set), after the moves
// played below the outermost position.
func descentLog(opt OpeningOptions, path []engine.Point, line string) {
	if opt.Log == nil {
		return
	}
	where := "the root"
	if len(path) > 0 {
		where = "after " + engine.FormatPoints(path)
	}
	opt.Log(fmt.Sprintf("descent, %s: %s", where, line))
}
