package play

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gomoku/engine"
	"gomoku/nnue"
	"gomoku/solver"
)

// MCTSParams are the tunable constants of MCTS. The progressive strategies
// follow Chaslot, Winands, van den Herik, Uiterwijk & Bouzy, "Progressive
// strategies for Monte-Carlo tree search" (2008), §3, as Kang & Kim apply
// them to gomoku: below T visits a node picks its children by the
// simulation strategy (the heuristic); from T on by UCT plus the progressive
// bias W·H_i/(n_i+1), among the k best children by H only, k growing from
// KInit by one each time the node's visits pass A·B^(k-KInit) (progressive
// unpruning).
type MCTSParams struct {
	// C is the UCT exploration constant (values are win rates in [0, 1]).
	C float64
	// T is the visit threshold of the progressive strategies (visits).
	T int
	// A and B set the unpruning schedule: a node of n visits considers
	// KInit + ⌊log_B(n/A)⌋ + 1 children once n ≥ A.
	A, B float64
	// KInit is the number of children a node starts with, by H.
	KInit int
	// W weighs the progressive bias H_i/(n_i+1), H normalised to (0, 1]
	// by the node's best child.
	W float64
	// RolloutDepth is the most plies a rollout plays before it scores the
	// position with a static evaluation (Kang & Kim's limited-depth rollouts).
	RolloutDepth int
	// VCFNodes is the node limit of the VCF search run for the side to move
	// at every new tree node (threat-space search at new nodes); 0 turns it
	// off.
	VCFNodes int64
	// Rollouts scores leaves by the seeds' limited-depth rollouts instead
	// of the learned evaluation's win rate (eval.go).
	Rollouts bool
	// HeuristicPrior orders and biases moves by the seeds' heuristic H
	// (Kang & Kim's line scores and García's potential) instead of the
	// learned evaluation's: the network's policy (policyPrior) where the
	// weights have a network for the rule, else the tables' move scores.
	HeuristicPrior bool
}

// DefaultMCTSParams returns the constants of the seeds: T=50, A=50, B=1.3,
// KInit=5 (Kang & Kim; Chaslot et al. 2008), with C=0.4, W=1 and VCF checks
// of up to 2048 nodes; leaves valued and moves ordered by the learned
// evaluation (Rollouts and HeuristicPrior restore the seeds' rollouts of
// at most RolloutDepth=24 plies and heuristic).
func DefaultMCTSParams() MCTSParams {
	return MCTSParams{C: 0.4, T: 50, A: 50, B: 1.3, KInit: 5, W: 1, RolloutDepth: 24, VCFNodes: 2048}
}

// MCTS is Monte-Carlo tree search for the best move of the side to move,
// with MCTS-solver.Solver backups (Winands, Björnsson & Saito 2008): a node whose
// side to move has a winning child is a proven win, one whose children are
// all proven losses a proven loss. "All" means all candidate moves (empty
// cells within two of a stone), so these proofs are heuristic: they steer
// the search and are never reported as wins (solver.Solver's proofs are).
//
// Leaves are scored by rollouts (see rollout). New nodes first run a
// bounded VCF search for their side to move. Search runs Threads goroutines
// on one tree, each with its own board, with virtual loss (a visit in
// flight counts as a loss) to spread them. The tree is kept between
// searches and reused when the next position follows from the last one.
// An MCTS value is not safe for concurrent use by its callers.
type MCTS struct {
	Params MCTSParams
	// Threads is the number of search goroutines (1 when 0).
	Threads int
	// Weights are the evaluation's (DefaultWeights when nil).
	Weights *Weights

	mu    sync.Mutex // guards the tree
	root  *mnode
	rootB *engine.Board // the position of root
	nodes atomic.Int64  // tree nodes allocated since the root was made
}

// NewMCTS returns an MCTS with DefaultMCTSParams and threads goroutines.
func NewMCTS(threads int) *MCTS {
	return &MCTS{Params: DefaultMCTSParams(), Threads: threads}
}

