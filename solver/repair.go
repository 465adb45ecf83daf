package solver

import (
	"context"
	"errors"
	"slices"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// Proof repair for the children of a whole-board proof.
//
// A defender move inside the pass proof's zone breaks that proof somewhere,
// often deep down and in one branch only: the stone takes a cell an attacker
// move needs, blocks one threat, or gives the defender a four there. Solving
// the child from scratch redoes the whole pass search (on freestyle's D3, a
// corner move of the zone cost 6.8 M nodes, as much as the pass search
// itself). repairChild instead replays the pass proof with the defender's
// stone on the board (proof.VerifyOn, the independent checker), and where it
// fails searches again only the positions with the attacker to move on the
// failing path: deepest first and the child's own position last, each with
// a small node budget, then all of them again with eight times the budget,
// and so on; the first win is spliced in and the checker run again. The
// parent of a hard position is often easy, and a child that a small search
// decides at once needs no repair. This is the re-use a transposition table
// gives Allis's proof-number search (Allis 1994, section 5.4) when a
// defender move changes little, made explicit: the positions differ by the
// defender's stone, so their table keys do not meet. Every repaired proof
// is checked in full before it is returned; when half of the child's
// time is spent, the child is left to a full search.

// Repair budgets: the share of a child's time (and nodes) the repair may
// spend before the full search, and the most splices it tries.
const (
	repairShare      = 2 // the repair gets lim.Time/repairShare
	repairNoLimit    = 30 * time.Second
	maxRepairSplice  = 256
	childFirstNodes  = 5_000  // the child's own search before the repair
	repairFirstNodes = 20_000 // the first node budget of each position's search
	repairWiden      = 8      // and its growth from one round to the next
)

// solveChild decides the child pr (the attacker to move after the defender
// move m of an opening): the store's answer if it holds one, else the pass
// proof repaired (repairChild), stored as Solve stores its results, else a
// full Solve; a small search of the child (5,000 nodes) comes first.
// pass nil: Solve alone. repaired says the answer is the repair's.
func (s *Solver) solveChild(ctx context.Context, pr Problem, m engine.Point, pass *proof.Tree, lim Limits, progress ProgressFunc) (a Answer, repaired bool, err error) {
	if pass == nil {
		a, err = s.Solve(ctx, pr, ModeWin, lim, progress)
		return a, false, err
	}
	// the store's answer, else a small search: a child that it decides
	// needs no repair (the pass proof's first move may no longer be the
	// quickest win)
	small := lim
	small.Nodes = childFirstNodes
	if lim.Nodes > 0 {
		small.Nodes = min(small.Nodes, lim.Nodes)
	}
	a, err = s.Solve(ctx, pr, ModeWin, small, nil)
	if err != nil || a.Status != StatusUnknown {
		return a, false, err
	}
	ra, ok, err := s.repairChild(ctx, pr, m, pass, lim)
	ra.Nodes += a.Nodes
	ra.Elapsed += a.Elapsed
	if err != nil {
		return ra, false, err
	}
	if ok {
		return ra, true, s.remember(pr, ModeWin, lim, ra)
	}
	if ctx.Err() != nil {
		return Answer{Mode: ModeWin, Result: Result{Status: StatusUnknown, Stopped: "cancelled", Nodes: ra.Nodes, Elapsed: ra.Elapsed}}, false, nil
	}
	a, err = s.Solve(ctx, pr, ModeWin, lim, progress)
	a.Nodes += ra.Nodes
	a.Elapsed += ra.Elapsed
	return a, false, err
}

// repairChild tries to turn pass, the attacker's win after a defender pass
// (pass.Root is the attacker's first move), into a proof for pr (the same
// position with the defender's stone m added, the attacker to move), as the
// comment above describes. ok is false when the budget (half of lim's
// time and nodes) runs out or every position on a failing path is proven a
// no-win; the answer then carries only the nodes and time spent. The
// proof returned has passed proof.VerifyOn. Errors: Solve's (a cancelled
// ctx is not an error: ok false).
func (s *Solver) repairChild(ctx context.Context, pr Problem, m engine.Point, pass *proof.Tree, lim Limits) (a Answer, ok bool, err error) {
	start := time.Now()
	budget := repairNoLimit
	if lim.Time > 0 {
		budget = lim.Time / repairShare
	}
	var nodeBudget int64
	if lim.Nodes > 0 {
		nodeBudget = max(1, lim.Nodes/repairShare)
	}
	a.Mode = ModeWin
	defer func() { a.Elapsed = time.Since(start) }()

	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	// the defences the pass proof lists on the new stone's cell cannot be
	// played (the checker skips them under a replayed pass; here the stone
	// is on the board)
	root := withoutDefence(pass.Root, m, map[*proof.Node]*proof.Node{})
	threat := pass.ThreatLimit
	for range maxRepairSplice {
		t := newProof(pr, lim.Depth, threat, root)
		checkStart := time.Now()
		_, err = proof.VerifyOn(ctx, t, pr.Board)
		a.CheckTime += time.Since(checkStart)
		if err == nil {
			a.setWin(pr, t)
			return a, true, nil
		}
		var pe *proof.Error
		if !errors.As(err, &pe) {
			return a, false, nil // cancelled
		}
		path := s.passPath(ctx, b, pr, root, pe.Path, lim.Depth, threat)
		// the deepest position with the attacker to move on the failing
		// path (an odd-length path ends with the attacker move that failed)
		k := len(path) &^ 1
		if k == 0 {
			// the pass proof fails at its first move: nothing to keep, and
			// the full search does the rest in one go, not in restarts
			return a, false, nil
		}
		// iterative widening: every position on the path, deepest first and
		// the child's own last, with a small node budget, then all again
		// with a larger one (the parent of a hard position is often easy,
		// and a child that a small search decides needs no repair)
		fixed := false
		noWin := map[int]bool{}
	widen:
		for nodes := int64(repairFirstNodes); ; nodes *= repairWiden {
			for j := k; j >= 0; j -= 2 {
				if noWin[j] {
					continue
				}
				left := budget - time.Since(start)
				if left <= 0 || (nodeBudget > 0 && a.Nodes >= nodeBudget) || ctx.Err() != nil {
					return a, false, nil
				}
				// a quarter of the budget for each step up: a position
				// holds its children's searches and more
				n := max(repairFirstNodes/4, nodes>>(k-j))
				if nodeBudget > 0 {
					n = min(n, nodeBudget-a.Nodes)
				}
				sub, ok := s.solveAt(ctx, b, pr, path[:j], lim, left, n)
				a.Nodes += sub.Nodes
				if sub.Status == StatusNoWin {
					noWin[j] = true
				}
				if !ok {
					continue
				}
				var spliced bool
				if root, spliced = splice(root, path[:j], sub.Proof.Root); !spliced {
					return a, false, nil
				}
				threat = max(threat, sub.Proof.ThreatLimit)
				fixed = true
				break widen
			}
			if len(noWin) == k/2+1 {
				break // every position on the path is proven a no-win
			}
		}
		if !fixed {
			return a, false, nil
		}
	}
	return a, false, nil
}

// solveAt solves the position after the moves path (attacker first,
// alternating, an even number; engine.NoPoint for a defender pass) from
// pr's, on b (pr's board, unchanged on
// return), with the attacker-move limit left and the given time and nodes
// (nodes ≤ 0: none). ok reports a win; a position that is not a problem
// (a game over, an illegal path) is no win.
func (s *Solver) solveAt(ctx context.Context, b *engine.Board, pr Problem, path []engine.Point, lim Limits, t time.Duration, nodes int64) (Answer, bool) {
	n := 0
	defer func() {
		for range n {
			b.Undo()
		}
	}()
	c := pr.Attacker
	for _, m := range path {
		if m == engine.NoPoint { // the defender passes
			c = c.Opponent()
			continue
		}
		if !b.OnBoard(m) || b.At(m) != engine.Empty || !b.Legal(c, m) {
			return Answer{}, false
		}
		b.Play(m, c)
		n++
		if b.LastMoveWon() {
			return Answer{}, false
		}
		c = c.Opponent()
	}
	sub := Limits{Time: t, MemoryMiB: lim.MemoryMiB}
	if nodes > 0 {
		sub.Nodes = nodes
	}
	if lim.Depth > 0 {
		sub.Depth = lim.Depth - len(path)/2
		if sub.Depth <= 0 {
			return Answer{}, false
		}
	}
	a, err := s.Solve(ctx, Problem{Board: b, ToMove: pr.Attacker, Attacker: pr.Attacker}, ModeWin, sub, nil)
	if err != nil || a.Status != StatusWin || a.Proof == nil {
		return a, false
	}
	return a, true
}

// splice returns a copy of the proof below n with the subtree reached by
// path (attacker and defender moves alternating, from n's move, an even
// number; engine.NoPoint as a defender move leads into the node's pass
// proof) replaced by sub; the nodes off the path are shared, not copied.
// A defender move that n does not list but its pass proof answers becomes
// a listed defence whose answer is the pass proof so repaired. false: the
// path leaves the tree.
func splice(n *proof.Node, path []engine.Point, sub *proof.Node) (*proof.Node, bool) {
	if len(path) == 0 {
		return sub, true
	}
	if n == nil || len(path) < 2 || n.Move != path[0] {
		return nil, false
	}
	c := *n
	if path[1] == engine.NoPoint { // into the pass proof itself
		if n.Pass == nil {
			return nil, false
		}
		var ok bool
		c.Pass, ok = splice(n.Pass, path[2:], sub)
		return &c, ok
	}
	c.Defences = slices.Clone(n.Defences)
	for i := range c.Defences {
		if c.Defences[i].Move == path[1] {
			a, ok := splice(c.Defences[i].Answer, path[2:], sub)
			c.Defences[i].Answer = a
			return &c, ok
		}
	}
	if n.Pass == nil {
		return nil, false
	}
	a, ok := splice(n.Pass, path[2:], sub)
	c.Defences = append(c.Defences, proof.Defence{Move: path[1], Answer: a})
	return &c, ok
}

// withoutDefence returns the proof below n with every listed defence at
// point m left out (copies where something changes, the rest shared; memo
// keeps shared subtrees shared).
func withoutDefence(n *proof.Node, m engine.Point, memo map[*proof.Node]*proof.Node) *proof.Node {
	if n == nil || m == engine.NoPoint {
		return n
	}
	if r, ok := memo[n]; ok {
		return r
	}
	c := *n
	changed := false
	c.Defences = nil
	for _, d := range n.Defences {
		if d.Move == m {
			changed = true
			continue
		}
		a := withoutDefence(d.Answer, m, memo)
		changed = changed || a != d.Answer
		c.Defences = append(c.Defences, proof.Defence{Move: d.Move, Answer: a})
	}
	c.Pass = withoutDefence(n.Pass, m, memo)
	changed = changed || c.Pass != n.Pass
	r := n
	if changed {
		r = &c
	}
	memo[n] = r
	return r
}

// passPath rewrites a flaw's path (from root, the tree being checked on
// pr's board; b is a scratch copy of it, unchanged on return) so that a
// repair mends a pass proof where the pass proof itself fails. At each
// defence on the path that the tree does not list but answers by a pass
// proof, that pass proof is checked with the defender passing instead: if
// it fails too, the stone was not the cause (the pass proof is broken for
// every unlisted defence, and repairing each one apart would copy it
// hundreds of times), so the path goes on through the pass
// (engine.NoPoint in the defence's place) along the pass proof's own
// flaw; otherwise the defence stays. limit is the tree's attacker-move
// limit (0: none), threat its threat limit.
func (s *Solver) passPath(ctx context.Context, b *engine.Board, pr Problem, root *proof.Node, path []engine.Point, limit, threat int) []engine.Point {
	att, def := pr.Attacker, pr.Attacker.Opponent()
	played := 0
	defer func() {
		for range played {
			b.Undo()
		}
	}()
	out := slices.Clone(path)
	n := root
	for j := 0; j+1 < len(out); j += 2 {
		if n == nil || n.Move != out[j] || !b.OnBoard(out[j]) || b.At(out[j]) != engine.Empty {
			break
		}
		b.Play(out[j], att)
		played++
		d := out[j+1]
		if d == engine.NoPoint {
			n = n.Pass
			continue
		}
		var next *proof.Node
		listed := false
		for _, dfn := range n.Defences {
			if dfn.Move == d {
				next, listed = dfn.Answer, true
				break
			}
		}
		if !listed {
			if n.Pass == nil {
				break
			}
			left := 0
			if limit > 0 {
				left = limit - j/2 - 1
			}
			t := newProof(Problem{Board: b, ToMove: def, Attacker: att, DefenderPasses: true}, left, threat, n.Pass)
			_, err := proof.VerifyOn(ctx, t, b)
			var pe *proof.Error
			if errors.As(err, &pe) {
				// the pass proof fails with the defender passing: follow its flaw
				out = append(append(out[:j+1:j+1], engine.NoPoint), pe.Path...)
				n = n.Pass
				continue
			}
			next = n.Pass
		}
		if !b.OnBoard(d) || b.At(d) != engine.Empty {
			break
		}
		b.Play(d, def)
		played++
		n = next
	}
	return out
}

// setWin makes a the win proven by t (a checked proof of pr): its status,
// proof, threat limit, main line and how that ends, and size.
func (a *Answer) setWin(pr Problem, t *proof.Tree) {
	a.Status, a.Proof, a.ThreatLimit = StatusWin, t, t.ThreatLimit
	a.Line = t.MainLine()
	a.End = proof.LineEnd(pr.Board, pr.Attacker, a.Line)
	a.ProofNodes = t.Len()
}
