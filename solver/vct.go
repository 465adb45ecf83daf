package solver

import (
	"context"
	"errors"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// VCT searches for a victory by continuous threats: every attacker move is a
// four, or a quiet move that threatens to win by a VCF of at most
// ThreatLimit attacker moves if the defender does nothing (an open three
// threatens a straight four: a VCF of one move). It proves or refutes that
// with depth-first proof-number search (df-pn, Nagai 2002, with the 1+ε
// threshold trick of Pawlewicz and Lew 2007) over the AND/OR tree:
//
//   - OR nodes (attacker to move, d attacker moves left): a five-point wins;
//     a VCF within d wins (searched first, with the VCF solver); if the
//     defender has a four, the attacker's only move is the block; otherwise
//     the moves are the fours and every move that could be a threat (cells
//     whose line patterns can become the threat, see threatCandidates).
//   - AND nodes (defender to move, after the attacker's move): a five, two
//     five-points or a forbidden block win; after a four the only defence is
//     its five-point; after a quiet move the attacker must have a VCF of at
//     most min(ThreatLimit, d) moves if the defender passes (else the move
//     was no threat and the node is lost), and the defences are exactly the
//     defender's legal moves after which that VCF no longer exists
//     (defences), counter-fours included. In renju black's forbidden replies
//     are not moves.
//
// A child not yet searched starts with proof number 1 after a defence or
// a four-three, fourPN after another four and quietPN after a quiet move, plus one per
// rankStep places down the attacker's ordered moves (and deferStep more
// per place from the deferFrom-th on, at threat limits of deferThreat and
// more); without a depth limit, plus one per depthPNStep
// plies below the root, so that short wins are proven before long forcing
// lines are followed.
//
// The defences are computed exactly: a superset is drawn from the threat's
// VCF line (its points, the cells where a defender stone could make a four
// with a forced block, the defender's own fours, and around a forbidden
// block), and each candidate is kept only if the VCF then fails. A defender
// move outside the superset leaves that VCF line playable, so it loses.
// Past testedDefences confirmed defences the rest of the candidates are kept
// untested (a non-defence among them is proven at once by its VCF), and a
// proof lists only the real defences.
//
// When one defence of a defender node is refuted, the search first tries to
// refute each other one by repeating that proof (simulate, Kawano 1996),
// before it searches it.
//
// The defender's own VCF. A quiet move forces nothing, so a defender with a
// VCF of its own ignores the threat and wins first. Where the defender has
// one at an attacker node, the attacker's quiet moves are cut to those that
// may stop it (markStoppers of its line, from the defender's side), and
// the defender node after each checks that it did (defenderVCF). On
// lfz-gaofei/29 at threat limit 3, two thirds of the quiet threats searched
// without this left the defender a VCF, each refuted only by following the
// defender's fours down the tree; the puzzle took 23 s alone, and 5 s with
// it. lfz084's VCT books at 10 s each: 492 of 531, against 482 the same day
// without it.
//
// Transpositions. Proof and disproof numbers live in pnTable under a key of
// the position, the node type and the attacker moves left. Stones are only
// ever added, so no position repeats along a path and a node's value depends
// on nothing but what its key holds: there is no graph-history interaction
// and a transposition's stored value is sound to reuse. Summing disproof (or
// proof) numbers over a DAG counts shared subtrees more than once; that only
// misdirects the search, it cannot make it prove something false, and every
// proof is re-checked by proof.Verify before it is reported.
//
// Across threat limits. The searches of a portfolio (Solver) run at
// different threat limits side by side and, with Solver.ShareSolved, share
// their solved nodes through a sharedTable: a node proven at one limit is
// proven at every larger one, and one disproven at every smaller one (the
// limits nest), so each search asks the table before it expands a node and
// records every node it solves. A proof built on another search's entries is rebuilt in this
// search's own table (extract), and checked as every proof is.
type VCT struct {
	pn   *pnTable
	vcf  *failTable
	dvcf *failTable
	// caches of defender nodes' defences and attacker nodes' moves, kept
	// between searches (with generations) to save their allocation
	defs, attacks defenceCache
	// ThreatLimit is the longest VCF, in attacker moves, that a quiet move
	// may threaten (quintet's threat limit): 1 allows threes and other
	// threats of winning in one move, 2 also threats of a two-move VCF.
	// Zero means 1.
	ThreatLimit int
	// AllMoves turns the search into proof-number search over all moves
	// (solve --mode win): the attacker may also play moves that threaten
	// nothing, and after such a move every legal defender move must be
	// answered. Disproofs then cover the whole game tree within the limit.
	AllMoves bool
	// PassThreats, with AllMoves, tests each quiet move that threatens no
	// VCF as a threat of order 3 (passthreat.go): if a defender pass loses
	// to a VCT, only the pass proof's relevance zone is answered move by
	// move (under renju a wider zone: every cell near the proof's moves,
	// as a stone of either colour can change black's forbidden points).
	PassThreats bool
	// passer is the pass searches' own VCT (its tables passMiB), kept
	// between searches.
	passer *VCT
	// noSimulation turns simulation off (tests compare the two);
	// simulated counts the children the last search proved by simulation.
	noSimulation bool
	simulated    int64
	// noDefenderVCF turns defenderVCF off (tests compare the two)
	noDefenderVCF bool
	// proven, if set, is called once the root is proven, before the proof
	// is built and checked (Solver.portfolio stops the other searches).
	proven func()
	// shared, if set, is the table of solved nodes that the searches of a
	// portfolio share across threat limits (sharedTable); ignored with
	// AllMoves. sharedHits counts the last search's answers from it.
	shared     *sharedTable
	sharedHits int64
	// run is the last search's state: the next search takes over its
	// scratch buffers, marks and VCF runs (newRun), so that a small problem
	// allocates almost nothing. A VCT runs one search at a time.
	run *vctRun
	// sharedVCF, if set, is the attacker's VCF table that the searches of
	// a portfolio share (in place of this searcher's own): a VCF result
	// does not depend on the threat limit. Its generation is the
	// portfolio's to start.
	sharedVCF *failTable
	// WeakNumbers sums a defender node's proof numbers, and an attacker
	// node's disproof numbers, as weak proof-number search does (weakSum):
	// the largest child's plus one per other unsolved child. It changes
	// the order of the search only. Solver runs one search of its
	// automatic schedule so (weakFlag in autoLimits).
	WeakNumbers bool
	// ckpt, if set, links an AllMoves search to its checkpoints in the
	// store (checkpoint.go): the one it resumes from and the writes.
	ckpt *checkpointer
}

// NewVCT returns a VCT searcher whose tables take about mib MiB
// (DefaultMemoryMiB when 0): a quarter for the attacker's VCF disproof
// table, a sixteenth for the defender's (defenderVCF), the rest for the
// proof-number table.
func NewVCT(mib int) *VCT {
	if mib <= 0 {
		mib = DefaultMemoryMiB
	}
	return &VCT{pn: newPNTable(mib*3/4 - mib/16), vcf: newFailTable(max(1, mib/4)), dvcf: newFailTable(max(1, mib/16))}
}

// quietPN is the initial proof number of the defender node after a quiet
// attacker move (df-pn+ style): a three usually has two or three defences,
// a four one. Measured on quintet's cases, 3 needs the fewest nodes. Tried
// on lfz084's VCT books: 2 solves fewer of TestVCTPuzzleBooks's sample;
// one number per threat class (2 after a double three, 4 after threats of a
// longer VCF) solved 2 more of the sample but, in the full 10 s run, lost
// as many as it won (lfz-tengu/54: 0.5 s to unknown).
//
// Tried and dropped (2026-11-26): quintet's seeding by branching factor, an
// unsearched child of an attacker node with n moves starting n-1 higher
// (and variants: (n-1)/2, (n-1)/4, only at threat limits up to 2, and an
// unsearched child of a defender node with n defences starting with
// disproof number n). On quintet's quick cases it cut the nodes (2.79M to
// 2.43M at n-1; white_l12_1 362,484 to 44,582), but on TestVCTPuzzleBooks's
// sample at 1M nodes each it solved fewer: 102, 106, 110 and 111 of 133
// against 113 (under a depth limit of 10, 93 against 98). Measured again
// on 2026-11-28 with today's other numbers, an attacker node's unsearched
// children raised by (n-1)/k: quintet's quick cases at their own threat
// limits took 247,655, 239,318 and 230,212 nodes at k = 1, 2 and 4
// against 444,568 (white_l12_1 42,705, 34,858 and 28,654 against 239,273;
// white_l06_1 7,935, 6,776 and 11,994 against 13,915), but the books'
// sample at 3M nodes solved 116, 116 and 117 of 133 against 119, and 103
// against 106 under a depth limit of 10 (k = 1 and 4): still dropped.
// Again on 2026-11-28, only at the attacker nodes right after a four and
// its block (where white_l06_1's four i4 took 8,753 of 13,915 nodes):
// k = 2 took white_l06_1 to 3,363 nodes and the quick cases to 251,877,
// but the sample solved 116 (102 against 106 under depth 10); k = 4 117.
// The books in full at 10 s each with the seeding at every attacker node,
// k = 4 (2026-11-28 16:45): 504 of 531 (26 unknown), against 511 that
// afternoon without it: under the floor of 507.
const quietPN = 3

// fourPN is the initial proof number of the defender node after a plain
// four: one defence, but the attacker node is reached only where its own
// VCF search failed, so the four leads to a win only through a quiet threat
// further down, and a four's line is not cheaper to prove than the threat
// beside it by as much as one defence against three suggests. A four-three
// keeps 1: after its block the open three is that threat already. At 1 the
// search followed fours first: on quintet's white_l06_1 the root's first
// four, i4, took 1,082 of about 2,400 units of work before g4 (the win).
// Measured 2026-11-26: quintet's quick cases 660,036 nodes at 1, 503,543
// at 2, 459,326 at 3 (white_l12_1 362,484, 224,843, 187,094; fukumi
// 92,153, 81,575, 69,608; white_l06_1 about 14,700 at each); lfz084's VCT
// books at 10 s each: 510 of 531 at 1, 512 at 2 (gaofei/146, 148 and 178
// won in 1.5-7 s; tengu/70, 8.9 s before, lost), 512 at 3 (five won, but
// gaofei/120 lost from 3.0 s); TestVCTPuzzleBooks's sample at 3M nodes
// 118, 119 and 118 of 133. But fourPN 2 on four-threes too made a heavy
// no-win slower: vct_black_long_short 2.51M -> 3.41M nodes. With the
// four-threes at 1: 2.76M there, the quick cases 510,962 (white_l12_1
// 229,949), the books 512 again (tengu/70 and 117 won, gaofei/146 and
// tengu/110 lost, all near 10 s), the sample 119.
const fourPN = 2

// depthPNStep makes deep lines look harder: a child not yet in the table
// starts with its proof number raised by one per depthPNStep plies (levels
// of mid, two per attacker move) below the root, in the manner of df-pn+'s
// heuristic initial numbers (Nagai 2002). The search then proves the
// shorter VCTs before it follows long forcing lines, and cuts no line off
// (a depth limit would make disproofs hold only up to it; initial numbers
// only order the search, a proof still needs every defence refuted). It is
// used only without a depth limit: a stated limit bounds the lines already,
// and there the bias cost more than it saved (quintet's game_white_l12_1,
// limit 12: 0.39 s without, about 1 s with it; vct_fukumi gained, 0.31 to
// 0.17 s).
// Measured on lfz084's VCT books at 10 s each (before rankStep): 4 solves
// 477 of 531, none 474 (5 more won, 2 lost), 2 also 474; on the 16 hardest of them at threat limit 3, 2
// and 6 win 6 and 5 against 3 without it. A hard depth limit instead
// (searches to 7, 9, 11 and 13 attacker moves before the full depth, on
// shares of the time) won as many as it lost.
const depthPNStep = 4

// rankStep makes the attacker's later moves look harder: at an attacker
// node, the i-th move of the ordered list (orderAttacks: fours, then
// threats by class and potential), not yet in the table, starts with its
// proof number raised by i/rankStep. df-pn otherwise tries every move of
// equal initial number before it goes deeper below any, and at threat limit
// 3 most candidates are no threat at all (on lfz-gaofei/29, 89% of the
// defender nodes searched in 10 s: each costs a VCF search to find that
// out). It only orders the search, under any limit (df-pn+'s heuristic
// initial numbers, Nagai 2002, with the move order as the heuristic).
// Measured on lfz084's VCT books at 10 s each: 3 solves 481 of 531, none 477
// (gaofei/58, 74, 201, 249, 250 won; gaofei/148 lost, 9.3 s before); on
// TestVCTPuzzleBooks's sample 2, 3, 4, 6 and 8 solve 109, 110, 109, 107
// and 106 of 133 (none: 107). Tried with it and dropped: the same bias on
// the defences' disproof numbers (sample 110), a killer move starting at 1
// (105), a per-cell history of threat / no-threat outcomes as an ordering
// key (107), dropping disproven moves from the cached move list so that
// the rest move up (full run 479), quietPN 2 (full run 480).
const rankStep = 3

// deferFrom, deferStep and deferThreat push the attacker's later moves
// further down at threat limits of deferThreat and more: the i-th move of
// the ordered list, i >= deferFrom, not yet in the table, starts with its
// proof number raised by a further (i-deferFrom+1)*deferStep (up to threat
// limit deferThreatMax). At threat
// limit 3 an attacker node has about 20 candidates, and df-pn, whose
// unexpanded children look cheaper than any expanded one, otherwise tests
// nearly all of them (a VCF search each) before it goes deeper below any.
// This is a soft form of narrowing the search to the first moves: the rest
// are tried once every earlier one looks that much harder, and a disproof
// still covers every move (df-pn+'s heuristic initial numbers, Nagai 2002).
// Measured with threat limit 3 alone, 8M nodes each, on the 55 lfz084 VCT
// puzzles missed at 10 s: 8 won with deferStep 4 and 9 with 16, against 4
// without; a hard cut to the first 12 quiet moves (disproofs void, run as a
// fourth search of the portfolio) also won 9 there but lost as many slow
// wins to the shared cores (475 against 476 in the 10 s run). In the 10 s
// run over all 531 (476 without): deferStep 16 at every threat limit won 6
// and lost 6 (tengu/76: 0.37 s to unknown); deferStep 4 from threat limit 3
// up won 2 (gaofei/21, 58) and lost none (478); from threat limit 2 up it
// won 3 and lost 4; deferFrom 8 lost 4 in the first 343 puzzles. Under
// AllMoves (solve --mode win) it also defers the non-threat moves, which
// come after the threats.
//
// deferThreatMax ends it above threat limit 5: there the lists are long
// (up to 195 candidates where limit 3 has about 20, as quiet moves may
// threaten longer VCFs), so a winning threat ranked low is pushed out of
// reach by dozens of places: on lfz-tengu/33, whose
// win (quintet's line, 15 attacker moves) needs a threat of a four-move
// VCF that orderAttacks ranks 46th of 195 candidates, threat limit 7 took
// 0.64 s without the deferral and stayed unknown at 15 s with it (12 plies
// into that line, 0.63 s against unknown at 8 s); quintet, whose move order
// has no such deferral, solves it in 4.1 s (2026-11-30).
const (
	deferFrom      = 12
	deferStep      = 4
	deferThreat    = 3
	deferThreatMax = 5
)

// maxVCTDepth is the depth used when Limits.Depth is zero.
const maxVCTDepth = MaxVCTDepth

// MaxVCTDepth is the most attacker moves a VCT, or a win over all moves,
// is searched to when no depth limit is given: a disproof without a limit
// holds within it.
const MaxVCTDepth = 60

// vctRun is the state of one VCT search.
type vctRun struct {
	b        *engine.Board
	att, def engine.Color
	renjuAtt bool
	renjuDef bool
	threat   int  // ThreatLimit
	allMoves bool // AllMoves
	vcf      *vcfRun
	tt       *pnTable
	bu       *Budget
	stop     bool
	hits     int64
	cache    *defenceCache // defender nodes after quiet moves
	orCache  *defenceCache // attacker nodes' move lists
	dirMark  [engine.NumDirs][]uint32
	bufs     [][]engine.Point
	valBufs  [][][2]uint32  // per recursion level: the children's pn and dn
	keyBufs  [][]uint64     // per recursion level: the children's table keys
	sortKeys []uint64       // scratch of sortMoves
	sortOrig []engine.Point // scratch of sortMoves
	ply      int            // recursion depth of mid, the index of its move buffer
	mark     []uint32       // per cell: the candidate generation that added it
	markGen  uint32
	cells    []engine.Point // scratch cell list of threatCandidates and markStoppers
	defBuf   []engine.Point // scratch candidate list of quietDefences
	// scratch of quietMoves: the sort keys, the ordered list, and each
	// cell's steps to the nearest stone along a line (nearDist, valid
	// where nearStamp is nearGen)
	quietKeys []uint64
	quietTmp  []uint64 // radixSortScore's other buffer
	// farOrder: farCells's order of a board of side farSize (0: none yet)
	farOrder  []engine.Point
	farSize   int
	quietOut  []engine.Point
	nearStamp []uint32
	nearDist  []uint8
	nearGen   uint32
	pnStep    int     // depthPNStep, or 0 under a depth limit
	dvcf      *vcfRun // the defender's VCF search (defenderVCF)
	defVCF    bool    // defenderVCF is on
	// defThreat: the defender had a VCF at the attacker node whose move
	// list was fetched last (attacks), so a defender node after one of its
	// quiet moves checks whether the move stopped it; true where the
	// parent is not known (simulation, proof extraction)
	defThreat  bool
	simulation bool          // simulate proofs of defender nodes' children (simulate)
	simulated  int64         // children proven by simulation
	shared     *sharedTable  // VCT.shared, nil under AllMoves
	ckpt       *checkpointer // VCT.ckpt, AllMoves only
	sharedHits int64         // nodes answered from shared
	reprove    uint64        // a node key mid searches without asking shared (extract)
	// threats of order 3 (passthreat.go), under AllMoves with
	// VCT.PassThreats: passer is the pass searcher (nil: off), passProofs
	// the pass proofs found, by defender node cache key
	passer     *VCT
	passProofs map[uint64]*proof.Node
	// root is the root's numbers as of the root's last pass through its
	// loop in mid (rootSeen: there was one), for the progress reports and
	// an unknown result
	root     ProofNumbers
	rootSeen bool
	weak     bool // VCT.WeakNumbers
}

// nodeSalt and depthSalt separate the keys of attacker nodes, defender nodes
// and different numbers of attacker moves left.
var (
	andSalt   = splitmixAt(0x616e64)
	depthSalt = func() (s [256]uint64) {
		for i := range s {
			s[i] = splitmixAt(uint64(i) + 0x6465707468)
		}
		return s
	}()
)

func splitmixAt(seed uint64) uint64 {
	seed += 0x9e3779b97f4a7c15
	z := seed
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// key returns the table key of the current position as an attacker node
// (or) or a defender node, with d attacker moves left.
func (r *vctRun) key(or bool, d int) uint64 {
	return nodeKey(r.b.Hash(), or, d)
}

func nodeKey(h uint64, or bool, d int) uint64 {
	k := h ^ depthSalt[d&255]
	if !or {
		k ^= andSalt
	}
	return k
}

// Search implements Searcher for VCT. Errors: ErrBadProblem,
// ErrDefenderToMove, ErrGameOver; ErrReplay if a proof it found fails
// proof.Verify (never expected).
func (v *VCT) Search(ctx context.Context, pr Problem, lim Limits, progress ProgressFunc) (Result, error) {
	res, _, err := v.Prove(ctx, pr, lim, progress)
	return res, err
}

// Prove is Search that also returns the proof tree of a win (nil otherwise),
// already checked by proof.Verify.
func (v *VCT) Prove(ctx context.Context, pr Problem, lim Limits, progress ProgressFunc) (Result, *proof.Tree, error) {
	att, _, err := pr.check()
	if err != nil {
		return Result{}, nil, err
	}
	b := engine.Scratch(pr.Board)
	bu := NewBudget(ctx, lim, progress)
	r := v.newRun(b, att, bu)
	if progress != nil {
		search := "vct"
		if v.AllMoves {
			search = "win"
		}
		bu.annotate = func(p *Progress) {
			p.Search, p.ThreatLimit, p.Root = search, r.threat, r.rootNumbers()
		}
	}
	if lim.Depth <= 0 {
		r.pnStep = depthPNStep
	}
	depth := lim.Depth
	if depth <= 0 || depth > maxVCTDepth {
		depth = maxVCTDepth
	}
	if v.ckpt != nil && v.AllMoves {
		r.ckpt = v.ckpt
		r.ckpt.resume(r, b.Hash(), depth)
	}
	pn, dn := r.mid(true, depth, pnInf, pnInf)
	var root *proof.Node
	var extractErr error
	if pn == 0 {
		// The root is proven; building the proof may re-prove subtrees
		// whose table entries were overwritten. That gets a budget as large
		// as the search's own again (nodes and time), so a win found near
		// the limit still comes with its proof; if even that runs out, the
		// result is unknown: a win is never reported without a proof.
		if v.proven != nil {
			v.proven()
		}
		r.stop, r.vcf.stop = false, false
		r.bu = NewBudget(ctx, lim, nil)
		if lim.Nodes > 0 {
			r.bu.maxNodes = r.vcf.nodes + lim.Nodes
		}
		r.vcf.setBudget(r.bu)
		r.dvcf.setBudget(r.bu)
		root, extractErr = r.extract(depth)
	}
	// the main line's end, read on the search's board (at the root again)
	// rather than on a second one set up from the proof
	var line []engine.Point
	end := proof.EndNone
	if pn == 0 && extractErr == nil && root != nil {
		line = root.MainLine()
		end = proof.LineEnd(b, att, line)
	}
	// the board goes back before the proof's check, which takes it again
	engine.Release(b)
	res := Result{Nodes: r.vcf.nodes}
	var tree *proof.Tree
	switch {
	case pn == 0 && (r.stop || r.vcf.stop || ctx.Err() != nil):
		res.Status, res.Stopped = StatusUnknown, r.bu.stopped
		if res.Stopped == "" {
			res.Stopped = "cancelled"
		}
	case pn == 0:
		if extractErr != nil {
			return Result{}, nil, extractErr
		}
		tree = newProof(pr, lim.Depth, r.threat, root)
		res.Status, res.Line, res.End = StatusWin, line, end
	case dn == 0:
		res.Status = StatusNoWin
		res.Proven = Limits{Depth: depth, Nodes: lim.Nodes, Time: lim.Time}
	default:
		res.Status, res.Stopped = StatusUnknown, bu.stopped
		if res.Stopped == "" {
			res.Stopped = "nodes" // the proof-number search ran out of table or thresholds
		}
	}
	if res.Status == StatusUnknown {
		res.Root = r.rootNumbers()
		if r.ckpt != nil {
			r.ckpt.write(r) // the last checkpoint: what a rerun resumes from
		}
	}
	if r.ckpt != nil {
		if r.ckpt.err != nil {
			return Result{}, nil, r.ckpt.err
		}
		if r.ckpt.resumed.Entries > 0 {
			resumed := r.ckpt.resumed
			res.Resumed = &resumed
		}
	}
	res.Nodes, res.TTHits, res.Elapsed = r.vcf.nodes, r.hits+r.sharedHits, time.Since(bu.start)
	v.simulated, v.sharedHits = r.simulated, r.sharedHits
	if tree != nil {
		check := time.Now()
		_, err := proof.VerifyOn(ctx, tree, pr.Board)
		res.CheckTime = time.Since(check)
		res.Elapsed = time.Since(bu.start) // the check included
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				// cancelled before the check ended: no win is claimed
				res.Status, res.Stopped, res.Line, res.End = StatusUnknown, "cancelled", nil, proof.EndNone
				return res, nil, nil
			}
			// the nodes spent go with the error (Solver's search over all
			// moves searches again within what is left)
			return Result{Nodes: res.Nodes}, nil, &ReplayError{Line: res.Line, Err: err}
		}
		res.ProofNodes = tree.Len()
	}
	return res, tree, nil
}

