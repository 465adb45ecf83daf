package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
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
// child's time limit, for all its candidate moves together; each search
// inside it gets the child's limits (a child of the deepened opening is as
// hard as a child of the opening: on freestyle's D3 after white g5 and
// black i9, the block g7 took 205 s on the loaded machine).
const deepenBudget = 8

// deepenCandidates is the most quiet attacker moves a deepening tries
// besides the suggested ones (OpeningOptions.Suggest): the pass proof's
// first move, then the best others by the five-cell windows' potential
// (deepenMoves). A move whose position's own pass
// search is unknown costs one search (OpeningOptions.EveryMove off), and
// one with a child left unknown stops there (FailFast), so a move that
// fails is left early for the next.
const deepenCandidates = 3

// deepenSuggested is the most suggested moves (OpeningOptions.Suggest) a
// deepening tries, before the others. On freestyle's D6 (h8 h9 i8), 13 of
// the first 90 defender moves of the zone were unknown to the repair and
// the search at 150 s; deepened two levels with alpha-beta's moves first
// (a million nodes each; --time 40s, so 320 s a move), 7 were won, each by
// the first suggested move (g5 by j8, an open three whose three blocks were
// won, one of them deepened again: 106 s), 6 were not (2026-12-01). The
// unguided deepening (the pass proof's first move, then two by potential)
// had won D3's f6 and h6 in 330 and 471 s at --time 150s, and none of f7–k7,
// f8 and g8 (2026-11-29).
const deepenSuggested = 2

