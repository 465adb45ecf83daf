package solver

import (
	"slices"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// Threats of a higher order (solve --mode win).
//
// After a quiet attacker move that threatens no VCF, the search over all
// moves (VCT.AllMoves) had to answer every legal defender move, some 200 on
// an open board. Thomsen's λ-search (T. Thomsen, "Lambda-search in game
// trees, with application to Go", ICGA Journal 23(4), 2000, sections 2-3)
// orders threats: a move is a threat of order n when, were the defender to
// pass, the attacker would win by a search of order n-1. A fours is of order
// 1, a threat of a VCF of order 2 (the VCT search), and a quiet move after
// which a defender pass loses to a VCT is of order 3. Only defender moves
// that can change the pass proof need their own answer: the proof's
// relevance zone (Yoshizoe, Kishimoto and Müller, "Lambda depth-first
// proof number search and its application to Go", IJCAI 2007, section 3,
// with Thomsen's "relevancy zones"). Every other defender move is answered
// by the pass proof itself.
//
// passDefences finds the pass proof with a small VCT search of its own
// (passSearchNodes nodes at the search's threat limit), and computes the zone
// conservatively (passZone). The proof tree then carries the pass proof
// (proof.Node.Pass) and the zone's moves as its listed defences, and
// proof.Verify replays the pass proof under every other legal defender
// move: a zone the search computed too small is a rejected proof, never a
// false claim (Solver then searches again without pass threats). In renju a
// stone of either colour can change which points are forbidden to black,
// so the zone there also takes every cell near the proof's moves.

// passSearchNodes is the node budget of each pass search (a VCT after a defender
// pass). Most quiet moves threaten nothing, and their pass search fails
// quickly; a threat's pass proof is usually found in a few hundred nodes.
const passSearchNodes = 3000

// passMiB is the memory of the pass searcher's tables, in MiB.
const passMiB = 8

// maxPassProofs bounds the pass proofs a search keeps for its proof tree;
// once it is reached, later quiet moves are no longer tested as threats of
// order 3 (their defender nodes answer every move, as before).
const maxPassProofs = 1 << 16

// passDefences tries the defender node on the board, after a quiet attacker
// move that threatens no VCF, as a threat of order 3 with d attacker moves
// left: if a defender pass loses to a VCT of at most d moves, it records
// the pass proof under key and returns the legal defender moves of the
// proof's relevance zone, the defender's fours among them, ordered, with
// true. false: not such a threat within passSearchNodes nodes (or the search must
// stop: r.stop tells).
func (r *vctRun) passDefences(key uint64, d int) ([]engine.Point, bool) {
	if len(r.passProofs) >= maxPassProofs || d < 2 {
		return nil, false
	}
	if !r.mayThreaten() {
		return nil, false
	}
	pv := r.passer
	pv.ThreatLimit, pv.AllMoves = r.threat, false
	bu := &Budget{ctx: r.bu.ctx, start: r.bu.start, deadline: r.bu.deadline, maxNodes: passSearchNodes, lastRep: r.bu.lastRep}
	pr := pv.newRun(r.b, r.att, bu)
	pr.defThreat = true
	depth := min(d, maxVCTDepth)
	pn, _ := pr.mid(true, depth, pnInf, pnInf)
	var root *proof.Node
	if pn == 0 {
		pr.stop, pr.vcf.stop = false, false
		bu.maxNodes = pr.vcf.nodes + passSearchNodes
		if n, err := pr.extract(depth); err == nil {
			root = n
		}
	}
	r.vcf.nodes += pr.vcf.nodes
	r.passSearched += pr.vcf.nodes
	if r.bu.ctx.Err() != nil || !r.bu.deadline.IsZero() && bu.stopped == "time" {
		r.stop = true
		return nil, false
	}
	if root == nil {
		return nil, false
	}
	if r.passProofs == nil {
		r.passProofs = map[uint64]*proof.Node{}
	}
	r.passProofs[key] = root
	r.passThreats++
	zone, ok := r.passZone(root)
	if !ok {
		return nil, false
	}
	return r.orderDefences(zone), true
}

// passZone returns the legal defender moves, on the board after the quiet
// move, that could change the pass proof root (the attacker's win if the
// defender passes), a superset of the proof's relevance zone, and true; or
// false where it cannot bound them (the zone is then the whole board):
//
//   - the cells of the proof's moves, both sides', over the whole tree;
//   - after each attacker move of the proof, the attacker's five-points;
//   - at each quiet attacker move of the proof (a threat), the cells where
//     one defender stone stops the threat's VCF line (markStoppers: the
//     line's cells, its last five-points, the defender's counter-fours
//     along it), and the same for the VCF that answers each of those cells
//     the proof does not list: together the lines that answer every
//     unlisted defence;
//   - the empty cells of every line of five cells that holds no attacker
//     stone and at least two defender stones, counting the defences of the
//     proof and of those lines: there one more defender stone helps make a
//     four that interrupts them;
//   - the defender's fours;
//   - in renju, every cell within five steps, along a line, of a move of
//     the proof: a stone there can change which points are forbidden to
//     black.
//
// It is not trusted: proof.Verify replays the pass proof under every other
// legal move.
func (r *vctRun) passZone(root *proof.Node) ([]engine.Point, bool) {
	b := r.b
	var zone [engine.NumCells]bool
	// extra[p]: 1 for an attacker move of the proof or its lines, 2 for a
	// defence (a cell can be both, in different branches)
	var extra [engine.NumCells]uint8
	var moves []engine.Point
	// stoppers marks the cells markStoppers finds for line (played from the
	// board as it stands, the attacker first) and returns them, or false
	stoppers := func(line []engine.Point) ([]engine.Point, bool) {
		if r.markStoppers(line, r.att) {
			return nil, false
		}
		var cells []engine.Point
		for y := 0; y < b.Size(); y++ {
			for x := 0; x < b.Size(); x++ {
				if q := engine.PointAt(x, y); b.At(q) == engine.Empty && r.mark[q] == r.markGen {
					cells = append(cells, q)
					zone[q] = true
				}
			}
		}
		return cells, true
	}
	var walk func(n *proof.Node) bool
	walk = func(n *proof.Node) bool {
		if n == nil {
			return true
		}
		moves = append(moves, n.Move)
		zone[n.Move], extra[n.Move] = true, extra[n.Move]|1
		b.Play(n.Move, r.att)
		defer b.Undo()
		fives := b.Points(r.att, engine.FivePoints, nil)
		for _, f := range fives {
			zone[f] = true
		}
		if !b.LastMoveWon() && len(fives) == 0 {
			// a threat: its VCF line, and the lines after the cells that
			// stop it but are not listed
			line, _, ok := r.vcf.find(r.threat)
			if !ok {
				return false
			}
			cells, ok := stoppers(append([]engine.Point(nil), line...))
			if !ok {
				return false
			}
			for _, e := range cells {
				if !b.Legal(r.def, e) || slices.ContainsFunc(n.Defences, func(d proof.Defence) bool { return d.Move == e }) {
					continue
				}
				b.Play(e, r.def)
				line, _, ok := r.vcf.find(r.threat)
				if ok {
					line = append([]engine.Point(nil), line...)
				}
				b.Undo()
				if !ok {
					return false // a defence the proof does not list
				}
				zone[e] = true
				b.Play(e, r.def)
				_, ok = stoppers(line)
				b.Undo()
				if !ok {
					return false
				}
			}
		}
		for _, dfn := range n.Defences {
			moves = append(moves, dfn.Move)
			zone[dfn.Move], extra[dfn.Move] = true, extra[dfn.Move]|2
			b.Play(dfn.Move, r.def)
			ok := walk(dfn.Answer)
			b.Undo()
			if !ok {
				return false
			}
		}
		return walk(n.Pass)
	}
	if !walk(root) || r.vcf.stop {
		return nil, false
	}
	size := b.Size()
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			start := engine.PointAt(x, y)
			for _, step := range engine.Dirs {
				if !b.OnBoard(engine.Point(int(start) + 4*step)) {
					continue
				}
				att, def := 0, 0
				for i := 0; i < 5; i++ {
					q := engine.Point(int(start) + i*step)
					switch c := b.At(q); {
					case c == r.att:
						att++
					case c == r.def || extra[q]&2 != 0:
						def++
					}
				}
				if att == 0 && def >= 2 {
					for i := 0; i < 5; i++ {
						zone[int(start)+i*step] = true
					}
				}
			}
		}
	}
	if b.Rule() == engine.Renju {
		for _, m := range moves {
			for _, step := range engine.Dirs {
				for _, sign := range [2]int{1, -1} {
					for k := 1; k <= 5; k++ {
						q := engine.Point(int(m) + sign*k*step)
						if !b.OnBoard(q) {
							break
						}
						zone[q] = true
					}
				}
			}
		}
	}
	var out []engine.Point
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			p := engine.PointAt(x, y)
			if b.At(p) != engine.Empty || !b.Legal(r.def, p) {
				continue
			}
			if zone[p] || b.Threat(r.def, p) >= engine.ThreatFour {
				out = append(out, p)
			}
		}
	}
	return out, true
}

// mayThreaten reports whether the attacker's last move (on the board, quiet)
// lies in a line of five cells with no defender stone and at least one
// other attacker stone. A move that does not adds little a threat can
// use: a VCT after a pass would mostly have been one before the move, which
// the search tries first. It is a filter only, ahead of the pass search,
// and costs completeness, never soundness (the move's defender node then
// answers every move).
func (r *vctRun) mayThreaten() bool {
	b := r.b
	m, _ := b.LastMove()
	for _, step := range engine.Dirs {
		for off := -4; off <= 0; off++ {
			start := engine.Point(int(m) + off*step)
			if !b.OnBoard(start) || !b.OnBoard(engine.Point(int(start)+4*step)) {
				continue
			}
			att, def := 0, 0
			for i := 0; i < 5; i++ {
				switch b.At(engine.Point(int(start) + i*step)) {
				case r.att:
					att++
				case r.def:
					def++
				}
			}
			if def == 0 && att >= 2 { // the move and one more
				return true
			}
		}
	}
	return false
}
