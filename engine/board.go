package engine

import (
	"fmt"
	"math/bits"
)

// Board is a position under one rule, updated incrementally.
//
// Layout: cells live in the padded array described in point.go; every cell
// that is not on the size×size playing area is a Wall, so walks along a line
// need no bounds checks. Every line of the padded array (32 rows, 32
// columns, 63 diagonals each way) is also kept as one 64-bit word of 2-bit
// cell codes, so the key of a cell along a direction (its ten neighbours,
// pattern.go) is two shifts away. Per empty cell the board keeps, per side,
// the line pattern of each direction and the combined Threat (threat.go),
// and per side the sets of five-, four- and three-points. Per five-cell
// window (García's "monomials", monomial.go) it keeps the stone counts, from
// which the potential v(p) = Σ s(m) over the windows m covering p follows.
//
// A move touches only what it can change: its four line words, the patterns
// of the (at most 40) cells within five steps along its four lines, and the
// states of the 20 windows that cover it (a window not wholly on the board
// starts at a state that always scores 0, offBoardWindow). Undo restores the
// patterns from an undo log instead of recomputing them. Play and Undo
// allocate nothing once the board exists.
//
// A Board is not safe for concurrent use; give each goroutine its own Clone.
type Board struct {
	size    int
	rule    Rule
	lines   *[keySpace]uint8    // ruleTable(rule)
	threatT [2]*[1 << 16]Threat // threatTable(rule, side)
	exact   [2]bool             // per side: wins only with exactly five
	wordLo  int                 // first and last word of a pointSet that can hold
	wordHi  int                 // an on-board cell

	cells   [NumCells]Color
	words   [NumDirs][2 * Stride]uint64 // line words, see lineOf
	lineP   [2][NumCells]uint16         // per side: 4 line patterns, direction d in bits 4d..4d+3
	threat  [2][NumCells]Threat         // per side; ThreatNone on occupied cells
	sets    [2][numSets]pointSet
	setSize [2][numSets]int
	hash    uint64
	sym     *[NumSymmetries][NumCells]Point
	history []move
	undoLog []change // cell states overwritten by the moves in history, [:logLen]
	logLen  int

	windows [NumDirs][2 * Stride][Stride]uint8 // window states, by window start (monomial.go)
}

// move is one entry of the undo stack.
type move struct {
	p    Point
	c    Color
	five bool  // the move made a five for c
	log  int32 // logLen before the move
}

// change records the state of one cell before a move overwrote it, so that
// Undo restores it without recomputing patterns.
type change struct {
	q  Point
	lp [2]uint16
	t  [2]Threat
}

// maxChanges bounds the cells one move can change: itself and 40 neighbours.
const maxChanges = 1 + 2*Pad*NumDirs

// ThreatSet names a set of cells the board keeps current for each side.
type ThreatSet uint8

// The sets of cells kept per side.
const (
	// FivePoints: cells where the side makes a five.
	FivePoints ThreatSet = iota
	// FourPoints: cells where the side makes at least a four
	// (ThreatFour or better; possibly forbidden for black: see Forbidden).
	FourPoints
	// ThreePoints: cells where the side makes at least an open three.
	ThreePoints
	// MaybeForbidden: for black under renju, cells that are forbidden or
	// double-three candidates (see ForbiddenCandidate); empty otherwise.
	// Adding white stones never makes a cell outside this set forbidden.
	MaybeForbidden
	numSets
)

// setMask gives, per Threat (with or without the flag bit), the ThreatSets it
// belongs to, one bit per set.
var setMask = func() (m [256]uint8) {
	for t := 0; t < 256; t++ {
		c := Threat(t) &^ maybeForbidden
		if c >= numThreats {
			continue
		}
		if c == ThreatFive {
			m[t] |= 1 << FivePoints
		}
		if c >= ThreatFour {
			m[t] |= 1 << FourPoints
		}
		if c >= ThreatThree {
			m[t] |= 1 << ThreePoints
		}
		if c == ThreatForbidden || Threat(t)&maybeForbidden != 0 {
			m[t] |= 1 << MaybeForbidden
		}
	}
	return m
}()

// pointSet is a bit set over the padded board array.
type pointSet [NumCells / 64]uint64

