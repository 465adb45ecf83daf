package solver

import (
	"slices"

	"gomoku/engine"
)

// attacks returns the attacker's moves at an attacker node with d attacker
// moves left, best first: the block if the defender has a four (the block
// must then itself be a four or a threat, which its defender node checks),
// else the fours and the quiet moves that could threaten a VCF of at most
// min(ThreatLimit, d-1) moves. Whether a quiet move really is a threat is
// decided at its defender node, when the search first visits it: most
// attacker nodes are settled after trying a few moves, so checking every
// candidate up front (a VCF search each) costs more than it saves. Lists are
// cached per node.
func (r *vctRun) attacks(d int) []engine.Point {
	b := r.b
	switch n := b.Count(r.def, engine.FivePoints); {
	case n > 1:
		return nil
	case n == 1:
		r.defThreat = true // the defender has a four: its block's defender node checks
		if q := b.FirstPoint(r.def, engine.FivePoints); b.Legal(r.att, q) {
			return []engine.Point{q}
		}
		return nil
	}
	key := r.key(true, d)
	if moves, state, ok := r.orCache.get(key); ok {
		r.defThreat = state == orDefenderVCF
		return moves
	}
	// a quiet move's threat must be a VCF of at most k moves (its defender
	// node, with d-1 moves left, asks no more)
	k := min(r.threat, max(1, d-1))
	cands := r.threatCandidates(r.buf(r.ply), k)
	r.bufs[r.ply] = cands
	if candidateCheck != nil && d-1 >= 1 {
		candidateCheck(r, k, cands)
	}
	// If the defender has a VCF, a quiet move must stop it: the moves that
	// cannot (not marked by markStoppers for its line, seen from the
	// defender's side) leave that line playable and lose to it. Fours stay:
	// they force the block first.
	stopGen := uint32(0)
	line, ok := r.defenderVCFLine()
	r.defThreat = ok
	if ok {
		if !r.markStoppers(line, r.def) {
			stopGen = r.markGen
		}
	} else if r.stop {
		return nil // not cached: the list is not known
	}
	stops := func(m engine.Point) bool { return stopGen == 0 || r.mark[m] == stopGen }
	var quiet []engine.Point
	if r.allMoves && d-1 >= 1 {
		quiet = r.quietMoves(cands) // every other legal move too, after the threats, nearest first
	}
	moves := make([]engine.Point, 0, len(cands)+len(quiet)) // kept by the cache: not a scratch buffer
	for _, m := range cands {
		if b.Threat(r.att, m) >= engine.ThreatFour || d-1 >= 1 && stops(m) {
			moves = append(moves, m)
		}
	}
	moves = r.orderAttacks(moves)
	for _, m := range quiet {
		if stops(m) {
			moves = append(moves, m)
		}
	}
	state := andOpen
	if r.defThreat {
		state = orDefenderVCF
	}
	r.orCache.put(key, moves, state)
	return moves
}

// defenderVCFCap bounds each of defenderVCF's searches, in nodes: one that
// runs out counts as no VCF, which only prunes less. The defender's VCF
// searches that fail are the costly ones (every four of the defender tried
// to the end); on lfz-gaofei/116 at threat limit 3 they took 9,845 nodes of
// 16,089 uncapped and 1,197 of 7,479 capped at 16, with the same proof. On
// 14 hard lfz084 VCT puzzles (threat limit 3 alone, 12M nodes each) both
// won 11, in 161 s of search capped against 180 s uncapped.
const defenderVCFCap = 16

// defenderVCF reports whether the defender, were it to move now, would win
// by a VCF (of any length, within defenderVCFCap nodes). A quiet attacker
// move (no four) that leaves the defender such a VCF loses to it, whatever
// it threatens: the defender ignores the threat and makes five first, the
// attacker's blocks forced all the way (the VCF search lets the attacker
// block with a four of its own where it can). This is the defender's
// counter-threat that threat-space search must check before it trusts a
// threat sequence (Allis 1994, ch. 4); here it refutes quiet moves at once,
// where the search would otherwise find the defender's fours among the
// defences of every such move and follow them one by one.
func (r *vctRun) defenderVCF() bool {
	_, ok := r.defenderVCFLine()
	return ok
}

// defenderVCFLine returns the defender's VCF line from the current position
// as if the attacker had passed, in a buffer the next call reuses, or false
// (also when the budget stops the search: r.stop then tells).
func (r *vctRun) defenderVCFLine() ([]engine.Point, bool) {
	if !r.defVCF {
		return nil, false
	}
	r.dvcf.nodeCap = defenderVCFCap
	line, _, ok := r.dvcf.find(maxVCFDepth)
	r.vcf.nodes += r.dvcf.nodes // one count of the run's nodes
	r.dvcf.nodes = 0
	if r.dvcf.capped {
		r.dvcf.stop, r.dvcf.capped = false, false
		return nil, false
	}
	if r.dvcf.stop {
		r.stop = true
		return nil, false
	}
	return line, ok
}

