package solver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// Whole-board proofs (gomoku prove).
//
// An opening is a position with the defender to move: every legal defender
// move must lose. ProveOpening first searches the position as if the
// defender passed (the attacker to move). If the attacker wins that, the
// pass proof answers every defender move outside its relevance zone
// (Thomsen 2000, section 3; Yoshizoe, Kishimoto and Müller 2007, section
// 3), and only the zone's moves are searched one by one; otherwise every
// legal defender move is. The zone here is not estimated but checked
// (checkedZone): the moves under which the pass proof, replayed by the
// independent checker with that stone on the board, fails. Each of
// those children is a problem of its own for Solve (search over all moves,
// ModeWin), so with a Store every child's result is written, and flushed,
// as it is decided: a run killed at any point resumes from the children
// already decided, and the children of one opening can be split across the
// tasks of a cluster (OpeningOptions.Shard) whose stores are then merged
// (Store.Merge). Children that are images of one another under a symmetry
// of the position are searched once (the store's canonical keys make that
// so across runs too). The proof is a proof.Certificate, checked by
// proof.VerifyCertificate before it is returned (with the zone from the
// same check, a failure there is a flaw of a search's proof: an internal
// error, nothing claimed).

// ErrAttackerToMove: ProveOpening was given a position with the attacker
// to move (use Solve).
var ErrAttackerToMove = errors.New("the attacker is to move: not an opening with the defender to move")

