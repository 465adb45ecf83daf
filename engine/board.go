package engine

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
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
// both sides packed into one word (the cell state, st), and per side the
// sets of five-, four- and three-points. Per five-cell window (García's
// "monomials", monomial.go) it keeps the stone counts, from which the
// potential v(p) = Σ s(m) over the windows m covering p follows.
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
	reach   [2]uint64           // per colour code&1 (white, black): its reachMasks entry
	wordLo  int                 // first and last word of a pointSet that can hold
	wordHi  int                 // an on-board cell

	cells   [NumCells]Color
	words   [NumDirs][2 * Stride]uint64 // line words, see lineOf
	st      [NumCells]uint64            // per cell: its state (layout at stPatterns)
	sets    [2][numSets]pointSet
	setSize [2][numSets]int
	hash    uint64
	sym     *[NumSymmetries][NumCells]Point
	history []move
	undoLog []Change // cell states overwritten by the moves in history, [:logLen], each with its cell at stCell
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

// A cell's state is one uint64, so that a move reads, writes and logs each
// cell it changes with one load and one store:
//
//	bits  0..15  black's line patterns, direction d in bits 4d..4d+3
//	bits 16..31  white's line patterns, the same way
//	bits 32..39  black's Threat (with the maybeForbidden flag)
//	bits 40..47  white's Threat
//	bits 48..63  zero in st; in an undo log entry, the cell (Point) in
//	             bits 48..57, and in bits 58 and 59 whether black's and
//	             white's sets (FivePoints, ...) changed with the threat
//
// Occupied cells have ThreatNone for both sides; their patterns are stale
// and never read.
const (
	stPatterns = 16 // bits per side of the patterns
	stThreats  = 32 // first bit of the threats
	stCell     = 48 // first bit of the cell in a log entry
	stSetFlags = 58 // first of the two sets-changed flags of a log entry
	stMask     = 1<<48 - 1
	// stSetsChanged is black's sets-changed flag; white's is the next bit.
	stSetsChanged = 1 << stSetFlags
)

// patterns returns side s's four line patterns from cell state v.
func patterns(v uint64, s int) uint16 { return uint16(v >> (stPatterns * (s & 1))) }

// threatOf returns side s's Threat, flag included, from cell state v.
func threatOf(v uint64, s int) Threat { return Threat(v >> (stThreats + 8*(s&1))) }

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
		if c >= NumThreats {
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

// NewBoard returns an empty size×size board under rule r, a copy of one
// built on the first call for that size and rule. The error wraps
// ErrBadSize when size is outside [MinSize, MaxSize], ErrBadRule for an
// unknown rule.
func NewBoard(size int, r Rule) (*Board, error) {
	t, err := emptyBoard(size, r)
	if err != nil {
		return nil, err
	}
	return t.Clone(), nil
}

// emptyBoards holds an empty board of each rule and size, built on first
// use: NewBoard and ScratchEmpty copy it (a copy takes a few µs; building
// one, about 25 µs).
var emptyBoards [NumRules][MaxSize + 1]atomic.Pointer[Board]

// emptyBoard returns the cached empty board of size and rule, building it
// the first time. It must not be played on. Errors as NewBoard's.
func emptyBoard(size int, r Rule) (*Board, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("%d: %w (want %d to %d)", size, ErrBadSize, MinSize, MaxSize)
	}
	if r >= NumRules {
		return nil, fmt.Errorf("rule %d: %w", r, ErrBadRule)
	}
	if t := emptyBoards[r][size].Load(); t != nil {
		return t, nil
	}
	emptyBoards[r][size].CompareAndSwap(nil, buildBoard(size, r))
	return emptyBoards[r][size].Load(), nil
}

// ScratchEmpty is Scratch of an empty board of size and rule: a pooled
// board, given back with Release. Errors as NewBoard's.
func ScratchEmpty(size int, r Rule) (*Board, error) {
	t, err := emptyBoard(size, r)
	if err != nil {
		return nil, err
	}
	return Scratch(t), nil
}

