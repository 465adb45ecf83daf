package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gomoku/engine"
)

// Best-first proof over the quiet moves: proof-number search one level up
// (Allis 1994, "Searching for solutions in games and artificial
// intelligence", section 4.3: pn², a proof-number search whose leaves are
// evaluated by a proof-number search of their own; Breuker 1998, chapter
// 3). Its tree holds the positions between the searches: an AND node is a
// position with the defender to move (the opening, or the position after
// a quiet attacker move), evaluated by ProveOpening (its pass proof, its
// zone's replies repaired or searched, each within the limits, no
// deepening); an OR node is a reply those searches left unknown, the
// attacker to move, optionally first searched once more within
// OpeningOptions.Escalate times the limits (pn²'s leaf evaluation given
// more effort before the tree grows below it; off by default), then
// expanded into quiet attacker moves (deepenMoves: the
// engine's suggestions, the pass proof's first move, the rest by the
// windows' potential, and the moves whose pass search the store holds as
// a win), each probed by a short pass search (probeZones) whose zone, less
// the replies the store already holds as proven, gives the move's initial
// proof number. The numbers then go up the tree as in proof-number
// search (an AND node's proof number the sum of its children's, its
// disproof number their least; an OR node's the reverse), and each step
// expands the most-proving node: the reply, among all the open ones at any
// depth, whose proof would cost least by these counts. Descent
// (descend.go) follows the engine's one line to the bottom and deepening
// (deepen.go) gives fixed shares of time; this keeps every quiet move
// tried open, and goes back to whichever is cheapest.
//
// Each evaluation goes through the store: its children's results are
// written as they are decided, and a quiet move whose replies are all
// proven is proven again from the store (deepen, one level), which
// checks its proof and writes the reply's win above it. So a rerun
// rebuilds the same tree from look-ups (a reply searched before within
// the same limits is unknown at once, unless OpeningOptions.Retry) and
// goes on where the last run stopped, and the opening's certificate is
// made by ProveOpening from the store and checked before it is returned.

// ErrBestFirstStore: BestFirstOpening was called on a Solver without a
// Store, through which its proven quiet moves go back up.
var ErrBestFirstStore = errors.New("the best-first proof needs a store (--tt)")

// bfWidth is the most quiet moves a best-first OR node holds open at once
// besides the suggested ones; when all of them fail (a reply a no-win, or
// no threat), the next bfWidth of the probed moves are added.
const bfWidth = 4

// bfZoneUnit is the zone size, in defender moves, of one unit of a
// probed quiet move's initial proof number, bfInitial(zone) =
// min(bfMaxInitial, 1 + ⌈zone/bfZoneUnit⌉): 2 for a zone of 1 to 50
// moves, 3 above, 1 when the store holds every reply as proven. The size matters little:
// of the quiet moves evaluated by the best-first runs on freestyle's D8,
// D6 and D3 (2026-12-06, --time 3s and 30s), the open threes (zone 3, 123
// evaluations) left 1.98 replies unknown on average and those of zone 21
// to 50 (16) 1.94, those above 50 (22) 3, the cap; most replies of a
// large zone are repaired within a second. An earlier 1 + (zone−1)/8
// made an open three (1) look five times cheaper than a quiet move of
// zone 40 (5), so every node opened its open threes first.
const bfZoneUnit = 50

// bfMaxInitial is the largest initial proof number: a quiet move's
// whose zone is above bfZoneUnit, and a suggested quiet move's whose
// probe found no win within deepenProbeNodes (kept, alpha-beta's choice,
// as if its zone were large).
const bfMaxInitial = 3

// bfInitial is a probed quiet move's initial proof number for a zone of
// zone replies not yet proven (bfZoneUnit).
func bfInitial(zone int) int64 {
	return int64(min(bfMaxInitial, 1+(max(0, zone)+bfZoneUnit-1)/bfZoneUnit))
}

// bfUnknownStep is how many replies an evaluation of a quiet move may
// leave unknown before it stops (OpeningOptions.unknownCap), and how many
// more each time it goes on: the replies not yet decided wait in a rest
// leaf, whose proof number is their count's (bfInitial), and when
// the rest is the most-proving node the evaluation goes on from the
// store with bfUnknownStep more. A quiet move with many hard replies so
// costs a few searches of --time before the search can turn elsewhere,
// not one for each reply (on D6, g8's i10 left 7 of 67 unknown in 289 s,
// j8's f8 took more than 20 minutes, 2026-12-06).
const bfUnknownStep = 3

