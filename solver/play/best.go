package play

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gomoku/engine"
	"gomoku/solver"
	"gomoku/solver/proof"
)

// Searcher is a best-move search: MCTS or AlphaBeta. Search reports the
// multipv best moves of c on b within lim, among rootMoves when that is not
// empty.
type Searcher interface {
	Search(ctx context.Context, b *engine.Board, c engine.Color, lim solver.Limits, multipv int,
		rootMoves []engine.Point, progress solver.ProgressFunc) (SearchReport, error)
}

// Kind says what Best found.
type Kind string

// The kinds of a Best report, the words of the JSON output.
const (
	// KindWin: the side to move has a forced win (VCF or VCT); Line is it.
	KindWin Kind = "win"
	// KindDefend: the opponent threatens a forced win; Moves are the
	// defences: all the moves proven to leave it none (within the threat
	// limit), ranked by the search; or, when none is proven, the best of
	// those whose check ran out of budget (Unproven).
	KindDefend Kind = "defend"
	// KindLost: the opponent threatens a forced win and every candidate
	// move was shown to lose to it (by VCF or VCT); Moves are the search's
	// best tries.
	KindLost Kind = "lost"
	// KindSearch: no forced win either way was found; Moves are the
	// search's best moves.
	KindSearch Kind = "search"
)

// Report is the answer of Best.
type Report struct {
	Kind Kind
	// Win is the solver's answer for the side to move (KindWin), or for the
	// opponent moving first (KindDefend, KindLost: the threat).
	Win *solver.Answer
	// Checked counts the candidate defences checked and Refutations the
	// ones proven to stop the threat (KindDefend, KindLost); Unproven lists
	// the defences whose check ran out of budget.
	Checked, Refutations int
	Unproven             []engine.Point
	// SearchTime is the time of the tree searches alone (Elapsed is all of
	// Best's), and the embedded report's Nodes and Playouts count all of
	// them: Best may search again after a refuted choice or with the time
	// its check left (extend), and the last search's report alone would
	// undercount (the first of two searches on `best`'s renju middle game
	// held 431K of its 538K nodes, 2026-11-30).
	SearchTime time.Duration
	// Refuted are the search's choices (KindSearch, or KindDefend among
	// unproven defences) that the check found the opponent wins against,
	// by VCF or VCT, and that were left out.
	Refuted []engine.Point
	SearchReport
}

// bestShares is Best's split of its time limit: the side to move's win
// check (win), the opponent's (threat), the defences' checks (defence),
// and what is left goes to the search, less verify kept to check the
// search's choice against the opponent's VCT.
type bestShares struct{ win, threat, defence, verify float64 }

// sharesFor returns the shares under rule r. Measured by games at 300 ms a
// move (pbrain, Piskvork's openings, 100 games each, 2026-11-26): in
// freestyle, 0.06, 0.05, 0.25 and 0.15 scored 58 / 100 (+56 Elo [−10,
// +126]) against 0.15, 0.10, 0.25 and 0.25, which left the search about
// half the time, and halving them again (0.03, 0.03, 0.25, 0.08) scored
// 44.5 / 100 against them (−38 [−109, +29]). In renju the smaller shares
// scored 48 / 100 against the larger ones (−14 [−83, +54]) and, with the
// search parameters of the same day, 5 / 40 against Rapfi where the larger
// ones had 9 / 40 in the same hour: renju keeps the larger shares (its
// white wins by a forbidden point are found by the checks, not the
// search). Against Rapfi the freestyle threat check was too short: in 39
// lost games (2026-11-27, 260 ms turns) the move that let Rapfi's VCT in
// came, in 10, where the threat had stood before it, a defence existed
// (proven by `best` at 3 s), and the threat took 15-83 ms to find; its
// share was 13 ms. A share is a cap, spent in full only where the search
// neither wins nor proves no win: on 72 positions of those games, one
// core, the opponent's VCT with a cap of 13 ms cost 4.7 ms a position on
// average and found 31 of the 40 wins, with 52 ms 10.9 ms and 36. The
// freestyle shares 0.12, 0.20, 0.25 and 0.15 (with pbrain's one search
// under thread_num 1) then scored 18 / 320 against Rapfi (40-game runs of
// 3, 2, 4, 3, 3, 1, 0, 2) where 0.06, 0.05, 0.25 and 0.15 had 7 / 240 in
// the same hours, interleaved (1, 0, 1, 3, 2, 0), and such misses fell to
// 2 of 38 lost games; an earlier threat share of 0.20 alone had 0 / 60.
func sharesFor(r engine.Rule) bestShares {
	if r == engine.Renju {
		return bestShares{win: 0.15, threat: 0.10, defence: 0.25, verify: 0.25}
	}
	return bestShares{win: 0.12, threat: 0.20, defence: 0.25, verify: 0.15}
}