// candidateCheck, when set (by tests only), is called at every attacker
// node with the threat limit k of its quiet moves and their candidates.
var candidateCheck func(r *vctRun, k int, cands []engine.Point)

// threatCandidates appends every legal attacker move that could be a four
// or a threat of a VCF of at most k moves (a superset; attacks keeps the
// real threats). attacks passes k = min(r.threat, d-1): with d attacker
// moves left, the threat after a quiet move must be a VCF of at most d-1
// moves (defences asks no more), so near a depth limit the rules of the
// smaller threat limit hold. On quintet's cases, which have depth limits,
// that took l17_1 from 891,317 to 781,343 nodes (0.72 to 0.58 s), fukumi
// from 81,093 to 78,215 (89 to 60 ms) and all 32 VCT cases from 7.20M to
// 7.04M nodes; vct_black_long_short grew from 2.28M to 2.37M (2026-11-26).
//
// It relies on the node's own VCF search having failed (expand runs it
// first): then a VCF after the move must need the move, in one of two ways.
//
// The move is one of the four stones of a window of one of the VCF's fours.
// Along that line the move then reaches at least:
//
//	threat limit 1: a blocked three (one more stone makes a four);
//	threat limit 2: a blocked three, or a blocked two on a line through one
//	  of the attacker's four-points within four cells (the VCF's first four
//	  joins the window);
//	threat limit 3: a blocked two, or a blocked one on a line through a
//	  four-point (the window's other two stones are the VCF's first two
//	  moves, and the first of them is a four already); a two off such lines
//	  must also pass twoCanGrow;
//	threat limit 4 or more: a blocked one.
//
// Where the attacker has no four-point, the rule of threat limit 1 holds at
// every limit: a VCF after the move starts with a four, and the only
// four-points then are the ones the move makes, along a line where it
// reaches a blocked three. Such nodes are about one attacker node in seven
// at threat limit 8 on lfz084's hard VCT puzzles, and their candidates
// fall from about 128 to 19. Threat limit 8 alone (one core, 10 s each)
// then wins 497 of lfz084's 531 VCT puzzles against 492 (gaofei/63, 73,
// 137, 184, 187 and tengu/68 gained, gaofei/148 lost).
//
// The window of the VCF's final four (or of an earlier four that uses the
// move) holds the move and three more stones; at most k-1 of them are
// moves of the VCF, the rest are there already, which gives the patterns;
// a VCF move in the window that is a four at once is a four-point now, or
// was made one by the move (then the move reaches a blocked three).
//
// Or the move takes a cell that the VCF's blocks would make a five-point of
// the defender (a counter-four that refutes the line without the move): the
// k-1 blocks complete a defender window through the cell, so the defender's
// line pattern there is at least a four (k = 2), a blocked three (3), a
// blocked two (4) or a blocked one (5 and up), and the window's other empty
// cells can each be a block (preBlocks). Without this rule and the renju
// one below, 55 real threats were outside the candidates on lfz084's VCT
// books (every legal move searched at the nodes of 56 puzzles, 0.7 s each);
// with them, none there, and the larger check below includes preBlocks.
//
// Renju. A stone can also change which black moves are forbidden: a white
// stone can turn a fake black three real and so make a block forbidden, a
// black one can make a forbidden four-point legal by turning one of its
// fours or threes into an overline. Every cell within five steps along the
// lines of black's forbidden and double-three-candidate cells is added for
// that. Not covered: a cell that only becomes forbidden during the VCF
// (lfz-6x6-3/29 has such a black threat, f2), and a stone that changes
// whether a cell two steps away along the recursive double-three rule is
// forbidden (lfz-tengu/117 has such a white threat, n5: the white stone
// kills a black four, which makes a straight-four point playable, which
// makes a three real and the block a double three). Found by playing every
// legal move at every attacker node of the 56 puzzles TestVCTPuzzleBooks
// misses at 10 s (150,000 nodes each, threat limits 2 and 3: 40 million
// moves, 9 threats outside the candidates: 3 black ones of the first kind,
// 6 white ones, n5 among them). Disproofs under renju at a threat limit of
// 2 or more hold up to such moves.
func (r *vctRun) threatCandidates(moves []engine.Point, k int) []engine.Point {
	b := r.b
	// k: the threat limit the rules below use. Without a four-point of the
	// attacker, the first four of any VCF after the move is one the move
	// makes, which takes a blocked three along its line: the rule of
	// threat limit 1, whatever the limit.
	if b.Count(r.att, engine.FourPoints) == 0 {
		k = 1
	}
	// need: the pattern any candidate reaches; nearNeed: the pattern that
	// suffices along a line through a four-point of the attacker (0: none)
	need, nearNeed := engine.BlockedThree, engine.Dead
	switch {
	case k == 2:
		nearNeed = engine.BlockedTwo
	case k == 3:
		need, nearNeed = engine.BlockedTwo, engine.BlockedOne
	case k >= 4:
		need = engine.BlockedOne
	}
	// defNeed: the defender's line pattern at a cell that the VCF's blocks
	// (threat limit - 1 defender stones) can turn into a five-point of the
	// defender; Dead: none (threat limit 1 has no blocks before the win)
	defNeed := engine.Dead
	switch {
	case k == 2:
		defNeed = engine.Four
	case k == 3:
		defNeed = engine.BlockedThree
	case k == 4:
		defNeed = engine.BlockedTwo
	case k >= 5:
		defNeed = engine.BlockedOne
	}
	// weakest: the weakest line pattern of the attacker that can qualify a
	// cell along some line
	weakest := need
	if nearNeed != engine.Dead {
		weakest = min(need, nearNeed)
	}
	// dirMark[d][p] == near[d]: p lies on a line along d within four cells
	// of a four-point
	var near [engine.NumDirs]uint32
	if nearNeed != engine.Dead {
		r.markGen++
		r.cells = b.Points(r.att, engine.FourPoints, r.cells[:0])
		for _, f := range r.cells {
			for d, step := range engine.Dirs {
				for _, sign := range [2]int{1, -1} {
					for k := 1; k <= 4; k++ {
						q := engine.Point(int(f) + sign*k*step)
						if !b.OnBoard(q) {
							break
						}
						r.dirMark[d][q] = r.markGen
					}
				}
			}
		}
		for d := range near {
			near[d] = r.markGen
		}
	}
	r.markGen++
	if b.Rule() == engine.Renju {
		r.cells = b.Points(engine.Black, engine.MaybeForbidden, r.cells[:0])
		for _, f := range r.cells {
			r.addLineCells(f, 5)
		}
	}
	// one pass in board order: a cell is a candidate when marked above
	// (renju) or when some line through it qualifies; nothing below marks
	// any other cell. Each cell's state (both sides' packed line patterns
	// and threats) is read once.
	n := b.Size()
	for y := 0; y < n; y++ {
		row := engine.PointAt(0, y)
		for p := row; p < row+engine.Point(n); p++ {
			if b.At(p) != engine.Empty {
				continue
			}
			s := b.State(p)
			attPats, defPats := s.Patterns(r.att), s.Patterns(r.def)
			ok := r.mark[p] == r.markGen || s.Threat(r.att) >= engine.ThreatFour
			if !ok && maxLine(attPats) < weakest &&
				(defNeed == engine.Dead || maxLine(defPats) < defNeed) {
				continue // no line through p can qualify (most cells)
			}
			for dir := engine.Direction(0); !ok && dir < engine.NumDirs; dir++ {
				l := engine.LinePattern(attPats >> (4 * dir) & 0xf)
				ok = l >= need && l != engine.Overline ||
					nearNeed != engine.Dead && l >= nearNeed && l != engine.Overline && r.dirMark[dir][p] == near[dir]
				if ok && k == 3 && l < engine.BlockedThree && r.dirMark[dir][p] != near[dir] {
					ok = r.twoCanGrow(p, dir, near[dir])
				}
				if !ok && defNeed != engine.Dead && engine.LinePattern(defPats>>(4*dir)&0xf) >= defNeed {
					ok = r.preBlocks(p, dir, k, defNeed)
				}
			}
			if ok && b.Legal(r.att, p) {
				moves = append(moves, p)
			}
		}
	}
	return moves
}