// NewBoard returns an empty size×size board under rule r. The error wraps
// ErrBadSize when size is outside [MinSize, MaxSize]. The first board of a
// rule builds that rule's pattern tables (about 50 ms per table, cached for
// the life of the process).
func NewBoard(size int, r Rule) (*Board, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("%d: %w (want %d to %d)", size, ErrBadSize, MinSize, MaxSize)
	}
	if r >= NumRules {
		return nil, fmt.Errorf("rule %d: %w", r, ErrBadRule)
	}
	b := &Board{size: size, rule: r, lines: (*[keySpace]uint8)(ruleTable(r)), history: make([]move, 0, size*size),
		undoLog: make([]change, size*size*maxChanges)}
	b.threatT[0] = (*[1 << 16]Threat)(threatTable(r, Black))
	b.threatT[1] = (*[1 << 16]Threat)(threatTable(r, White))
	b.exact = [2]bool{r.exact(Black), r.exact(White)}
	b.sym = symmetryTable(size)
	b.wordLo = int(PointAt(0, 0)) / 64
	b.wordHi = int(PointAt(size-1, size-1)) / 64
	for i := range b.cells {
		if Point(i).In(size) {
			b.cells[i] = Empty
		} else {
			b.cells[i] = Wall
		}
	}
	for i := range b.cells {
		for d := 0; d < NumDirs; d++ {
			l, pos := lineOf(Point(i), d)
			b.words[d][l] |= uint64(b.cells[i]) << (2 * pos)
		}
	}
	for i := range b.cells {
		if Point(i).In(size) {
			b.recompute(Point(i))
		}
	}
	b.initWindows()
	return b, nil
}

// Clone returns an independent copy of b, sharing only the read-only tables.
func (b *Board) Clone() *Board {
	c := *b
	c.history = append(make([]move, 0, cap(b.history)), b.history...)
	c.undoLog = make([]change, len(b.undoLog))
	copy(c.undoLog, b.undoLog[:b.logLen])
	return &c
}

// Size returns the board side, in cells.
func (b *Board) Size() int { return b.size }

// Rule returns the rule the board is played under.
func (b *Board) Rule() Rule { return b.rule }

// At returns the content of p: Empty, Black, White, or Wall off the board.
func (b *Board) At(p Point) Color { return b.cells[p] }

// OnBoard reports whether p is a cell of the playing area.
func (b *Board) OnBoard(p Point) bool { return int(p) < NumCells && b.cells[p] != Wall }

// Hash returns the Zobrist key of the stones on the board (zobrist.go); it
// does not include the side to move.
func (b *Board) Hash() uint64 { return b.hash }

// Stones returns the number of stones on the board.
func (b *Board) Stones() int { return len(b.history) }

// History returns the stones in the order they were played, as points and
// colours. The slices are fresh copies.
func (b *Board) History() ([]Point, []Color) {
	ps, cs := make([]Point, len(b.history)), make([]Color, len(b.history))
	for i, m := range b.history {
		ps[i], cs[i] = m.p, m.c
	}
	return ps, cs
}

// Move returns the i-th stone played (0-based, 0 <= i < Stones()) and its
// colour, without copying the history; it panics when i is out of range.
func (b *Board) Move(i int) (Point, Color) {
	m := b.history[i]
	return m.p, m.c
}

// LastMove returns the last stone played and its colour, or (NoPoint, Empty)
// on an empty board.
func (b *Board) LastMove() (Point, Color) {
	if len(b.history) == 0 {
		return NoPoint, Empty
	}
	m := b.history[len(b.history)-1]
	return m.p, m.c
}

// LastMoveWon reports whether the last stone played made a five for its side
// (exactly five where the rule demands it).
func (b *Board) LastMoveWon() bool {
	return len(b.history) > 0 && b.history[len(b.history)-1].five
}