// bestMaxRefuted is how many of the search's choices Best checks and
// refutes before it keeps one unchecked.
const bestMaxRefuted = 4

// bestCheckNodes bounds each check when Best has no time limit (nodes).
const bestCheckNodes = 2_000_000

// Best analyses position b with c to move, as `gomoku best` does (after
// Kang & Kim's and Liu & Zhang's engines, which put threat-space search in
// front of the tree search):
//  1. a forced win of c by VCF or VCT (Solve, solver.ModeVCT) is reported with its
//     line (replayed);
//  2. else, if the opponent would have one were c to pass, every candidate
//     move of c is checked by letting the opponent search again after it:
//     the moves after which the opponent's win is disproved are the proven
//     defences, those whose check ran out of time the unproven ones, and
//     the rest are dropped; searcher ranks the proven and unproven
//     defences together, and its choice, when it is an unproven one, is
//     checked as in step 3 (searchVerified);
//  3. else searcher reports the multipv best moves.
//
// lim.Time is shared out (sharesFor); without one each check is
// bounded by bestCheckNodes and the search by lim.Nodes. Errors: those of
// Solve and of the searcher.
func Best(ctx context.Context, s *solver.Solver, b *engine.Board, c engine.Color, searcher Searcher, lim solver.Limits,
	multipv int, progress solver.ProgressFunc) (Report, error) {
	start := time.Now()
	check := func(share float64) solver.Limits {
		if lim.Time > 0 {
			return solver.Limits{Time: time.Duration(float64(lim.Time) * share)}
		}
		return solver.Limits{Nodes: bestCheckNodes}
	}
	if b.LastMoveWon() {
		return Report{}, solver.ErrGameOver
	}
	o := c.Opponent()
	if p := b.FirstPoint(c, engine.FivePoints); p != engine.NoPoint {
		// a five on the board needs no search
		line := []engine.Point{p}
		if _, err := proof.VerifyLine(b, c, line); err != nil {
			return Report{}, &solver.ReplayError{Line: line, Err: err}
		}
		a := solver.Answer{Result: solver.Result{Status: solver.StatusWin, Line: line, End: proof.EndFive, Shortest: true}, Mode: solver.ModeVCF}
		rep := Report{Kind: KindWin, Win: &a}
		rep.Moves = []MoveStat{{Move: p, Value: 1, Proven: 1, PV: line}}
		rep.Elapsed = time.Since(start)
		return rep, nil
	}
	sh := sharesFor(b.Rule())
	a, err := s.Solve(ctx, solver.Problem{Board: b, ToMove: c, Attacker: c}, solver.ModeVCT, check(sh.win), nil)
	if err != nil {
		return Report{}, err
	}
	if a.Status == solver.StatusWin {
		rep := Report{Kind: KindWin, Win: &a}
		rep.Moves = []MoveStat{{Move: a.Line[0], Value: 1, Proven: 1, PV: a.Line}}
		rep.Nodes, rep.Elapsed = a.Nodes, time.Since(start)
		return rep, nil
	}
	threat, err := s.Solve(ctx, solver.Problem{Board: b, ToMove: c, Attacker: o, DefenderPasses: true}, solver.ModeVCT,
		check(sh.threat), nil)
	if err != nil {
		return Report{}, err
	}
	rest := lim
	if threat.Status != solver.StatusWin {
		return searchVerified(ctx, s, b, c, searcher, lim, sh, multipv, nil, nil, progress, start)
	}
	proven, unproven, checked, err := defences(ctx, s, b, c, &threat, lim, sh, start)
	if err != nil {
		return Report{}, err
	}
	if len(unproven) > 0 {
		// the search ranks the proven and the unproven defences together,
		// and its choice among the unproven ones is checked against the
		// opponent's VCT, as a choice with no threat against it is, with
		// the time the checks left
		all := append(slices.Clone(proven), unproven...)
		rep, err := searchVerified(ctx, s, b, c, searcher, lim, sh, multipv, all, proven, progress, start)
		if err != nil {
			return Report{}, err
		}
		rep.Kind, rep.Win, rep.Checked, rep.Refutations, rep.Unproven = KindDefend, &threat, checked+rep.Checked, len(proven), unproven
		if len(proven) == 0 && len(rep.Refuted) == len(unproven) {
			rep.Kind = KindLost // every one of them refuted by its check
		}
		return rep, nil
	}
	rep := Report{Kind: KindDefend, Win: &threat, Checked: checked, Refutations: len(proven),
		Unproven: unproven}
	if lim.Time > 0 {
		rest.Time = max(lim.Time-time.Since(start), time.Millisecond)
	}
	// the proven defences if there are any
	defences, k := proven, len(proven)
	if len(proven) == 0 {
		// every move loses: the longest resistance, so that an opponent
		// that is not perfect still has to find the win
		rep.Kind, k = KindLost, multipv
		defences = resistance(b, c)
	}
	sr, err := searcher.Search(ctx, b, c, rest, k, defences, progress)
	if err != nil {
		return Report{}, err
	}
	rep.SearchTime, sr.Elapsed = sr.Elapsed, time.Since(start)
	rep.SearchReport = sr
	return rep, nil
}