// mnode is a tree node: the position after move. Its statistics are from
// the point of view of mover, the side that played move.
type mnode struct {
	move     engine.Point
	mover    engine.Color
	n        int32   // visits, in-flight ones included
	w        float64 // sum of the mover's rollout values
	h        float32 // heuristic of move, normalised by the best sibling's
	proven   int8    // +1: mover wins; -1: mover loses; provenDraw; 0: unknown
	expanded bool
	busy     bool // a goroutine is expanding it
	// cands are the moves of the side to move, best by H first; children
	// holds the nodes of a prefix of them, made as progressive unpruning
	// reaches them (so a node costs 8 bytes per move until then).
	cands    []mcand
	children []*mnode
}

// provenDraw marks a node proven drawn: the board filled with no five, or
// every move of its side to move proven a loss or a draw with one a draw.
const provenDraw int8 = 2

// provenRank orders proven states for the mover's choice: a win, then an
// unknown or drawn move, then a loss.
func provenRank(p int8) int {
	switch p {
	case 1:
		return 2
	case -1:
		return 0
	}
	return 1
}

// mcand is a move not yet given a node, with its normalised heuristic.
type mcand struct {
	p engine.Point
	h float32
}

// policyPrior sets each candidate's prior to the network's policy for side
// s to move: the softmax of the policy logits over the candidates,
// normalised by the largest (so the best is 1, as with the heuristic),
// after AlphaZero's priors (Silver et al. 2017) in the progressive-bias
// term of Chaslot et al. (2008).
func policyPrior(acc *nnue.Acc, s engine.Color, cands []mcand) {
	best := float32(math.Inf(-1))
	for i := range cands {
		cands[i].h = acc.Policy(s, cands[i].p)
		best = max(best, cands[i].h)
	}
	for i := range cands {
		cands[i].h = float32(math.Exp(float64(cands[i].h - best)))
	}
}

// node returns the tree node of the move, played by mover.
func (c mcand) node(mover engine.Color) *mnode { return &mnode{move: c.p, mover: mover, h: c.h} }

// MoveStat is one move of an MCTS or alpha-beta report.
type MoveStat struct {
	Move engine.Point
	// Value is the win rate of the move for the side to move, 0 to 1 (1 a
	// win, 0.5 even); for alpha-beta a squashed score.
	Value float64
	// Visits is the number of playouts through the move (MCTS).
	Visits int64
	// Depth is the depth in plies the score was searched to (alpha-beta).
	Depth int
	// Proven is +1 when the search proved the move wins (within its
	// candidate moves), -1 when it proved it loses, 0 otherwise.
	Proven int
	// Drawn says the search proved the move draws: the board fills with
	// no five (MCTS; Proven is then 0 and Value 0.5).
	Drawn bool
	// PV is the principal variation, starting with Move.
	PV []engine.Point
}

// SearchReport is the outcome of a best-move search.
type SearchReport struct {
	// Moves are the best moves, best first.
	Moves []MoveStat
	// Playouts counts MCTS playouts; Nodes counts alpha-beta nodes.
	Playouts, Nodes int64
	Elapsed         time.Duration
	// Reused is the number of playouts inherited from the previous search's
	// tree.
	Reused int64
}

// ErrNoMoves: the side to move has no legal move (a full board).
var ErrNoMoves = errors.New("no legal move")

// mctsPVEvery is the least time between two progress reports of MCTS
// that carry its best line (Progress.PV).
const mctsPVEvery = 200 * time.Millisecond

// mctsMaxNodeBytes is the memory charged per tree node for the limit.
const mctsMaxNodeBytes = 160

