package solver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// Mode is what Solver.Solve searches for.
type Mode uint8

// The modes.
const (
	// ModeVCF: a win by continuous fours.
	ModeVCF Mode = 1
	// ModeVCT: a win by continuous threats (fours and threats of a VCF of
	// up to the threat limit), VCF first.
	ModeVCT Mode = 2
	// ModeWin: any win: VCF, then VCT, then proof-number search over all
	// moves (VCT.AllMoves), within the limits.
	ModeWin Mode = 3
)

// String returns "vcf", "vct" or "win".
func (m Mode) String() string {
	switch m {
	case ModeVCF:
		return "vcf"
	case ModeVCT:
		return "vct"
	case ModeWin:
		return "win"
	}
	return "mode?"
}

// ErrBadMode reports an unknown mode name.
var ErrBadMode = errors.New("unknown mode (want vcf, vct or win)")

// ParseMode reads "vcf", "vct" or "win". The error wraps ErrBadMode.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "vcf":
		return ModeVCF, nil
	case "vct":
		return ModeVCT, nil
	case "win":
		return ModeWin, nil
	}
	return 0, fmt.Errorf("%q: %w", s, ErrBadMode)
}

// DefaultThreatLimit is the threat limit Solve raises VCT searches to when
// Solver.ThreatLimit is zero: threats of a VCF of up to three moves, which
// covers the fukumi of renju problems. A no-win is reported only at this
// limit or above. Without a time or node limit, Solve runs limits 1..3 side
// by side; with one, it widens (MaxAutoThreatLimit).
const DefaultThreatLimit = 3

// MaxThreatLimit is the largest threat limit a VCT search takes: the
// table the side-by-side searches share holds limits up to 15 (share.go),
// and each limit runs as its own search with its own tables, so the
// limit also bounds the searches and the memory a record can ask for.
// Solve refuses a larger one with ErrBadThreatLimit.
const MaxThreatLimit = 15

// ErrBadThreatLimit: a threat limit above MaxThreatLimit.
var ErrBadThreatLimit = fmt.Errorf("threat limit above %d", MaxThreatLimit)

// MaxAutoThreatLimit is how far Solve widens a VCT search when
// Solver.ThreatLimit is zero and the search has a time or node limit: the
// searches of threat limits 2 and MaxAutoThreatLimit start at once, and a
// search that proves no win hands its place to limit 8 again with weak
// proof-number sums, then to 5, 4 and 3 (see autoLimits and portfolio).
// The answer is the first win or the no-win of the largest limit proven. On lfz084's VCT books, two puzzles that limit 3
// disproves in a second are won at limit 4 (lfz-6x6-2/40, lfz-tengu/13),
// and some need threats of a VCF longer than five moves: lfz-gaofei/96 and
// 249, unknown at limit 5 after 40 s, are won at limits 6 to 10 in 3.2 and
// 1.6 s. Each limit alone wins 494, 492, 492 and 493 of the 531 puzzles in
// 10 s (limits 6, 7, 8, 10; limit 5 alone 486).
const MaxAutoThreatLimit = 8

// Solver answers problems one after another with shared tables and, when
// Store is set, a durable store of results consulted before searching. It
// is not safe for concurrent use (it runs goroutines of its own).
type Solver struct {
	VCF *VCF
	// Store, if not nil, is asked before each search and told each result.
	Store *Store
	// OneSearch makes a VCT search run only the largest threat limit
	// instead of all side by side: its no-win covers the smaller limits and
	// it finds their wins too, if later. Where the searches could only take
	// turns (one core per Solver) and a time limit caps every position, as
	// in analyze, this solves more positions in the time (measured on the
	// shared game records); without a time limit a win a small limit finds
	// at once can take the large one very long.
	OneSearch bool
	// ThreatLimit is the largest threat limit of a VCT search: Solve runs
	// one search per limit 1, 2, ... ThreatLimit at once and reports the
	// first win. Zero means DefaultThreatLimit, or with a time or node
	// limit the automatic schedule up to MaxAutoThreatLimit (autoLimits: 2
	// and 8 at once, a search that proves no win handing its place to 5,
	// then 4, then 3).
	ThreatLimit int
	// ShareSolved makes the searches of a VCT portfolio share their solved
	// nodes and the attacker's VCF table (see portfolio). Off by default:
	// the sharing makes the slow wins depend on how the searches' progress
	// interleaves, and on lfz084's VCT books at 10 s each it solved fewer
	// (501 and 502 within the time, against 504 without, 2026-11-25).
	ShareSolved bool
	// PassThreats turns on the threats of order 3 in ModeWin's search
	// over all moves (VCT.PassThreats). A proof whose pass proofs fail the
	// check is never reported: the search then runs again without them.
	PassThreats bool
	// QuietThreats makes ModeWin, when its VCT proves that there is no VCT
	// (the attacker to move, not after a pass), try QuietThreat with the
	// time and nodes left before its search over all moves: a quiet move
	// that threatens a VCT, proven whole-board (quiet.go). Its nodes and
	// time come off the search over all moves' share.
	QuietThreats bool
	// QuietLog, when set, receives QuietThreats' steps: the moves probed
	// and their zones, each move tried and its round.
	QuietLog func(string)
	// CheckpointEvery, with a Store, makes a search over all moves (ModeWin's
	// last step) write a checkpoint of its table to the store at this
	// interval, and when it ends unknown (checkpoint.go); 0 writes none. A
	// search with a Store resumes from a checkpoint of the same problem
	// and limits whenever the store holds one.
	CheckpointEvery time.Duration

	totalMiB int          // NewSolver's mib (0: the zero Solver's default)
	mib      int          // memory of all VCT tables, MiB
	vcts     []*VCT       // per portfolio slot, each with vctsMiB (see vct)
	vctsMiB  int          // a 1/len(vcts) share of mib, less shared's with ShareSolved
	shared   *sharedTable // the portfolio's table of solved nodes, 1/sharedFraction of mib
}