// searchVerified is Best's step 3: the search, then its choice checked
// against the opponent's VCT. A move after which the opponent wins by VCF
// or VCT (solved within the check's share of the time) is refuted: it is
// left out and the search runs again on the other moves with the time
// left, up to bestMaxRefuted times; a move the check cannot refute is
// played (the opponent's win was not found, not disproved). Time the check
// leaves unused goes to a further search (extend). only, when not nil,
// restricts the moves searched (Best's proven and unproven defences); a
// choice in safe (the proven defences) needs no check.
//
// Best's defences go through here since 2026-12-01; before, the search
// ranked the proven defences alone when there were any. In the first 15
// plies of freestyle games against Rapfi the defence checks at 300 ms a
// move typically prove 1 to 12 of 50 to 70 candidates and leave nearly
// all the rest unknown, so the search chose among those few, the moves
// whose checks end soonest. Ranking the two sets together scored against
// the build before, at 300 ms a move (the balanced openings twice with
// colours swapped, 200 games a run): freestyle 113 – 86, 1 drawn (+47 Elo
// [−1, +97]) and 110 – 87, 3 drawn (+40 [−8, +89]); renju 114 – 85,
// 1 drawn (+51 [+3, +101]). Against Rapfi it scored as the build before
// (27.0% and 23.5% against 28.5% and 23.0%).
func searchVerified(ctx context.Context, s *solver.Solver, b *engine.Board, c engine.Color, searcher Searcher,
	lim solver.Limits, sh bestShares, multipv int, only, safe []engine.Point, progress solver.ProgressFunc, start time.Time) (Report, error) {
	deadline := time.Time{}
	if lim.Time > 0 {
		deadline = start.Add(lim.Time)
	}
	rest := lim
	if lim.Time > 0 {
		rest.Time = max(lim.Time-time.Since(start)-time.Duration(float64(lim.Time)*sh.verify), time.Millisecond)
	}
	var excluded []engine.Point
	rootMoves := slices.Clone(only)
	var rep Report
	bb := b.Clone()
	for round := 0; ; round++ {
		sr, err := searcher.Search(ctx, b, c, rest, multipv, rootMoves, progress)
		if err != nil {
			if errors.Is(err, ErrNoMoves) && len(excluded) > 0 {
				break // every move refuted: keep the last report
			}
			return Report{}, err
		}
		rep.count(sr.Elapsed, sr.Nodes, sr.Playouts)
		rep.adopt(sr)
		rep.Kind = KindSearch
		if len(sr.Moves) == 0 || round >= bestMaxRefuted || sr.Moves[0].Proven == 1 {
			break
		}
		// check the choice: does the opponent win after it?
		m := sr.Moves[0].Move
		check := solver.Limits{Nodes: bestCheckNodes / 10}
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left < 2*time.Millisecond {
				break
			}
			check = solver.Limits{Time: left / 2}
		}
		st := solver.StatusNoWin
		if !slices.Contains(safe, m) {
			if st, err = opponentAfter(ctx, s, bb, c, m, check); err != nil {
				return Report{}, fmt.Errorf("checking %v: %w", m, err)
			}
			rep.Checked++
		}
		if st != solver.StatusWin {
			if !deadline.IsZero() {
				extend(ctx, s, bb, c, searcher, lim, multipv, rootMoves, safe, progress, deadline, &rep)
			}
			break
		}
		// refuted: search the other moves
		excluded = append(excluded, m)
		if rootMoves == nil {
			rootMoves = candidates(b, c, nil, make([]bool, engine.NumCells))
		}
		rootMoves = slices.DeleteFunc(rootMoves, func(p engine.Point) bool { return slices.Contains(excluded, p) })
		if len(rootMoves) == 0 {
			break
		}
		if !deadline.IsZero() {
			left := time.Until(deadline)
			rest.Time = max(left*2/3, time.Millisecond)
		}
	}
	rep.Refuted = append(excluded, rep.Refuted...)
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// bestExtendFrom: searchVerified searches on (extend) when at least
// 1/bestExtendFrom of its time is left after its choice has been checked.
const bestExtendFrom = 10

