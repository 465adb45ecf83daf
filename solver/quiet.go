package solver

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"gomoku/engine"
)

// Quiet threats at the root: a win that starts with a move that makes no
// four and threatens no VCF, after which the defender's every reply loses.
// lfz-tengu/123 (renju, white to move) is such a win: the VCT proves no
// win within threat limit 8 in 5 ms, and the search over all moves with
// threats of order 3 is unknown after 60 s, but white's i9, a closed three
// that threatens a VCT, is proven whole-board in 3.3 s (its pass proof, 7
// moves, leaves 30 of black's 217 replies to search). Rapfi's principal
// variation starts with the same move.
//
// QuietThreat is that proof at the root, Thomsen's λ-search (2000, section
// 3) one order above the VCT's: each candidate move c is played and the
// position after it, the defender to move, gets a quick pass search (the
// attacker moving again: does c threaten a VCT?); the moves whose pass
// search wins are tried in the order of their pass proofs' relevance
// zones, the smallest first (the fewest defender replies to refute:
// probeZones, byZone), each by deepen: ProveOpening of the position after it, its
// zone's replies repaired or searched one by one, stopping at the first
// that is not won, and the certificate checked before the win is
// returned.

// quietCandidates is the most quiet moves QuietThreat probes: the
// attacker's legal moves within two cells of a stone that make no four,
// by the five-cell windows' potential (deepenMoves).
const quietCandidates = 16

// quietProbeNodes bounds each probe's pass search, in nodes (a few
// hundredths of a second): the threats that matter here are VCTs a
// puzzle's solver sees at a glance, not long ones.
const quietProbeNodes = 20_000

// quietFirstShare is the part of QuietThreat's time (or nodes) each
// search inside a deepening may take in the first round; each round
// doubles it, up to half the whole. On lfz-tengu/123 (10 s), white's i9,
// the fifth move by its zone, is proven with 150 ms a search in 0.6 s,
// where a first share of an eighth (1.25 s) let the four moves before it
// take 7.3 s.
const quietFirstShare = 64

// quietDefaultTime is QuietThreat's time when it is given neither a time
// nor a node limit (solve --mode win without --time or --nodes), so that
// the search over all moves, which then runs until it decides, follows.
const quietDefaultTime = time.Minute