// Search runs MCTS on position b with c to move within lim (Time, Nodes as
// playouts, MemoryMiB as tree size; at least one limit or a cancellable ctx
// is needed) and reports the multipv best moves by visits. rootMoves, when
// not empty, restricts the moves searched at the root. Errors: ErrNoMoves;
// solver.ErrGameOver when the board already holds a five.
func (m *MCTS) Search(ctx context.Context, b *engine.Board, c engine.Color, lim solver.Limits, multipv int,
	rootMoves []engine.Point, progress solver.ProgressFunc) (SearchReport, error) {
	start := time.Now()
	if b.LastMoveWon() {
		return SearchReport{}, solver.ErrGameOver
	}
	m.reroot(b, c, rootMoves)
	root := m.root
	reused := int64(root.n)
	maxNodes := int64(solver.DefaultMemoryMiB) << 20 / mctsMaxNodeBytes
	if lim.MemoryMiB > 0 {
		maxNodes = int64(lim.MemoryMiB) << 20 / mctsMaxNodeBytes
	}
	// the root is expanded up front so that an empty candidate list is an
	// error and rootMoves apply
	w0 := newMCTSWorker(m, b, 0)
	if !root.expanded {
		w0.expand(root, rootMoves)
	}
	if len(root.cands) == 0 {
		return SearchReport{}, ErrNoMoves
	}
	var deadline time.Time
	if lim.Time > 0 {
		deadline = start.Add(lim.Time)
	}
	var playouts atomic.Int64
	threads := max(1, m.Threads)
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		w := w0
		if t > 0 {
			w = newMCTSWorker(m, b, uint64(t))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			lastPV := -mctsPVEvery
			for i := 0; ; i++ {
				if i&63 == 0 {
					if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
						return
					}
					if t == 0 && progress != nil && i&1023 == 0 {
						pg := solver.Progress{Nodes: playouts.Load(), Elapsed: time.Since(start)}
						// the best line takes the tree's lock and a sort of
						// the root's children: a few times a second at most
						if pg.Elapsed-lastPV >= mctsPVEvery {
							lastPV = pg.Elapsed
							if r := m.report(1); len(r.Moves) > 0 {
								pg.PV, pg.Value = r.Moves[0].PV, r.Moves[0].Value
							}
						}
						progress(pg)
					}
				}
				if lim.Nodes > 0 && playouts.Load() >= lim.Nodes {
					return
				}
				if !w.playout(maxNodes) {
					return // the root is proven
				}
				playouts.Add(1)
			}
		}()
	}
	wg.Wait()
	rep := m.report(multipv)
	rep.Playouts, rep.Elapsed, rep.Reused = playouts.Load(), time.Since(start), reused
	return rep, nil
}

// reroot makes the root the node of position b, c to move: the old tree's
// node for b when b follows the old root's position by moves the tree
// holds, else a new node. A root restricted by rootMoves is always new.
func (m *MCTS) reroot(b *engine.Board, c engine.Color, rootMoves []engine.Point) {
	if m.root != nil && len(rootMoves) == 0 && m.rootB != nil && m.rootB.Rule() == b.Rule() &&
		m.rootB.Size() == b.Size() && b.Stones() >= m.rootB.Stones() {
		node := m.root
		same := true
		for i := 0; i < m.rootB.Stones() && same; i++ {
			p, col := m.rootB.Move(i)
			q, qc := b.Move(i)
			same = p == q && col == qc
		}
		for i := m.rootB.Stones(); i < b.Stones() && same && node != nil; i++ {
			p, _ := b.Move(i)
			var next *mnode
			for _, ch := range node.children {
				if ch.move == p {
					next = ch
					break
				}
			}
			node = next
		}
		if same && node != nil && node.mover == c.Opponent() && !node.busy {
			m.root, m.rootB = node, b.Clone()
			return
		}
	}
	m.root = &mnode{mover: c.Opponent(), move: engine.NoPoint}
	if b.Stones() > 0 {
		m.root.move, _ = b.LastMove()
	}
	m.rootB = b.Clone()
	m.nodes.Store(1)
}