// newRun starts a search of att on b (which it plays on and restores) under
// budget bu: it begins a new generation of v's tables and caches.
func (v *VCT) newRun(b *engine.Board, att engine.Color, bu *Budget) *vctRun {
	if v.pn == nil { // the zero VCT: tables of the default size
		t := NewVCT(DefaultMemoryMiB)
		v.pn, v.vcf, v.dvcf = t.pn, t.vcf, t.dvcf
	}
	v.pn.nextGeneration()
	vcf := v.sharedVCF
	if vcf == nil {
		vcf = v.vcf
		vcf.nextGeneration()
	}
	v.dvcf.nextGeneration()
	def := att.Opponent()
	r := &vctRun{b: b, att: att, def: def, threat: max(1, v.ThreatLimit), allMoves: v.AllMoves, tt: v.pn, bu: bu,
		renjuAtt:   b.Rule() == engine.Renju && att == engine.Black,
		renjuDef:   b.Rule() == engine.Renju && def == engine.Black,
		simulation: !v.noSimulation, defVCF: !v.noDefenderVCF, defThreat: true, weak: v.WeakNumbers}
	if p := v.run; p != nil && p.markGen < 1<<31 {
		// the last run's scratch, its marks read as unset from its last
		// generation on
		r.mark, r.dirMark, r.markGen = p.mark, p.dirMark, p.markGen
		r.bufs, r.valBufs, r.keyBufs, r.sortKeys, r.sortOrig = p.bufs, p.valBufs, p.keyBufs, p.sortKeys, p.sortOrig
		r.cells, r.defBuf = p.cells[:0], p.defBuf[:0]
		r.farOrder, r.farSize = p.farOrder, p.farSize
		r.vcf, r.dvcf = p.vcf, p.dvcf
		r.vcf.reset(b, att, vcf, bu)
		r.dvcf.reset(b, def, v.dvcf, bu)
	} else {
		r.mark = make([]uint32, engine.NumCells)
		for d := range r.dirMark {
			r.dirMark[d] = make([]uint32, engine.NumCells)
		}
		r.vcf = newVCFRun(b, att, vcf, bu)
		r.dvcf = newVCFRun(b, def, v.dvcf, bu)
	}
	if v.AllMoves && v.PassThreats {
		if v.passer == nil {
			v.passer = NewVCT(passMiB)
		}
		r.passer = v.passer
	}
	v.run = r
	// one cached node per 16 table slots: the expensive nodes are the few
	slots := len(v.pn.slots) / 16
	v.defs.reset(slots)
	v.attacks.reset(slots)
	r.cache, r.orCache = &v.defs, &v.attacks
	if !v.AllMoves {
		r.shared = v.shared
	}
	return r
}