// buildBoard makes an empty board of a checked size and rule.
func buildBoard(size int, r Rule) *Board {
	b := &Board{size: size, rule: r, lines: (*[keySpace]uint8)(ruleTable(r)), history: make([]move, 0, size*size),
		undoLog: make([]Change, size*size*maxChanges)}
	b.threatT[0] = (*[1 << 16]Threat)(threatTable(r, Black))
	b.threatT[1] = (*[1 << 16]Threat)(threatTable(r, White))
	for _, c := range [2]Color{Black, White} {
		b.reach[c&1] = reachMasks[0]
		if r.exact(c) {
			b.reach[c&1] = reachMasks[1]
		}
	}
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
	return b
}

// Clone returns an independent copy of b, sharing only the read-only tables.
func (b *Board) Clone() *Board {
	c := *b
	c.history = append(make([]move, 0, cap(b.history)), b.history...)
	c.undoLog = make([]Change, len(b.undoLog))
	copy(c.undoLog, b.undoLog[:b.logLen])
	return &c
}

// CopyFrom makes b a copy of src, as Clone does, reusing b's memory: no
// allocation once b has held a board of src's size. It returns b.
func (b *Board) CopyFrom(src *Board) *Board {
	hist, log := b.history[:0], b.undoLog
	if cap(hist) < cap(src.history) {
		// a board new to the pool: room for every stone at once, so that
		// Play never grows the history (as for NewBoard's boards)
		hist = make([]move, 0, cap(src.history))
	}
	*b = *src
	b.history = append(hist, src.history...)
	if len(log) < len(src.undoLog) {
		log = make([]Change, len(src.undoLog))
	}
	copy(log, src.undoLog[:src.logLen])
	b.undoLog = log
	return b
}

var scratchBoards = sync.Pool{New: func() any { return new(Board) }}

// Scratch returns a copy of src from a pool of boards, for a short-lived
// search or replay; Release gives it back. It allocates nothing once the
// pool holds a board of that size.
func Scratch(src *Board) *Board {
	return scratchBoards.Get().(*Board).CopyFrom(src)
}

// Release returns a board from Scratch to the pool; b must not be used
// afterwards.
func Release(b *Board) {
	if b != nil {
		scratchBoards.Put(b)
	}
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

// Full reports whether every cell of the playing area holds a stone. A full
// board with no five is a draw in every rule: searches treat it as one.
func (b *Board) Full() bool { return len(b.history) == b.size*b.size }

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
	v := b.st[p]
	b.history = append(b.history, move{p: p, c: c, five: threatOf(v, int(s))&^maybeForbidden == ThreatFive,
		log: int32(b.logLen)})
	b.cells[p] = c
	b.hash ^= zobrist[s&1][p]
	b.st[p] = v & (1<<stThreats - 1)
	b.undoLog[b.logLen] = Change(uint64(p)<<stCell | v |
		b.setThreat(0, p, threatOf(v, 0), ThreatNone) | b.setThreat(1, p, threatOf(v, 1), ThreatNone))
	b.logLen++
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
	x, y := xyOf(m.p)
	code := uint64(m.c)
	b.words[0][y] ^= code << (2 * x)
	b.words[1][x] ^= code << (2 * y)
	b.words[2][diagLine(x, y)] ^= code << (2 * y)
	b.words[3][antiLine(x, y)] ^= code << (2 * y)
	for i := b.logLen - 1; i >= int(m.log); i-- {
		e := uint64(b.undoLog[i])
		q := Point(e>>stCell) & (NumCells - 1)
		old := e & stMask
		if e&(stSetsChanged|stSetsChanged<<1) != 0 { // rare: most threat changes move no set
			cur := b.st[q]
			b.setThreat(0, q, threatOf(cur, 0), threatOf(old, 0))
			b.setThreat(1, q, threatOf(cur, 1), threatOf(old, 1))
		}
		b.st[q] = old
	}
	b.logLen = int(m.log)
}