// maxLine returns the strongest of a cell's four packed line patterns
// (Board.LinePatterns): threatCandidates's quick test of a cell. It reads a
// 256-byte table twice, which stays in the first-level cache (a 64 KiB
// table of all 16 bits did not).
func maxLine(pats uint16) engine.LinePattern {
	return max(maxLine2[pats&0xff], maxLine2[pats>>8])
}

// maxLine2 gives, per two packed line patterns, the stronger.
var maxLine2 = func() (t [1 << 8]engine.LinePattern) {
	for k := range t {
		t[k] = max(engine.LinePattern(k&0xf), engine.LinePattern(k>>4))
	}
	return t
}()

// preBlocks tells whether an attacker stone at p could pre-empt a
// defender five-point along dir that the blocks of a VCF of at most k
// moves would make (k: the threat limit threatCandidates applies at the
// node): some on-board window through p along dir holds no attacker stone
// and at least 5-k defender stones, and each of its
// other empty cells can be a block, that is, the five-point of one of the
// VCF's fours. The i-th block is the five-point of a four made by at most i
// of the VCF's moves, so the attacker reaches there at least need (the
// defender's threshold, defNeed, by the same count) along another
// direction; along dir itself, where p's stone could join the four, any
// live pattern is taken.
func (r *vctRun) preBlocks(p engine.Point, dir engine.Direction, k int, need engine.LinePattern) bool {
	b := r.b
	step := engine.Dirs[dir]
	minDef := 5 - k
	for start := -4; start <= 0; start++ {
		ok, defs := true, 0
		for j := start; ok && j < start+5; j++ {
			if j == 0 {
				continue
			}
			q := engine.Point(int(p) + j*step)
			switch b.At(q) {
			case r.def:
				defs++
			case engine.Empty:
				ok = r.canBlock(q, dir, need)
			default: // the attacker's stone or a wall
				ok = false
			}
		}
		if ok && defs >= minDef {
			return true
		}
	}
	return false
}