// NewSolver returns a Solver whose tables take about mib MiB in all
// (DefaultMemoryMiB when 0): a quarter for VCF, the rest for the VCT
// searches running side by side: an eighth of it for the table of solved
// nodes they share, the others each a share by the number of them.
func NewSolver(mib int) *Solver {
	if mib <= 0 {
		mib = DefaultMemoryMiB
	}
	return &Solver{VCF: NewVCF(max(1, mib/4)), mib: max(1, mib-mib/4), totalMiB: mib}
}

// vct returns the VCT searcher of portfolio slot t (1-based) when n slots
// run side by side, its tables a 1/n share of the memory, less the shared
// table's (sharedFraction) with ShareSolved. The searchers are made when
// first needed, and all made again when their share changes, so that the
// tables never add up to more than the Solver's memory.
func (s *Solver) vct(t, n int) *VCT {
	if s.mib == 0 {
		s.mib = DefaultMemoryMiB * 3 / 4
	}
	mib := s.mib
	if s.ShareSolved {
		mib -= s.mib / sharedFraction
	}
	mib = max(1, mib/n)
	if n != len(s.vcts) || mib != s.vctsMiB {
		s.vcts, s.vctsMiB = make([]*VCT, n), mib
	}
	if s.vcts[t-1] == nil {
		s.vcts[t-1] = NewVCT(mib)
	}
	return s.vcts[t-1]
}

// Answer is a solved problem: the result, the proof of a win (VCF lines as a
// chain of fours), and how it was reached.
type Answer struct {
	Result
	Proof *proof.Tree
	// Mode is the search that decided: ModeVCF when a VCF was found even
	// in a VCT search.
	Mode Mode
	// ThreatLimit is, for a VCT win, the threat limit it was proven with;
	// for a VCT no-win, the largest one searched.
	ThreatLimit int
	// FromStore says the answer was read from the store.
	FromStore bool
}

// Solve searches pr in mode within lim. A VCT search looks for a VCF first,
// then for a VCT with threat limits 1, 2, ... ThreatLimit, the budget
// shared; its no-win holds for the largest limit. Wins come with a proof
// that has passed proof.Verify (VCF lines: Verify). Errors are those of
// VCF.Search and VCT.Prove, and store errors.
func (s *Solver) Solve(ctx context.Context, pr Problem, mode Mode, lim Limits, progress ProgressFunc) (Answer, error) {
	if _, _, err := pr.check(); err != nil {
		return Answer{}, err
	}
	if s.ThreatLimit > MaxThreatLimit || s.ThreatLimit < 0 {
		return Answer{}, fmt.Errorf("%w: %d", ErrBadThreatLimit, s.ThreatLimit)
	}
	tmax := s.ThreatLimit
	if tmax <= 0 {
		tmax = DefaultThreatLimit
	}
	key, sym, a, found, err := s.stored(pr, mode, lim)
	if err != nil || found {
		return a, err
	}
	a, err = s.search(ctx, pr, mode, tmax, lim, progress)
	if err != nil || s.Store == nil || a.Status == StatusUnknown {
		return a, err
	}
	return a, s.rememberAt(key, sym, pr, mode, lim, a)
}

// remember writes a decided answer a for pr to the store (none: nothing),
// as Solve does with its results: a win with its proof in the canonical
// orientation and the depth it holds within, a no-win with the limit it
// holds under. Errors: the store's.
func (s *Solver) remember(pr Problem, mode Mode, lim Limits, a Answer) error {
	if s.Store == nil {
		return nil
	}
	key, sym := s.storeKeyOf(pr, mode)
	return s.rememberAt(key, sym, pr, mode, lim, a)
}