// bfStatusEvery is how many expansions go between the log's status
// lines (bestFirst.status).
const bfStatusEvery = 100

// bfInf is an infinite proof or disproof number.
const bfInf = int64(1) << 40

// bfText is a proof or disproof number for the log, ∞ for bfInf.
func bfText(x int64) string {
	if x >= bfInf {
		return "∞"
	}
	return fmt.Sprint(x)
}

// bfNode is a node of the best-first tree: the move into it (NoPoint at
// the root), whose turn (attacker true: an OR node), its proof and
// disproof numbers, its children once expanded, and for an OR node the
// probed moves not yet opened (rest).
type bfNode struct {
	move     engine.Point
	attacker bool
	pn, dn   int64
	expanded bool
	tried    bool // an OR leaf's longer search (OpeningOptions.Escalate) done
	kids     []*bfNode
	first    engine.Point // an AND node's pass proof's first move, once expanded
	rest     []bfCand     // an OR node's probed moves not yet children
	cap      int          // an AND node's unknownCap at its last evaluation (0: none)
	more     bool         // the rest leaf of an AND node evaluated in part: its replies not yet decided
	busy     int          // expansions in flight at or below this node (bestFirst.next)
	inFlight bool         // an expansion in flight is this node's
	backed   bool         // an AND node proven and written back (backUp)
}

// bfCand is a probed quiet move and its initial proof number.
type bfCand struct {
	move engine.Point
	pn   int64
}

// bfAdd is a+b, saturating at bfInf.
func bfAdd(a, b int64) int64 {
	if a >= bfInf-b {
		return bfInf
	}
	return a + b
}

// update sets an expanded node's numbers from its children's: an OR node
// the least proof number and the sum of the disproof numbers, an AND node
// the reverse (Allis 1994, section 2.3). A node without children keeps
// what its expansion set.
func (n *bfNode) update() {
	if !n.expanded || len(n.kids) == 0 {
		return
	}
	if n.attacker {
		n.pn, n.dn = bfInf, 0
		for _, k := range n.kids {
			n.pn = min(n.pn, k.pn)
			n.dn = bfAdd(n.dn, k.dn)
		}
		return
	}
	n.pn, n.dn = 0, bfInf
	for _, k := range n.kids {
		n.pn = bfAdd(n.pn, k.pn)
		n.dn = min(n.dn, k.dn)
	}
}

// vnum is n's proof and disproof numbers with the nodes whose expansion
// is in flight counted as proven (0 and ∞): virtual proof numbers, after
// Kaneko 2010 ("Parallel depth first proof number search", AAAI-10: the
// numbers a node is estimated to reach given the agents working below
// it; there an increase, here the leaf taken as proven, so
// that the next most-proving node is among the rest of what the proof
// needs). The next expansion goes elsewhere, to the next
// replies the same proof needs at an AND node, and not to a quiet move
// in place of one being tried at an OR node. Without expansions in
// flight below n, n's own numbers.
func (n *bfNode) vnum() (pn, dn int64) {
	switch {
	case n.inFlight:
		return 0, bfInf
	case n.busy == 0 || !n.expanded || len(n.kids) == 0:
		return n.pn, n.dn
	case n.attacker:
		pn, dn = bfInf, 0
		for _, k := range n.kids {
			kp, kd := k.vnum()
			pn, dn = min(pn, kp), bfAdd(dn, kd)
		}
		return pn, dn
	}
	pn, dn = 0, bfInf
	for _, k := range n.kids {
		kp, kd := k.vnum()
		pn, dn = bfAdd(pn, kp), min(dn, kd)
	}
	return pn, dn
}

// pick returns the child to descend to: the undecided child of least
// proof number, at OR and AND nodes alike (ties to the least disproof
// number, then the first), by the virtual numbers (vnum: with no
// expansion in flight, the nodes' own); nil when every child is decided.
// At an AND node proof-number search takes the least disproof number
// (Allis 1994, section 2.3), the child nearest a disproof; here a reply
// is seldom disproven, and the disproof numbers only count the quiet
// moves open, so that choice spread D8's 119 expansions over all 16 of
// its children (2026-12-06). The least proof number goes on with the
// reply nearest a proof: on D8, 12 of the 16 had a quiet move that left
// one reply unknown.
func (n *bfNode) pick() *bfNode {
	var best *bfNode
	var bp, bd int64
	for _, k := range n.kids {
		kp, kd := k.vnum()
		if kp == 0 || kd == 0 {
			continue
		}
		if best == nil || kp < bp || kp == bp && kd < bd {
			best, bp, bd = k, kp, kd
		}
	}
	return best
}