// lineOf returns the line word holding p along direction d and p's position
// in it: rows by y, columns by x, diagonals (+Stride+1) by x-y+Stride-1 and
// anti-diagonals (+Stride-1) by x+y, each with position y except rows (x).
// Coordinates here are those of the padded array, 0..Stride-1.
func lineOf(p Point, d int) (line, pos int) {
	x, y := xyOf(p)
	switch d {
	case 0:
		return y, x
	case 1:
		return x, y
	case 2:
		return diagLine(x, y), y
	}
	return antiLine(x, y), y
}

// xyOf returns p's column and row in the padded array, 0..Stride-1.
func xyOf(p Point) (x, y int) { return int(p) & (Stride - 1), int(p) >> 5 & (Stride - 1) }

// diagLine and antiLine return the line words of the diagonal and the
// anti-diagonal through (x, y) (see lineOf), in range for the word arrays.
func diagLine(x, y int) int { return (x - y + Stride - 1) & (2*Stride - 1) }
func antiLine(x, y int) int { return (x + y) & (2*Stride - 1) }

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
	var v uint64
	for d := 0; d < NumDirs; d++ {
		code := uint64(b.lines[b.key(p, d)&(keySpace-1)])
		v |= code&0xf<<(4*d) | code>>4<<(stPatterns+4*d)
	}
	old := b.st[p]
	for s := 0; s < 2; s++ {
		t := b.threatT[s][patterns(v, s)]
		v |= uint64(t) << (stThreats + 8*s)
		b.setThreat(s, p, threatOf(old, s), t)
	}
	b.st[p] = v
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
// words and refreshes the patterns of the empty cells up to Pad steps away
// along them. The empty cells are read from the line word itself (a 2-bit
// code of 0), so the walk has no branch per cell. A wall ends a line and
// every cell beyond it within Pad steps is a wall too, so no cell past one
// is visited. A stone five steps away matters only to a side that needs
// exactly five (overline), so those cells are refreshed only when the
// mover's side does (reach). A side's pattern at q depends only on the
// cells before the first opposing stone or wall, so a cell refreshed behind
// an opposing stone just finds that side's pattern unchanged.
func (b *Board) updateLines(p Point, code uint32) {
	reach := b.reach[code&1]
	lines, black, white := b.lines, b.threatT[0], b.threatT[1]
	x, y := xyOf(p)
	ls := [NumDirs]int{y, x, diagLine(x, y), antiLine(x, y)} // lineOf, unrolled
	ps := [NumDirs]int{x, y, y, y}
	for d := 0; d < NumDirs; d++ {
		l, pos := ls[d], ps[d]
		wp := &b.words[d][l&(2*Stride-1)]
		*wp ^= uint64(code) << (2 * pos)
		w := *wp
		step := Dirs[d]
		spread := &spreadCodes[d&3]
		keep := ^uint64(0xf000f << (4 * (d & 3))) // the other directions' patterns
		base := uint(2*pos - 4*Pad)               // the key of offset j starts at bit base+2j
		// bit 2j: the cell at offset j-Pad is empty
		empty := ^(w | w>>1) >> ((2*pos - 2*Pad) & 63) & reach
		for empty != 0 {
			j := uint(bits.TrailingZeros64(empty)) >> 1
			empty &= empty - 1
			lo := (base + 2*j) & 63
			key := uint32(w>>lo)&0x3ff | uint32(w>>((lo+2*Pad+2)&63))&0x3ff<<10
			q := Point(int(p)+(int(j)-Pad)*step) & (NumCells - 1)
			// the cell's new patterns along d, both sides; its threats
			// change only if they do
			old := b.st[q]
			v := old&keep | spread[lines[key&(keySpace-1)]]
			if uint32(v) == uint32(old) {
				continue
			}
			t0, t1 := black[uint16(v)], white[uint16(v>>stPatterns)]
			b.st[q] = uint64(uint32(v)) | uint64(t0)<<stThreats | uint64(t1)<<(stThreats+8)
			e := uint64(q)<<stCell | old
			if o := threatOf(old, 0); t0 != o {
				e |= b.setThreat(0, q, o, t0)
			}
			if o := threatOf(old, 1); t1 != o {
				e |= b.setThreat(1, q, o, t1)
			}
			b.undoLog[b.logLen] = Change(e)
			b.logLen++
		}
	}
}