// canBlock tells whether empty q can be the five-point of one of the VCF's
// fours (a block): the attacker reaches need there along a direction other
// than dir (reachesOffLine), or anything live along dir itself.
func (r *vctRun) canBlock(q engine.Point, dir engine.Direction, need engine.LinePattern) bool {
	return r.b.LinePattern(r.att, q, dir) >= engine.BlockedOne || r.reachesOffLine(q, dir, need)
}

// reachesOffLine tells whether the attacker's line pattern at empty q reaches
// need (an overline never does) along some direction other than dir.
func (r *vctRun) reachesOffLine(q engine.Point, dir engine.Direction, need engine.LinePattern) bool {
	lp := r.b.LinePatterns(r.att, q)
	for d := engine.Direction(0); d < engine.NumDirs; d++ {
		if l := engine.LinePattern(lp >> (4 * d) & 0xf); d != dir && l >= need && l != engine.Overline {
			return true
		}
	}
	return false
}

// twoCanGrow tells whether a two that a stone at p makes along dir (and
// nothing better along it, p not within four cells of a four-point along
// dir) can be part of a VCF of at most three moves (threat limit 3). The
// stone must be one of the four stones of a window of one of the VCF's
// fours, and with only two stones in the window now, two of the VCF's
// attacker moves fill it: the first of them is a four through another
// window. Either that window lies along another direction (then the cell
// already reaches a blocked three along it: at most one VCF move is added
// to it before), or along dir itself, with the attacker's first four of the
// VCF on that line within four cells of the cell (a four-point now). So some
// empty cell x within four steps of p along dir, with no defender stone
// between, must reach a blocked three along another direction or lie within
// four cells of a four-point along dir (mark: r.dirMark's generation for
// dir). It reads line patterns only, never whether a cell is forbidden, so
// the argument holds for black under renju too (the patterns are black's
// exact-five ones); a stone that matters only by changing which cells are
// forbidden is threatCandidates's renju rule's to add, with that rule's
// known gaps. On lfz084's VCT books it drops about a quarter of the
// candidates at threat limit 3. Applied to black under renju too (it was
// white's only before), it won 4 of the 38 puzzles missed at 10 s within 6M
// nodes each at threat limit 3, against 2 (gaofei/3, 137, 152 and 173,
// against 152 and 180); TestThreatCandidatesComplete, widened by hand to
// quintet's VCT cases and every lfz084 VCT puzzle (563 positions, 10,000
// nodes each, 32.6M moves), found no threat of threat limit 3 outside the
// candidates.
func (r *vctRun) twoCanGrow(p engine.Point, dir engine.Direction, mark uint32) bool {
	step := engine.Dirs[dir]
	for _, sign := range [2]int{1, -1} {
		for k := 1; k <= 4; k++ {
			x := engine.Point(int(p) + sign*k*step)
			c := r.b.At(x)
			if c == r.def || c == engine.Wall {
				break
			}
			if c == engine.Empty && (r.dirMark[dir][x] == mark || r.reachesOffLine(x, dir, engine.BlockedThree)) {
				return true
			}
		}
	}
	return false
}

// addLineCells marks the empty cells up to reach steps from p along its
// four lines for the current candidate generation.
func (r *vctRun) addLineCells(p engine.Point, reach int) {
	for _, step := range engine.Dirs {
		for _, sign := range [2]int{1, -1} {
			for k := 1; k <= reach; k++ {
				q := engine.Point(int(p) + sign*k*step)
				if !r.b.OnBoard(q) {
					break
				}
				if r.b.At(q) == engine.Empty {
					r.mark[q] = r.markGen
				}
			}
		}
	}
}

// orderAttacks sorts the attacker's moves, deterministically: by threat class (fours, four-threes, double
// threes, threes, ...), then by the attacker's potential plus the
// defender's (a good threat also blocks), then by their order in moves.
func (r *vctRun) orderAttacks(moves []engine.Point) []engine.Point {
	b := r.b
	return r.sortMoves(moves, func(m engine.Point) int64 {
		att, def := r.potentials(m)
		return int64(b.Threat(r.att, m))<<40 + int64(att)<<8 + int64(def)
	})
}

// potentials returns v(m), the sum of the window scores through m (Garcia
// 2020), for the attacker and the defender, read in one pass.
func (r *vctRun) potentials(m engine.Point) (att, def int32) {
	black, white := r.b.Potentials(m)
	if r.att == engine.Black {
		return black, white
	}
	return white, black
}