// BestFirstOpening proves pr (the defender to move) by the best-first
// search described above, for at most budget of wall time (0: until ctx
// ends or the tree is decided), on top of s.Store (required: the way back
// up is through it). opt's Jobs, Expansions, Escalate, EscalateDepth, Suggest, Retry, Log, Progress (the
// opening's own children) and SearchProgress apply; its Deepen, Descend,
// Survey and FailFast do not (every evaluation is ProveOpening without
// deepening). The report is ProveOpening's of pr, made again from the
// store when the search stops (its certificate, for a win, checked), its
// nodes and time those of the whole search (the probes' nodes not
// counted).
// Errors: ProveOpening's, the probes' and the store's; ErrBestFirstStore
// without a store; ctx's when cancelled (the report is then the first
// evaluation's, with the whole search's nodes and time). Children that
// are images of one another under a symmetry are separate nodes of the
// tree (their results meet in the store).
func (s *Solver) BestFirstOpening(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions, budget time.Duration) (OpeningReport, error) {
	return s.bestFirstOpening(ctx, pr, lim, opt, budget, 0, bfUnknownStep)
}

// bestFirstOpening is BestFirstOpening stopping after at most expansions
// expansions (0: no limit), its evaluations' unknown replies capped in
// steps of step (bfUnknownStep).
func (s *Solver) bestFirstOpening(ctx context.Context, pr Problem, lim Limits, opt OpeningOptions, budget time.Duration, expansions, step int) (OpeningReport, error) {
	if s.Store == nil {
		return OpeningReport{}, ErrBestFirstStore
	}
	start := time.Now()
	opt.Deepen, opt.Descend, opt.Survey, opt.FailFast, opt.ZoneExtensions = 0, 0, 0, false, 0
	rep, err := s.ProveOpening(ctx, pr, lim, opt)
	if err != nil || rep.Status != StatusUnknown || !rep.PassZone || rep.Skipped > 0 || ctx.Err() != nil {
		return rep, err
	}
	bctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	bf := &bestFirst{s: s, pr: pr, lim: lim, opt: opt, most: expansions, step: max(1, step)}
	bf.opt.Progress = nil
	root := &bfNode{move: engine.NoPoint, expanded: true, first: rep.Pass.Proof.Root.Move}
	bf.setAND(root, rep)
	if err := bf.run(bctx, root); err != nil && bctx.Err() == nil {
		return rep, err
	}
	if ctx.Err() != nil {
		rep.Nodes += bf.nodes
		rep.Elapsed = time.Since(start)
		return rep, ctx.Err()
	}
	bf.log(bf.status(root))
	bf.log(fmt.Sprintf("best-first: stopped after %d expansions, root proof number %s, disproof number %s: the opening again, from the store", bf.expansions, bfText(root.pn), bfText(root.dn)))
	opt.Progress = nil // listed once, by the first evaluation
	again, err := s.ProveOpening(ctx, pr, lim, opt)
	again.Nodes += rep.Nodes + bf.nodes
	again.Elapsed = time.Since(start)
	return again, err
}

// bestFirst is one best-first search's state: the solver, the opening,
// the limits and options of each evaluation, and its counts.
type bestFirst struct {
	s          *Solver
	pr         Problem
	lim        Limits
	opt        OpeningOptions
	expansions int
	most       int // the most expansions (0: no limit)
	step       int // bfUnknownStep
	nodes      int64
}

// log sends a line to the options' Log, if any.
func (bf *bestFirst) log(line string) {
	if bf.opt.Log != nil {
		bf.opt.Log(line)
	}
}