// OpeningOptions are ProveOpening's options.
type OpeningOptions struct {
	// Shard k of N (1 ≤ k ≤ N) searches only the children whose index is
	// k-1 modulo N; zero N: all. A shard's certificate is made only when
	// its store already holds every other child.
	Shard, Shards int
	// Progress, when set, is called after each child with its result and
	// the number decided so far (from one goroutine at a time).
	Progress func(c OpeningChild, decided, total int)
	// Jobs is the number of children searched at once, each by a Solver
	// of its own with the Solver's settings, memory and store (1 when 0).
	// A deepening's inner defender moves use the goroutines that the
	// other children leave idle (jobPool): when fewer children than Jobs
	// are left, their deepenings decide inner moves side by side.
	Jobs int
	// SearchProgress is passed to each search (nodes and time).
	SearchProgress ProgressFunc
	// Log, when set, receives a line for each step of a deepening: the
	// quiet move tried, the inner opening's pass search and zone, each
	// inner defender move decided (indented by level); with Jobs above 1
	// from several goroutines at once, each line then starting with the
	// defender move deepened, in brackets ("[i7] ").
	Log func(line string)
	// Deepen is the number of levels of deepening (solver/deepen.go) a
	// child that the repair and the search leave unknown may use: the
	// pass proof's first move played and the position after it proven
	// whole-board, recursively. 0: none.
	Deepen int
	// DeepenTime is the wall time a deepened child may take, all its
	// quiet moves and levels together; 0: deepenBudget times the child's
	// time limit (Limits.Time; none without one). Deepenings inside a
	// deepening get the same DeepenTime, so each may take what its quiet
	// move's share leaves, shared out among its own quiet moves in turn
	// (deepenChild): until 2026-12-01 they took deepenBudget times the
	// limit at most, and on D6 most quiet moves tried for the last four
	// children failed at 480 s, a block of theirs not deepened within it,
	// whatever DeepenTime was.
	DeepenTime time.Duration
	// EveryMove searches every legal defender move when the pass search
	// ends unknown. Without it the opening is then unknown at once: a
	// defender stone can only take a cell from the attacker (in freestyle
	// exactly so; in standard and renju but for rare shapes, an overline
	// or a forbidden point that a stone changes), so each child is about
	// as hard as the pass position, and the zone is unknown; searching
	// some 220 children each within the limit that could not decide the
	// pass position mostly spends the limit 220 times.
	EveryMove bool
	// FailFast stops at the first child left unknown (or a no-win): the
	// opening is then not proven, whatever the others are. The children
	// are then searched nearest the stones first, the hardest first as a
	// rule. Deepening uses it for the positions it proves inside, so that
	// a quiet move that fails is left early for the next.
	FailFast bool
	// Suggest, when set, gives the attacker's moves a deepening tries
	// first, best first: an engine's choice (cmd/gomoku's prove asks
	// alpha-beta on the default evaluation, within a node limit so that a
	// rerun gets the same moves). b is the position with the attacker to
	// move, a copy the function may keep; the first deepenSuggested quiet
	// moves (no four, no five) are tried, then the pass proof's first move
	// and the others (deepenMoves). A suggestion orders the work only:
	// what it leads to is proven and checked like the rest. Called from
	// several goroutines at once when Jobs is above 1.
	Suggest func(ctx context.Context, b *engine.Board, att engine.Color) []engine.Point
	// Retry searches the children that the store records as searched
	// before and left unknown with no less budget (OpeningChild.Attempted),
	// and deepens again with the quiet moves recorded as failed
	// (Solver.DeepenFailed), after the moves not so recorded (probeOrder:
	// a rerun of freestyle I7 went to g9's j8 each time, whose last reply
	// had failed three times, 2026-12-04), so that among the
	// deepenCandidates unguided moves a failed one may no longer be
	// reached; without it those children are reported
	// unknown at once and those moves skipped, so that a resumed run
	// spends its time on what was not tried yet.
	Retry bool
	// Expansions applies to BestFirstOpening only: how many of its
	// expansions run at once (1 when 0), each on a Solver of its own
	// (the store shared) with Jobs goroutines for its evaluation. The
	// next one goes to the most-proving node with those in flight counted
	// as proven (virtual proof numbers): an evaluation opens one to three
	// replies, so the replies of one expansion seldom fill the cores.
	Expansions int
	// Escalate applies to BestFirstOpening only: how many times the limits
	// (Limits.Time and Nodes) a reply left unknown gets in one longer
	// search of its own before its quiet moves are opened (0 or 1: none,
	// the default). Of 12 replies that D8's best-first runs at --time 3s
	// had opened (2026-12-06), a search of 24 s each (solve --mode win)
	// won 3, but in runs these searches cost more than they won: from one
	// D8 store, one core each, side by side, --time 3s, 52 minutes
	// (2026-12-06 16:36-17:28), Escalate 8 made 880 expansions, 118 longer
	// searches (13 won) and proved 3 quiet moves; none, 1,655 expansions
	// and 15 quiet moves (the 3 among them).
	Escalate int
	// EscalateDepth applies to BestFirstOpening with Escalate only: the
	// longer search goes to the replies with at most this many quiet
	// attacker moves above them on their line (0: every reply). Near the
	// root a reply left unknown opens the largest subtree, and there are
	// few such replies: on D6 (h8 h9 i8) the three replies its best-first
	// left open below j8's cheapest quiet move g8 (b11, b5, l13, far from
	// the stones) were won by solve --mode win in 2.0 to 6.3 s each
	// (2026-12-07), where --time 500ms had left them unknown. In
	// a run it did not pay: from one D6 store, one core each, 55 minutes
	// side by side at --time 500ms, Escalate 16 with EscalateDepth 1 won
	// 34 of 59 such replies (315 s) and proved 48 quiet moves; without
	// it, 54 (the root's proof number 47 in both).
	EscalateDepth int
	// ZoneExtensions is how many times along a line a position proven
	// inside a deepening (not the opening itself) with no levels left (Deepen 0) takes one more
	// level all the same, because its pass proof's zone holds at most
	// smallZone defender moves: a quiet move that leaves the defender so
	// few replies is nearly a threat of the order below, and one reply
	// left unknown is cheaper to deepen than another quiet move with a
	// zone of 50 to 100 (as a chess search extends checks rather than
	// deepening everything). 0: none. A deepening's failure is recorded
	// with its levels plus the extensions it had (DeepenFailed), so that
	// a run with extensions tries again the quiet moves a run without them
	// failed with.
	ZoneExtensions int
	// Survey is how many levels of deepening, from the top, prove their
	// inner openings without FailFast: every defender move of the quiet
	// move's zone is decided (the farthest from the stones first, the
	// quick ones as a rule), each win stored, and only a no-win ends the
	// attempt early; deeper levels fail fast. A quiet move whose hardest
	// reply is left unknown so still leaves its other replies proven, and
	// a rerun (Retry) ranks it by the replies left (probeOrder) and goes
	// on with it. This is what proving a quiet move as an opening of its
	// own does by hand (docs/solving.md: on freestyle's I7, g9's j8 won 7
	// of its 85 replies in 598 s inside a fail-fast deepening, 82 in 944 s
	// as its own opening, 2026-12-04). 0: none.
	Survey int
	// Descend is, for DescendOpening and DescendToMove only (solver/descend.go),
	// how many attacker moves deep a child left unknown is descended: the
	// engine's quiet move played and the position after it proven as an
	// opening with these same options, its replies left unknown descended
	// in turn. 0: none.
	Descend int
	// DescendMoves is how many of Suggest's quiet moves a descent tries in
	// turn at a child, each with the levels left (1 when 0; at most
	// deepenSuggested, the moves Suggest gives).
	DescendMoves int

	// pool is the proof's goroutines (jobPool): made from Jobs by the
	// outermost ProveOpening, handed to the deepenings' inner proofs.
	pool *jobPool
	// inner marks the proof of a position inside a deepening (deepen), the
	// only place ZoneExtensions applies.
	inner bool
	// unknownCap, when above 0, stops the children's decisions (those in
	// flight cancelled and left out) once that many are left unknown: the
	// best-first search's evaluation of a quiet move (bestfirst.go).
	unknownCap int
	// openNoWin makes a child that is a no-win within the limits (no VCT,
	// or whatever the children's searches cover) count as open, as an
	// unknown one does: it neither ends the decisions nor makes the
	// opening a no-win (the report is unknown), and it counts towards
	// unknownCap. The best-first search's evaluations (bestfirst.go) go
	// on below such a reply with quiet moves, which a search of threats
	// does not cover.
	openNoWin bool
}