// spreadCodes gives, per direction d and line table code (black's pattern
// in the low nibble, white's in the high one), the code's two patterns at
// their places in a cell state.
var spreadCodes = func() (t [NumDirs][256]uint64) {
	for d := range t {
		for c := range t[d] {
			t[d][c] = (uint64(c)&0xf | uint64(c)>>4<<stPatterns) << (4 * d)
		}
	}
	return t
}()

// reachMasks select, in a line word shifted to start Pad cells before the
// move, the even bits of the cells updateLines refreshes: offsets ±1..±4,
// and ±5 too for a side that needs exactly five.
var reachMasks = func() (m [2]uint64) {
	for j := 0; j <= 2*Pad; j++ {
		switch j {
		case Pad:
		case 0, 2 * Pad:
			m[1] |= 1 << (2 * j)
		default:
			m[0] |= 1 << (2 * j)
			m[1] |= 1 << (2 * j)
		}
	}
	return m
}()

// setThreat keeps side s's sets current as its threat at q changes from old
// to t (the cell state holds the threat itself). It returns the undo log
// flag stSetsChanged<<s when a set changed, else 0.
func (b *Board) setThreat(s int, q Point, old, t Threat) uint64 {
	diff := setMask[old] ^ setMask[t]
	changed := uint64(min(diff, 1)) << (stSetFlags + s&1)
	for diff != 0 {
		k := bits.TrailingZeros8(diff)
		diff &= diff - 1
		b.sets[s][k][q>>6] ^= 1 << (q & 63)
		b.setSize[s][k] += int(setMask[t]>>k&1)*2 - 1 // joined or left
	}
	return changed
}

// Threat returns the class of a move by c at p: ThreatNone for an occupied
// cell. For black under renju a double-three shows as ThreatDoubleThree (or
// as the four it also makes) whether or not it is forbidden; Forbidden tells.
func (b *Board) Threat(c Color, p Point) Threat {
	return threatOf(b.st[p&(NumCells-1)], int(c-1)) &^ maybeForbidden
}

// ThreatIf returns the threat class that Threat(s, q) would have if c also
// had a stone on the empty cell r, without playing it: q's pattern along
// the line through both is read from the line table with r set, its other
// three as they are (a stone changes only the lines through it). It is
// Threat(s, q) when r is q, off q's lines or more than five cells from q
// (five when c may make more than five: Play does not refresh such a cell
// either), or when q is not empty.
func (b *Board) ThreatIf(s Color, q Point, c Color, r Point) Threat {
	q, r = q&(NumCells-1), r&(NumCells-1)
	cur := threatOf(b.st[q], int(s-1)) &^ maybeForbidden
	if b.cells[q] != Empty || b.cells[r] != Empty || r == q {
		return cur
	}
	qx, qy := xyOf(q)
	rx, ry := xyOf(r)
	dx, dy := rx-qx, ry-qy
	var d, k int
	switch {
	case dy == 0:
		d, k = 0, dx
	case dx == 0:
		d, k = 1, dy
	case dx == dy:
		d, k = 2, dy
	case dx == -dy:
		d, k = 3, dy
	default:
		return cur
	}
	if k < -Pad || k > Pad || (k == Pad || k == -Pad) && !b.rule.exact(c) {
		return cur // Play leaves q as it is (updateLines's reach)
	}
	code := b.lines[(b.key(q, d)|uint32(c)<<(2*keySlot(k)))&(keySpace-1)]
	pat := uint16(code & 0xf)
	if s == White {
		pat = uint16(code >> 4)
	}
	pats := patterns(b.st[q], int(s-1))&^(0xf<<(4*d)) | pat<<(4*d)
	return b.threatT[(s-1)&1][pats] &^ maybeForbidden
}

// LinePattern returns what the line through empty cell p along direction d
// becomes if c plays p.
func (b *Board) LinePattern(c Color, p Point, d Direction) LinePattern {
	return LinePattern(patterns(b.st[p&(NumCells-1)], int(c-1)) >> (4 * (d & 3)) & 0xf)
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
	return patterns(b.st[p], int(c-1))
}