// setAND gives an AND node the children its evaluation rep left unknown
// and its numbers: proven when rep is a win, disproven when it is a
// no-win or its pass search found no zone. A reply already a child keeps
// its node (and the tree below it); a new one is an OR leaf (proof and
// disproof numbers 1). An evaluation stopped at its cap of unknown
// replies adds a rest leaf for the replies not yet decided.
func (bf *bestFirst) setAND(n *bfNode, rep OpeningReport) {
	n.expanded = true
	old := n.kids
	n.kids = nil
	switch {
	case rep.Status == StatusWin:
		n.pn, n.dn = 0, bfInf
		return
	case rep.Status == StatusNoWin || !rep.PassZone || rep.Skipped > 0:
		n.pn, n.dn = bfInf, 0
		return
	}
	n.first = rep.Pass.Proof.Root.Move
	for _, ch := range rep.Children {
		if ch.Status != StatusUnknown && ch.Status != StatusNoWin {
			continue // a no-win within the limits is open (OpeningOptions.openNoWin)
		}
		i := slices.IndexFunc(old, func(k *bfNode) bool { return !k.more && k.move == ch.Move })
		if i >= 0 {
			n.kids = append(n.kids, old[i])
		} else {
			n.kids = append(n.kids, &bfNode{move: ch.Move, attacker: true, pn: 1, dn: 1})
		}
	}
	if left := rep.Total - len(rep.Children); left > 0 && n.cap > 0 && rep.Unknown+rep.NoWin >= n.cap {
		n.kids = append(n.kids, &bfNode{move: engine.NoPoint, attacker: true, more: true, pn: bfInitial(left), dn: 1})
	}
	if len(n.kids) == 0 {
		// cut short before any reply was left unknown: nothing to open
		n.pn, n.dn = bfInf, 0
		return
	}
	n.update()
}

// run expands the most-proving node until the root is decided or ctx
// ends, up to OpeningOptions.Expansions expansions at once: each goes to
// the most-proving node with the leaves of those in flight counted as
// proven (bfNode.vnum), is computed on a Solver of its own (bf.s alone
// when one runs at a time; siblings sharing the store otherwise) and put
// into the tree on this goroutine, which alone touches the tree and
// writes proven quiet moves back up (on bf.s, or a sibling of its own
// when expansions run at once). Errors: an evaluation's or the store's.
func (bf *bestFirst) run(ctx context.Context, root *bfNode) error {
	workers := max(1, bf.opt.Expansions)
	done := make(chan *bfWork)
	var spare []*Solver
	up := bf.s
	if workers > 1 {
		up = bf.s.sibling() // the back-ups, beside the workers
	}
	inFlight := 0
	var firstErr error
	for {
		for firstErr == nil && ctx.Err() == nil && inFlight < workers && root.pn != 0 && root.dn != 0 &&
			(bf.most == 0 || bf.expansions+inFlight < bf.most) {
			w := bf.next(root)
			if w == nil {
				break // every open leaf in flight, or below one
			}
			if leaf := w.path[len(w.path)-1]; leaf.attacker && leaf.expanded {
				bf.settle(w)
				firstErr = fmt.Errorf("internal error: best-first: no child to expand below %s", pathText(w.path))
				break
			}
			w.slv = bf.s
			if workers > 1 {
				if k := len(spare); k > 0 {
					w.slv, spare = spare[k-1], spare[:k-1]
				} else {
					w.slv = bf.s.sibling()
				}
			}
			inFlight++
			go func() {
				bf.compute(ctx, w)
				done <- w
			}()
		}
		if inFlight == 0 {
			return firstErr
		}
		w := <-done
		inFlight--
		if workers > 1 {
			spare = append(spare, w.slv)
		}
		bf.settle(w)
		if firstErr == nil && ctx.Err() == nil {
			if err := bf.apply(ctx, up, w); err != nil {
				firstErr = err
			} else if bf.expansions%bfStatusEvery == 0 {
				bf.log(bf.status(root))
			}
		}
		engine.Release(w.b)
	}
}

// bfWork is one expansion: the leaf at the end of path, the moves of path
// played on b (a board of its own), the Solver it runs on, and what its
// searches found (compute), to be put into the tree by run's goroutine
// (apply).
type bfWork struct {
	path  []*bfNode
	b     *engine.Board
	slv   *Solver
	cap   int  // an AND leaf's unknownCap (0: none)
	tried bool // an OR leaf's longer search done before
	// an AND leaf: skip when no attacker move is left (Limits.Depth)
	skip bool
	rep  OpeningReport
	// an OR leaf: the longer search (marked: done; ran: searched, its
	// answer la within llim, before: recorded as tried earlier), then the
	// quiet moves (listed: lead and rest, of probed, kept: from the store)
	marked, ran, before bool
	la                  Answer
	llim                Limits
	listed, kept        bool
	lead, rest          []bfCand
	probed              int
	took                time.Duration // an OR leaf: the listing's wall time (quietList)
	nodes               int64
	err                 error
}