// smallZone is the largest pass-proof zone, in defender moves, that earns
// a position one more level of deepening (OpeningOptions.ZoneExtensions).
const smallZone = 4

// OpeningChild is one defender move of an opening and the attacker's
// result after it.
type OpeningChild struct {
	Move engine.Point
	Answer
	// Symmetric is set when the child was decided as the image of an
	// earlier child under a symmetry of the position.
	Symmetric bool
	// Skipped is set for a child left to another shard and not found in
	// the store.
	Skipped bool
	// Repaired is set for a child decided by repairing the pass proof
	// (solver/repair.go), not by a search of the child alone.
	Repaired bool
	// Deepened is set for a child decided by deepening
	// (solver/deepen.go).
	Deepened bool
	// Attempted is set for a child left unknown without a search because
	// the store records an earlier one with no less budget that ended
	// unknown (Solver.Attempted; OpeningOptions.Retry searches it again),
	// and not deepened since (a deepening that fails says so in Stopped).
	Attempted bool
}

// OpeningReport is the result of ProveOpening.
type OpeningReport struct {
	// Status: StatusWin when the certificate is made and checked;
	// StatusNoWin when some child is a no-win within its limits (the
	// opening is not proven under them); StatusUnknown otherwise.
	Status Status
	// Certificate is the checked proof of a win (nil otherwise), and
	// CheckTime the time its check took.
	Certificate *proof.Certificate
	CheckTime   time.Duration
	// Pass is the result of the search after a defender pass; PassZone
	// says whether the children are the pass proof's zone (else every
	// legal defender move), and Legal is the number of legal defender
	// moves.
	Pass     Answer
	PassZone bool
	Legal    int
	// Total is the number of defender moves to decide: the zone's, else
	// Legal (FailFast may stop before Children holds them all).
	Total int
	// Children are the defender moves searched one by one, in order.
	Children []OpeningChild
	// Won, NoWin, Unknown and Skipped count the children by outcome.
	Won, NoWin, Unknown, Skipped int
	// Nodes is the nodes of all searches; Elapsed the wall time.
	Nodes   int64
	Elapsed time.Duration
	// Over, for a no-win decided before any search, says why: the
	// defender threatens five (a four the attacker, to pass, leaves), a
	// five is on the board, or the board is full (a draw); "" otherwise.
	Over string
}