// extend spends the time the check of the search's choice left unused (the
// verify share is kept for the worst case; most checks end in a few
// milliseconds): it searches again, on the table the first search filled,
// with two thirds of the time left to the deadline, and takes the new
// report if its best move is the checked one, or is proven to win, or is
// proven to leave the opponent no VCT within the rest of the time (a
// changed choice has less time for its check than the first had, so one
// the check could not settle is not taken); a refuted one joins
// rep.Refuted, and the checked choice stands. A choice in safe (proven
// defences) is taken unchecked. It does nothing with less than
// 1/bestExtendFrom of lim.Time left, or when the search fails. b is the
// position, which extend plays on and restores.
func extend(ctx context.Context, s *solver.Solver, b *engine.Board, c engine.Color, searcher Searcher, lim solver.Limits,
	multipv int, rootMoves, safe []engine.Point, progress solver.ProgressFunc, deadline time.Time, rep *Report) {
	left := time.Until(deadline)
	if left < lim.Time/bestExtendFrom || len(rep.Moves) == 0 {
		return
	}
	more := lim
	more.Time = left * 2 / 3
	sr, err := searcher.Search(ctx, b, c, more, multipv, rootMoves, progress)
	if err != nil {
		return
	}
	rep.count(sr.Elapsed, sr.Nodes, sr.Playouts) // whether or not its moves are taken
	if len(sr.Moves) == 0 {
		return
	}
	if m := sr.Moves[0].Move; m != rep.Moves[0].Move && sr.Moves[0].Proven != 1 && !slices.Contains(safe, m) {
		left := time.Until(deadline)
		if left < 2*time.Millisecond {
			return
		}
		st, err := opponentAfter(ctx, s, b, c, m, solver.Limits{Time: left})
		rep.Checked++
		if st == solver.StatusWin {
			rep.Refuted = append(rep.Refuted, m)
		}
		if err != nil || st != solver.StatusNoWin {
			return
		}
	}
	rep.adopt(sr)
}

// count adds a search's time, nodes and playouts to the report's totals.
func (rep *Report) count(elapsed time.Duration, nodes, playouts int64) {
	rep.SearchTime += elapsed
	rep.Nodes += nodes
	rep.Playouts += playouts
}