// sortIndexBits and scoreCeil lay out sortMoves's keys: the score's
// distance below scoreCeil, then the move's place in its list (at most
// engine.MaxSize² = 484 moves, under 1<<sortIndexBits; the constant below
// fails to compile otherwise). Scores lie in [0, scoreCeil]: a threat class
// (under 16) <<40 plus potentials (each at most 20*32768 < 1<<20, the
// attacker's <<8), or the root hint's 1<<50.
const (
	sortIndexBits = 10
	scoreCeil     = int64(1) << 51
	_             = uint(1<<sortIndexBits - engine.MaxSize*engine.MaxSize)
)

// sortMoves sorts moves in place by score(m), highest first, ties in their
// order in moves (as a stable sort would), and returns them. score must lie
// in [0, scoreCeil]. Each score is computed once and the sort runs on packed
// integer keys in the run's scratch buffers, so it allocates nothing once
// they have grown.
func (r *vctRun) sortMoves(moves []engine.Point, score func(engine.Point) int64) []engine.Point {
	keys := r.sortKeys[:0]
	for i, m := range moves {
		keys = append(keys, uint64(scoreCeil-score(m))<<sortIndexBits|uint64(i))
	}
	slices.Sort(keys)
	orig := append(r.sortOrig[:0], moves...)
	for i, k := range keys {
		moves[i] = orig[k&(1<<sortIndexBits-1)]
	}
	r.sortKeys, r.sortOrig = keys, orig
	return moves
}

// Outcomes of a defender node.
const (
	andOpen    = iota // unsolved: the defences follow
	andWon            // the attacker has won
	andLost           // the attacker's move failed
	andStopped        // the budget ran out
	// orDefenderVCF marks a cached attacker node's move list made where the
	// defender had a VCF (see attacks and vctRun.defThreat)
	orDefenderVCF
)

// defences evaluates the defender node after the attacker's last move, with
// d attacker moves left, and returns its defences (see VCT). The lists of
// quiet threats are cached: computing one costs a VCF search per candidate.
func (r *vctRun) defences(d int) ([]engine.Point, int) {
	b := r.b
	if b.LastMoveWon() {
		return nil, andWon
	}
	if b.Count(r.def, engine.FivePoints) > 0 {
		return nil, andLost
	}
	switch b.Count(r.att, engine.FivePoints) {
	case 0:
	case 1:
		e := b.FirstPoint(r.att, engine.FivePoints)
		if r.renjuDef && b.Forbidden(e) != engine.NotForbidden {
			return nil, andWon
		}
		if d <= 0 {
			return nil, andLost
		}
		return []engine.Point{e}, andOpen
	default:
		return nil, andWon
	}
	if d <= 0 {
		return nil, andLost
	}
	key := r.defenceKey(d)
	if moves, state, ok := r.cache.get(key); ok {
		return moves, state
	}
	moves, state := r.quietDefences(key, d, min(r.threat, d))
	if state != andStopped {
		r.cache.put(key, moves, state)
	}
	return moves, state
}

// defenceKey returns the defence cache's key of the defender node on the
// board with d attacker moves left (the threat limit is part of it), also
// the key of its pass proof (passDefences).
func (r *vctRun) defenceKey(d int) uint64 { return r.key(false, d) ^ uint64(r.threat) }

// quietDefences handles a defender node after a quiet attacker move (key
// its cache key, d attacker moves left): the move must threaten a VCF of at
// most k moves, and the defences are the legal defender moves that leave no
// such VCF. Once testedDefences of the candidates are confirmed, the rest
// are kept without a test, so the list is a superset of the defences (see
// testedDefences). Under AllMoves a move that threatens no VCF may still be
// a threat of order 3 (passDefences); otherwise every legal defender move
// is a defence.
func (r *vctRun) quietDefences(key uint64, d, k int) ([]engine.Point, int) {
	b := r.b
	found, _, ok := r.vcf.find(k)
	if !ok && r.vcf.stop {
		return nil, andStopped
	}
	if !ok && !r.allMoves {
		return nil, andLost
	}
	// The move was not a four, so the defender may ignore it: with a VCF of
	// its own it wins first. Only looked for where the defender had a VCF
	// before the move (the move is then one that may stop it): elsewhere a
	// move rarely gives the defender a VCF, and the search finds it anyway.
	if r.defThreat && r.defenderVCF() {
		return nil, andLost
	}
	if r.stop {
		return nil, andStopped
	}
	if !ok {
		if r.passer != nil {
			if zone, ok := r.passDefences(key, d); ok {
				return zone, andOpen
			}
			if r.stop {
				return nil, andStopped
			}
		}
		// no threat (AllMoves): every legal defender move must be answered
		// (none: expand disproves the node)
		return r.orderDefences(legalMoves(r.b, r.def)), andOpen
	}
	// legal ones only, ordered first, so that the defences confirmed are the
	// ones the search tries first (found is r.vcf's buffer, read here
	// before the defends below search again; defenderVCF has its own)
	cands := r.defenceCandidates(found, r.att, r.defBuf[:0])
	r.defBuf = cands // scratch: out below is the list kept
	legal := cands[:0]
	for _, c := range cands {
		if b.Legal(r.def, c) {
			legal = append(legal, c)
		}
	}
	// out is kept by the cache, so it is not a scratch buffer; it is made at
	// the first defence, so a threat that wins (no defence) allocates nothing
	var out []engine.Point
	for _, c := range r.orderDefences(legal) {
		if len(out) >= testedDefences {
			out = append(out, c) // untested
			continue
		}
		if r.defends(c, k) {
			if out == nil {
				out = make([]engine.Point, 0, len(legal))
			}
			out = append(out, c)
		}
		if r.vcf.stop {
			return nil, andStopped
		}
	}
	if len(out) == 0 {
		return nil, andWon
	}
	return out, andOpen
}