// deepen tries the attacker's quiet move c in pr (the attacker to move) as
// described above, with levels-1 levels left for the children inside
// (levels ≥ 1), within ctx (deepenChild gives it the budget); outer's
// DeepenTime, Suggest (nil: none), Retry, ZoneExtensions and goroutines
// (Jobs, jobPool) go to the proofs and deepenings inside, and its Log (nil: none) gets
// the steps, the inner ones indented. ok reports
// a checked win. A failure within the limits (not cut short by ctx) is
// recorded in the store (RememberDeepenFailure) with levels plus outer's
// ZoneExtensions. Errors: ProveOpening's and
// the store's (a deadline is no error: ok false), and an internal error
// when the assembled proof fails its check.
func (s *Solver) deepen(ctx context.Context, pr Problem, c engine.Point, levels int, lim Limits,
	outer OpeningOptions) (a Answer, ok bool, err error) {
	log := outer.Log
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
	if forcing(b, att) {
		return a, false, nil // a five or a four: the searches' own ground
	}
	sub := lim
	if lim.Depth > 0 {
		if sub.Depth = lim.Depth - 1; sub.Depth <= 0 {
			return a, false, nil
		}
	}
	opt := OpeningOptions{Jobs: 1, Deepen: levels - 1, DeepenTime: outer.DeepenTime, FailFast: outer.Survey == 0,
		Survey: max(0, outer.Survey-1), Suggest: outer.Suggest, Retry: outer.Retry, ZoneExtensions: outer.ZoneExtensions,
		pool: outer.pool, inner: true}
	if log != nil {
		inner := func(line string) { log("  " + line) }
		opt.Log = inner
		opt.Progress = func(ch OpeningChild, decided, total int) { inner(childLine(ch, decided, total)) }
	}
	rep, err := s.ProveOpening(ctx, Problem{Board: b, ToMove: def, Attacker: att}, sub, opt)
	if log != nil {
		zone := "every move"
		if rep.PassZone {
			zone = fmt.Sprintf("zone %d of %d", rep.Total, rep.Legal)
		}
		log(fmt.Sprintf("after %v: pass %v (%d nodes, %.1f s), %s: %v (%d won, %d unknown, %d no-win; %.1f s)",
			c, rep.Pass.Status, rep.Pass.Nodes, rep.Pass.Elapsed.Seconds(), zone, rep.Status, rep.Won, rep.Unknown, rep.NoWin, time.Since(start).Seconds()))
	}
	a.Nodes = rep.Nodes
	switch {
	case ctx.Err() != nil:
		return a, false, nil // a deadline, or the caller's ctx: it sees it
	case err != nil:
		return a, false, err
	case rep.Status != StatusWin:
		// failed within the limits, not cut short: a rerun skips it
		a.Status = rep.Status // a no-win, or a defender move left unknown
		return a, false, s.RememberDeepenFailure(pr, c, levels+outer.ZoneExtensions, lim)
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

// childLine is a log's line for the child ch of an opening, decided-th of
// total: its move, result, nodes, time and how it was decided.
func childLine(ch OpeningChild, decided, total int) string {
	how := ""
	switch {
	case ch.FromStore:
		how = ", from the store"
	case ch.Repaired:
		how = ", repaired"
	case ch.Deepened:
		how = ", deepened"
	}
	return fmt.Sprintf("%d/%d %v %v (%d nodes, %.1f s%s)", decided, total, ch.Move, ch.Status, ch.Nodes, ch.Elapsed.Seconds(), how)
}

// deepenMoves returns the quiet moves a deepening of pr (the attacker to
// move) may try, and how many of them lead as suggested (guided): the first deepenSuggested of suggested that are empty,
// legal and make no four or five (an engine's choice, OpeningOptions.Suggest);
// then first (the pass proof's first move, when it too is empty, legal and
// quiet: the defender's move may have taken its cell) and the others up to
// n in all: the attacker's legal moves within two cells of a stone that
// make no four or five, by the potential of the five-cell windows through
// them (García 2020: the attacker's own plus the defender's, a move that
// builds and blocks at once first), ties in board order. No move is listed
// twice, and none after which the defender could make a straight four
// (straightFour: the move left its open three open, and loses to it; in
// the logs of D8's best-first runs of 2026-12-06, 823 of the 4,468 quiet
// moves evaluated were such, and 199 more ignored the defender's four). Where the defender threatens five (its last reply made a four),
// every other move loses at once: the list is the block alone, as one
// guided move, four or not (a block that makes a four of the attacker's
// is no quiet move, but after it the defender's answer is forced and the
// tree goes on below it), or empty when the defender has two five-points
// or the block is not legal for the attacker (renju: forbidden to black).
// In the logs of D8's best-first runs of 2026-12-06, 244 of 2,774 OR
// expansions faced such a four; their other quiet moves were probed, and
// then lost at once.
func deepenMoves(pr Problem, first engine.Point, suggested []engine.Point, n int) (moves []engine.Point, guided int) {
	b := pr.Board
	att, def := pr.Attacker, pr.Attacker.Opponent()
	if block, threat := forcedBlock(b, att); threat {
		if block == engine.NoPoint {
			return nil, 0
		}
		return []engine.Point{block}, 1
	}
	scratch := engine.Scratch(b)
	defer engine.Release(scratch)
	quiet := func(m engine.Point) bool {
		if !b.OnBoard(m) || b.At(m) != engine.Empty || !b.Legal(att, m) {
			return false
		}
		scratch.Play(m, att)
		defer scratch.Undo()
		return !forcing(scratch, att) && !straightFour(scratch, def)
	}
	var out []engine.Point
	for _, m := range suggested {
		if len(out) < deepenSuggested && !slices.Contains(out, m) && quiet(m) {
			out = append(out, m)
		}
	}
	guided = len(out)
	if !slices.Contains(out, first) && quiet(first) {
		out = append(out, first)
	}
	type scored struct {
		m engine.Point
		v int32
	}
	var sc []scored
	for _, m := range nearMoves(b, att, out) {
		sc = append(sc, scored{m, b.Potential(att, m) + b.Potential(def, m)})
	}
	slices.SortStableFunc(sc, func(a, c scored) int { return cmp.Compare(c.v, a.v) })
	for _, e := range sc {
		if len(out) >= guided+n {
			break
		}
		if quiet(e.m) {
			out = append(out, e.m)
		}
	}
	return out, guided
}

// quietCandidates returns the quiet moves that a deepening (and the
// best-first search's OR node) of pr, the attacker to move, probes:
// deepenMoves with opt.Suggest's moves (asked on a copy of the board;
// none without Suggest), first and deepenProbed others, then the moves
// whose pass search the store holds as a win (storedPassMoves); with the
// suggested moves and how many lead (guided). Facing the defender's four
// it is the block alone (or nothing), Suggest not asked and no suggested
// moves returned. Errors: the store's.
func (s *Solver) quietCandidates(ctx context.Context, pr Problem, first engine.Point, opt OpeningOptions) (moves, suggested []engine.Point, guided int, err error) {
	if _, threat := forcedBlock(pr.Board, pr.Attacker); threat {
		// the block or nothing, without asking the engine: its search
		// (prove's a million alpha-beta nodes, about 2 s) would be thrown
		// away (on D8's best-first tree of 2026-12-07 the suggestions for
		// such nodes took 70% of the tree's rebuild from the store)
		moves, guided = deepenMoves(pr, first, nil, deepenProbed)
		return moves, nil, guided, nil
	}
	if opt.Suggest != nil {
		suggested = opt.Suggest(ctx, pr.Board.Clone(), pr.Attacker)
	}
	moves, guided = deepenMoves(pr, first, suggested, deepenProbed)
	stored, err := s.storedPassMoves(pr, moves)
	return append(moves, stored...), suggested, guided, err
}

// deepenProbed is the most unguided quiet moves (deepenMoves: the pass
// proof's first move and the others by potential) whose pass search a
// deepening probes (probeOrder) before it tries deepenCandidates of them:
// the first in the probes' order not recorded as failed.
const deepenProbed = 10

// deepenProbeNodes bounds the pass search of a probed move (probeOrder),
// in nodes. An open three's (a straight four next) takes a few hundred.
// On D6's last four children (2026-12-01, the cores shared with a proof),
// 20,000 nodes gave a zone to the open threes only (0.1–0.4 s for ten
// moves); 200,000 to 3 to 8 of the ten moves (1.1–5.8 s), zones of 56 to
// 103 moves; a million added one (1.1–22 s).
const deepenProbeNodes = 200_000

// probeOrder orders the moves of a deepening of pr (deepenMoves: the
// first guided are the suggested ones) as proof-number search picks among
// an OR node's children, the fewest proofs needed first (Allis, van der
// Meulen and van den Herik 1994, "Proof-number search": an AND node's
// proof number is the sum of its children's, its number of children while
// none is expanded). Every move is probed once (probeZones,
// deepenProbeNodes nodes: a pass search after it, stored for the
// deepening's own pass search to read back; its zone less the replies the
// store holds as wins within depth plies, 0 any), and the order is:
//  0. the moves with nothing left, every reply in the zone proven (a
//     proof assembled from the store), in their order;
//  1. the guided moves whose zone holds at most leadZone defender moves
//     (an open three's blocks, or a few more), in their order;
//  2. the unguided ones so small, the smallest zone first;
//  3. the other guided moves, in their order;
//  4. the other unguided moves whose pass search won, the smallest zone
//     first, then those without a win, in the given order (deepenChild
//     tries deepenCandidates of the unguided, the first not recorded as
//     failed);
//  5. then, in classes 0 to 3 again, the moves marked in failed (failed[i]
//     for moves[i]; nil: none), those the store records as failed within
//     the deepening's levels and limits, which only a rerun with
//     OpeningOptions.Retry tries: what has not failed yet goes first. A
//     failed move with nothing left still leads (class -1): the store has
//     proven its replies since.
//
// Ties keep the given order. Why the small zones lead: on D6's last four
// children the suggested moves and the pass proof's first move had failed
// with zones of 86 to 140 moves, while the wins by deepening of j9 and j10
// had been an open three (zone 3), and i7's open threes g8, j8, f8 and k8
// (zone 3) were never reached behind the suggested moves in 25 minutes
// (2026-12-03). With at most one unguided move the order is the given
// one, unprobed. Why a guided move leads up to leadZone, not only up to
// smallZone: on I7's line below g9 (2026-12-05), at n8 the open threes m9
// and i5 (zone 3) took 1,799 s and 659 s and failed, while alpha-beta's
// j11 (zone 7), which the line goes on with, was never reached; at i12's
// replies j10 and j12 each open three tried won 1 of its 3 blocks. log,
// when set, gets the probes' zones. Errors: the
// searches' and the store's; ctx's end is none (the moves not probed by
// then rank as having no win).
func (s *Solver) probeOrder(ctx context.Context, pr Problem, moves []engine.Point, guided, depth int, failed []bool, log func(string)) ([]engine.Point, error) {
	if len(moves)-guided <= 1 {
		return moves, nil
	}
	zones, err := s.probeZones(ctx, pr, moves, deepenProbeNodes, depth, nil, log)
	if err != nil {
		return moves, err
	}
	// the rank of move i: its class (-1 nothing left, 0 guided and small,
	// 1 unguided and small, 2 guided, 3 the other unguided; 4 more for a
	// move that failed before), then, among the unguided, its zone; ties
	// keep the given order
	rank := func(i int) (class, zone int) {
		small := zones[i] <= smallZone
		if zones[i] == 0 {
			return -1, 0
		}
		if i < len(failed) && failed[i] {
			class = 4
		}
		switch {
		case i < guided && zones[i] <= leadZone:
			return class, 0
		case i < guided:
			return class + 2, 0
		case small:
			return class + 1, zones[i]
		}
		return class + 3, zones[i]
	}
	all := make([]int, len(moves))
	for i := range all {
		all[i] = i
	}
	return sortedMoves(moves, all, func(i, j int) int {
		ci, zi := rank(i)
		cj, zj := rank(j)
		return cmp.Or(cmp.Compare(ci, cj), cmp.Compare(zi, zj))
	}), nil
}

// sortedMoves returns moves[i] for each index i of idx (which it sorts),
// in the stable order of compare over the indices.
func sortedMoves(moves []engine.Point, idx []int, compare func(i, j int) int) []engine.Point {
	slices.SortStableFunc(idx, compare)
	out := make([]engine.Point, len(idx))
	for k, i := range idx {
		out[k] = moves[i]
	}
	return out
}

// leadZone is the largest pass-proof zone, in defender moves, with which
// a guided (suggested) quiet move of a deepening goes before the
// unguided moves of smaller zones (probeOrder's class 2): alpha-beta's
// choice that leaves the defender a handful of replies is worth more than
// an open three it did not choose, while its choices with zones of 50 to
// 140 replies (D6's last children, 2026-12-01) are not.
const leadZone = 8

// noZone is probeZones' zone of a move whose pass search found no win
// (or one its keep rejected).
const noZone = math.MaxInt

// probeZones gives each of moves (quiet attacker moves in pr, the
// attacker to move) the number of defender moves left to prove after it:
// the move is played, the position after it (the defender to move) gets a
// pass search of nodes nodes (at least 1; stored, as every search, for a
// later search to read back), and a win that keep accepts (nil: every
// win) gives the defender moves its checked proof leaves unanswered
// (checkedZone), less those whose position the store already holds as a
// win within depth plies (0: any; storedWins); noZone otherwise, and for
// the moves ctx's end left unprobed. zones[i] is moves[i]'s. With an empty
// store the count is the zone; with the wins of an earlier run, or of a
// quiet move proven as an opening of its own (docs/solving.md), a move
// whose replies are mostly proven ranks as the little work it has left,
// as proof-number search ranks a child by its proof number, not by its
// size (on freestyle's I7, g9's deepening gave alpha-beta's j9, 5 of 162
// replies proven, half its time before j8, 84 of 85 proven, 2026-12-04).
// log, when set, gets one line with every move's zone and, where some are
// proven, how many. Errors: the searches' and the store's; ctx's end is
// none.
func (s *Solver) probeZones(ctx context.Context, pr Problem, moves []engine.Point, nodes int64, depth int,
	keep func(Answer) bool, log func(string)) ([]int, error) {
	nodes = max(1, nodes)
	att, def := pr.Attacker, pr.Attacker.Opponent()
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	zones := make([]int, len(moves))
	probes := make([]string, len(moves))
	for i, c := range moves {
		zones[i] = noZone
		probes[i] = fmt.Sprintf("%v none", c)
		if ctx.Err() != nil {
			continue
		}
		b.Play(c, att)
		a, err := s.Solve(ctx, Problem{Board: b, ToMove: def, Attacker: att, DefenderPasses: true}, ModeWin, Limits{Nodes: nodes}, nil)
		if err != nil {
			b.Undo()
			if ctx.Err() != nil {
				continue
			}
			return zones, err
		}
		if a.Status == StatusWin && a.Proof != nil && (keep == nil || keep(a)) {
			if zone, err := checkedZone(ctx, b, a.Proof, legalMoves(b, def)); err == nil {
				won, err := s.storedWins(b, att, zone, depth)
				if err != nil {
					b.Undo()
					return zones, err
				}
				zones[i] = len(zone) - won
				probes[i] = fmt.Sprintf("%v zone %d", c, len(zone))
				if won > 0 {
					probes[i] += fmt.Sprintf(" (%d proven)", won)
				}
			}
		}
		b.Undo()
	}
	if log != nil {
		log(fmt.Sprintf("probed %d moves: %s", len(moves), strings.Join(probes, ", ")))
	}
	return zones, nil
}

// storedPassMoves returns the quiet attacker moves of pr (the attacker
// to move; no five, no four) within two cells of the stones and not in
// moves, after which the store holds a win of the pass search (the
// defender passing), in board order: a quiet move proven as an opening of
// its own (docs/solving.md) or by an earlier deepening, which neither
// alpha-beta nor the potentials may have chosen (on freestyle I7's line,
// the deepening of h8 i9 i7 g9 j8 h6 j9 j7 k8 i8 k6 l7 k7 k5 l8 n8 j11 k9
// i12 j10 never listed k12, proven as an opening in 114 s, 2026-12-05).
// probeZones then ranks each by the replies it leaves unproven, and one
// with none leads (probeOrder). A look-up a move, nothing searched.
// Errors: the store's; an entry that does not decode counts as no win.
func (s *Solver) storedPassMoves(pr Problem, moves []engine.Point) ([]engine.Point, error) {
	if s.Store == nil {
		return nil, nil
	}
	att, def := pr.Attacker, pr.Attacker.Opponent()
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	var out []engine.Point
	for _, m := range nearMoves(b, att, moves) {
		b.Play(m, att)
		ok := false
		var err error
		if !forcing(b, att) {
			_, ok, err = s.storedWin(Problem{Board: b, ToMove: def, Attacker: att, DefenderPasses: true})
		}
		b.Undo()
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// forcing reports whether att's last move on b made a five or a four (a
// five threatened): the ground of the threat searches, not a quiet move.
func forcing(b *engine.Board, att engine.Color) bool {
	return b.LastMoveWon() || b.Count(att, engine.FivePoints) > 0
}

// straightFour reports whether c may make a straight four (or a double
// four, or a five) on b: a move that c's opponent, with no five-point of
// its own, cannot answer. A quiet move of the attacker after which the
// defender can is lost at once (it left the defender's open three open).
func straightFour(b *engine.Board, c engine.Color) bool {
	var buf [32]engine.Point
	for _, p := range b.Points(c, engine.FourPoints, buf[:0]) {
		if b.Threat(c, p) >= engine.ThreatStraightFour && b.Legal(c, p) {
			return true
		}
	}
	return false
}

// forcedBlock reports whether att's opponent threatens five on b, att to
// move and without a five of its own (threat), and if so the one move that answers it: the five-point, when it is
// the opponent's only one, is empty and att may play it; NoPoint
// otherwise (two five-points, or a block forbidden to att in renju).
func forcedBlock(b *engine.Board, att engine.Color) (block engine.Point, threat bool) {
	def := att.Opponent()
	if b.Count(att, engine.FivePoints) > 0 {
		return engine.NoPoint, false // att wins first
	}
	switch b.Count(def, engine.FivePoints) {
	case 0:
		return engine.NoPoint, false
	case 1:
		q := b.FirstPoint(def, engine.FivePoints)
		if b.At(q) == engine.Empty && b.Legal(att, q) {
			return q, true
		}
	}
	return engine.NoPoint, true
}

// storedWin returns the store's win of pr in ModeWin (under s's threat
// limit and the board's symmetries), ok false when it holds none. An
// entry that does not decode counts as none. Errors: the store's.
func (s *Solver) storedWin(pr Problem) (e storeEntry, ok bool, err error) {
	key, _ := s.storeKeyOf(pr, ModeWin)
	e, ok, err = s.Store.get(key, StatusWin)
	if errors.Is(err, ErrStoreCorrupt) {
		return e, false, nil
	}
	return e, ok, err
}

// nearMoves returns the empty cells of b within two cells of a stone
// (stoneDistance) where c may play, not in skip, in board order (row by
// row from a1).
func nearMoves(b *engine.Board, c engine.Color, skip []engine.Point) []engine.Point {
	var out []engine.Point
	size := b.Size()
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			m := engine.PointAt(x, y)
			if !slices.Contains(skip, m) && b.At(m) == engine.Empty && b.Legal(c, m) && stoneDistance(b, m) <= 2 {
				out = append(out, m)
			}
		}
	}
	return out
}

// storedWins counts the defender moves ds on b (the defender to move)
// after which the store holds a win for att (the attacker to move) that
// serves within depth plies (0: any): a look-up each, the proof not
// decoded into a tree nor replayed (an ordering hint, never a claim: the
// deepening that follows reads each win back through Stored, which
// replays it). Errors: the store's; an entry that does not decode counts
// as no win.
func (s *Solver) storedWins(b *engine.Board, att engine.Color, ds []engine.Point, depth int) (int, error) {
	if s.Store == nil {
		return 0, nil
	}
	won := 0
	for _, d := range ds {
		b.Play(d, att.Opponent())
		e, ok, err := s.storedWin(Problem{Board: b, ToMove: att, Attacker: att})
		b.Undo()
		if err != nil {
			return won, err
		}
		if ok && (depth <= 0 || e.depth <= depth) {
			won++
		}
	}
	return won, nil
}

// deepenChild runs deepen on a child that solveChild left unknown (pr, the
// attacker to move, after the defender's move m; a the unknown answer)
// with each of deepenMoves in turn (in probeOrder's order: opt.Suggest's
// moves whose zone holds at most leadZone defender moves, then the
// unguided probed moves whose zone holds at most smallZone, then the rest
// of opt.Suggest's moves, then the pass proof's first move and the
// others and the moves whose pass search the store holds as a win
// (storedPassMoves), the smallest zone first; deepenCandidates of the
// unguided ones in all), opt.Deepen levels, all within opt.DeepenTime
// (by default deepenBudget times the child's time limit), and stores a win
// as Solve stores its results. ok reports a win; the answer then replaces
// a (nodes and time added up). opt.Log, when set, receives the steps.
//
// The time is shared out as in iterative widening (shareTime): while
// other moves wait and at least twice deepenBudget times the child's time
// limit is left, a move may take half of what is left (deepenShare), else
// all of it; a move cut short by its share is tried again, after the
// others, with what they leave. Its second try starts from the store: the inner
// defender moves it won are read back, and those it left unknown go
// straight to their own deepening (attemptChild). With the default time
// the first move may take all of it, as before the shares.
//
// A deepening that runs out of its own budget (not cut short by ctx) is
// recorded under the child (RememberDeepened), and a rerun without
// opt.Retry with no more levels and no larger budget skips it at once
// (Stopped "an earlier deepening within …"), as attemptChild skips a
// search: a resumed descent went down again through every level's
// unknown children, each spending its budget anew (TestDeepenedBefore).
//
// A move whose deepening fails within the limits (a defender move after
// it left unknown or a no-win, no deadline having cut it short) is
// recorded in the store (RememberDeepenFailure), and a rerun with no more
// levels and no larger limits skips it (DeepenFailed) unless opt.Retry is
// set: before the record, each rerun of D6 spent 480 s a child on first
// moves that had failed before. A move cut short is not recorded: D6's g7
// was won on a rerun by j9, whose first try had been cut by its share.
// The deepenings inside get the same opt.DeepenTime, so none of them runs
// out before the move's own share does: a failure recorded is one of the
// searches within lim at the last level, never of a time budget.
func (s *Solver) deepenChild(ctx context.Context, pr Problem, m engine.Point, pass *proof.Tree, lim Limits, a Answer, opt OpeningOptions) (Answer, bool, error) {
	if pass == nil || pass.Root == nil {
		return a, false, nil
	}
	return s.deepenAt(ctx, pr, m.String(), pass.Root.Move, lim, a, opt)
}

// deepenAt is deepenChild's deepening of pr (the attacker to move), named
// name in the log (the defender's move, or "the root"), with first (the
// pass proof's first move; NoPoint: none) among the unguided moves.
func (s *Solver) deepenAt(ctx context.Context, pr Problem, name string, first engine.Point, lim Limits, a Answer, opt OpeningOptions) (Answer, bool, error) {
	levels, log := opt.Deepen, opt.Log
	if levels < 1 || ctx.Err() != nil {
		return a, false, nil
	}
	budget := opt.DeepenTime
	if budget <= 0 {
		budget = deepenBudget * lim.Time
	}
	if !opt.Retry {
		at, before, err := s.DeepenedBefore(pr, levels+opt.ZoneExtensions, budget)
		if err != nil {
			return a, false, err
		}
		if before {
			if log != nil {
				log(fmt.Sprintf("deepening %s: ran out of its %v before, skipped (--retry deepens it again)", name, at.Time))
			}
			a.Stopped = fmt.Sprintf("an earlier deepening within %v", at.Time)
			return a, false, nil
		}
	}
	dctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		dctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	moves, suggested, guided, err := s.quietCandidates(dctx, pr, first, opt)
	if err != nil {
		return a, false, err
	}
	var plog func(string)
	if log != nil {
		plog = func(l string) { log(fmt.Sprintf("deepening %s: %s", name, l)) }
	}
	lead := slices.Clone(moves[:guided])
	var failed []bool // with Retry, the moves that failed before go last
	if opt.Retry {
		failed = make([]bool, len(moves))
		var before []engine.Point
		for i, c := range moves {
			_, f, err := s.DeepenFailed(pr, c, levels+opt.ZoneExtensions, lim)
			if err != nil {
				return a, false, err
			}
			if failed[i] = f; f {
				before = append(before, c)
			}
		}
		if plog != nil && len(before) > 0 {
			plog("failed before, tried after the others: " + engine.FormatPoints(before))
		}
	}
	moves, err = s.probeOrder(dctx, pr, moves, guided, lim.Depth, failed, plog)
	if err != nil {
		return a, false, err
	}
	moves, listed, err := s.deepenKept(pr, name, moves, lead, levels, lim, opt)
	if err != nil {
		return a, false, err
	}
	var won Answer
	ok, err := shareTime(dctx, moves, lim.Time, func(cctx context.Context, c engine.Point, round int, share time.Duration) (bool, error) {
		if log != nil {
			how := ""
			if slices.Contains(suggested[:min(len(suggested), deepenSuggested)], c) {
				how = ", suggested"
			}
			if round > 1 {
				how += fmt.Sprintf(", try %d", round)
			}
			if share > 0 {
				how += fmt.Sprintf(", within %.0f s", share.Seconds())
			}
			log(fmt.Sprintf("deepening %s: %v (%d of %d%s)", name, c, slices.Index(moves, c)+1, len(moves), how))
		}
		da, ok, err := s.deepen(cctx, pr, c, levels, lim, opt)
		a.Nodes += da.Nodes
		a.Elapsed += da.Elapsed
		if ok {
			da.Nodes, da.Elapsed = a.Nodes, a.Elapsed
			won = da
		}
		return ok, err
	})
	if err != nil {
		return a, false, err
	}
	if ok {
		return won, true, s.remember(pr, ModeWin, lim, won)
	}
	if listed > 0 && ctx.Err() == nil {
		// the answer is now the deepening's, not what the store or the
		// search said before it
		a.FromStore = false
		a.Stopped = StoppedDeepenMoves
		if dctx.Err() != nil {
			a.Stopped = StoppedDeepenTime
			// its own budget ran out (ctx did not end): a rerun without
			// Retry goes on without it
			if err := s.RememberDeepened(pr, levels+opt.ZoneExtensions, budget); err != nil {
				return a, false, err
			}
		}
	}
	return a, false, nil
}

// deepenKept returns the moves of a deepening of the child name (pr, the
// attacker to move) that it tries within lim: the guided ones (lead) and
// deepenCandidates of the others, in the given order, skipping those the
// store records as failed with levels (plus opt.ZoneExtensions) within
// lim unless opt.Retry is set, so that a rerun goes on down the probes'
// order; and how many were listed before the skipping. Errors: the
// store's.
func (s *Solver) deepenKept(pr Problem, name string, moves, lead []engine.Point, levels int, lim Limits, opt OpeningOptions) ([]engine.Point, int, error) {
	listed, others, kept := 0, 0, []engine.Point(nil)
	for _, c := range moves {
		unguided := !slices.Contains(lead, c)
		if unguided && others >= deepenCandidates {
			continue
		}
		listed++
		if !opt.Retry {
			at, failed, err := s.DeepenFailed(pr, c, levels+opt.ZoneExtensions, lim)
			if err != nil {
				return nil, listed, err
			}
			if failed {
				if opt.Log != nil {
					opt.Log(fmt.Sprintf("deepening %s: %v failed before (%d levels, within %v a child), skipped", name, c, at.Levels, at.Time))
				}
				continue
			}
		}
		kept = append(kept, c)
		if unguided {
			others++
		}
	}
	return kept, listed, nil
}

// shareTime runs try on moves in turn within ctx, until one reports true
// (ok), try returns an error (returned), or ctx ends or the moves run out
// (ok false, no error); the caller's try keeps what the winning move found. While more than one move waits and
// ctx has a deadline, a move's try gets a context of its own, ending after
// its share (deepenShare of the time left, with limit, the searches' time
// limit); a try whose share ran out (its context ended, ctx not) is made
// again after the other moves, in a next round, with what is left then.
// try gets the round (1 first) and the share (0: none of its own).
func shareTime(ctx context.Context, moves []engine.Point, limit time.Duration,
	try func(ctx context.Context, c engine.Point, round int, share time.Duration) (bool, error)) (bool, error) {
	deadline, timed := ctx.Deadline()
	left := moves
	for round := 1; len(left) > 0 && ctx.Err() == nil; round++ {
		var cut []engine.Point // the moves stopped by their share
		for i, c := range left {
			share := time.Duration(0)
			if timed && i < len(left)-1 {
				share = deepenShare(time.Until(deadline), limit)
			}
			cctx, cancel := ctx, context.CancelFunc(func() {})
			if share > 0 {
				cctx, cancel = context.WithTimeout(ctx, share)
			}
			ok, err := try(cctx, c, round, share)
			stopped := cctx.Err() != nil && ctx.Err() == nil
			cancel()
			if err != nil || ok {
				return ok, err
			}
			if ctx.Err() != nil {
				break
			}
			if stopped {
				cut = append(cut, c)
			}
		}
		left = cut
	}
	return false, nil
}

// deepenShare is the time one quiet move of a deepening may take when
// more moves wait (left: the deepening's time left; limit: the child's
// time limit, 0 for none): half of left when that is at least deepenBudget
// times limit, else 0 (no share of its own: all that is left).
func deepenShare(left, limit time.Duration) time.Duration {
	if left <= 0 || left < 2*deepenBudget*limit {
		return 0
	}
	return left / 2
}

// The Answer.Stopped of a child whose deepening failed: its time
// (OpeningOptions.DeepenTime, by default deepenBudget times the child's) ran out, or every move it tried
// (deepenMoves) left a defender move unknown within the limits.
const (
	StoppedDeepenTime  = "deepening's time"
	StoppedDeepenMoves = "deepening's moves"
)