// rememberAt is remember with pr's key and symmetry already known.
func (s *Solver) rememberAt(key storeKey, sym int, pr Problem, mode Mode, lim Limits, a Answer) error {
	e := storeEntry{status: a.Status, end: a.End, shortest: a.Shortest, threat: a.ThreatLimit}
	if a.Mode == ModeVCF {
		e.threat = 0
	}
	switch a.Status {
	case StatusWin:
		// the proof holds within the search's limit (proof.Verify checked it
		// there) and within RequiredDepth, an upper bound from the tree
		e.depth = a.Proof.RequiredDepth()
		if lim.Depth > 0 && lim.Depth < e.depth {
			e.depth = lim.Depth
		}
		e.proof = transformTree(a.Proof.Root, sym, pr.Board.Size())
	case StatusNoWin:
		e.depth = a.Proven.Depth
	}
	if mode != ModeVCF && a.Status == StatusWin {
		e.shortest = false
	}
	_, err := s.Store.put(key, e)
	return err
}

// Stored is Solve's reading of the store alone: the answer the store holds
// for pr in mode that serves within lim, and true; false when the store
// holds none (or the Solver has no store). Errors: Problem's, the store's,
// and a stored proof that does not replay (*ReplayError).
func (s *Solver) Stored(pr Problem, mode Mode, lim Limits) (Answer, bool, error) {
	if _, _, err := pr.check(); err != nil {
		return Answer{}, false, err
	}
	_, _, a, found, err := s.stored(pr, mode, lim)
	return a, found, err
}

// stored looks pr up in the store: its key and canonical symmetry (zero
// without a store), and the stored answer if one serves within lim.
func (s *Solver) stored(pr Problem, mode Mode, lim Limits) (key storeKey, sym int, a Answer, found bool, err error) {
	if s.Store == nil {
		return key, 0, Answer{}, false, nil
	}
	key, sym = s.storeKeyOf(pr, mode)
	start := time.Now()
	for _, status := range [2]Status{StatusWin, StatusNoWin} {
		e, ok, err := s.Store.get(key, status)
		if err != nil {
			return key, sym, Answer{}, false, err
		}
		if ok {
			if a, usable, err := s.fromStore(pr, mode, lim, e, sym); err != nil || usable {
				a.Elapsed = time.Since(start)
				return key, sym, a, err == nil, err
			}
		}
	}
	return key, sym, Answer{}, false, nil
}

// storeKeyOf returns pr's key in the store under mode, and its canonical
// symmetry (8 reads per stone).
func (s *Solver) storeKeyOf(pr Problem, mode Mode) (storeKey, int) {
	h, sym := pr.Board.CanonicalHash()
	key := storeKey{rule: pr.Board.Rule(), size: pr.Board.Size(), attacker: pr.Attacker,
		passes: pr.ToMove != pr.Attacker, mode: mode, hash: h}
	if mode != ModeVCF {
		key.threat = max(0, s.ThreatLimit) // 0: the automatic limit
	}
	return key, sym
}