// ProveOpening searches for a whole-board proof that pr.Attacker wins
// pr.Board with the defender to move (pr.ToMove the defender;
// pr.DefenderPasses is ignored). lim applies to each search (the pass
// search and each child's). Errors: ErrAttackerToMove, Problem's and
// Solve's errors, ctx's when cancelled (the report then holds the
// children decided so far).
func (s *Solver) ProveOpening(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions) (rep OpeningReport, err error) {
	start := time.Now()
	defer func() { rep.Elapsed = time.Since(start) }()
	if pr.ToMove == pr.Attacker {
		return rep, ErrAttackerToMove
	}
	pr.DefenderPasses = true
	if _, _, err := pr.check(); err != nil {
		return rep, err
	}
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	att, def := pr.Attacker, pr.Attacker.Opponent()
	switch {
	case b.HasFive(def) || b.HasFive(att):
		rep.Status, rep.Over = StatusNoWin, "a five is on the board: the game is over"
		return rep, nil
	case b.Count(def, engine.FivePoints) > 0:
		rep.Status, rep.Over = StatusNoWin, fmt.Sprintf("the defender, to move, makes five at %v", b.FirstPoint(def, engine.FivePoints))
		return rep, nil
	}
	legal := legalMoves(b, def)
	rep.Legal = len(legal)
	if len(legal) == 0 {
		rep.Status, rep.Over = StatusNoWin, "the board is full: a draw"
		return rep, nil
	}

	pa, err := s.Solve(ctx, pr, ModeWin, lim, opt.SearchProgress)
	pa.ProofNodes = 0
	if pa.Proof != nil {
		pa.ProofNodes = pa.Proof.Len()
	}
	rep.Pass, rep.Nodes = pa, pa.Nodes
	if err != nil {
		return rep, err
	}
	if s.Store != nil {
		if err := s.Store.Flush(); err != nil {
			return rep, err
		}
	}
	children := legal
	var pass *proof.Node
	threat := 0
	if pa.Status == StatusUnknown && !opt.EveryMove {
		rep.Status = StatusUnknown // see OpeningOptions.EveryMove
		return rep, nil
	}
	if pa.Status == StatusWin {
		pass, threat = pa.Proof.Root, pa.Proof.ThreatLimit
		zone, err := checkedZone(ctx, b, pa.Proof, legal)
		if err != nil {
			return rep, err
		}
		children, rep.PassZone = zone, true
	}
	switch {
	case opt.FailFast:
		children = nearestFirst(b, children)
	case opt.inner:
		children = nearestFirst(b, children) // a survey: the farthest first
		slices.Reverse(children)
	}
	if opt.inner && opt.Deepen == 0 && opt.ZoneExtensions > 0 && rep.PassZone && len(children) <= smallZone {
		opt.Deepen, opt.ZoneExtensions = 1, opt.ZoneExtensions-1 // see OpeningOptions.ZoneExtensions
	}
	rep.Total = len(children)
	var passTree *proof.Tree
	if pass != nil {
		passTree = pa.Proof
	}
	rep.Children, err = decideChildren(ctx, s, b, children, att, passTree, lim, opt, &rep)
	if err != nil {
		return rep, err
	}
	switch {
	case rep.NoWin > 0 && !opt.openNoWin:
		rep.Status = StatusNoWin
		return rep, nil
	case rep.Unknown > 0 || rep.Skipped > 0 || rep.NoWin > 0:
		rep.Status = StatusUnknown
		return rep, nil
	}
	cert := &proof.Certificate{Rule: b.Rule(), Size: b.Size(), Attacker: att, Limit: lim.Depth, ThreatLimit: threat}
	t := newProof(pr, 0, 0, nil)
	cert.Black, cert.White = t.Black, t.White
	if len(children) < len(legal) {
		cert.Pass = pass
	}
	for _, ch := range rep.Children {
		cert.Defences = append(cert.Defences, proof.Defence{Move: ch.Move, Answer: ch.Proof.Root})
		cert.ThreatLimit = max(cert.ThreatLimit, ch.Proof.ThreatLimit)
	}
	// the zone came from the same check, so this fails only on a flaw of
	// the searches' proofs: never printed, never stored
	checkStart := time.Now()
	_, err = proof.VerifyCertificate(ctx, cert)
	rep.CheckTime = time.Since(checkStart)
	if err != nil {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		return rep, fmt.Errorf("internal error: the certificate fails its check: %w", err)
	}
	rep.Status, rep.Certificate = StatusWin, cert
	return rep, nil
}