// tick counts a node and polls the budget; it returns false once the search
// must stop.
func (r *vctRun) tick() bool {
	if r.stop {
		return false
	}
	r.vcf.nodes++
	if r.bu.maxNodes > 0 && r.vcf.nodes > r.bu.maxNodes {
		r.bu.stopped, r.stop = "nodes", true
		return false
	}
	if r.vcf.nodes&(PollInterval-1) == 0 {
		if !r.bu.Poll(r.vcf.nodes, 0) {
			r.stop = true
			return false
		}
		// the node caches follow the table as it grows
		r.cache.grow(len(r.tt.slots) / 16)
		r.orCache.grow(len(r.tt.slots) / 16)
		if r.ckpt != nil && r.ckpt.due() {
			if r.ckpt.write(r); r.stop {
				return false
			}
		}
	}
	return true
}

// mid is df-pn's multiple iterative deepening at the current position: it
// searches below the node until its proof number reaches thpn or its
// disproof number reaches thdn, and returns both. or says the attacker is to
// move; d is the number of attacker moves left.
func (r *vctRun) mid(or bool, d int, thpn, thdn uint32) (uint32, uint32) {
	key := r.key(or, d)
	if e := r.tt.lookup(key); e != nil {
		if e.pn == 0 || e.dn == 0 || e.pn >= thpn || e.dn >= thdn {
			r.hits++
			return e.pn, e.dn
		}
	}
	if r.shared != nil && key != r.reprove {
		if found, proven, best, work := r.shared.lookup(key, r.threat); found {
			r.sharedHits++
			if proven {
				r.tt.store(key, 0, pnInf, work, best, 0)
				return 0, pnInf
			}
			r.tt.store(key, pnInf, 0, work, engine.NoPoint, 0)
			return pnInf, 0
		}
	}
	if !r.tick() {
		return 1, 1
	}
	r.ply++
	defer func() { r.ply-- }()
	start := r.vcf.nodes
	moves, pn, dn, best, flags := r.expand(or, d)
	defThreat := or && r.defThreat // this node's, for its children
	if moves == nil {
		r.tt.store(key, pn, dn, 1, best, flags)
		r.share(key, pn, dn, best, start)
		return pn, dn
	}
	mover, cd := r.att, d-1
	if !or {
		mover, cd = r.def, d
	}
	// The children's numbers are read from the table once and then kept
	// here: only the child just searched changes (a transposition could
	// change another, which at worst misdirects the next choice).
	h := r.b.Hash()
	vals, keys := r.vals(len(moves))
	for i, m := range moves {
		keys[i] = nodeKey(h^engine.ZobristKey(mover, m), !or, cd)
	}
	r.tt.touch(keys)
	for i, m := range moves {
		cpn, cdn := uint32(1), uint32(1)
		if e := r.tt.lookup(keys[i]); e != nil {
			cpn, cdn = e.pn, e.dn
		} else {
			if or {
				cpn = fourPN
				switch th := r.b.Threat(r.att, m); {
				case th < engine.ThreatFour:
					cpn = quietPN // a threat has two or three defences, a four one
				case th >= engine.ThreatFourThree:
					cpn = 1
				}
				cpn += uint32(i / rankStep)
				if i >= deferFrom && r.threat >= deferThreat && r.threat <= deferThreatMax {
					cpn += uint32((i - deferFrom + 1) * deferStep)
				}
			}
			if r.pnStep > 0 {
				cpn += uint32(r.ply / r.pnStep)
			}
		}
		vals[i] = [2]uint32{cpn, cdn}
	}
	// simFrom is a proven defence, whose proof the others may repeat
	// (simulate); tried marks the children simulation was tried on, one
	// bit per child (a node has fewer than engine.NumCells children)
	simFrom := -1
	var tried [engine.NumCells / 64]uint64
	if !or && r.simulation {
		for i, v := range vals {
			if v[0] == 0 {
				simFrom = i
				break
			}
		}
	}
	for {
		// the node's numbers, and the best and second-best child; the sums
		// are taken in 64 bits and saturated once (saturate)
		var sum uint64
		var inf uint32 // 1: a child's summed number is pnInf
		minPN, minDN, second := uint32(pnInf), uint32(pnInf), uint32(pnInf)
		bi := -1
		// one loop per node type, each reading only the numbers it sums
		// (numbers are at most pnInf, so n>>pnInfShift is 1 for pnInf)
		if or {
			for i, v := range vals {
				cpn, cdn := v[0], v[1]
				sum += uint64(cdn)
				inf |= cdn >> pnInfShift
				if cpn < minPN {
					second, minPN, minDN, bi = minPN, cpn, cdn, i
				} else if cpn < second {
					second = cpn
				}
			}
			pn, dn = minPN, saturate(sum, inf != 0)
			if r.weak && inf == 0 {
				dn = weakSum(vals, 1, dn)
			}
		} else {
			for i, v := range vals {
				cpn, cdn := v[0], v[1]
				sum += uint64(cpn)
				inf |= cpn >> pnInfShift
				if cdn < minDN {
					second, minDN, minPN, bi = minDN, cdn, cpn, i
				} else if cdn < second {
					second = cdn
				}
			}
			pn, dn = saturate(sum, inf != 0), minDN
			if r.weak && inf == 0 {
				pn = weakSum(vals, 0, pn)
			}
		}
		if r.ply == 1 {
			r.root, r.rootSeen = ProofNumbers{pn, dn}, true
		}
		if pn == 0 || dn == 0 {
			if or && pn == 0 {
				best = moves[bi]
			}
			break
		}
		if pn >= thpn || dn >= thdn || r.stop {
			break
		}
		m := moves[bi]
		if simFrom >= 0 && tried[bi>>6]&(1<<(bi&63)) == 0 {
			tried[bi>>6] |= 1 << (bi & 63)
			r.b.Play(m, mover)
			ok := r.simulate(keys[simFrom]^keys[bi], moves[simFrom], cd)
			r.b.Undo()
			if ok {
				r.simulated++
				vals[bi] = [2]uint32{0, pnInf}
				continue
			}
		}
		r.b.Play(m, mover)
		var cpn, cdn uint32
		if or {
			cthpn := min(thpn, grow(second))
			cthdn := thdn - dn + minDN
			r.defThreat = defThreat
			cpn, cdn = r.mid(false, cd, cthpn, cthdn)
		} else {
			cthdn := min(thdn, grow(second))
			cthpn := thpn - pn + minPN
			cpn, cdn = r.mid(true, cd, cthpn, cthdn)
		}
		r.b.Undo()
		vals[bi] = [2]uint32{cpn, cdn}
		if !or && cpn == 0 && r.simulation {
			simFrom = bi
		}
	}
	r.tt.store(key, pn, dn, r.workSince(start), best, flags)
	r.share(key, pn, dn, best, start)
	return pn, dn
}