// defends reports whether the defender's legal move c leaves the attacker
// with no VCF of at most k moves (false also when the budget stops the VCF
// search: r.vcf.stop then tells).
func (r *vctRun) defends(c engine.Point, k int) bool {
	r.b.Play(c, r.def)
	_, _, still := r.vcf.find(k)
	r.b.Undo()
	return !still && !r.vcf.stop
}

// testedDefences is how many defences quietDefences confirms, each with a
// VCF search, before it keeps the remaining candidates untested. The
// defender node's list is then a superset of its defences. That is sound:
// a candidate that does not defend leaves the threatened VCF, which the
// search finds first at that child's attacker node, so the child is proven
// at once; a proof lists only the real defences (exactDefences filters them
// when it is built). It saves the tests (about 44% of the nodes at threat
// limit 3, where a threat has 7 defences on average) on defender nodes that
// are refuted before all their defences are searched, and df-pn still sees
// the node as one with at least testedDefences defences. Zero defences (the
// threat wins) is still found exactly. Measured on the 22 puzzles of two
// check sets at threat limit 3, 15 s each: 22 won against 19 without the
// cap; testing none (every candidate untested) won 10 of the first 12
// against 12, as the proof numbers then no longer tell a threat with one
// defence from one with seven.
const testedDefences = 4

// quietMoves returns the attacker's legal moves not in threats, ordered by
// distance to the nearest stone, then by potential, then by Point, in a
// buffer that the next call reuses (attacks copies what it keeps).
func (r *vctRun) quietMoves(threats []engine.Point) []engine.Point {
	b := r.b
	n := b.Size()
	// near: for each cell, the fewest steps along a line to a stone (1 to
	// 4; quietFar when none is within 4), walked from the stones outwards (a walk
	// stops at the next stone, which is nearer to the cells beyond it, and
	// at the wall), stamped with a generation in place of a clearing
	r.nearGen++
	if r.nearGen == 0 || r.nearStamp == nil {
		r.nearStamp, r.nearDist, r.nearGen = make([]uint32, engine.NumCells), make([]uint8, engine.NumCells), 1
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			s := engine.PointAt(x, y)
			if b.At(s) == engine.Empty {
				continue
			}
			for _, step := range engine.Dirs {
				for _, sign := range [2]int{1, -1} {
					for k := 1; k <= 4; k++ {
						q := engine.Point(int(s) + sign*k*step)
						if !b.OnBoard(q) || b.At(q) != engine.Empty {
							break
						}
						if r.nearStamp[q] != r.nearGen || int(r.nearDist[q]) > k {
							r.nearStamp[q], r.nearDist[q] = r.nearGen, uint8(k)
						}
					}
				}
			}
		}
	}
	for _, m := range threats {
		r.nearStamp[m], r.nearDist[m] = r.nearGen, 0 // 0: left out
	}
	// the cells near a stone, sorted by distance and potential; the far
	// ones, whose windows hold no stone, follow in r.farOrder's order
	keys := r.quietKeys[:0]
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			m := engine.PointAt(x, y)
			if r.nearStamp[m] != r.nearGen {
				continue // far, or a stone
			}
			near := int(r.nearDist[m])
			if near == 0 || !b.Legal(r.att, m) {
				continue // a threat, or forbidden
			}
			black, white := b.Potentials(m)
			keys = append(keys, quietKey(near, black+white, m))
		}
	}
	// the cells come in ascending Point order, so a stable sort on the
	// score alone breaks ties by Point (2026-12-05, BenchmarkAllMoves: a
	// comparison sort of every cell's key took 22% of the time; of the
	// near cells' keys alone, the whole search 12-15% slower than this)
	keys, r.quietTmp = radixSortScore(keys, r.quietTmp)
	out := r.quietOut[:0]
	for _, k := range keys {
		out = append(out, engine.Point(k&quietPointMask))
	}
	for _, m := range r.farCells() {
		if r.nearStamp[m] != r.nearGen && b.At(m) == engine.Empty && b.Legal(r.att, m) {
			out = append(out, m)
		}
	}
	r.quietKeys, r.quietOut = keys, out
	return out
}