// attemptChild decides the child pr (the defender's move m played) by
// solveChild, unless the store records an earlier search of it within no
// less budget that ended unknown (and opt.Retry is off): it is then
// unknown at once, attempted true, unless the store also holds a win of
// it (a deepening's, after that search), which is returned. A search that ends unknown (not
// cancelled) is recorded as such an attempt. Errors: solveChild's, the
// store's.
func (s *Solver) attemptChild(ctx context.Context, pr Problem, m engine.Point, pass *proof.Tree, lim Limits,
	opt OpeningOptions) (a Answer, repaired, attempted bool, err error) {
	if !opt.Retry {
		at, tried, err := s.Attempted(pr, ModeWin, lim)
		if err == nil && tried {
			// a win stored since the attempt (a deepening's) comes first;
			// without an attempt solveChild reads the store itself
			if a, found, err := s.Stored(pr, ModeWin, lim); err != nil || found && a.Status == StatusWin {
				return a, false, false, err
			}
		}
		if err != nil || tried {
			stopped := fmt.Sprintf("an earlier search within %v", at.Time)
			if at.Time == 0 {
				stopped = fmt.Sprintf("an earlier search within %d nodes", at.Nodes)
			}
			return Answer{Mode: ModeWin, FromStore: true, Result: Result{Status: StatusUnknown, Stopped: stopped}}, false, tried, err
		}
	}
	a, repaired, err = s.solveChild(ctx, pr, m, pass, lim, opt.SearchProgress)
	if err == nil && a.Status == StatusUnknown && ctx.Err() == nil {
		err = s.RememberAttempt(pr, ModeWin, lim)
	}
	return a, repaired, false, err
}