// weakSum returns the weak proof-number search's number of a node from its
// children's numbers of index k of vals (0: proof numbers, at a defender
// node; 1: disproof numbers, at an attacker node): the largest unsolved
// child's number plus one per further unsolved child, in place of their
// sum (Ueda, Hashimoto, Hashimoto and Iida, "Weak proof-number search",
// Computers and Games 2008, section 3). A sum counts a subtree shared by
// transposition once per parent that reaches it, and threat-space trees
// share much (the defences of one threat lead to nearly equal positions):
// the sum then makes a threat with many defences look far harder than the
// four lines beside it. sum is the node's saturated sum, returned when no
// child is unsolved. It only orders the search: a node is still proven or
// disproven only when its children are.
func weakSum(vals [][2]uint32, k int, sum uint32) uint32 {
	var largest, n uint32
	for _, v := range vals {
		if x := v[k]; x != 0 {
			largest, n = max(largest, x), n+1
		}
	}
	if n == 0 {
		return sum
	}
	return min(pnInf-1, largest+n-1)
}

// rootNumbers returns a copy of the root's numbers as of its last pass
// through mid's loop, or nil before the first.
func (r *vctRun) rootNumbers() *ProofNumbers {
	if !r.rootSeen {
		return nil
	}
	root := r.root
	return &root
}