// next returns the expansion of the most-proving node below root, the
// expansions in flight counted as proven (vnum), marked in flight along
// its path; nil when there is none (root's virtual numbers decided).
func (bf *bestFirst) next(root *bfNode) *bfWork {
	if pn, dn := root.vnum(); pn == 0 || dn == 0 {
		return nil
	}
	b := engine.Scratch(bf.pr.Board)
	att := bf.pr.Attacker
	path := []*bfNode{root}
	for n := root; n.expanded; {
		k := n.pick()
		if k == nil || k.more {
			break // k.more: n's evaluation goes on
		}
		c := att
		if k.attacker { // the defender moved into it
			c = att.Opponent()
		}
		b.Play(k.move, c)
		path = append(path, k)
		n = k
	}
	w := bf.work(path, b)
	leaf := path[len(path)-1]
	leaf.inFlight = true
	for _, n := range path {
		n.busy++
	}
	return w
}

// work returns the expansion of the leaf at the end of path (b the
// position there), copying what compute reads of it; an AND leaf below
// the root gets bf.step more replies to leave open (its unknownCap).
func (bf *bestFirst) work(path []*bfNode, b *engine.Board) *bfWork {
	leaf := path[len(path)-1]
	w := &bfWork{path: path, b: b, tried: leaf.tried}
	if !leaf.attacker && leaf != path[0] {
		leaf.cap += bf.step
		w.cap = leaf.cap
	}
	return w
}

// settle takes w's marks off the tree.
func (bf *bestFirst) settle(w *bfWork) {
	w.path[len(w.path)-1].inFlight = false
	for _, n := range w.path {
		n.busy--
	}
}

// compute runs w's searches on w.slv, touching nothing of the tree but
// reading what next copied: an AND leaf's evaluation by ProveOpening (up
// to w.cap replies left open, a no-win among them: openNoWin), an OR
// leaf's longer search (Escalate) and then, unless it decided the leaf,
// its quiet moves (quietList).
func (bf *bestFirst) compute(ctx context.Context, w *bfWork) {
	leaf := w.path[len(w.path)-1]
	if !leaf.attacker {
		sub, ok := bf.limAt(quietMoves(w.path))
		if !ok {
			w.skip = true
			return
		}
		opt := bf.opt
		opt.inner = true     // the survey's order
		opt.openNoWin = true // a reply without a VCT is an OR leaf, not a refutation
		opt.unknownCap = w.cap
		w.rep, w.err = w.slv.ProveOpening(ctx, Problem{Board: w.b, ToMove: bf.pr.Attacker.Opponent(), Attacker: bf.pr.Attacker}, sub, opt)
		w.nodes = w.rep.Nodes
		return
	}
	if !w.tried {
		if w.err = bf.searchLonger(ctx, w); w.err != nil || ctx.Err() != nil || w.ran && w.la.Status == StatusWin {
			return
		}
	}
	start := time.Now()
	w.lead, w.rest, w.probed, w.kept, w.err = bf.quietList(ctx, w.slv, w.b, w.path)
	w.took = time.Since(start)
	w.listed = w.err == nil && ctx.Err() == nil
}

// apply puts w's results into the tree (applyLeaf), counts the
// expansion, and goes back up w's path: each node's numbers from its
// children's, an OR node whose quiet moves all failed widened, and each
// AND node now proven written back (backUp on up, once). Errors: w's
// searches', the back-ups' and the store's.
func (bf *bestFirst) apply(ctx context.Context, up *Solver, w *bfWork) error {
	if w.err != nil {
		return w.err
	}
	bf.applyLeaf(w)
	bf.expansions++
	b, path := w.b, w.path
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		n.update()
		if n.attacker && n.rest != nil && n.dn == 0 && n.pn != 0 {
			bf.widen(n) // every quiet move tried failed: the next ones
			n.update()
		}
		if i > 0 && !n.attacker && n.pn == 0 && !n.backed && ctx.Err() == nil {
			if err := bf.backUp(ctx, up, b, path[:i+1]); err != nil {
				return err
			}
		}
		if i > 0 {
			b.Undo()
		}
	}
	return nil
}