// adopt takes search report sr's moves and the rest of it in place of the
// report's, keeping the totals of Nodes and Playouts (count sr first).
func (rep *Report) adopt(sr SearchReport) {
	nodes, playouts := rep.Nodes, rep.Playouts
	rep.SearchReport = sr
	rep.Nodes, rep.Playouts = nodes, playouts
}

// opponentAfter returns the status of the opponent's VCT, searched within
// lim, after c plays m on b (b is restored): StatusNoWin when m itself
// makes five. Errors: those of Solve.
func opponentAfter(ctx context.Context, s *solver.Solver, b *engine.Board, c engine.Color, m engine.Point, lim solver.Limits) (solver.Status, error) {
	a, err := opponentWin(ctx, s, b, c, m, lim)
	return a.Status, err
}

// opponentWin is opponentAfter with the whole answer: a win's proof tree
// (checked by Solve) holds the position after m, the opponent to move.
func opponentWin(ctx context.Context, s *solver.Solver, b *engine.Board, c engine.Color, m engine.Point, lim solver.Limits) (solver.Answer, error) {
	b.Play(m, c)
	defer b.Undo()
	if b.LastMoveWon() {
		return solver.Answer{Result: solver.Result{Status: solver.StatusNoWin}}, nil
	}
	o := c.Opponent()
	a, err := s.Solve(ctx, solver.Problem{Board: b, ToMove: o, Attacker: o}, solver.ModeVCT, lim, nil)
	if err != nil {
		return solver.Answer{Result: solver.Result{Status: solver.StatusUnknown}}, err
	}
	return a, nil
}

// defences checks c's candidate moves against the opponent's VCT, threat
// (the opponent's win with c passing, its proof checked): a move after
// which the opponent's VCT is disproved is a proven defence; one whose
// check ran out of budget an unproven one; one after which the opponent
// still wins is dropped. When the threat is a VCF, the candidates that
// cannot stop its line (solver.Stoppers) are dropped unchecked: the line
// still wins after them. The rest are checked in two passes sharing the
// defence share of the time: a quick one that drops most losing moves
// (wins are found fast), then one that gives the unresolved moves the
// rest; within each, the moves of the threat's proof tree (the cells its
// attacker and defender moves take) come first, the likeliest to break
// it, each group best first by H. It returns the proven and the unproven
// defences and the number of moves checked.
//
// Tried and dropped (2026-11-28): dropping, before the passes, the
// candidates after which the threat's proof, with c's stone added, still
// passes the proof checker (provenLoss, as Lost does). On the defend
// positions of 8 freestyle games lost to Rapfi it dropped 46% of the
// candidates (4,609 to 2,495) and the moves left unproven fell from 2,181
// to 1,567, the proven defences the same (308 and 309); against Rapfi at
// 300 ms a move it scored renju 5, 8, 5, 8, 8, 7 = 41 / 240 where the
// build without it had 9, 9, 10, 11, 10, 7 = 56 / 240 (four of the six
// runs interleaved), freestyle 11 / 120 against 14 / 160.
func defences(ctx context.Context, s *solver.Solver, b *engine.Board, c engine.Color, threat *solver.Answer, lim solver.Limits,
	sh bestShares, start time.Time) (proven, unproven []engine.Point, checked int, err error) {
	o := c.Opponent()
	cands := candidates(b, c, nil, make([]bool, engine.NumCells))
	switch b.Count(o, engine.FivePoints) {
	case 0:
	case 1:
		// only the block can stop a four (c has no five: Best checked)
		cands = slices.DeleteFunc(cands, func(p engine.Point) bool { return p != b.FirstPoint(o, engine.FivePoints) })
	default:
		return nil, nil, 0, nil
	}
	if threat.Mode == solver.ModeVCF && len(threat.Line) > 0 {
		stops := make([]bool, engine.NumCells)
		for _, p := range solver.Stoppers(b, o, threat.Line) {
			stops[p] = true
		}
		cands = slices.DeleteFunc(cands, func(p engine.Point) bool { return !stops[p] })
	}
	inTree := make([]bool, engine.NumCells)
	if threat.Proof != nil {
		markTree(threat.Proof.Root, inTree)
	}
	hs := make(map[engine.Point]int32, len(cands))
	for _, p := range cands {
		hs[p] = heuristic(b, c, p)
	}
	slices.SortStableFunc(cands, func(x, y engine.Point) int {
		if inTree[x] != inTree[y] {
			if inTree[x] {
				return -1
			}
			return 1
		}
		return int(hs[y] - hs[x])
	})
	var end time.Time
	if lim.Time > 0 {
		end = start.Add(time.Duration(float64(lim.Time) * (sh.win + sh.threat + sh.defence)))
	}
	bb := b.Clone()
	// check returns the opponent's status after c plays p.
	check := func(p engine.Point, per solver.Limits) (solver.Status, error) {
		st, err := opponentAfter(ctx, s, bb, c, p, per)
		if err != nil {
			return solver.StatusUnknown, fmt.Errorf("checking the defence %v: %w", p, err)
		}
		return st, nil
	}
	open := cands
	for pass := 0; pass < 2 && len(open) > 0; pass++ {
		per := solver.Limits{Nodes: bestCheckNodes / 20}
		if pass == 1 {
			per.Nodes = bestCheckNodes / 2
		}
		if !end.IsZero() {
			left := time.Until(end)
			if pass == 0 {
				left /= 3
			}
			per = solver.Limits{Time: max(left/time.Duration(len(open)), 2*time.Millisecond)}
		}
		var next []engine.Point
		for i, p := range open {
			if ctx.Err() != nil || (!end.IsZero() && time.Now().After(end)) {
				next = append(next, open[i:]...)
				break
			}
			if pass == 0 {
				checked++
			}
			st, err := check(p, per)
			if err != nil {
				return nil, nil, checked, err
			}
			switch st {
			case solver.StatusNoWin:
				proven = append(proven, p)
			case solver.StatusUnknown:
				next = append(next, p)
			}
		}
		open = next
	}
	return proven, open, checked, nil
}