// workSince returns the nodes counted since start, plus one (the node
// itself), as a table entry's work.
func (r *vctRun) workSince(start int64) uint32 {
	return uint32(min(r.vcf.nodes-start+1, 1<<31))
}

// share records a solved node (pn or dn 0) in the shared table, with the
// work spent on it since start; it does nothing without one.
func (r *vctRun) share(key uint64, pn, dn uint32, best engine.Point, start int64) {
	if r.shared != nil && (pn == 0 || dn == 0) {
		r.shared.store(key, r.threat, pn == 0, best, r.workSince(start))
	}
}

// provenWork reports whether the node of key is proven, in the search's
// own table or in the shared one, and the work below it.
func (r *vctRun) provenWork(key uint64) (bool, uint32) {
	if e := r.tt.lookup(key); e != nil && e.pn == 0 {
		return true, e.work
	}
	if r.shared == nil {
		return false, 0
	}
	found, proven, _, work := r.shared.lookup(key, r.threat)
	return found && proven, work
}

// vals returns the children's-numbers and children's-keys buffers of the
// current recursion level, n long.
func (r *vctRun) vals(n int) ([][2]uint32, []uint64) {
	for len(r.valBufs) <= r.ply {
		r.valBufs, r.keyBufs = append(r.valBufs, nil), append(r.keyBufs, nil)
	}
	if cap(r.valBufs[r.ply]) < n {
		r.valBufs[r.ply], r.keyBufs[r.ply] = make([][2]uint32, n), make([]uint64, n)
	}
	return r.valBufs[r.ply][:n], r.keyBufs[r.ply][:n]
}