// applyLeaf puts the results of w's searches into its leaf, and logs
// them: an OR leaf's longer search (a win proves it; a no-win leaves it
// open, quiet moves may follow) and its quiet moves (openQuiet); an AND
// leaf's evaluation (setAND), or no attacker move left (disproven).
func (bf *bestFirst) applyLeaf(w *bfWork) {
	bf.nodes += w.nodes
	leaf, path := w.path[len(w.path)-1], w.path
	switch {
	case leaf.attacker:
		if w.marked {
			leaf.tried = true
		}
		if w.ran {
			if w.la.Status == StatusWin {
				leaf.pn, leaf.dn = 0, bfInf
			}
			if !w.before {
				bf.log(fmt.Sprintf("best-first %d: after %s: a longer search (%v): %v (%.1f s)", bf.expansions+1, pathText(path), limText(w.llim), w.la.Status, w.la.Elapsed.Seconds()))
			}
		}
		if w.listed {
			bf.openQuiet(w)
		}
	case w.skip:
		leaf.expanded, leaf.pn, leaf.dn = true, bfInf, 0 // no attacker moves left
	default:
		again := leaf.expanded
		bf.setAND(leaf, w.rep)
		rep, how := w.rep, ""
		if again {
			how = ", continued"
		}
		if left := rep.Total - len(rep.Children); left > 0 && rep.Status == StatusUnknown {
			how += fmt.Sprintf(", %d not yet decided", left)
		}
		bf.log(fmt.Sprintf("best-first %d: after %s: pass %v, zone %d: %v (%d won, %d unknown, %d no-win%s; %.1f s)",
			bf.expansions+1, pathText(path), rep.Pass.Status, rep.Total, rep.Status, rep.Won, rep.Unknown, rep.NoWin, how, rep.Elapsed.Seconds()))
	}
}

// expand computes the expansion of the leaf at the end of path (b the
// position) on bf.s and puts it into the tree (compute, applyLeaf): one
// step of run, alone and without the back-up. An AND leaf (the defender
// to move after a quiet move) is evaluated by ProveOpening, up to
// bfUnknownStep replies left open (unknown, or a no-win within the
// limits: OpeningOptions.openNoWin), a node evaluated in part (its rest
// leaf the most-proving node) bfUnknownStep more, the decided replies
// read back from the store; an OR leaf (the attacker to move after a
// reply) gets its longer search if it has not had one (Escalate), then
// its quiet moves (quietList, openQuiet), disproven when there are none.
// A search cut short by ctx leaves the leaf as it was.
func (bf *bestFirst) expand(ctx context.Context, b *engine.Board, path []*bfNode) error {
	w := bf.work(path, b)
	w.slv = bf.s
	bf.compute(ctx, w)
	if w.err != nil || ctx.Err() != nil {
		return w.err // cut short: left as it was, to be expanded again
	}
	bf.applyLeaf(w)
	return nil
}

// longer runs the longer search of the OR leaf at the end of path (b the
// position) alone, on bf.s (searchLonger), and puts its result into the
// leaf.
func (bf *bestFirst) longer(ctx context.Context, b *engine.Board, path []*bfNode) error {
	w := &bfWork{path: path, b: b, slv: bf.s}
	if err := bf.searchLonger(ctx, w); err != nil || ctx.Err() != nil {
		return err
	}
	bf.applyLeaf(w)
	return nil
}

// searchLonger searches the OR leaf of w (the attacker to move after a
// defender reply that an evaluation left open) once more on w.slv, within
// OpeningOptions.Escalate times the limits, as a reply of an opening is
// searched (attemptChild, without a pass proof to repair: the store
// first, an unknown one recorded as an attempt, so that a rerun does not
// search it again unless OpeningOptions.Retry), with solve --mode win's
// quiet threats. Without Escalate (or limits), or below
// OpeningOptions.EscalateDepth quiet moves, the leaf is only marked.
// A search cut short by ctx marks nothing. Errors: the search's and the
// store's.
func (bf *bestFirst) searchLonger(ctx context.Context, w *bfWork) error {
	q := quietMoves(w.path)
	lim, ok := bf.limAt(q)
	tooDeep := bf.opt.EscalateDepth > 0 && q > bf.opt.EscalateDepth
	if !ok || tooDeep || bf.opt.Escalate <= 1 || lim.Time <= 0 && lim.Nodes <= 0 {
		w.marked = true
		return nil
	}
	lim.Time *= time.Duration(bf.opt.Escalate)
	lim.Nodes *= int64(bf.opt.Escalate)
	pr := Problem{Board: w.b, ToMove: bf.pr.Attacker, Attacker: bf.pr.Attacker}
	slv := w.slv
	quiet := slv.QuietThreats
	slv.QuietThreats = true // this worker's solver: no evaluation in flight on it
	a, _, before, err := slv.attemptChild(ctx, pr, w.path[len(w.path)-1].move, nil, lim, bf.opt)
	slv.QuietThreats = quiet
	w.nodes += a.Nodes
	if err != nil || ctx.Err() != nil {
		return err
	}
	w.marked, w.ran, w.la, w.llim, w.before = true, true, a, lim, before
	return nil
}

