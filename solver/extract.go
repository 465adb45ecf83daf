package solver

import (
	"errors"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// newProof wraps a proof tree with its problem.
func newProof(pr Problem, limit, threat int, root *proof.Node) *proof.Tree {
	t := &proof.Tree{Rule: pr.Board.Rule(), Size: pr.Board.Size(), ToMove: pr.ToMove, Attacker: pr.Attacker,
		DefenderPasses: pr.DefenderPasses, Limit: limit, ThreatLimit: threat, Root: root}
	for y := 0; y < t.Size; y++ {
		for x := 0; x < t.Size; x++ {
			switch q := engine.PointAt(x, y); pr.Board.At(q) {
			case engine.Black:
				t.Black = append(t.Black, q)
			case engine.White:
				t.White = append(t.White, q)
			}
		}
	}
	return t
}

// extract builds the proof tree below the current attacker node (d attacker
// moves left) from the table, re-proving subtrees whose entries were
// overwritten.
func (r *vctRun) extract(d int) (*proof.Node, error) {
	b := r.b
	if !r.tick() || r.vcf.stop {
		return nil, errExtractStopped
	}
	if d <= 0 {
		return nil, errors.New("proof extraction ran past the depth limit")
	}
	if b.Count(r.att, engine.FivePoints) > 0 {
		return &proof.Node{Move: b.FirstPoint(r.att, engine.FivePoints)}, nil
	}
	if line, _, ok := r.vcf.find(d); ok {
		return vcfChain(line), nil
	}
	moves := append([]engine.Point(nil), r.attacks(d)...)
	if r.stop {
		return nil, errExtractStopped
	}
	// The proven move with the least work below it makes the smallest
	// proof. Pass 0 reads the table (and the shared one: a proof found at a
	// smaller threat limit holds here). Pass 1 searches the node again: its
	// proven child was overwritten, or came from the shared table without
	// its own children. Pass 2 proves each move in turn.
	key := r.key(true, d)
	for pass := 0; pass < 3; pass++ {
		if pass == 1 {
			r.tt.forget(key)
			r.reprove = key
			pn, _ := r.mid(true, d, pnInf, pnInf)
			r.reprove = 0
			if pn != 0 {
				if r.stop {
					return nil, errExtractStopped
				}
				continue
			}
		}
		best, bestWork := engine.NoPoint, uint32(0)
		for _, m := range moves {
			b.Play(m, r.att)
			ckey := r.key(false, d-1)
			if e := r.tt.lookup(ckey); pass == 2 && (e == nil || e.pn != 0 && e.dn != 0) {
				// overwritten, or replaced by a shallower search since it
				// was proven: prove it again
				r.mid(false, d-1, pnInf, pnInf)
			}
			proven, work := r.provenWork(ckey)
			b.Undo()
			if proven && (best == engine.NoPoint || work < bestWork) {
				best, bestWork = m, work
			}
		}
		if best == engine.NoPoint {
			continue
		}
		b.Play(best, r.att)
		n, err := r.extractDefences(best, d-1)
		b.Undo()
		if err == nil {
			return n, nil
		}
		if r.stop || r.vcf.stop {
			return nil, errExtractStopped
		}
	}
	return nil, errors.New("proof extraction found no proven move")
}

// extractDefences builds the node of attacker move m, just played.
func (r *vctRun) extractDefences(m engine.Point, d int) (*proof.Node, error) {
	n := &proof.Node{Move: m}
	defs, state := r.defences(d)
	switch state {
	case andWon:
		return n, nil
	case andOpen:
	default:
		return nil, errors.New("proof extraction met an unproven defence")
	}
	if r.b.Count(r.att, engine.FivePoints) == 0 {
		if pass := r.passProofs[r.defenceKey(d)]; pass != nil {
			// a threat of order 3: the zone's moves are all listed (one
			// that leaves a VCF is answered by it; left unlisted, the pass
			// proof would have to answer it), the rest by the pass proof
			n.Pass = pass
		} else {
			defs = r.exactDefences(defs, d)
		}
	}
	for _, e := range defs {
		r.b.Play(e, r.def)
		a, err := r.extract(d)
		r.b.Undo()
		if err != nil {
			return nil, err
		}
		n.Defences = append(n.Defences, proof.Defence{Move: e, Answer: a})
	}
	return n, nil
}

// exactDefences returns the moves of defs (the defences of the defender node
// on the board after a quiet move, d attacker moves left, which may hold
// candidates quietDefences kept untested) after which the attacker has no
// VCF of at most min(threat limit, d) moves: the real defences, in a new
// slice.
func (r *vctRun) exactDefences(defs []engine.Point, d int) []engine.Point {
	out := make([]engine.Point, 0, len(defs))
	for _, e := range defs {
		if r.defends(e, min(r.threat, d)) {
			out = append(out, e)
		}
	}
	return out
}

// errExtractStopped: the budget of proof extraction ran out (Prove then
// reports unknown).
var errExtractStopped = errors.New("proof extraction stopped by its budget")

// vcfChain turns a VCF line into a proof chain: each four with its forced
// block.
func vcfChain(line []engine.Point) *proof.Node {
	root := &proof.Node{Move: line[0]}
	n := root
	for i := 1; i+1 < len(line); i += 2 {
		next := &proof.Node{Move: line[i+1]}
		n.Defences = []proof.Defence{{Move: line[i], Answer: next}}
		n = next
	}
	return root
}