// Play puts a stone of colour c on the empty on-board cell p. It does not
// check its arguments or the rules (see Put and Legal): the caller ensures p
// is empty and c is Black or White. Every Play is paired with an Undo, which
// takes it back exactly. Play allocates nothing while the board holds fewer
// than Size()² stones.
func (b *Board) Play(p Point, c Color) {
	s := c - 1
	p &= NumCells - 1
	b.history = append(b.history, move{p: p, c: c, five: b.threat[s][p]&^maybeForbidden == ThreatFive,
		log: int32(b.logLen)})
	b.logChange(p)
	b.cells[p] = c
	b.hash ^= zobrist[s&1][p]
	b.setThreat(0, p, ThreatNone)
	b.setThreat(1, p, ThreatNone)
	b.updateLines(p, uint32(c))
	b.updateWindows(p, c, true)
}

// Undo takes back the last Play. It panics on an empty history, which is a
// caller's bug, never a consequence of input.
func (b *Board) Undo() {
	m := b.history[len(b.history)-1]
	b.history = b.history[:len(b.history)-1]
	b.updateWindows(m.p, m.c, false)
	b.cells[m.p] = Empty
	b.hash ^= zobrist[(m.c-1)&1][m.p]
	for d := 0; d < NumDirs; d++ {
		l, pos := lineOf(m.p, d)
		b.words[d][l&(2*Stride-1)] ^= uint64(m.c) << (2 * pos)
	}
	for i := b.logLen - 1; i >= int(m.log); i-- {
		ch := &b.undoLog[i]
		q := ch.q & (NumCells - 1)
		b.lineP[0][q], b.lineP[1][q] = ch.lp[0], ch.lp[1]
		if ch.t[0] != b.threat[0][q] {
			b.setThreat(0, q, ch.t[0])
		}
		if ch.t[1] != b.threat[1][q] {
			b.setThreat(1, q, ch.t[1])
		}
	}
	b.logLen = int(m.log)
}

// lineOf returns the line word holding p along direction d and p's position
// in it: rows by y, columns by x, diagonals (+Stride+1) by x-y+Stride-1 and
// anti-diagonals (+Stride-1) by x+y, each with position y except rows (x).
// Coordinates here are those of the padded array, 0..Stride-1.
func lineOf(p Point, d int) (line, pos int) {
	x, y := int(p)&(Stride-1), int(p)>>5&(Stride-1)
	switch d {
	case 0:
		return y, x
	case 1:
		return x, y
	case 2:
		return x - y + Stride - 1, y
	}
	return x + y, y
}

// key returns the line key of p along d (pattern.go): the 2-bit codes of the
// cells at offsets -5..-1 and +1..+5. Every on-board cell has pos in
// [Pad, Stride-Pad), so both shifts stay inside the word.
func (b *Board) key(p Point, d int) uint32 {
	l, pos := lineOf(p, d)
	w := b.words[d&3][l&(2*Stride-1)]
	return uint32(w>>(2*(pos-Pad)))&0x3ff | uint32(w>>(2*(pos+1))&0x3ff)<<10
}

// recompute sets the line patterns and threats of empty cell p from the line
// words, from scratch.
func (b *Board) recompute(p Point) {
	var lp [2]uint16
	for d := 0; d < NumDirs; d++ {
		code := uint16(b.lines[b.key(p, d)&(keySpace-1)])
		lp[0] |= code & 0xf << (4 * d)
		lp[1] |= code >> 4 << (4 * d)
	}
	for s := 0; s < 2; s++ {
		b.lineP[s][p] = lp[s]
		b.setThreat(s, p, b.threatT[s][lp[s]])
	}
}

// Reset takes back every stone, leaving the empty board.
func (b *Board) Reset() {
	for len(b.history) > 0 {
		b.Undo()
	}
}

// Put plays a stone of colour c at p after checking it: the error wraps
// ErrOffBoard or ErrOccupied. It does not check the rules; setting up a
// position may put any stone anywhere.
func (b *Board) Put(p Point, c Color) error {
	if !b.OnBoard(p) {
		return fmt.Errorf("%v: %w", p, ErrOffBoard)
	}
	if b.cells[p] != Empty {
		return fmt.Errorf("%v: %w", p, ErrOccupied)
	}
	if c != Black && c != White {
		return fmt.Errorf("%v: %w", c, ErrBadColor)
	}
	b.Play(p, c)
	return nil
}