// QuietThreat searches for a win of pr's attacker, to move, that starts
// with a quiet move (see above), within lim (its Time bounds the whole,
// its Nodes are checked between moves, quietDefaultTime when neither is
// set; each search inside gets a share, quietFirstShare, doubled each
// round). It returns a win with its proof (the quiet move, its pass proof and the
// defender's replies each answered, checked by proof.Verify), or unknown:
// its moves cover a few candidates, so it never proves a no-win. log, when
// set, receives the steps. Errors: ErrDefenderToMove, Problem's, the
// searches' and the store's; ctx's end is none (unknown).
func (s *Solver) QuietThreat(ctx context.Context, pr Problem, lim Limits, log func(string)) (a Answer, err error) {
	start := time.Now()
	a = Answer{Mode: ModeWin, Result: Result{Status: StatusUnknown, Stopped: StoppedQuietMoves}}
	defer func() { a.Elapsed = time.Since(start) }()
	att, _, err := pr.check()
	if err != nil {
		return a, err
	}
	if pr.ToMove != att || pr.DefenderPasses {
		return a, ErrDefenderToMove
	}
	if lim.Time <= 0 && lim.Nodes <= 0 {
		lim.Time = quietDefaultTime
	}
	if lim.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Time)
		defer cancel()
	}
	// the searches inside answer by their own means: no quiet threat of
	// their own (prove's --deepen is that)
	defer func(q bool) { s.QuietThreats = q }(s.QuietThreats)
	s.QuietThreats = false
	moves, _ := deepenMoves(pr, engine.NoPoint, nil, quietCandidates)
	// a move whose pass search is a VCF is a threat of the VCT's own
	// order, which the VCT before this has searched
	notVCF := func(pa Answer) bool { return pa.Mode != ModeVCF }
	zones, err := s.probeZones(ctx, pr, moves, quietProbeNodes, lim.Depth, notVCF, log)
	if err != nil || ctx.Err() != nil {
		a.Stopped = stoppedBy(ctx)
		return a, err
	}
	moves = byZone(moves, zones)
	// iterative widening over the moves: each searches its replies within
	// a small budget first, and the moves that left one unknown (not
	// those that met a no-win) go again with twice the budget, so that a
	// move whose replies are quick is found before one hard reply of
	// another has taken the time
	inner := Limits{Depth: lim.Depth}
	var most Limits // the last round's
	switch {
	case lim.Time > 0:
		inner.Time, most.Time = max(time.Millisecond, lim.Time/quietFirstShare), lim.Time/2
	default:
		inner.Nodes, most.Nodes = max(1, lim.Nodes/quietFirstShare), max(1, lim.Nodes/2)
	}
	for round := 1; len(moves) > 0; round++ {
		var again []engine.Point
		for _, c := range moves {
			if ctx.Err() != nil {
				a.Stopped = stoppedBy(ctx)
				return a, nil
			}
			if lim.Nodes > 0 && a.Nodes >= lim.Nodes {
				a.Stopped = "nodes"
				return a, nil
			}
			if log != nil {
				per := fmt.Sprintf("%v", inner.Time.Round(time.Millisecond))
				if inner.Time <= 0 {
					per = fmt.Sprintf("%d nodes", inner.Nodes)
				}
				log(fmt.Sprintf("quiet move %v, round %d (%s a search; %.1f s)", c, round, per, time.Since(start).Seconds()))
			}
			da, ok, err := s.deepen(ctx, pr, c, 1, inner, OpeningOptions{Retry: true})
			a.Nodes += da.Nodes
			if err != nil {
				return a, err
			}
			if ok {
				nodes := a.Nodes
				a = da
				a.Nodes, a.Mode = nodes, ModeWin
				return a, nil
			}
			if da.Status == StatusUnknown {
				again = append(again, c)
			}
			if log != nil && ctx.Err() == nil {
				how := "a reply refutes it (no win after it): dropped"
				if da.Status == StatusUnknown {
					how = "a reply left unknown: again with twice the budget"
				}
				log(fmt.Sprintf("quiet move %v: %s", c, how))
			}
		}
		moves = again
		inner.Time, inner.Nodes = 2*inner.Time, 2*inner.Nodes
		if inner.Time > most.Time || inner.Nodes > most.Nodes {
			break
		}
	}
	return a, nil
}

// StoppedQuietMoves is the Answer.Stopped of a QuietThreat that tried
// every candidate whose pass search won, each met by a defender reply it
// left unknown in the last round or that refutes it: unknown, since the
// candidates are a few, not a no-win.
const StoppedQuietMoves = "quiet moves"

// stoppedBy names what ended ctx: the time limit or a cancellation.
func stoppedBy(ctx context.Context) string {
	if ctx.Err() == context.DeadlineExceeded {
		return "time"
	}
	return "cancelled"
}

// ByQuietThreat reports whether a is a win whose first move is a quiet
// threat (QuietThreat's, or a search over all moves with threats of order
// 3 that began so): its proof's root carries a pass proof, the defender's
// replies outside its zone answered by it.
func (a Answer) ByQuietThreat() bool {
	return a.Status == StatusWin && a.Proof != nil && a.Proof.Root != nil && a.Proof.Root.Pass != nil
}

// byZone returns the moves whose zone (zones[i] is moves[i]'s,
// probeZones) is not noZone, the smallest zone first, ties in the given
// order.
func byZone(moves []engine.Point, zones []int) []engine.Point {
	idx := make([]int, 0, len(moves))
	for i, z := range zones {
		if z != noZone {
			idx = append(idx, i)
		}
	}
	return sortedMoves(moves, idx, func(i, j int) int { return cmp.Compare(zones[i], zones[j]) })
}