// markTree sets in[p] for every cell p that a move of the proof tree below
// n takes, the attacker's and the defender's, pass proofs included.
func markTree(n *proof.Node, in []bool) {
	if n == nil {
		return
	}
	in[n.Move] = true
	for _, d := range n.Defences {
		in[d.Move] = true
		markTree(d.Answer, in)
	}
	markTree(n.Pass, in)
}

// resistanceNodes bounds each of resistance's VCF probes (nodes).
const resistanceNodes = 20_000

// resistance returns the moves a side c that loses whatever it plays on b
// should choose among (the longest resistance): the legal blocks of the
// opponent's five-points when it has any (every other move loses at
// once); else the candidate moves after which the opponent has no VCF
// found within resistanceNodes, or, when it has one after every move, those
// whose VCF found is longest. nil when nothing narrows the choice (no
// legal block: every move loses at once). Measured on nothing but its own
// rule: a lost position's moves are all losses, so no game score tells
// them apart; the rule is what a player does.
func resistance(b *engine.Board, c engine.Color) []engine.Point {
	o := c.Opponent()
	if b.Count(o, engine.FivePoints) > 0 {
		var blocks []engine.Point
		n := b.Size()
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				if p := engine.PointAt(x, y); b.At(p) == engine.Empty && b.Threat(o, p) >= engine.ThreatFive && b.Legal(c, p) {
					blocks = append(blocks, p)
				}
			}
		}
		return blocks
	}
	cands := candidates(b, c, nil, make([]bool, engine.NumCells))
	if len(cands) < 2 {
		return nil
	}
	probe := solver.NewVCFProbe(4)
	bb := b.Clone()
	longest := -1
	var out []engine.Point
	for _, p := range cands {
		bb.Play(p, c)
		l := math.MaxInt // no VCF found: the longest resistance there is
		if !bb.LastMoveWon() {
			if line := probe.WinLine(bb, o, resistanceNodes); line != nil {
				l = len(line)
			}
		}
		bb.Undo()
		switch {
		case l > longest:
			longest, out = l, []engine.Point{p}
		case l == longest:
			out = append(out, p)
		}
	}
	return out
}