// search runs the searches of a mode.
func (s *Solver) search(ctx context.Context, pr Problem, mode Mode, tmax int, lim Limits, progress ProgressFunc) (Answer, error) {
	start := time.Now()
	if s.VCF == nil {
		s.VCF = NewVCF(DefaultMemoryMiB / 4)
	}
	shortest := s.VCF.Shortest
	if mode != ModeVCF {
		s.VCF.Shortest = false // any VCF proves a VCT; its length is not the point
	}
	res, err := s.VCF.Search(ctx, pr, lim, progress)
	s.VCF.Shortest = shortest
	if err != nil {
		return Answer{}, err
	}
	if res.Status == StatusWin {
		return Answer{Result: res, Mode: ModeVCF, Proof: newProof(pr, lim.Depth, 0, vcfChain(res.Line))}, nil
	}
	if mode == ModeVCF || res.Status == StatusUnknown {
		return Answer{Result: res, Mode: ModeVCF}, nil
	}
	// the VCT searches get what the VCF search left
	vlim, stopped := remaining(lim, start, res.Nodes)
	if stopped != "" {
		return Answer{Result: Result{Status: StatusUnknown, Stopped: stopped, Nodes: res.Nodes,
			Elapsed: time.Since(start)}, Mode: ModeVCT, ThreatLimit: tmax}, nil
	}
	widen := mode == ModeVCT && s.ThreatLimit <= 0 && (lim.Time > 0 || lim.Nodes > 0)
	a, err := s.portfolio(ctx, pr, tmax, widen, vlim, progress)
	if err != nil {
		return Answer{}, err
	}
	if a.Status == StatusWin && a.Proof != nil && isVCF(pr, a.Proof.Root, a.Line) {
		a.Mode = ModeVCF // a proof of fours alone is a VCF the VCF search's budget missed
	}
	a.Nodes += res.Nodes
	a.Elapsed = time.Since(start)
	if mode != ModeWin || a.Status == StatusWin {
		return a, nil
	}
	nodes := a.Nodes
	// unknown is ModeWin's answer when a limit (stopped) ends it before
	// the search over all moves has answered
	unknown := func(stopped string) (Answer, error) {
		return Answer{Result: Result{Status: StatusUnknown, Stopped: stopped, Nodes: nodes,
			Elapsed: time.Since(start)}, Mode: ModeWin, ThreatLimit: tmax}, nil
	}
	if ctx.Err() != nil {
		// no VCT is not yet no win: the search over all moves never ran
		return unknown("cancelled")
	}
	// no VCT: proof-number search over all moves with what is left
	sub, stopped := remaining(lim, start, nodes)
	if stopped != "" {
		return unknown(stopped)
	}
	if s.QuietThreats && a.Status == StatusNoWin && !pr.DefenderPasses {
		q, err := s.QuietThreat(ctx, pr, sub, s.QuietLog)
		if err != nil {
			return Answer{}, err
		}
		nodes += q.Nodes
		if q.Status == StatusWin {
			q.Nodes, q.Elapsed = nodes, time.Since(start)
			return q, nil
		}
		if ctx.Err() != nil {
			return unknown("cancelled")
		}
		if sub, stopped = remaining(lim, start, nodes); stopped != "" {
			return unknown(stopped)
		}
	}
	// the portfolio's first searcher, its table at the share it had there
	v := s.vct(1, len(s.vcts))
	v.ThreatLimit, v.AllMoves, v.PassThreats = tmax, true, s.PassThreats
	if v.ckpt, err = s.checkpointer(pr, tmax); err != nil {
		return Answer{}, err
	}
	defer func() { v.ckpt = nil }()
	r, proof, err := v.Prove(ctx, pr, sub, progress)
	var replay *ReplayError
	if v.PassThreats && errors.As(err, &replay) {
		// a pass proof's zone the search computed too small (the check
		// replays the pass proof under every move left out): nothing is
		// claimed, and the search runs again answering every move, with
		// what is left
		nodes += r.Nodes
		if sub, stopped = remaining(lim, start, nodes); stopped != "" {
			v.AllMoves, v.PassThreats = false, false
			return unknown(stopped)
		}
		v.PassThreats = false
		r, proof, err = v.Prove(ctx, pr, sub, progress)
	}
	v.AllMoves, v.PassThreats = false, false
	if err != nil {
		return Answer{}, err
	}
	r.Nodes, r.Elapsed = nodes+r.Nodes, time.Since(start)
	return Answer{Result: r, Proof: proof, Mode: ModeWin, ThreatLimit: tmax}, nil
}

// remaining is what lim leaves of its time after start and of its nodes
// after nodes spent (its depth unchanged), or the limit used up, "time" or
// "nodes" (then the Limits are not to be used); "" when some is left.
func remaining(lim Limits, start time.Time, nodes int64) (Limits, string) {
	if lim.Time > 0 {
		if lim.Time -= time.Since(start); lim.Time <= 0 {
			return lim, "time"
		}
	}
	if lim.Nodes > 0 {
		if lim.Nodes -= nodes; lim.Nodes <= 0 {
			return lim, "nodes"
		}
	}
	return lim, ""
}

