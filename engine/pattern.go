package engine

import "sync"

// LinePattern classifies one line through an empty cell for one side: what
// the line becomes if that side plays the cell. Values are ordered by
// strength, and fit in 4 bits so that the four directions of a cell pack into
// one uint16 (see Board.linePatterns).
type LinePattern uint8

// The line patterns, weakest first. "Five-point" means an empty cell that
// would complete a five for the side (exactly five where the rule demands it).
const (
	// Dead: no five can ever be made through the cell along this line.
	Dead LinePattern = iota
	// Overline: for a side that needs exactly five, playing here makes six
	// or more in a row and no five.
	Overline
	// BlockedOne, FlexOne: one more move makes a BlockedTwo or FlexTwo.
	BlockedOne
	FlexOne
	// BlockedTwo: one more move makes a BlockedThree.
	BlockedTwo
	// FlexTwo (open two): one more move makes an open three.
	FlexTwo
	// BlockedThree: one more move makes a four, but no move makes a
	// straight four.
	BlockedThree
	// FlexThree is an open three (split threes included): one more move
	// makes a straight four. Whether it is a "real" three under the RIF rules
	// depends on that move not being forbidden, which the board checks.
	FlexThree
	// Four: exactly one five-point along the line.
	Four
	// StraightFour (open four): two five-points at both ends of four
	// consecutive stones.
	StraightFour
	// DoubleFourLine: two fours along one line, such as x.xxx.x completed in
	// the middle; two five-points that are not a straight four. For black
	// under renju it is a double-four (forbidden).
	DoubleFourLine
	// Five: playing here makes a five (exactly five where required).
	Five
)

var linePatternNames = [...]string{"dead", "overline", "blocked-one", "flex-one", "blocked-two", "open-two",
	"blocked-three", "open-three", "four", "straight-four", "double-four-in-line", "five"}

// String returns the pattern's name in the field's terms ("open-three", ...).
func (l LinePattern) String() string {
	if int(l) < len(linePatternNames) {
		return linePatternNames[l]
	}
	return "pattern?"
}

// Line keys. A key describes the ten cells around a centre cell along one
// direction, 2 bits per cell with the Color codes (0 empty, 1 black, 2 white,
// 3 wall): bits 2i..2i+1 hold the cell at offset i-5 for slots i = 0..4
// (offsets -5..-1) and at offset i-4 for slots i = 5..9 (offsets +1..+5).
// The centre itself is not in the key. Twenty bits in all.
const (
	keyBits  = 2 * 2 * Pad // 20
	keySpace = 1 << keyBits
)

// keySlot returns the slot of offset k (k in [-5,-1] or [1,5]).
func keySlot(k int) uint {
	if k < 0 {
		return uint(k + Pad)
	}
	return uint(k + Pad - 1)
}

// variant is how one side wins and what it may not play, which is all a line
// table depends on: whether it needs exactly five, and whether a double-four
// or overline is forbidden to it (renju black).
type variant uint8

const (
	variantFree   variant = iota // five or more wins (freestyle; white in renju)
	variantExact                 // exactly five wins, nothing forbidden (standard)
	variantRenjuB                // exactly five, overline and double-four forbidden (black in renju)
	numVariants
)

// lineTables holds the line pattern of every key for one variant, from the
// point of view of the side whose stones are coded 1. Tables are computed
// lazily, once per variant, since a process rarely needs all three
// (about 1 MiB and 50 ms each).
var (
	lineTables    [numVariants][]LinePattern
	lineTableOnce [numVariants]sync.Once
)

func lineTable(v variant) []LinePattern {
	lineTableOnce[v].Do(func() { lineTables[v] = buildLineTable(v) })
	return lineTables[v]
}

// buildLineTable classifies every key. A key is decoded into three 11-bit
// masks over offsets -5..+5 (bit i is offset i-5, the centre is bit 5): own
// stones, empty cells and walls-or-opponent. The classification of a key
// depends only on keys with more own stones, so a memoised recursion visits
// each key once.
func buildLineTable(v variant) []LinePattern {
	t := make([]LinePattern, keySpace)
	done := make([]bool, keySpace)
	var classify func(key uint32) LinePattern
	classify = func(key uint32) LinePattern {
		if done[key] {
			return t[key]
		}
		own, empty := uint32(1<<5), uint32(0)
		for i := 0; i < 11; i++ {
			if i == 5 {
				continue
			}
			slot := uint(i)
			if i > 5 {
				slot = uint(i - 1)
			}
			switch Color(key >> (2 * slot) & 3) {
			case Black:
				own |= 1 << i
			case Empty:
				empty |= 1 << i
			}
		}
		r := classifyMasks(key, own, empty, v, classify)
		t[key], done[key] = r, true
		return r
	}
	for k := uint32(0); k < keySpace; k++ {
		classify(k)
	}
	return t
}

