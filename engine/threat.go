package engine

import "sync"

// Threat is the class of a move for one side, combining the line patterns of
// the cell's four directions (Rapfi's "pattern4"). Values are ordered by
// strength, so "at least a four" is t >= ThreatFour. For black under renju a
// cell may also carry the flag bit maybeForbidden (never visible through the
// Board API): it makes two or more open threes, and whether they are real
// threes, and so the move forbidden, takes the recursive check of
// Board.Forbidden.
type Threat uint8

// The threat classes, weakest first.
const (
	// ThreatNone: nothing better than blocked twos.
	ThreatNone Threat = iota
	// ThreatForbidden: black under renju, an overline or a double-four
	// (certainly forbidden; a double-three shows as ThreatDoubleThree).
	ThreatForbidden
	// ThreatTwo: at least one open two.
	ThreatTwo
	// ThreatBlockedThree: a three that can only become a (blocked) four.
	ThreatBlockedThree
	// ThreatThree: one open three.
	ThreatThree
	// ThreatDoubleThree: two or more open threes. For black under renju this
	// is forbidden when at least two of them are real threes.
	ThreatDoubleThree
	// ThreatFour: one four.
	ThreatFour
	// ThreatFourThree: a four and an open three.
	ThreatFourThree
	// ThreatStraightFour: two or more five-points at once, from a straight
	// four or a double four (the latter never for black under renju); the
	// opponent cannot stop both.
	ThreatStraightFour
	// ThreatFive: the move makes a five.
	ThreatFive
	// NumThreats is the number of threat classes.
	NumThreats
)

// maybeForbidden flags a black renju cell with two or more open threes.
const maybeForbidden Threat = 0x80

var threatNames = [...]string{"none", "forbidden", "two", "blocked-three", "three", "double-three", "four",
	"four-three", "straight-four", "five"}

// String returns the class name ("four-three", ...).
func (t Threat) String() string {
	if int(t) < len(threatNames) {
		return threatNames[t]
	}
	return "threat?"
}

// threatTables maps, per rule and side (index 0 black, 1 white), the four
// packed line patterns of a cell (direction d in bits 4d..4d+3) to its Threat.
var (
	threatTables    [NumRules][2][]Threat
	threatTableOnce [NumRules]sync.Once
)

func threatTable(r Rule, c Color) []Threat {
	threatTableOnce[r].Do(func() {
		for side := 0; side < 2; side++ {
			t := make([]Threat, 1<<16)
			forbid := r == Renju && side == 0
			for k := range t {
				var p [NumDirs]LinePattern
				for d := 0; d < NumDirs; d++ {
					p[d] = LinePattern(k >> (4 * d) & 0xf)
				}
				t[k] = combine(p, forbid)
			}
			threatTables[r][side] = t
		}
	})
	return threatTables[r][c-1]
}

// combine classifies a cell from its four line patterns. forbid selects the
// renju rules for black: overline and double-four forbidden, two open threes
// flagged for the recursive double-three check.
func combine(p [NumDirs]LinePattern, forbid bool) Threat {
	var fives, overlines, fours, straight, threes, bthrees, twos int
	for _, l := range p {
		switch l {
		case Five:
			fives++
		case Overline:
			overlines++
		case DoubleFourLine:
			fours += 2
		case StraightFour:
			fours++
			straight++
		case Four:
			fours++
		case FlexThree:
			threes++
		case BlockedThree:
			bthrees++
		case FlexTwo:
			twos++
		}
	}
	if fives > 0 {
		return ThreatFive
	}
	var flag Threat
	if forbid {
		if overlines > 0 || fours >= 2 {
			return ThreatForbidden
		}
		if threes >= 2 {
			flag = maybeForbidden
		}
	}
	var t Threat
	switch {
	case straight > 0 || fours >= 2:
		t = ThreatStraightFour
	case fours == 1 && threes > 0:
		t = ThreatFourThree
	case fours == 1:
		t = ThreatFour
	case threes >= 2:
		t = ThreatDoubleThree
	case threes == 1:
		t = ThreatThree
	case bthrees > 0:
		t = ThreatBlockedThree
	case twos > 0:
		t = ThreatTwo
	}
	return t | flag
}