// portfolio runs VCT searches of several threat limits at once, each in its
// own goroutine with its own table and the whole time limit; the node limit
// is split into one share per search. The limits and how many run at once
// are those of portfolioLimits: without widen, 1..tmax (or tmax alone with
// Solver.OneSearch). A small limit finds its wins soonest, a large one finds
// the wins the small ones cannot; on a machine with more than one core
// running them side by side costs little.
//
// With widen, the searches are a relay: a search that proves no win at
// limit t, or that a no-win at a larger limit made pointless, hands its
// table, the rest of its node share and the time left to the next limit not
// yet started and not covered by a no-win (autoLimits, or with OneSearch
// the limits above tmax up to MaxAutoThreatLimit). Threat limit 2 often
// proves no win within a second, and its core then goes to limit 8 with
// weak sums, then to limit 5, while 8 still runs (lfz-gaofei/239: limit 4
// alone wins in 0.5 s, limit 3 runs out of 30 s).
//
// With Solver.ShareSolved the searches share their solved nodes
// (sharedTable, an eighth of the Solver's VCT memory): a search reads the
// disproofs of the larger limits and the proofs of the smaller ones. They
// also share the attacker's VCF table (the first slot's; a VCF result does
// not depend on the threat limit; the other slots' own VCF tables then sit
// unused), so the threat tests and defence checks of one search answer
// those of the other where their trees meet. Not under a node limit
// without a time limit: what one search finds in the table would then
// depend on how the goroutines were scheduled, and so would the answer,
// which a node limit keeps reproducible. Measured with limit 5 run for
// 10 s and then limit 4 on its table, on 15 lfz084 puzzles that limit 4
// alone wins in 3-9 s: limit 4 took 76 s in all (45M nodes) against 98 s
// (58M) without the table. But side by side the sharing makes a slow win
// a matter of timing: lfz-gaofei/148, which limit 2 alone wins in 4.05M
// nodes (5.5 s), was unknown after 30-40 s in two portfolio runs of three
// (limit 2 there searched 23M nodes, steered elsewhere by the sound
// disproofs it read from limit 8), and won in 6.5 s in three of three
// without the sharing. On lfz084's VCT books at 10 s each the portfolio
// solved 504 within the time without it, against 501 and 502 with it
// (2026-11-25), so it is off by default.
//
// Once a search proves its root, the others are stopped and no limit is
// started until it returns: its proof is then built and checked
// (proof.Verify, on every core) without sharing the cores, which for a proof
// of tens of thousands of moves takes a second or more.
//
// It returns the first win; else the no-win of the largest limit proven,
// when that is tmax or more (a search covers the threats of the smaller
// limits, so it is cancelled once a larger limit proves no win); else
// unknown. Progress is reported by the search started last.
//
// Before any goroutine starts, a quick pass (quickPass) tries the first
// limit, or tmax when the limits do not widen, for quickPassNodes nodes on
// the calling goroutine: most problems of a game's analysis and of quick
// puzzles end there, without the side-by-side searches' setup.
func (s *Solver) portfolio(ctx context.Context, pr Problem, tmax int, widen bool, lim Limits, progress ProgressFunc) (Answer, error) {
	queue, slots := portfolioLimits(tmax, widen, s.OneSearch)
	var passNodes int64
	if slots > 1 {
		start := time.Now()
		a, done, err := s.quickPass(ctx, pr, tmax, widen, queue, slots, lim)
		if err != nil || done {
			return a, err
		}
		passNodes = a.Nodes
		if a.Status == StatusNoWin {
			// the first limit, proven to have no win: the wider ones follow
			queue = slices.DeleteFunc(queue, func(t int) bool { return t&^weakFlag <= a.ThreatLimit })
		}
		if lim.Nodes > 0 {
			if lim.Nodes <= passNodes {
				return Answer{Result: Result{Status: StatusUnknown, Stopped: "nodes", Nodes: passNodes}, Mode: ModeVCT,
					ThreatLimit: tmax}, nil
			}
			lim.Nodes -= passNodes
		}
		if lim.Time > 0 {
			if lim.Time -= time.Since(start); lim.Time <= 0 {
				return Answer{Result: Result{Status: StatusUnknown, Stopped: "time", Nodes: passNodes}, Mode: ModeVCT,
					ThreatLimit: tmax}, nil
			}
		}
		if len(queue) == 0 {
			return a, nil
		}
	}
	var a Answer
	var err error
	if len(queue) == 1 {
		// one limit left: on the calling goroutine, without the side-by-side
		// searches' goroutine, channels and contexts, which in a fresh
		// process cost more than a small problem's search (quintet's
		// vct_counter, threat limit 1, 75 nodes: 0.36 ms cold against 0.25)
		a, err = s.alone(ctx, pr, queue[0], slots, lim, progress)
	} else {
		a, err = s.runPortfolio(ctx, pr, tmax, queue, slots, lim, progress)
	}
	a.Nodes += passNodes
	return a, err
}

// alone runs the VCT of the schedule entry (a threat limit, plus weakFlag
// for VCT.WeakNumbers) on the calling goroutine, on the first slot's
// searcher of a portfolio of slots (its tables kept), sharing nothing with
// other searches.
func (s *Solver) alone(ctx context.Context, pr Problem, entry, slots int, lim Limits, progress ProgressFunc) (Answer, error) {
	t := entry &^ weakFlag
	v := s.vct(1, slots)
	v.ThreatLimit, v.AllMoves, v.WeakNumbers = t, false, entry&weakFlag != 0
	v.proven, v.shared, v.sharedVCF = nil, nil, nil
	res, proof, err := v.Prove(ctx, pr, lim, progress)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Result: res, Proof: proof, Mode: ModeVCT, ThreatLimit: t}, nil
}

// quickPassNodes bounds the quick pass of portfolio, in VCF nodes: a few ms
// at most. The quick cases of quintet's set take 12 to 216 nodes.
const quickPassNodes = 1000