// saturate turns a 64-bit sum of proof or disproof numbers (each at most
// pnInf, fewer than engine.NumCells of them) into the node's number: pnInf if
// a term was pnInf (inf: a solved child's infinite side), else the sum
// saturated at pnInf-1, so that an unsolved node never reaches the root's
// infinite thresholds.
func saturate(sum uint64, inf bool) uint32 {
	if inf {
		return pnInf
	}
	return uint32(min(sum, pnInf-1))
}

// grow is the 1+ε trick's threshold for the best child: the second-best
// child's number times 1.25, plus one. Measured on 2026-12-01 with each
// search alone at its winning threat limit, 30 s, on twelve of lfz084's
// VCT puzzles that the portfolio misses at 10 s (gaofei/146, 162, 228,
// 171, 246, tengu/110 at limit 8; gaofei/158, 241, tengu/26, 70 at 2;
// gaofei/141, tengu/117 at 5): ε = 1/4 won all twelve (median 15 s),
// 1/8 won 11, 1/2 won 8 and 1 won 8 (though gaofei/141 in 5.2 s against
// 10.3 and gaofei/158 in 12.8 against 21.9).
func grow(second uint32) uint32 {
	if second >= pnInf {
		return pnInf
	}
	return second + second/4 + 1
}

// expand evaluates the current node. A solved node comes back with nil
// moves and its pn/dn (0 and pnInf one way or the other); an unsolved one
// with its moves (attacker moves at or nodes, defences otherwise), best first.
func (r *vctRun) expand(or bool, d int) (moves []engine.Point, pn, dn uint32, best engine.Point, flags uint8) {
	proven := func(m engine.Point, f uint8) ([]engine.Point, uint32, uint32, engine.Point, uint8) {
		return nil, 0, pnInf, m, f
	}
	disproven := func() ([]engine.Point, uint32, uint32, engine.Point, uint8) {
		return nil, pnInf, 0, engine.NoPoint, 0
	}
	if or {
		b := r.b
		if d <= 0 {
			return disproven()
		}
		if b.Count(r.att, engine.FivePoints) > 0 {
			return proven(b.FirstPoint(r.att, engine.FivePoints), 0)
		}
		if line, _, ok := r.vcf.find(d); ok {
			return proven(line[0], entryVCF)
		}
		if r.vcf.stop {
			r.stop = true
			return nil, 1, 1, engine.NoPoint, 0
		}
		if d == 1 {
			// One attacker move left and no VCF of one move: a quiet move
			// has no moves left for its threat, and a four (or the block
			// of the defender's four) wins at its defender node only by
			// a five, two five-points or a five-point forbidden to a black
			// defender, each a VCF of one move, which the search just
			// refuted. So the node is disproved without listing its moves;
			// before, it was expanded, and df-pn often left it with a
			// finite proof number after refuting its first four, to come
			// back later. Quintet's 32 VCT cases (all depth-limited):
			// 7.04M -> 6.46M nodes, 5.24 -> 4.99 s in all, the no-wins
			// most (white_l10_1_short 66,650 -> 20,430 nodes, l17_1_short
			// 1.66M -> 1.42M, vct_black_long_short 2.37M -> 2.13M); l09_1
			// grew, 89,071 -> 164,597 (df-pn's order) (2026-11-26).
			return disproven()
		}
		moves = r.attacks(d)
		if r.stop {
			return nil, 1, 1, engine.NoPoint, 0
		}
		if len(moves) == 0 {
			return disproven()
		}
		return moves, 1, 1, engine.NoPoint, 0
	}
	moves, state := r.defences(d)
	switch state {
	case andWon:
		return proven(engine.NoPoint, 0)
	case andLost:
		return disproven()
	case andStopped:
		r.stop = true
		return nil, 1, 1, engine.NoPoint, 0
	}
	if len(moves) == 0 {
		// an open node with nothing to answer: a defender with no legal
		// move and no threat against it (AllMoves), on a full board, a
		// draw, or renju's black with only forbidden cells, who may pass
		// (RIF). The attacker's move proved nothing. (Returned as an open
		// node without moves, it was searched again for ever.)
		return disproven()
	}
	return moves, 1, 1, engine.NoPoint, 0
}