// farCells returns every cell of the board ordered as quietMoves orders
// cells with no stone within 4 along a line: by potential, highest first,
// then by Point. Such a cell's windows hold no stone, so its potential is
// its empty-board potential (twice the windows through it that lie on the
// board) and the order depends on the board's size alone; it is computed
// once per size and carried from run to run.
func (r *vctRun) farCells() []engine.Point {
	n := r.b.Size()
	if r.farSize == n {
		return r.farOrder
	}
	empty := engine.Scratch(r.b)
	defer engine.Release(empty)
	empty.Reset()
	keys := make([]uint64, 0, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			m := engine.PointAt(x, y)
			black, white := empty.Potentials(m)
			keys = append(keys, quietKey(quietFar, black+white, m))
		}
	}
	keys, _ = radixSortScore(keys, nil)
	r.farOrder = make([]engine.Point, len(keys))
	for i, k := range keys {
		r.farOrder[i] = engine.Point(k & quietPointMask)
	}
	r.farSize = n
	return r.farOrder
}

// quietMoves's keys: a score of quietScoreBits above the Point's
// quietPointBits (Points are below engine.NumCells = 1<<10). The score is
// the nearest stone's distance (1 to 4, or quietFar) above quietPotBits
// holding quietPotMax minus the potential: both sides' five-cell windows,
// each under 20·WindowScore[5] = 655,360 < 1<<20, so the sum is under
// 1<<21. Ascending scores put the nearest first, then the highest
// potential.
const (
	quietPointBits = 10
	quietPointMask = 1<<quietPointBits - 1
	quietPotBits   = 21
	quietPotMax    = 1<<quietPotBits - 1
	quietScoreBits = 24                                        // quietFar<<quietPotBits | quietPotMax < 1<<24
	quietFar       = 5                                         // no stone within 4 cells along a line
	_              = uint(engine.NumCells - 1<<quietPointBits) // fails to compile if Points outgrow the bits
	_              = uint(1<<quietScoreBits - (quietFar<<quietPotBits | quietPotMax) - 1)
)

// quietKey is quietMoves's sort key of move m, near cells from the nearest
// stone (1 to 4, or quietFar) with potential pot (0 to quietPotMax).
func quietKey(near int, pot int32, m engine.Point) uint64 {
	score := uint64(near)<<quietPotBits | uint64(quietPotMax-pot)
	return score<<quietPointBits | uint64(m)
}

// radixSortScore sorts keys stably by their score (the quietScoreBits above
// quietPointBits) with three passes of a byte each (LSD radix sort), using
// tmp (grown as needed) as the other buffer. It returns the sorted keys and
// the other buffer, both to be kept for the next call; it allocates only
// when they grow.
func radixSortScore(keys, tmp []uint64) (sorted, spare []uint64) {
	if len(keys) < 2 {
		return keys, tmp
	}
	if cap(tmp) < len(keys) {
		tmp = make([]uint64, len(keys), cap(keys))
	}
	tmp = tmp[:len(keys)]
	var counts [quietScoreBits / 8][256]uint32
	for _, k := range keys {
		s := k >> quietPointBits
		counts[0][uint8(s)]++
		counts[1][uint8(s>>8)]++
		counts[2][uint8(s>>16)]++
	}
	src, dst := keys, tmp
	for pass := range counts {
		c := &counts[pass]
		if c[uint8(src[0]>>(quietPointBits+8*pass))] == uint32(len(src)) {
			continue // one digit throughout: the order stands
		}
		sum := uint32(0)
		for i := range c {
			c[i], sum = sum, sum+c[i]
		}
		shift := quietPointBits + 8*pass
		for _, k := range src {
			d := uint8(k >> shift)
			dst[c[d]] = k
			c[d]++
		}
		src, dst = dst, src
	}
	return src, dst
}

// defenceCandidates returns a superset of the moves of c's opponent (the
// stopper) that can stop c's VCF line (played from the current position, the
// stopper having passed): the empty cells markStoppers marks, or every empty
// cell when it cannot bound them, appended to out. c is the attacker for the
// defences of a threat.
func (r *vctRun) defenceCandidates(line []engine.Point, c engine.Color, out []engine.Point) []engine.Point {
	return r.markedCells(r.markStoppers(line, c), out)
}

// markedCells appends to out the empty cells marked with the current
// r.markGen, or every empty cell with all.
func (r *vctRun) markedCells(all bool, out []engine.Point) []engine.Point {
	b := r.b
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := engine.PointAt(x, y)
			if b.At(p) == engine.Empty && (all || r.mark[p] == r.markGen) {
				out = append(out, p)
			}
		}
	}
	return out
}