// updateLines toggles code (the colour of the stone at p) in p's four line
// words and refreshes the patterns of the empty cells up to Pad steps away. A
// side's pattern at q depends only on the cells before the first opposing
// stone or wall in each direction, so the walk stops at a wall and refreshes
// a side only while no opposing stone lies between p and q.
func (b *Board) updateLines(p Point, code uint32) {
	for d := 0; d < NumDirs; d++ {
		l, pos := lineOf(p, d)
		wp := &b.words[d][l&(2*Stride-1)]
		*wp ^= uint64(code) << (2 * pos)
		w := *wp
		step := Dirs[d]
		for _, sign := range [2]int{1, -1} {
			var seen Color // colours of the stones passed, as a 2-bit mask
			for k := 1; k <= Pad; k++ {
				q := (int(p) + sign*k*step) & (NumCells - 1)
				c := b.cells[q]
				if c == Wall {
					break
				}
				if c != Empty {
					seen |= c
					continue
				}
				blocked := seen
				if k == Pad {
					// A stone five steps away matters only to its own side,
					// and only if that side needs exactly five (overline).
					if !b.exact[code-1] || seen&Color(code^3) != 0 {
						continue
					}
					blocked = Color(code)
				} else if seen == Black|White {
					continue // black's view ends at a white stone, white's at a black one
				}
				qpos := uint(pos + sign*k)
				key := uint32(w>>(2*(qpos-Pad)))&0x3ff | uint32(w>>(2*(qpos+1))&0x3ff)<<10
				b.refreshKey(Point(q), d, blocked, key)
			}
		}
	}
}

// refreshKey recomputes the line pattern of empty cell q along d from its
// key, and the cell's threats, for each side whose view is not blocked:
// blocked is a mask of the colours seen between q and the changed cell
// (White blocks black, Black blocks white). The cell's previous state goes
// to the undo log when anything changes.
func (b *Board) refreshKey(q Point, d int, blocked Color, key uint32) {
	q &= NumCells - 1
	code := uint16(b.lines[key&(keySpace-1)])
	shift := uint(4 * d)
	old0, old1 := b.lineP[0][q], b.lineP[1][q]
	new0, new1 := old0, old1
	if blocked&White == 0 {
		new0 = old0&^(0xf<<shift) | (code&0xf)<<shift
	}
	if blocked&Black == 0 {
		new1 = old1&^(0xf<<shift) | (code>>4)<<shift
	}
	if new0 == old0 && new1 == old1 {
		return
	}
	b.logChange(q)
	b.lineP[0][q], b.lineP[1][q] = new0, new1
	if threatClass[old0>>shift&0xf] != threatClass[new0>>shift&0xf] {
		if t := b.threatT[0][new0]; t != b.threat[0][q] {
			b.setThreat(0, q, t)
		}
	}
	if threatClass[old1>>shift&0xf] != threatClass[new1>>shift&0xf] {
		if t := b.threatT[1][new1]; t != b.threat[1][q] {
			b.setThreat(1, q, t)
		}
	}
}

// logChange appends the current state of cell q (its line patterns and
// threats, per side) to the undo log, before a move changes it. The fields are stored one by one:
// building the entry as a composite literal made the compiler assemble it
// on the stack with narrow stores and copy it with one wide load, a
// store-forwarding stall that cost a tenth of a VCT search's time.
func (b *Board) logChange(q Point) {
	e := &b.undoLog[b.logLen]
	e.q, e.lp[0], e.lp[1] = q, b.lineP[0][q], b.lineP[1][q]
	e.t[0], e.t[1] = b.threat[0][q], b.threat[1][q]
	b.logLen++
}

// threatClass groups the line patterns that combine alike (threat.go):
// patterns of one group can replace each other without changing any Threat.
var threatClass = [16]uint8{
	Dead: 0, BlockedOne: 0, FlexOne: 0, BlockedTwo: 0,
	Overline: 1, FlexTwo: 2, BlockedThree: 3, FlexThree: 4, Four: 5, StraightFour: 6, DoubleFourLine: 7, Five: 8,
	12: 9, 13: 10, 14: 11, 15: 12,
}