// buf returns a reusable move buffer for the given recursion slot.
func (r *vctRun) buf(slot int) []engine.Point {
	for len(r.bufs) <= slot {
		r.bufs = append(r.bufs, make([]engine.Point, 0, 64))
	}
	return r.bufs[slot][:0]
}

// simulate tries to prove the attacker node on the board by repeating the
// proof of a sibling: at a defender node whose child after defence A is
// proven, the child after defence B differs from it in one stone, and every
// position below it in one stone too, so the proven position's table key is
// the current one XOR delta (Zobrist keys, Z(A) ^ Z(B)). At each attacker
// node simulate plays the move that proved the counterpart (or looks for a
// VCF where the counterpart had one); at each defender node it computes the
// real defences (defences, exact as ever) and needs every one to have a
// proven counterpart, checked before any is followed. avoid is A's cell,
// the one place where the two positions differ. It stores the nodes it
// proves, reports whether the node is proven, and never disproves anything:
// a failure only sends the node to the ordinary search. This is Kawano's
// simulation (Y. Kawano, "Using similar positions to search game trees",
// Games of No Chance, 1996), the proof-reuse step of tsume-shogi df-pn
// solvers. Measured on lfz084's VCT books at 10 s each: 484 of 531
// solved, against 481 without (gaofei/148, 179 and tengu/68 won; none lost;
// gaofei/141, a no-win proof near 10 s, became unknown). On 4 hard puzzles
// at threat limit 3 about one try in 20 succeeds, at about 10 nodes a try.
func (r *vctRun) simulate(delta uint64, avoid engine.Point, d int) bool {
	b := r.b
	key := r.key(true, d)
	if e := r.tt.lookup(key); e != nil && (e.pn == 0 || e.dn == 0) {
		return e.pn == 0
	}
	if d <= 0 || !r.tick() {
		return false
	}
	if b.Count(r.att, engine.FivePoints) > 0 {
		r.tt.store(key, 0, pnInf, 1, b.FirstPoint(r.att, engine.FivePoints), 0)
		return true
	}
	e := r.tt.lookup(key ^ delta)
	if e == nil || e.pn != 0 {
		return false
	}
	best := e.best
	if e.flags&entryVCF != 0 {
		line, _, ok := r.vcf.find(d)
		if !ok {
			r.stop = r.stop || r.vcf.stop
			return false
		}
		r.tt.store(key, 0, pnInf, 1, line[0], entryVCF)
		return true
	}
	if best == engine.NoPoint || b.At(best) != engine.Empty || !b.Legal(r.att, best) {
		return false
	}
	switch n := b.Count(r.def, engine.FivePoints); {
	case n > 1:
		return false
	case n == 1 && b.FirstPoint(r.def, engine.FivePoints) != best:
		return false
	}
	b.Play(best, r.att)
	r.defThreat = true // not known here: the defender node checks
	ok := r.simulateDefences(delta, avoid, d-1)
	b.Undo()
	if ok {
		r.tt.store(key, 0, pnInf, 1, best, 0)
	}
	return ok
}