// report lists the root's children by visits (proven wins first).
func (m *MCTS) report(multipv int) SearchReport {
	m.mu.Lock()
	defer m.mu.Unlock()
	kids := slices.Clone(m.root.children)
	slices.SortStableFunc(kids, func(a, b *mnode) int {
		if ra, rb := provenRank(a.proven), provenRank(b.proven); ra != rb {
			return rb - ra
		}
		return int(b.n) - int(a.n)
	})
	if multipv <= 0 {
		multipv = 1
	}
	var rep SearchReport
	for _, k := range kids[:min(multipv, len(kids))] {
		ms := MoveStat{Move: k.move, Visits: int64(k.n), Value: 0.5}
		switch k.proven {
		case 1, -1:
			ms.Proven = int(k.proven)
		case provenDraw:
			ms.Drawn = true
		default:
			if k.n > 0 {
				ms.Value = k.w / float64(k.n)
			}
		}
		if m.root.proven == 1 && k.proven == 0 {
			ms.Proven = -1 // the root is lost: so is every move from it
		}
		switch ms.Proven {
		case 1:
			ms.Value = 1
		case -1:
			ms.Value = 0
		}
		for n := k; n != nil; n = bestChild(n) {
			ms.PV = append(ms.PV, n.move)
		}
		rep.Moves = append(rep.Moves, ms)
	}
	return rep
}

// bestChild returns a node's proven-winning child, else its most visited
// one, or nil for a leaf.
func bestChild(n *mnode) *mnode {
	var best *mnode
	for _, c := range n.children {
		if c.proven == 1 {
			return c
		}
		if best == nil || c.n > best.n {
			best = c
		}
	}
	if best != nil && best.n == 0 {
		return nil
	}
	return best
}

// mctsWorker is one search goroutine: its board, random source, VCF probe
// and buffers.
type mctsWorker struct {
	m     *MCTS
	b     *engine.Board
	e     *Eval // on b: the tree's moves are played through it
	rng   *rand.Rand
	vcf   *solver.VCFProbe
	path  []*mnode
	cands []engine.Point
	seen  []bool
	fours []engine.Point
	hs    []int32 // heuristic values of a node's moves, scratch of expand
}

func newMCTSWorker(m *MCTS, b *engine.Board, seed uint64) *mctsWorker {
	w := m.Weights
	if w == nil {
		w = DefaultWeights()
	}
	bb := b.Clone()
	return &mctsWorker{m: m, b: bb, e: NewEval(w, bb), rng: rand.New(rand.NewPCG(seed+1, 0x9e3779b97f4a7c15)),
		vcf: solver.NewVCFProbe(4), seen: make([]bool, engine.NumCells)}
}

// playout runs one selection-expansion-rollout-backup cycle. It returns
// false when the root is proven, so that nothing is left to search.
func (w *mctsWorker) playout(maxNodes int64) bool {
	m := w.m
	m.mu.Lock()
	node := m.root
	if node.proven != 0 {
		m.mu.Unlock()
		return false
	}
	w.path = append(w.path[:0], node)
	node.n++
	var expand *mnode
	for node.expanded && node.proven == 0 {
		next := w.selectChild(node)
		if next == nil {
			break
		}
		next.n++ // virtual loss: counted as a visit worth 0 until backed up
		w.e.Play(next.move, next.mover)
		w.path = append(w.path, next)
		node = next
	}
	if !node.expanded && !node.busy && node.proven == 0 && node.n >= 2 && m.nodes.Load() < maxNodes {
		node.busy = true
		expand = node
	}
	proven := node.proven
	m.mu.Unlock()

	if expand != nil {
		proven = w.expand(expand, nil)
	}
	var vBlack float64
	switch {
	case proven != 0:
		vBlack = provenValue(node.mover, proven)
	case m.Params.Rollouts:
		vBlack = w.rollout(node.mover.Opponent())
	default:
		vBlack = w.leafValue(node.mover.Opponent())
	}

	m.mu.Lock()
	for i := len(w.path) - 1; i >= 0; i-- {
		n := w.path[i]
		if n.mover == engine.Black {
			n.w += vBlack
		} else {
			n.w += 1 - vBlack
		}
		if i < len(w.path)-1 {
			updateProven(n)
		}
	}
	m.mu.Unlock()
	for range len(w.path) - 1 {
		w.e.Undo()
	}
	return true
}