// setThreat records threat t for side s at q and keeps the sets current.
func (b *Board) setThreat(s int, q Point, t Threat) {
	old := b.threat[s][q]
	b.threat[s][q] = t
	diff := setMask[old] ^ setMask[t]
	for diff != 0 {
		k := bits.TrailingZeros8(diff)
		diff &= diff - 1
		b.sets[s][k][q>>6] ^= 1 << (q & 63)
		if setMask[t]>>k&1 == 1 {
			b.setSize[s][k]++
		} else {
			b.setSize[s][k]--
		}
	}
}

// Threat returns the class of a move by c at p: ThreatNone for an occupied
// cell. For black under renju a double-three shows as ThreatDoubleThree (or
// as the four it also makes) whether or not it is forbidden; Forbidden tells.
func (b *Board) Threat(c Color, p Point) Threat {
	return b.threat[c-1][p] &^ maybeForbidden
}

// LinePattern returns what the line through empty cell p along direction d
// becomes if c plays p.
func (b *Board) LinePattern(c Color, p Point, d Direction) LinePattern {
	return LinePattern(b.lineP[c-1][p] >> (4 * d) & 0xf)
}

// LinePatterns returns what the four lines through p become if c plays p,
// packed: direction d's LinePattern in bits 4d..4d+3 (the order of Dirs). It
// is 0 (Dead in every direction) for an occupied or off-board cell. It is
// the cheap per-cell input of move-ordering heuristics.
func (b *Board) LinePatterns(c Color, p Point) uint16 {
	p &= NumCells - 1
	if b.cells[p] != Empty {
		return 0
	}
	return b.lineP[c-1][p]
}

// Count returns the number of cells in side c's set s.
func (b *Board) Count(c Color, s ThreatSet) int { return b.setSize[c-1][s] }

// Points appends the cells of side c's set s to buf in increasing Point order
// (rows from the bottom, then columns from the left) and returns it.
func (b *Board) Points(c Color, s ThreatSet, buf []Point) []Point {
	set := &b.sets[c-1][s]
	for w := b.wordLo; w <= b.wordHi; w++ {
		for x := set[w]; x != 0; x &= x - 1 {
			buf = append(buf, Point(w*64+bits.TrailingZeros64(x)))
		}
	}
	return buf
}

// FirstPoint returns the lowest cell of side c's set s, or NoPoint if the set
// is empty.
func (b *Board) FirstPoint(c Color, s ThreatSet) Point {
	set := &b.sets[c-1][s]
	for w := b.wordLo; w <= b.wordHi; w++ {
		if x := set[w]; x != 0 {
			return Point(w*64 + bits.TrailingZeros64(x))
		}
	}
	return NoPoint
}

// Legal reports whether c may play p: p is an empty on-board cell and, for
// black under renju, not a forbidden point.
func (b *Board) Legal(c Color, p Point) bool {
	if !b.OnBoard(p) || b.cells[p] != Empty {
		return false
	}
	return c != Black || b.rule != Renju || b.Forbidden(p) == NotForbidden
}

// FiveThrough reports whether the stone at p is part of a five of its colour:
// exactly five in a row where the rule demands it for that colour, five or
// more otherwise. It walks the four lines through p cell by cell, without the
// pattern tables, so that results can be checked independently of them.
func (b *Board) FiveThrough(p Point) bool {
	if !b.OnBoard(p) {
		return false
	}
	c := b.cells[p]
	if c != Black && c != White {
		return false
	}
	exact := b.rule.exact(c)
	for _, step := range Dirs {
		n := 1
		for q := int(p) + step; b.cells[q] == c; q += step {
			n++
		}
		for q := int(p) - step; b.cells[q] == c; q -= step {
			n++
		}
		if n == 5 || (n > 5 && !exact) {
			return true
		}
	}
	return false
}

// HasFive reports whether c has a five on the board: exactly five stones in a
// row where the rule demands it for c, five or more otherwise. It scans the
// whole board (O(Size²)) and is meant for checking input, not for search,
// which learns of fives from LastMoveWon.
func (b *Board) HasFive(c Color) bool {
	exact := b.rule.exact(c)
	for i := range b.cells {
		if b.cells[i] != c {
			continue
		}
		for _, step := range Dirs {
			if b.cells[i-step] == c {
				continue // not the start of the run
			}
			n := 1
			for b.cells[i+n*step] == c {
				n++
			}
			if n == 5 || (n > 5 && !exact) {
				return true
			}
		}
	}
	return false
}