// markStoppers marks with a new r.markGen the cells where a stone of c's
// opponent (the stopper) may stop c's VCF line: the line's cells and final
// five-points, the cells where a stopper stone would make a four with a
// forced block (addCounterCells), the stopper's own fours, and under renju
// the cells around a forbidden block. It returns true (all) where forbidden
// points could change in ways that reach further (a black double-three
// candidate in the line, a forbidden block by double-three): then any empty
// cell may stop the line. attacks uses it with c the defender, for the
// attacker's quiet moves that may stop the defender's VCF.
func (r *vctRun) markStoppers(line []engine.Point, c engine.Color) (all bool) {
	b := r.b
	s := c.Opponent()
	renju := b.Rule() == engine.Renju
	r.markGen++
	r.cells = b.Points(s, engine.FourPoints, r.cells[:0])
	for _, p := range r.cells {
		r.mark[p] = r.markGen
	}
	played := 0
	for i, m := range line {
		r.mark[m] = r.markGen
		if i%2 == 0 {
			if renju && c == engine.Black && b.ForbiddenCandidate(m) {
				all = true
			}
			b.Play(m, c)
		} else {
			b.Play(m, s)
			r.addCounterCells(m, s)
		}
		played++
	}
	if len(line)%2 == 1 && !b.LastMoveWon() { // ends on a four of c
		r.cells = b.Points(c, engine.FivePoints, r.cells[:0])
		fives := r.cells
		for _, f := range fives {
			r.mark[f] = r.markGen
		}
		if len(fives) == 1 && renju && s == engine.Black {
			r.addLineCells(fives[0], 5)
			if b.Forbidden(fives[0]) == engine.DoubleThree {
				all = true
			}
		}
	}
	for ; played > 0; played-- {
		b.Undo()
	}
	return all
}

// addCounterCells marks the cells where a stone of s would make a four
// through the forced block m just played: cells on m's lines, within four
// steps, whose line pattern for s along that line is a four or better. A
// counter-four that s could make at any later stage of the VCF includes
// that stage's block, so marking at every block covers all.
func (r *vctRun) addCounterCells(m engine.Point, s engine.Color) {
	b := r.b
	for d, step := range engine.Dirs {
		for _, sign := range [2]int{1, -1} {
			for k := 1; k <= 4; k++ {
				q := engine.Point(int(m) + sign*k*step)
				if !b.OnBoard(q) {
					break
				}
				if b.At(q) == engine.Empty && b.LinePattern(s, q, engine.Direction(d)) >= engine.Four {
					r.mark[q] = r.markGen
				}
			}
		}
	}
}

// orderDefences sorts defences, deterministically: defender fours first,
// then by the attacker's potential plus the defender's, then by their order
// in moves.
func (r *vctRun) orderDefences(moves []engine.Point) []engine.Point {
	return r.sortMoves(moves, func(m engine.Point) int64 {
		att, def := r.potentials(m)
		s := int64(att) + int64(def)
		if r.b.Threat(r.def, m) >= engine.ThreatFour {
			s += 1 << 40
		}
		return s
	})
}

// defenceCache remembers the outcome and defences of defender nodes after
// quiet moves (and the move lists of attacker nodes), direct-mapped by node
// key. Slices are never reused, so one handed out stays valid after its slot
// is overwritten. Entries of an older generation (search) read as empty.
type defenceCache struct {
	slots []defenceEntry
	gen   uint32
}

type defenceEntry struct {
	key   uint64
	moves []engine.Point
	state int
	gen   uint32
}

// defenceCacheSize is the smallest number of slots (a power of two): 12
// KiB, so that a quick search touches few pages (see failTable); the cache
// grows with its VCT's table (grow).
const defenceCacheSize = 1 << 8

// reset starts a new generation with about n slots (rounded to a power of
// two), keeping the memory it has.
func (c *defenceCache) reset(n int) {
	c.gen++
	c.resize(n)
}

// resize makes the cache the power of two of at least n slots (and
// defenceCacheSize), reusing its memory: the slots beyond its size in this
// generation hold older generations' entries, which read as empty.
func (c *defenceCache) resize(n int) {
	size := defenceCacheSize
	for size < n {
		size *= 2
	}
	if cap(c.slots) < size {
		slots := make([]defenceEntry, size)
		copy(slots, c.slots)
		c.slots = slots
	}
	c.slots = c.slots[:size]
}

// grow makes the cache about n slots when that is more than it has,
// moving the entries of this generation (slot i goes to key & (size-1),
// which is i modulo the old size: no two collide, and the slots above the
// old size are free).
func (c *defenceCache) grow(n int) {
	old := len(c.slots)
	if n <= old || c.slots == nil {
		return
	}
	c.resize(n)
	mask := uint64(len(c.slots) - 1)
	for i := range old {
		e := &c.slots[i]
		if e.gen != c.gen {
			continue
		}
		if j := e.key & mask; j != uint64(i) {
			c.slots[j] = *e
			*e = defenceEntry{}
		}
	}
}

func (c *defenceCache) get(key uint64) ([]engine.Point, int, bool) {
	if c.slots == nil {
		return nil, 0, false
	}
	e := &c.slots[key&uint64(len(c.slots)-1)]
	if e.key != key || e.gen != c.gen {
		return nil, 0, false
	}
	return e.moves, e.state, true
}

func (c *defenceCache) put(key uint64, moves []engine.Point, state int) {
	if c.slots == nil {
		c.reset(defenceCacheSize)
	}
	c.slots[key&uint64(len(c.slots)-1)] = defenceEntry{key: key, moves: moves, state: state, gen: c.gen}
}