// decideChildren solves the defender moves ms (on b, the defender to
// move) for att, each by repairing the pass proof pass when there is one
// (solveChild), on the goroutines of opt's jobPool (a new one of opt.Jobs
// tokens at the outermost proof; s and siblings, each move on its own
// board), and returns them in the order of ms, with rep's counts and
// nodes added. With opt.FailFast the first move not won cancels those in
// flight (they are left out). A move that is the image of an earlier one under a
// symmetry of the position takes its proof, transformed; a move of
// another shard is read from the store only. A search cut short by ctx is
// left out. Errors: the first search's or store's error, else ctx's.
func decideChildren(ctx context.Context, s *Solver, b *engine.Board, ms []engine.Point, att engine.Color, pass *proof.Tree, lim Limits,
	opt OpeningOptions, rep *OpeningReport) ([]OpeningChild, error) {
	def := att.Opponent()
	out := make([]OpeningChild, len(ms))
	done := make([]bool, len(ms))
	src := make([]int, len(ms))  // per move: -1, or the index of the move it is an image of
	syms := make([]int, len(ms)) // per move: its canonical symmetry
	first := map[uint64]int{}    // canonical key → the first move with it
	var jobs []int
	for k, m := range ms {
		b.Play(m, def)
		h, sym := b.CanonicalHash()
		b.Undo()
		out[k].Move, syms[k], src[k] = m, sym, -1
		if j, ok := first[h]; ok {
			src[k] = j
			continue
		}
		first[h] = k
		jobs = append(jobs, k)
	}
	top := opt.pool == nil
	if top {
		opt.pool = newJobPool(s, opt.Jobs)
	}
	// FailFast: the first child not won cancels the others in flight; in
	// a survey (a deepening's inner opening without FailFast) a no-win
	// does
	wctx, cancel := ctx, context.CancelFunc(func() {})
	if opt.FailFast || opt.inner || opt.unknownCap > 0 {
		wctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	// the searched moves; progress in the order they are decided
	var mu sync.Mutex
	var firstErr error
	decided, unknown := 0, 0
	failed := false // opt.FailFast and a child not won, a survey's no-win, or opt.unknownCap reached
	var cut int64   // the nodes of the children left out, cut short
	opt.pool.run(s, len(jobs), top, func(slv *Solver, i int) bool {
		mu.Lock()
		if firstErr != nil || ctx.Err() != nil || failed {
			mu.Unlock()
			return false
		}
		mu.Unlock()
		k := jobs[i]
		wb := engine.Scratch(b)
		defer engine.Release(wb)
		wb.Play(ms[k], def)
		cpr := Problem{Board: wb, ToMove: att, Attacker: att}
		ch := OpeningChild{Move: ms[k]}
		var err error
		if opt.Shards <= 1 || k%opt.Shards == opt.Shard-1 {
			ch.Answer, ch.Repaired, ch.Attempted, err = slv.attemptChild(wctx, cpr, ms[k], pass, lim, opt)
			if err == nil && ch.Status == StatusUnknown && opt.Deepen > 0 {
				dopt := opt
				if top && opt.Jobs > 1 && opt.Log != nil {
					// the deepenings of several children interleave:
					// each line says whose it is
					log := opt.Log
					dopt.Log = func(l string) { log(fmt.Sprintf("[%v] %s", ms[k], l)) }
				}
				ch.Answer, ch.Deepened, err = slv.deepenChild(wctx, cpr, ms[k], pass, lim, ch.Answer, dopt)
				if ch.Stopped == StoppedDeepenTime || ch.Stopped == StoppedDeepenMoves {
					ch.Attempted = false // deepened now, whatever the store said
				}
			}
			if err == nil && slv.Store != nil {
				err = slv.Store.Flush()
			}
		} else {
			// another shard's move: only what the store holds
			var found bool
			ch.Answer, found, err = slv.Stored(cpr, ModeWin, lim)
			ch.Skipped = err == nil && !found
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil && wctx.Err() != nil && ctx.Err() == nil:
			// cancelled by another child's failure: left out, its nodes
			// counted
			cut += ch.Nodes
		case err != nil:
			if firstErr == nil {
				firstErr = err
			}
		case wctx.Err() == nil || ch.Status != StatusUnknown:
			out[k], done[k] = ch, true
			if (ch.Status == StatusUnknown || opt.openNoWin && ch.Status == StatusNoWin) && !ch.Skipped {
				unknown++
			}
			if opt.FailFast && !ch.Skipped && ch.Status != StatusWin || opt.inner && !opt.openNoWin && ch.Status == StatusNoWin ||
				opt.unknownCap > 0 && unknown >= opt.unknownCap {
				failed = true
				cancel()
			}
			decided++
			if opt.Progress != nil {
				opt.Progress(ch, decided, len(ms))
			}
		default:
			// cut short (ctx ended): left out, its nodes counted
			cut += ch.Nodes
		}
		return firstErr == nil && !failed && ctx.Err() == nil
	})
	// the images: the source's proof to the canonical orientation, then
	// back to this move's
	for k, j := range src {
		if j < 0 || !done[j] {
			continue
		}
		from := out[j]
		ch := OpeningChild{Move: ms[k], Answer: from.Answer, Symmetric: true, Skipped: from.Skipped}
		ch.Nodes, ch.Elapsed, ch.FromStore = 0, 0, false
		if from.Proof != nil {
			root := transformTree(transformTree(from.Proof.Root, syms[j], b.Size()), engine.InverseSymmetry(syms[k]), b.Size())
			b.Play(ms[k], def)
			ch.Proof = newProof(Problem{Board: b, ToMove: att, Attacker: att}, from.Proof.Limit, from.Proof.ThreatLimit, root)
			b.Undo()
			ch.Line = ch.Proof.MainLine()
		}
		out[k], done[k] = ch, true
		if opt.Progress != nil {
			decided++
			opt.Progress(ch, decided, len(ms))
		}
	}
	var list []OpeningChild
	rep.Nodes += cut
	for k, ch := range out {
		if !done[k] {
			continue
		}
		rep.Nodes += ch.Nodes
		list = append(list, ch)
		switch {
		case ch.Skipped:
			rep.Skipped++
		case ch.Status == StatusWin:
			rep.Won++
		case ch.Status == StatusNoWin:
			rep.NoWin++
		default:
			rep.Unknown++
		}
	}
	if firstErr != nil {
		return list, firstErr
	}
	return list, ctx.Err()
}

// legalMoves returns the empty cells of b where c may play (renju's
// forbidden points left out for black), in board order.
func legalMoves(b *engine.Board, c engine.Color) []engine.Point {
	var out []engine.Point
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			if m := engine.PointAt(x, y); b.At(m) == engine.Empty && b.Legal(c, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// nearestFirst returns ms (empty cells of b) sorted by stoneDistance,
// the smallest first, then in ms's order.
func nearestFirst(b *engine.Board, ms []engine.Point) []engine.Point {
	type near struct {
		m engine.Point
		d int
	}
	ds := make([]near, len(ms))
	for i, m := range ms {
		ds[i] = near{m, stoneDistance(b, m)}
	}
	slices.SortStableFunc(ds, func(a, c near) int { return a.d - c.d })
	out := make([]engine.Point, len(ms))
	for i, e := range ds {
		out[i] = e.m
	}
	return out
}

// stoneDistance returns the distance (Chebyshev: the larger of the column
// and row differences) from m to the nearest stone on b, or 1<<30 on an
// empty board.
func stoneDistance(b *engine.Board, m engine.Point) int {
	best := 1 << 30
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if b.At(engine.PointAt(x, y)) != engine.Empty {
				best = min(best, max(x-m.X(), m.X()-x, y-m.Y(), m.Y()-y))
			}
		}
	}
	return best
}

// sibling returns a Solver with s's settings and store and tables of its
// own, of s's size: another worker for ProveOpening. QuietThreats and
// QuietLog are solve's alone and are not copied.
func (s *Solver) sibling() *Solver {
	o := NewSolver(s.totalMiB)
	if s.VCF != nil {
		o.VCF.Shortest = s.VCF.Shortest
	}
	o.Store, o.OneSearch, o.ThreatLimit, o.ShareSolved, o.PassThreats = s.Store, s.OneSearch, s.ThreatLimit, s.ShareSolved, s.PassThreats
	o.CheckpointEvery = s.CheckpointEvery
	return o
}

// checkedZone returns the legal defender moves (of legal, on b with the
// defender to move) that the pass proof pass does not answer, as the
// independent checker finds (proof.PassAnswers, the check a certificate's
// unlisted moves get): the smallest zone there is. It costs one check of
// the pass proof per legal move (the 2,782-move pass proof of freestyle's
// D4 checks in about 20 ms). Errors: ctx's.
func checkedZone(ctx context.Context, b *engine.Board, pass *proof.Tree, legal []engine.Point) ([]engine.Point, error) {
	var zone []engine.Point
	for _, m := range legal {
		err := proof.PassAnswers(ctx, b, pass.Attacker, pass.Limit, pass.ThreatLimit, pass.Root, m)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil {
			zone = append(zone, m)
		}
	}
	return zone, nil
}