// provenValue is black's value of a node whose mover wins (proven +1),
// loses (-1) or draws (provenDraw, 0.5).
func provenValue(mover engine.Color, proven int8) float64 {
	if proven == provenDraw {
		return 0.5
	}
	v := 1.0
	if proven < 0 {
		v = 0
	}
	if mover == engine.White {
		v = 1 - v
	}
	return v
}

// updateProven applies the MCTS-solver.Solver rules to n from its children: the
// side to move at n (n's opponent of mover) wins if a child wins for it,
// loses if every child loses, and draws if every child is proven and the
// best of them draws.
func updateProven(n *mnode) {
	if n.proven != 0 || !n.expanded || len(n.cands) == 0 {
		return
	}
	all, drawn := true, false
	for _, c := range n.children {
		if c.proven == 1 {
			n.proven = -1
			return
		}
		all = all && c.proven != 0
		drawn = drawn || c.proven == provenDraw
	}
	if all && len(n.children) == len(n.cands) {
		n.proven = 1
		if drawn {
			n.proven = provenDraw
		}
	}
}

// selectChild picks the child of node to descend into (the tree is locked):
// a proven win at once; below T visits the best by heuristic over visits;
// then UCT with progressive bias among the unpruned children that are not
// proven losses.
func (w *mctsWorker) selectChild(node *mnode) *mnode {
	p := &w.m.Params
	k := len(node.cands)
	if node.n < int32(p.T) {
		k = min(k, max(1, p.KInit))
	} else if p.A > 0 && p.B > 1 {
		extra := 1
		if float64(node.n) >= p.A {
			extra += int(math.Log(float64(node.n)/p.A) / math.Log(p.B))
		}
		k = min(k, max(1, p.KInit)+extra)
	}
	// k counts live children: proven losses are skipped, and unpruning
	// reaches past them, so a node whose best moves lose still searches k
	logN := math.Log(float64(node.n) + 1)
	var best, lost *mnode
	bestScore := math.Inf(-1)
	live := 0
	for i := 0; i < len(node.cands) && live < k; i++ {
		if i == len(node.children) {
			node.children = append(node.children, node.cands[i].node(node.mover.Opponent()))
			w.m.nodes.Add(1)
		}
		c := node.children[i]
		switch c.proven {
		case 1:
			return c
		case -1:
			if lost == nil {
				lost = c
			}
			continue
		}
		live++
		var score float64
		if node.n < int32(p.T) {
			score = float64(c.h) / float64(c.n+1)
		} else {
			q := 0.5
			if c.n > 0 {
				q = c.w / float64(c.n)
			}
			score = q + p.C*math.Sqrt(logN/float64(c.n+1)) + p.W*float64(c.h)/float64(c.n+1)
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	if best == nil {
		return lost // every move loses: all now have nodes, so updateProven can tell
	}
	return best
}

// expand creates node's children from w.b, which holds node's position: the
// forced replies when there are any, a VCF win when the bounded search
// finds one, else every candidate move by heuristic (or only rootMoves).
// It locks the tree to attach them, and returns node's proven state.
func (w *mctsWorker) expand(node *mnode, rootMoves []engine.Point) int8 {
	b := w.b
	s := node.mover.Opponent()
	var moves []engine.Point
	proven := int8(0)
	switch {
	case node.move != engine.NoPoint && b.Stones() > 0 && b.LastMoveWon():
		proven = 1
	case b.Full():
		proven = provenDraw // a full board with no five is a draw
	case b.Count(s, engine.FivePoints) > 0:
		moves = []engine.Point{b.FirstPoint(s, engine.FivePoints)}
	case b.Count(node.mover, engine.FivePoints) >= 2:
		proven = 1
	case b.Count(node.mover, engine.FivePoints) == 1:
		p := b.FirstPoint(node.mover, engine.FivePoints)
		if !b.Legal(s, p) {
			proven = 1
		} else {
			moves = []engine.Point{p}
		}
	default:
		if len(rootMoves) == 0 && w.m.Params.VCFNodes > 0 {
			if p, ok := w.vcf.Win(b, s, w.m.Params.VCFNodes); ok {
				moves = []engine.Point{p}
				break
			}
		}
		w.cands = candidates(b, s, w.cands[:0], w.seen)
		if len(rootMoves) > 0 {
			w.cands = slices.DeleteFunc(w.cands, func(p engine.Point) bool { return !slices.Contains(rootMoves, p) })
		}
		moves = w.cands
	}
	if proven != 0 && node == w.m.root && !b.LastMoveWon() && !b.Full() {
		// a lost root still reports moves to play: the blocks of the
		// opponent's five-points first (by H below), then the others
		w.cands = candidates(b, s, w.cands[:0], w.seen)
		if len(rootMoves) > 0 {
			w.cands = slices.DeleteFunc(w.cands, func(p engine.Point) bool { return !slices.Contains(rootMoves, p) })
		}
		moves = w.cands
	}
	cands := make([]mcand, len(moves))
	hs := w.hs[:0]
	var hmax int32 = 1
	for _, p := range moves {
		if w.m.Params.HeuristicPrior {
			hs = append(hs, heuristic(b, s, p))
		} else {
			hs = append(hs, max(1, moveScore(w.e, s, p)))
		}
		hmax = max(hmax, hs[len(hs)-1])
	}
	w.hs = hs
	for i, p := range moves {
		cands[i] = mcand{p: p, h: float32(hs[i]) / float32(hmax)}
	}
	if w.e.acc != nil && !w.m.Params.HeuristicPrior {
		policyPrior(w.e.acc, s, cands)
	}
	slices.SortStableFunc(cands, func(a, b mcand) int { return cmp.Compare(b.h, a.h) })
	var kids []*mnode
	if node == w.m.root {
		// the root's moves are all reported, so all get nodes
		kids = make([]*mnode, len(cands))
		for i, c := range cands {
			kids[i] = c.node(s)
		}
		w.m.nodes.Add(int64(len(kids)))
	}
	w.m.nodes.Add(int64(len(cands)) / 8)
	w.m.mu.Lock()
	node.cands, node.children, node.expanded, node.busy = cands, kids, true, false
	if proven != 0 {
		node.proven = proven
	} else if len(cands) == 0 {
		// renju's black with only forbidden cells left (the board is not
		// full): a forbidden move loses, so treat it as lost
		node.proven = 1
	}
	proven = node.proven
	w.m.mu.Unlock()
	return proven
}

// rollout plays from w.b, s to move, for at most RolloutDepth plies by the
// simulation strategy and returns black's value in [0, 1]. The strategy,
// sequence-like and local:
//   - a five of the side to move wins; two five-points of the opponent lose;
//     one must be blocked (and loses if the block is forbidden);
//   - a straight four of the side to move wins (the opponent has no four);
//   - a four-three is played;
//   - an open three of the opponent is blocked at one of its straight-four
//     points;
//   - otherwise the best of a few cells drawn near the last moves by H.
//
// A rollout that reaches its depth is scored by the threats on the board.
// The board is restored before rollout returns.
func (w *mctsWorker) rollout(s engine.Color) float64 {
	b := w.b
	depth := w.m.Params.RolloutDepth
	played := 0
	defer func() {
		for range played {
			b.Undo()
		}
	}()
	win := func(c engine.Color) float64 {
		if c == engine.Black {
			return 1
		}
		return 0
	}
	for ; played < depth; s = s.Opponent() {
		o := s.Opponent()
		if b.Count(s, engine.FivePoints) > 0 {
			return win(s)
		}
		switch nf := b.Count(o, engine.FivePoints); {
		case nf >= 2:
			return win(o)
		case nf == 1:
			p := b.FirstPoint(o, engine.FivePoints)
			if !b.Legal(s, p) {
				return win(o)
			}
			b.Play(p, s)
			played++
			continue
		}
		var threeThree, block engine.Point
		nBlock := 0
		w.fours = b.Points(s, engine.FourPoints, w.fours[:0])
		for _, p := range w.fours {
			t := b.Threat(s, p)
			if t < engine.ThreatFourThree || !b.Legal(s, p) {
				continue
			}
			if t >= engine.ThreatStraightFour {
				return win(s)
			}
			threeThree = p
		}
		if threeThree != engine.NoPoint {
			b.Play(threeThree, s)
			played++
			continue
		}
		w.fours = b.Points(o, engine.FourPoints, w.fours[:0])
		for _, p := range w.fours {
			if b.Threat(o, p) >= engine.ThreatStraightFour && b.Legal(s, p) {
				nBlock++
				if w.rng.IntN(nBlock) == 0 {
					block = p
				}
			}
		}
		if block != engine.NoPoint {
			b.Play(block, s)
			played++
			continue
		}
		p := w.sample(s)
		if p == engine.NoPoint {
			return 0.5
		}
		b.Play(p, s)
		played++
	}
	// depth reached: score the threats, s to move
	o := s.Opponent()
	d := 2*(b.Count(s, engine.FourPoints)-b.Count(o, engine.FourPoints)) +
		b.Count(s, engine.ThreePoints) - b.Count(o, engine.ThreePoints) + 1 // +1: the move is s's
	v := 0.5 + 0.3*float64(d)/float64(abs(d)+4)
	if s == engine.White {
		v = 1 - v
	}
	return v
}

// leafValue is black's value of the position, s to move, by the learned
// evaluation's win rate.
func (w *mctsWorker) leafValue(s engine.Color) float64 {
	v := w.e.w.WinRate(w.e.Value(s))
	if s == engine.White {
		v = 1 - v
	}
	return v
}

// rolloutSamples is how many cells the simulation strategy draws per move.
const rolloutSamples = 6

// sample draws cells within two of the last stones (the last four, each
// alike) until it has rolloutSamples legal ones or 3·rolloutSamples draws,
// and returns the legal one with the best line-length score for s (ties
// broken at random), or NoPoint if no draw hit a legal cell.
func (w *mctsWorker) sample(s engine.Color) engine.Point {
	b := w.b
	n := b.Stones()
	size := b.Size()
	if n == 0 {
		return engine.PointAt(size/2, size/2)
	}
	best, bestH := engine.NoPoint, int32(-1)
	legal := 0
	for i := 0; i < 3*rolloutSamples && legal < rolloutSamples; i++ {
		q, _ := b.Move(n - 1 - min(n-1, w.rng.IntN(4)))
		r := w.rng.IntN(25)
		p := engine.PointAt(q.X()+r%5-2, q.Y()+r/5-2)
		if !p.In(size) || b.At(p) != engine.Empty {
			continue
		}
		if s == engine.Black && b.Rule() == engine.Renju && !b.Legal(s, p) {
			continue
		}
		legal++
		h := lineScores(&attackScore, b.LinePatterns(s, p)) + lineScores(&defenceScore, b.LinePatterns(s.Opponent(), p))
		h += w.rng.Int32N(8)
		if h > bestH {
			best, bestH = p, h
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
