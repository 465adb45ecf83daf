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
	if r.bu.ctx.Err() != nil || !r.bu.deadline.IsZero() && bu.stopped == "time" {
		// the search's own budget ends here: say why, as its Poll would
		r.stop = true
		if r.bu.stopped == "" {
			r.bu.stopped = bu.stopped
			if r.bu.ctx.Err() != nil {
				r.bu.stopped = "cancelled"
			}
		}
		return nil, false
	}
	if root == nil {
		return nil, false
	}
	if r.passProofs == nil {
		r.passProofs = map[uint64]*proof.Node{}
	}
	r.passProofs[key] = root
	zone, ok := r.passZone(root)
	if !ok {
		return nil, false
	}
	if passZoneCut != nil {
		zone = passZoneCut(zone, root)
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
	// defended[p]: p is a defence of the proof, in some branch
	var defended [engine.NumCells]bool
	var moves []engine.Point
	// stoppers adds to the zone the cells where one defender stone may stop
	// line (played from the board as it stands, the attacker first), and
	// returns them, or false where markStoppers cannot bound them
	stoppers := func(line []engine.Point) ([]engine.Point, bool) {
		if r.markStoppers(line, r.att) {
			return nil, false
		}
		cells := r.markedCells(false, nil)
		for _, q := range cells {
			zone[q] = true
		}
		return cells, true
	}
	var walk func(n *proof.Node) bool
	walk = func(n *proof.Node) bool {
		if n == nil {
			return true
		}
		moves = append(moves, n.Move)
		zone[n.Move] = true
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
			cells, ok := stoppers(line)
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
					_, ok = stoppers(line)
				}
				b.Undo()
				if !ok {
					return false // a defence the proof does not list, or unbounded
				}
			}
		}
		for _, dfn := range n.Defences {
			moves = append(moves, dfn.Move)
			zone[dfn.Move], defended[dfn.Move] = true, true
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
			for d, step := range engine.Dirs {
				black, white, ok := b.WindowCounts(start, engine.Direction(d))
				att, def := black, white
				if r.att == engine.White {
					att, def = white, black
				}
				if !ok || att > 0 {
					continue
				}
				for i := 0; i < 5; i++ {
					if q := engine.Point(int(start) + i*step); b.At(q) == engine.Empty && defended[q] {
						def++
					}
				}
				if def >= 2 {
					for i := 0; i < 5; i++ {
						zone[int(start)+i*step] = true
					}
				}
			}
		}
	}
	// in renju, the cells near the proof's moves (addLineCells' marks)
	renju := b.Rule() == engine.Renju
	if renju {
		r.markGen++
		for _, m := range moves {
			r.addLineCells(m, 5)
		}
	}
	var out []engine.Point
	for _, p := range legalMoves(r.b, r.def) {
		if zone[p] || renju && r.mark[p] == r.markGen || b.Threat(r.def, p) >= engine.ThreatFour {
			out = append(out, p)
		}
	}
	return out, true
}

// passZoneCut, when set (by tests only), edits each zone before it is used:
// a zone made too small must cost a rejected proof, never a false claim.
var passZoneCut func(zone []engine.Point, pass *proof.Node) []engine.Point

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
	for d, step := range engine.Dirs {
		for off := 0; off <= 4; off++ {
			black, white, ok := b.WindowCounts(engine.Point(int(m)-off*step), engine.Direction(d))
			att, def := black, white
			if r.att == engine.White {
				att, def = white, black
			}
			if ok && def == 0 && att >= 2 { // the move and one more
				return true
			}
		}
	}
	return false
}