// status is a line for the log on the tree below root: its proof and
// disproof numbers, and for each open reply (an OR child of the root) its
// numbers, its quiet move of least proof number and how many of that
// move's replies are still open.
func (bf *bestFirst) status(root *bfNode) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "best-first: %d expansions, root proof number %s, disproof number %s", bf.expansions, bfText(root.pn), bfText(root.dn))
	for _, k := range root.kids {
		if k.pn == 0 || k.dn == 0 {
			continue
		}
		if k.more {
			fmt.Fprintf(&sb, "; the rest (%s, %s)", bfText(k.pn), bfText(k.dn))
			continue
		}
		fmt.Fprintf(&sb, "; %v (%s, %s)", k.move, bfText(k.pn), bfText(k.dn))
		if q := k.pick(); q != nil {
			open := 0
			for _, r := range q.kids {
				if r.pn != 0 && r.dn != 0 {
					open++
				}
			}
			fmt.Fprintf(&sb, " by %v (%s, %s; %d replies open)", q.move, bfText(q.pn), bfText(q.dn), open)
		}
	}
	return sb.String()
}

// quietList lists the quiet moves of the OR leaf at the end of path (b
// the position, the attacker to move after a defender reply) on slv: the
// store's list when it holds one (less the moves that lose at once, see
// below), else the probes' (probe), then stored. Errors: the probes' and
// the store's.
func (bf *bestFirst) quietList(ctx context.Context, slv *Solver, b *engine.Board, path []*bfNode) (lead, cands []bfCand, probed int, kept bool, err error) {
	lead, cands, kept, err = slv.Store.bfCands(b, bf.pr.Attacker)
	if errors.Is(err, ErrStoreCorrupt) {
		kept, err = false, nil // probed again, and written over
	}
	if err != nil {
		return nil, nil, 0, false, err
	}
	if kept {
		// lists stored before deepenMoves dropped the moves that lose at
		// once: facing a four a list other than the block alone is probed
		// again (and written over, so the next rebuild keeps it), else the
		// moves that leave the defender a straight four are dropped (and
		// the node probed again if none is left)
		if block, threat := forcedBlock(b, bf.pr.Attacker); threat {
			all := append(slices.Clone(lead), cands...)
			kept = block != engine.NoPoint && len(all) == 1 && all[0].move == block
		} else {
			lead, cands = notLosing(b, bf.pr.Attacker, lead), notLosing(b, bf.pr.Attacker, cands)
			kept = len(lead)+len(cands) > 0
		}
	}
	probed = len(lead) + len(cands)
	if !kept {
		if lead, cands, probed, err = bf.probe(ctx, slv, b, path); err != nil || ctx.Err() != nil {
			return nil, nil, 0, false, err
		}
		if err := slv.Store.putBFCands(b, bf.pr.Attacker, lead, cands); err != nil {
			return nil, nil, 0, false, err
		}
	}
	return lead, cands, probed, kept, nil
}

// openQuiet opens w's OR leaf with the quiet moves quietList gave: the
// leading ones and the first bfWidth of the rest as children (widen), the
// others kept; disproven when there are none.
func (bf *bestFirst) openQuiet(w *bfWork) {
	n := w.path[len(w.path)-1]
	n.expanded, n.rest = true, w.rest
	for _, c := range w.lead {
		n.kids = append(n.kids, &bfNode{move: c.move, pn: c.pn, dn: 1})
	}
	bf.widen(n)
	if len(n.kids) == 0 {
		n.pn, n.dn = bfInf, 0
	}
	var open []string
	for _, k := range n.kids {
		open = append(open, fmt.Sprintf("%v %d", k.move, k.pn))
	}
	how := "probed"
	if w.kept {
		how = "from the store"
	}
	bf.log(fmt.Sprintf("best-first %d: after %s: %d quiet moves %s, opened (with their proof numbers): %s (%.1f s)",
		bf.expansions+1, pathText(w.path), w.probed, how, strings.Join(open, ", "), w.took.Seconds()))
}

// limText is lim's time, or else its nodes, for the log.
func limText(lim Limits) string {
	if lim.Time > 0 {
		return lim.Time.String()
	}
	return fmt.Sprintf("%d nodes", lim.Nodes)
}