// hasFive reports whether the own-stone mask holds a five through the centre
// (bit 5): a window of five own cells starting at bit s in [1,5], and, for an
// exact variant, no own cell just before or after it.
func hasFive(own uint32, exact bool) bool {
	for s := uint(1); s <= 5; s++ {
		if own>>s&0x1f != 0x1f {
			continue
		}
		if !exact || (own>>(s-1)&1 == 0 && own>>(s+5)&1 == 0) {
			return true
		}
	}
	return false
}

// runThroughCentre returns the length of the run of own cells through bit 5.
func runThroughCentre(own uint32) int {
	n := 1
	for i := 6; i < 11 && own>>i&1 == 1; i++ {
		n++
	}
	for i := 4; i >= 0 && own>>i&1 == 1; i-- {
		n++
	}
	return n
}

func classifyMasks(key, own, empty uint32, v variant, sub func(uint32) LinePattern) LinePattern {
	exact := v != variantFree
	if hasFive(own, exact) {
		return Five
	}
	if exact && runThroughCentre(own) >= 6 {
		return Overline
	}
	// Five-points: empty cells within four of the centre that complete a five.
	var fp [8]int
	n := 0
	for i := 1; i <= 9; i++ {
		if i != 5 && empty>>i&1 == 1 && hasFive(own|1<<i, exact) {
			fp[n] = i
			n++
		}
	}
	switch {
	case n == 1:
		return Four
	case n == 2 && fp[1]-fp[0] == 5:
		return StraightFour
	case n >= 2:
		return DoubleFourLine
	}
	// Lower patterns: the best pattern one more own stone can reach.
	best := Dead
	for i := 1; i <= 9; i++ {
		if i == 5 || empty>>i&1 == 0 {
			continue
		}
		slot := uint(i)
		if i > 5 {
			slot = uint(i - 1)
		}
		next := sub(key | uint32(Black)<<(2*slot))
		var r LinePattern
		switch next {
		case StraightFour:
			r = FlexThree
		case DoubleFourLine:
			if v == variantRenjuB {
				r = Dead // the move that would make it is forbidden
			} else {
				r = FlexThree // two five-points: as good as a straight four
			}
		case Four:
			r = BlockedThree
		case FlexThree:
			r = FlexTwo
		case BlockedThree:
			r = BlockedTwo
		case FlexTwo:
			r = FlexOne
		case BlockedTwo:
			r = BlockedOne
		}
		if r > best {
			best = r
		}
	}
	return best
}

// swapColors exchanges the black and white codes of a key, leaving empty and
// wall cells alone, so that one table serves both sides.
func swapColors(key uint32) uint32 {
	d := (key ^ key>>1) & 0x55555 // low bit set where the two bits differ
	return key ^ (d | d<<1)
}

// ruleTable maps a key to both sides' line patterns under one rule: black's
// pattern in the low nibble, white's in the high nibble.
var (
	ruleTables    [NumRules][]uint8
	ruleTableOnce [NumRules]sync.Once
)

func variantOf(r Rule, c Color) variant {
	switch {
	case r == Freestyle:
		return variantFree
	case r == Standard:
		return variantExact
	case c == Black:
		return variantRenjuB
	}
	return variantFree
}

// ruleTable returns the line patterns of every key under r, black's in the
// low nibble and white's in the high one: the table embedded in the binary
// (tables/*.bin, written by buildRuleTable through TestRuleTables with
// -update), so that a process neither computes it (about 100 ms) nor holds
// it on its heap (the garbage collector then ran during the first searches
// of a fresh process).
func ruleTable(r Rule) []uint8 {
	ruleTableOnce[r].Do(func() {
		if t := embeddedRuleTable(r); len(t) == keySpace {
			ruleTables[r] = t
			return
		}
		ruleTables[r] = buildRuleTable(r)
	})
	return ruleTables[r]
}

// buildRuleTable computes ruleTable(r) from the line tables of its variants.
func buildRuleTable(r Rule) []uint8 {
	tb, tw := lineTable(variantOf(r, Black)), lineTable(variantOf(r, White))
	t := make([]uint8, keySpace)
	for k := uint32(0); k < keySpace; k++ {
		t[k] = uint8(tb[k]) | uint8(tw[swapColors(k)])<<4
	}
	return t
}