// quickPass runs portfolio's quick pass: the limit queue[0], or tmax when
// the limits do not widen, on the first slot's searcher within
// quickPassNodes nodes. done says its answer is final: a win, or a no-win at
// tmax or more without widening. Otherwise the answer carries its nodes and,
// for a no-win, the limit proven.
func (s *Solver) quickPass(ctx context.Context, pr Problem, tmax int, widen bool, queue []int, slots int,
	lim Limits) (Answer, bool, error) {
	t := queue[0] &^ weakFlag
	if !widen {
		t = tmax
	}
	quick := lim
	quick.Nodes = quickPassNodes
	if lim.Nodes > 0 {
		quick.Nodes = min(lim.Nodes, quickPassNodes)
	}
	a, err := s.alone(ctx, pr, t, slots, quick, nil)
	if err != nil {
		return Answer{}, true, err
	}
	return a, a.Status == StatusWin || a.Status == StatusNoWin && !widen && t >= tmax, nil
}

// runPortfolio is portfolio after its quick pass: the limits of queue on
// slots searches side by side.
func (s *Solver) runPortfolio(ctx context.Context, pr Problem, tmax int, queue []int, slots int, lim Limits,
	progress ProgressFunc) (Answer, error) {
	type attempt struct {
		t, slot int
		res     Result
		proof   *proof.Tree
		err     error
	}
	start := time.Now()
	slots = min(slots, len(queue))
	share := lim.Nodes / int64(slots) // per slot; 0 when unlimited
	if lim.Nodes > 0 {
		share = max(1, share)
	}
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	out := make(chan attempt, slots)
	proven := make(chan int, 1)      // a slot whose search proved a win
	vcts := make([]*VCT, slots)      // each slot's searcher (its table)
	cancels := make([]func(), slots) // each slot's running search
	limits := make([]int, slots)     // each slot's threat limit
	left := make([]int64, slots)     // each slot's nodes left (with a node limit)
	dominated := make([]bool, slots) // cancelled by a larger limit's no-win
	var top atomic.Int32             // the largest limit started: it reports
	var reportMu sync.Mutex
	launch := func(slot, entry int) {
		t, weak := entry&^weakFlag, entry&weakFlag != 0
		v := vcts[slot]
		v.ThreatLimit, v.AllMoves, v.WeakNumbers = t, false, weak
		limits[slot], dominated[slot] = t, false
		top.Store(int32(t))
		mine := lim
		mine.Nodes = left[slot]
		if lim.Time > 0 {
			// a goroutine may start late (on one core it waits for the
			// others' time slices): its time limit runs from the portfolio's
			// start all the same
			mine.Time = max(lim.Time-time.Since(start), time.Millisecond)
		}
		var report ProgressFunc
		if progress != nil {
			report = func(p Progress) {
				if int(top.Load()) == t {
					reportMu.Lock()
					progress(p)
					reportMu.Unlock()
				}
			}
		}
		sctx, cancel := context.WithCancel(ctx)
		cancels[slot] = cancel
		v.proven = func() {
			if sctx.Err() != nil {
				return // stopped already: its proof will not be built
			}
			select {
			case proven <- slot:
			default: // a win already stops the others
			}
		}
		go func() {
			res, proof, err := v.Prove(sctx, pr, mine, report)
			out <- attempt{t, slot, res, proof, err}
		}()
	}
	// with a node limit alone the answer must not depend on how the
	// goroutines are scheduled, so the searches then share nothing
	var shared *sharedTable
	if s.ShareSolved && (lim.Time > 0 || lim.Nodes == 0) {
		if s.shared == nil {
			s.shared = newSharedTable(max(1, s.mib/sharedFraction))
		}
		shared = s.shared
		shared.nextGeneration()
	}
	for slot := range slots {
		vcts[slot] = s.vct(slot+1, slots)
		vcts[slot].shared = shared
	}
	if shared != nil {
		// the attacker's VCF table too: the first slot's, one generation
		vcf := vcts[0].vcf
		vcf.full() // shared: its slots must not move under the other searches
		vcf.nextGeneration()
		for _, v := range vcts {
			v.sharedVCF = vcf
		}
	}
	for slot := range slots {
		left[slot] = share
		launch(slot, queue[slot])
	}
	defer func() {
		for _, v := range vcts {
			v.proven, v.shared, v.sharedVCF = nil, nil, nil
		}
	}()
	queue = queue[slots:] // the limits not yet started, in order
	noWinMax := 0         // the largest limit proven to have no win
	running := slots
	var win, noWin *attempt
	var nodes int64
	var firstErr error
	stopped := ""
	building := -1 // the slot whose proof is being built, if any
	for running > 0 {
		var a attempt
		select {
		case slot := <-proven:
			if building >= 0 {
				continue // a proof is already built: the later one was stopped
			}
			// the proof is built and checked next: give it the cores
			building = slot
			for other, cancel := range cancels {
				if other != slot {
					cancel() // a no-op for a search that has returned
				}
			}
			continue
		case a = <-out:
		}
		running--
		cancels[a.slot]()
		if a.slot == building {
			building = -1
		}
		nodes += a.res.Nodes
		if lim.Nodes > 0 {
			left[a.slot] -= a.res.Nodes
		}
		free := false // the slot may take the next limit
		switch {
		case a.err != nil:
			if firstErr == nil {
				firstErr = a.err
			}
			cancelAll()
		case a.res.Status == StatusWin:
			if win == nil {
				win = &a
			}
			cancelAll() // the others' answers are not needed
		case a.res.Status == StatusNoWin:
			if a.t >= tmax && (noWin == nil || a.t > noWin.t) {
				noWin = &a
			}
			for slot, t := range limits {
				if t <= a.t && slot != a.slot {
					dominated[slot] = true
					cancels[slot]()
				}
			}
			noWinMax = max(noWinMax, a.t)
			free = true
		case a.res.Stopped == "cancelled" && dominated[a.slot]:
			free = true
		case a.res.Stopped != "cancelled" && stopped == "":
			stopped = a.res.Stopped
		}
		limits[a.slot] = 0
		for len(queue) > 0 && queue[0]&^weakFlag <= noWinMax {
			queue = queue[1:] // covered by a larger limit's no-win
		}
		if free && building < 0 && len(queue) > 0 && ctx.Err() == nil && (lim.Nodes == 0 || left[a.slot] > 0) &&
			(lim.Time == 0 || time.Since(start) < lim.Time) {
			launch(a.slot, queue[0])
			queue = queue[1:]
			running++
		}
	}
	if firstErr != nil {
		return Answer{}, firstErr
	}
	best := win
	if best == nil {
		best = noWin
	}
	if best == nil {
		if stopped == "" {
			stopped = "cancelled"
		}
		return Answer{Result: Result{Status: StatusUnknown, Stopped: stopped, Nodes: nodes}, Mode: ModeVCT,
			ThreatLimit: tmax}, nil
	}
	r := best.res
	r.Nodes = nodes
	return Answer{Result: r, Proof: best.proof, Mode: ModeVCT, ThreatLimit: best.t}, nil
}