// simulateDefences is simulate at the defender node on the board, d
// attacker moves left.
func (r *vctRun) simulateDefences(delta uint64, avoid engine.Point, d int) bool {
	b := r.b
	key := r.key(false, d)
	if e := r.tt.lookup(key); e != nil && (e.pn == 0 || e.dn == 0) {
		return e.pn == 0
	}
	defs, state := r.defences(d)
	switch state {
	case andWon:
		r.tt.store(key, 0, pnInf, 1, engine.NoPoint, 0)
		return true
	case andLost:
		r.tt.store(key, pnInf, 0, 1, engine.NoPoint, 0)
		return false
	case andStopped:
		r.stop = true
		return false
	}
	// every defence must have a proven counterpart before any is followed:
	// most failures are found here, without playing a move
	h := b.Hash()
	for _, m := range defs {
		if m == avoid {
			return false
		}
		if e := r.tt.lookup(nodeKey(h^engine.ZobristKey(r.def, m), true, d) ^ delta); e == nil || e.pn != 0 {
			return false
		}
	}
	for _, m := range defs {
		b.Play(m, r.def)
		ok := r.simulate(delta, avoid, d)
		b.Undo()
		if !ok {
			return false
		}
	}
	r.tt.store(key, 0, pnInf, 1, engine.NoPoint, 0)
	return true
}