// Count returns the number of cells in side c's set s.
func (b *Board) Count(c Color, s ThreatSet) int { return b.setSize[c-1][s] }

// InSet reports whether cell p is in side c's set s.
func (b *Board) InSet(c Color, s ThreatSet, p Point) bool {
	p &= NumCells - 1
	return b.sets[c-1][s][p>>6]>>(p&63)&1 != 0
}

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
	if c != Black || b.rule != Renju {
		return true
	}
	switch forbiddenByClass(threatOf(b.st[p], 0)) {
	case classLegal:
		return true
	case classForbidden:
		return false
	}
	return b.realThrees(p) < 2
}

// FirstLegal returns c's first legal move in row order from a1 (bottom
// row first), or NoPoint when c has none: a full board, or renju's black
// with only forbidden cells left.
func (b *Board) FirstLegal(c Color) Point {
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if p := PointAt(x, y); b.Legal(c, p) {
				return p
			}
		}
	}
	return NoPoint
}

// FourBlock returns the five-point that c's move at p would make when p
// makes exactly one four for c (Threat ThreatFour or ThreatFourThree): the
// one cell where the opponent must then block. It returns NoPoint for any
// other cell (no four, or two five-points at once). It reads the line
// patterns and walks at most the two runs of c's stones through p along the
// four's direction, so a search can name the position after a four and its
// block without playing either (VCF's enhanced transposition cutoff).
func (b *Board) FourBlock(c Color, p Point) Point {
	p &= NumCells - 1
	if t := b.Threat(c, p); t != ThreatFour && t != ThreatFourThree {
		return NoPoint // an occupied cell too: its threats are ThreatNone
	}
	pats := patterns(b.st[p], int(c-1))
	exact := b.rule.exact(c)
	for d := range NumDirs {
		if LinePattern(pats>>(4*d)&0xf) != Four {
			continue
		}
		step := Dirs[d]
		for _, s := range [2]int{step, -step} {
			// the first empty cell past c's stones from p: a five must hold
			// p, it and the stones between them
			q := int(p) + s
			for b.cells[q&(NumCells-1)] == c {
				q += s
			}
			q &= NumCells - 1
			if b.cells[q] != Empty {
				continue
			}
			n := 1 + (q-int(p))/s // p to q, both included
			for r := q + s; b.cells[r&(NumCells-1)] == c; r += s {
				n++
			}
			for r := int(p) - s; b.cells[r&(NumCells-1)] == c; r -= s {
				n++
			}
			if n == 5 || (n > 5 && !exact) {
				return Point(q)
			}
		}
	}
	return NoPoint
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

// FiveLine returns the cells of the five (or the overline, where it wins)
// through p's stone, from one end to the other, or nil when there is none:
// what a diagram marks as the winning line. It walks the lines, as
// FiveThrough does.
func (b *Board) FiveLine(p Point) []Point {
	if !b.FiveThrough(p) {
		return nil
	}
	c := b.cells[p]
	exact := b.rule.exact(c)
	for _, step := range Dirs {
		lo, hi := int(p), int(p)
		for b.cells[lo-step] == c {
			lo -= step
		}
		for b.cells[hi+step] == c {
			hi += step
		}
		if n := (hi-lo)/step + 1; n == 5 || (n > 5 && !exact) {
			line := make([]Point, 0, n)
			for q := lo; q <= hi; q += step {
				line = append(line, Point(q))
			}
			return line
		}
	}
	return nil
}

// HasFive reports whether c has a five on the board: exactly five stones in a
// row where the rule demands it for c, five or more otherwise. It looks at
// the runs from each of c's stones (O(stones)), and is meant for checking
// input, not for search, which learns of fives from LastMoveWon.
func (b *Board) HasFive(c Color) bool {
	exact := b.rule.exact(c)
	for _, m := range b.history { // every stone, without a scan of the padded board
		if m.c != c {
			continue
		}
		i := int(m.p)
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