// autoLimits is the order in which an automatic VCT search (Solver.ThreatLimit
// zero, with a time or node limit) starts its threat limits: the first
// max(2, GOMAXPROCS) at once, the rest as searches prove no win. A narrow
// limit finds the wins it can soonest, a wide one finds the others, and on
// two cores two searches at full speed do better than three sharing them.
// Measured on lfz084's 531 VCT puzzles, each limit alone at 10 s on one
// core of this 2-core machine (limits 1..5: 338, 453, 484, 485, 486 won;
// 501 won by some limit), then the schedules simulated on those times: 1, 2
// and 3 at once with the relay to 4 and 5 (the schedule before) 491, and
// 492 in the real run; 2 and 5, then 4, then 3: 498 (500 and 501 in the
// real runs, the searches sharing their solved nodes); 2 and 4 then 5: 497;
// 2 and 3 then 4 and 5: 495. Limit 1 wins nothing 2 does not win as soon.
// With the wider limits (each alone at 10 s: 6, 7, 8 and 10 win 494, 492,
// 492 and 493): 2 and 8, then 5, 4, 3: 499 simulated, 502 in the real run
// (2026-11-25: gaofei/63, 96, 236 and 249 gained, 96 and 249 unknown at
// limit 5 after 40 s; 137 and 171 lost); 2 and 10, then 4, 3: 501 in both;
// 2 and 6, then 4, 3: 500 simulated.
//
// The third entry is limit 8 again with weak proof-number sums
// (VCT.WeakNumbers), started when a search ends (most often limit 2's
// no-win): it orders the same threat space differently and wins other
// puzzles. The books at 10 s each, 2026-12-02 (19:33–20:07, one after the
// other on the same machine): without it 508 (the schedule 2 and 8, then
// 5, 4, 3); with it here 510 (gaofei/141 in 7.3 s and 246 in 9.6 s won,
// none lost); with limit 8 weak in place of the plain one, 508 (141, 228
// and 246 won, 96, 184 and 249 lost: plain limit 8 wins those in 1.5–5.8
// s); with limits 5 and 8 weak, 502 (six more lost).
var autoLimits = []int{2, MaxAutoThreatLimit, MaxAutoThreatLimit | weakFlag, 5, 4, 3}

// weakFlag marks an entry of autoLimits whose search runs with
// VCT.WeakNumbers: the entry is the threat limit plus weakFlag (above
// MaxThreatLimit).
const weakFlag = 64

// portfolioLimits returns the threat limits portfolio starts, in order, and
// how many of them run at once (slots, at least 1): with widen and without
// oneSearch, autoLimits on max(2, GOMAXPROCS) slots; otherwise 1..tmax (or
// tmax alone with oneSearch) at once, followed with widen by the larger
// limits up to MaxAutoThreatLimit, one by one.
func portfolioLimits(tmax int, widen, oneSearch bool) (queue []int, slots int) {
	if widen && !oneSearch {
		return slices.Clone(autoLimits), min(len(autoLimits), max(2, runtime.GOMAXPROCS(0)))
	}
	first, last := 1, tmax
	if oneSearch {
		first = tmax
	}
	if widen {
		last = max(tmax, MaxAutoThreatLimit)
	}
	for t := first; t <= last; t++ {
		queue = append(queue, t)
	}
	return queue, tmax - first + 1
}