// probe lists the quiet moves of the OR leaf at the end of path (b the
// position, the attacker to move) and their initial proof numbers: the
// suggested ones whose pass search won or found nothing within
// deepenProbeNodes (lead, in their order), and the others whose pass
// search won (rest, the least proof number first), and how many were
// probed. Errors: the probes' and the store's.
func (bf *bestFirst) probe(ctx context.Context, slv *Solver, b *engine.Board, path []*bfNode) (lead, rest []bfCand, probed int, err error) {
	pr := Problem{Board: b, ToMove: bf.pr.Attacker, Attacker: bf.pr.Attacker}
	parent := path[len(path)-2]
	moves, _, guided, err := slv.quietCandidates(ctx, pr, parent.first, bf.opt)
	if err != nil {
		return nil, nil, 0, err
	}
	lim, _ := bf.limAt(quietMoves(path))
	zones, err := slv.probeZones(ctx, pr, moves, deepenProbeNodes, lim.Depth, nil, nil)
	if err != nil || ctx.Err() != nil {
		return nil, nil, 0, err
	}
	for i, m := range moves {
		switch {
		case zones[i] != noZone:
			c := bfCand{m, bfInitial(zones[i])}
			if i < guided {
				lead = append(lead, c)
			} else {
				rest = append(rest, c)
			}
		case i < guided:
			lead = append(lead, bfCand{m, bfMaxInitial})
		}
	}
	slices.SortStableFunc(rest, func(a, c bfCand) int { return cmp.Compare(a.pn, c.pn) })
	return lead, rest, len(moves), nil
}

// notLosing returns the moves of cs after which att's opponent on b
// cannot make a straight four (straightFour), in their order.
func notLosing(b *engine.Board, att engine.Color, cs []bfCand) []bfCand {
	out := cs[:0:0]
	for _, c := range cs {
		b.Play(c.move, att)
		lost := straightFour(b, att.Opponent())
		b.Undo()
		if !lost {
			out = append(out, c)
		}
	}
	return out
}

// widen opens the next bfWidth of an OR node's probed moves.
func (bf *bestFirst) widen(n *bfNode) {
	k := min(bfWidth, len(n.rest))
	for _, c := range n.rest[:k] {
		n.kids = append(n.kids, &bfNode{move: c.move, pn: c.pn, dn: 1})
	}
	n.rest = n.rest[k:]
	if len(n.rest) == 0 {
		n.rest = nil
	}
}

// backUp writes the win of the reply above the proven AND node at the end
// of path (b the position after its quiet move): deepen, one
// level, from the store, which checks the proof. A quiet move that does
// not prove again (a result the store no longer serves within the limits)
// is disproven.
func (bf *bestFirst) backUp(ctx context.Context, up *Solver, b *engine.Board, path []*bfNode) error {
	n, q := path[len(path)-1], quietMoves(path)
	n.backed = true
	b.Undo() // the position before the quiet move, the attacker to move
	defer b.Play(n.move, bf.pr.Attacker)
	pr := Problem{Board: b, ToMove: bf.pr.Attacker, Attacker: bf.pr.Attacker}
	uopt := bf.opt
	uopt.Log, uopt.Progress, uopt.pool = nil, nil, nil
	lim, _ := bf.limAt(q - 1)
	a, ok, err := up.deepen(ctx, pr, n.move, 1, lim, uopt)
	if err != nil || ctx.Err() != nil {
		n.backed = false // cut short: again when next reached
		return err
	}
	if !ok {
		n.pn, n.dn = bfInf, 0
		bf.log(fmt.Sprintf("best-first: after %s: proven below but not again from the store: dropped", pathText(path)))
		return nil
	}
	bf.log(fmt.Sprintf("best-first: after %s: won, every reply proven (proof %d moves)", pathText(path), a.Proof.Len()))
	return up.remember(pr, ModeWin, lim, a)
}

// limAt is the limits of a position below q quiet attacker moves of the
// tree: one attacker move fewer (Limits.Depth, when set) for each, as
// deepen gives its inner proof; ok false when none is left.
func (bf *bestFirst) limAt(q int) (lim Limits, ok bool) {
	lim = bf.lim
	if lim.Depth > 0 {
		if lim.Depth -= q; lim.Depth <= 0 {
			return lim, false
		}
	}
	return lim, true
}

// quietMoves is the number of quiet attacker moves (AND nodes) on path
// below the root.
func quietMoves(path []*bfNode) int {
	q := 0
	for _, n := range path[1:] {
		if !n.attacker {
			q++
		}
	}
	return q
}

// pathText is the moves of path below the root, in order.
func pathText(path []*bfNode) string {
	var ms []engine.Point
	for _, n := range path[1:] {
		ms = append(ms, n.move)
	}
	if len(ms) == 0 {
		return "the opening"
	}
	return engine.FormatPoints(ms)
}