// fromStore turns a stored entry into an answer if it holds under lim: a
// win found within at most the limit's attacker moves, or a no-win proven
// under at least the limit (or at every length). The proof is mapped back
// from the canonical orientation (sym is the position's canonical symmetry)
// and its main line replayed before the answer is returned.
func (s *Solver) fromStore(pr Problem, mode Mode, lim Limits, e storeEntry, sym int) (Answer, bool, error) {
	a := Answer{Mode: mode, FromStore: true}
	a.Status, a.End, a.Shortest, a.ThreatLimit = e.status, e.end, e.shortest, e.threat
	switch e.status {
	case StatusWin:
		if lim.Depth > 0 && e.depth > lim.Depth {
			return a, false, nil
		}
		if mode == ModeVCF && s.VCF != nil && s.VCF.Shortest && !e.shortest {
			return a, false, nil
		}
		root := transformTree(e.proof, engine.InverseSymmetry(sym), pr.Board.Size())
		a.Proof = newProof(pr, lim.Depth, max(0, e.threat), root)
		a.Line = a.Proof.MainLine()
		if err := replayMainLine(pr, a.Line); err != nil {
			return a, false, &ReplayError{Line: a.Line, Err: fmt.Errorf("stored proof: %w", err)}
		}
		a.ProofNodes = a.Proof.Len()
		if isVCF(pr, root, a.Line) {
			a.Mode, a.ThreatLimit, a.Proof.ThreatLimit = ModeVCF, 0, 0
		} else if e.threat < 0 {
			return a, false, nil // a version 1 value: the proof's threat limit is not known, so search again
		}
	case StatusNoWin:
		limit := lim.Depth
		if limit <= 0 && mode != ModeVCF {
			limit = maxVCTDepth
		}
		if e.depth != 0 && (limit <= 0 || limit > e.depth) {
			return a, false, nil
		}
		if mode != ModeVCF && e.threat < 0 {
			return a, false, nil // a version 1 value: the threat limit searched is not known
		}
		a.Proven = Limits{Depth: e.depth}
	default:
		return a, false, nil
	}
	return a, true, nil
}

// isVCF reports whether a proof tree (root, with main line line) proves a
// VCF: a single line whose every attacker move is a four or a five.
func isVCF(pr Problem, root *proof.Node, line []engine.Point) bool {
	return isChain(root) && foursOnly(pr, line)
}

// foursOnly reports whether every attacker move of a line (attacker first,
// alternating) is a four or a five when it is played.
func foursOnly(pr Problem, line []engine.Point) bool {
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	c := pr.Attacker
	for i, m := range line {
		if i%2 == 0 && b.Threat(c, m) < engine.ThreatFour {
			return false
		}
		b.Play(m, c)
		c = c.Opponent()
	}
	return true
}

// isChain reports whether a proof tree is a single line.
func isChain(n *proof.Node) bool {
	for ; n != nil; n = n.Defences[0].Answer {
		if n.Pass != nil || len(n.Defences) > 1 {
			return false
		}
		if len(n.Defences) == 0 {
			return true
		}
	}
	return true
}

// transformTree maps every move of a proof tree through symmetry k.
func transformTree(n *proof.Node, k, size int) *proof.Node {
	if n == nil {
		return nil
	}
	out := &proof.Node{Move: engine.Transform(n.Move, k, size)}
	for _, d := range n.Defences {
		out.Defences = append(out.Defences, proof.Defence{Move: engine.Transform(d.Move, k, size),
			Answer: transformTree(d.Answer, k, size)})
	}
	out.Pass = transformTree(n.Pass, k, size)
	return out
}

// replayMainLine plays a main line on a fresh copy of the board: every move
// on an empty point, legal for its side, and the last position a certain
// win for the attacker (a five, two five-points, a forbidden block, or a
// threat the defender cannot meet, which proof.Verify checked when the proof
// was made).
func replayMainLine(pr Problem, line []engine.Point) error {
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	for i, m := range line {
		c := pr.Attacker
		if i%2 == 1 {
			c = c.Opponent()
		}
		if !b.OnBoard(m) || b.At(m) != engine.Empty || !b.Legal(c, m) {
			return fmt.Errorf("move %d (%v) is not legal", i+1, m)
		}
		b.Play(m, c)
		if b.LastMoveWon() && i != len(line)-1 {
			return fmt.Errorf("move %d (%v) ends the game but the line goes on", i+1, m)
		}
	}
	if len(line)%2 == 0 {
		return errors.New("the line ends on a defender move")
	}
	return nil
}
