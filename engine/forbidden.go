package engine

// ForbiddenKind says why a point is forbidden to black under renju.
type ForbiddenKind uint8

// The kinds of forbidden point.
const (
	// NotForbidden: black may play here.
	NotForbidden ForbiddenKind = iota
	// DoubleThree: the move makes two or more real threes (RIF: a three
	// counts only if a move that is itself not forbidden turns it into a
	// straight four).
	DoubleThree
	// DoubleFour: the move makes two or more fours, in one line or several.
	DoubleFour
	// OverlineMove: the move makes six or more in a row (and no five).
	OverlineMove
)

// String returns "double-three", "double-four", "overline" or "none".
func (k ForbiddenKind) String() string {
	switch k {
	case DoubleThree:
		return "double-three"
	case DoubleFour:
		return "double-four"
	case OverlineMove:
		return "overline"
	}
	return "none"
}

// Forbidden returns why black may not play p under renju, or NotForbidden:
// always for other rules, for occupied or off-board cells, and for any move
// that makes a five (a five is never forbidden). An overline in any direction
// takes precedence over a double-four, and that over a double-three.
//
// The double-three test follows the RIF definition recursively: for each
// open-three direction it looks for a move that turns the three into a
// straight four containing p and is itself not forbidden with p on the board
// (Forbidden on that move, one stone deeper). Only cells flagged as having
// two or more open threes pay for this; the recursion plays and undoes
// stones on b, so b is unchanged on return.
func (b *Board) Forbidden(p Point) ForbiddenKind {
	if b.rule != Renju || !b.OnBoard(p) || b.cells[p] != Empty {
		return NotForbidden
	}
	switch forbiddenByClass(threatOf(b.st[p], 0)) {
	case classLegal:
		return NotForbidden
	case classForbidden:
		if b.hasLine(p, Overline) {
			return OverlineMove
		}
		return DoubleFour
	}
	if b.realThrees(p) >= 2 {
		return DoubleThree
	}
	return NotForbidden
}

// classVerdict is what black's threat class at a renju cell says of the
// cell's legality.
type classVerdict uint8

const (
	classLegal      classVerdict = iota // a five, or no two threes can meet
	classForbidden                      // a double four or an overline
	classThreeCheck                     // a possible double three: realThrees decides
)

// forbiddenByClass reads black's threat class t of an empty renju cell: a
// five is never forbidden, ThreatForbidden is a double four or overline,
// and only a cell where two threes may meet (maybeForbidden) needs the
// recursive double-three check. Small enough to inline, so that Legal
// decides most cells without a call.
func forbiddenByClass(t Threat) classVerdict {
	switch {
	case t == ThreatFive:
		return classLegal
	case t == ThreatForbidden:
		return classForbidden
	case t&maybeForbidden == 0:
		return classLegal
	}
	return classThreeCheck
}

// ForbiddenCandidate reports whether black's move at empty p makes two or
// more open threes under renju, so that whether it is forbidden takes the
// recursive double-three check, and may change when stones are added
// elsewhere (a white stone can turn a fake three real by making its
// straight-four point playable). It is false for other rules and cells.
func (b *Board) ForbiddenCandidate(p Point) bool {
	return b.rule == Renju && b.OnBoard(p) && b.cells[p] == Empty && threatOf(b.st[p], 0)&maybeForbidden != 0
}

// hasLine reports whether black's line pattern at p is l in some direction.
func (b *Board) hasLine(p Point, l LinePattern) bool {
	lp := patterns(b.st[p], 0)
	for d := 0; d < NumDirs; d++ {
		if LinePattern(lp>>(4*d)&0xf) == l {
			return true
		}
	}
	return false
}

// realThrees counts the directions in which black at p makes a real three:
// an open three with at least one straight-four point that is not forbidden
// once p is played.
func (b *Board) realThrees(p Point) int {
	black := (*[keySpace]uint8)(ruleTable(Renju)) // black's patterns are the low nibbles
	var cand [NumDirs][8]Point                    // straight-four points per open-three direction
	var nc [NumDirs]int
	for d := 0; d < NumDirs; d++ {
		if LinePattern(patterns(b.st[p], 0)>>(4*d)&0xf) != FlexThree {
			continue
		}
		key := b.key(p, d)
		for k := -4; k <= 4; k++ {
			q := Point(int(p) + k*Dirs[d])
			if k == 0 || b.cells[q] != Empty {
				continue
			}
			if LinePattern(black[key|uint32(Black)<<(2*keySlot(k))]&0xf) == StraightFour {
				cand[d][nc[d]] = q
				nc[d]++
			}
		}
	}
	b.Play(p, Black)
	real := 0
	for d := 0; d < NumDirs; d++ {
		for i := 0; i < nc[d]; i++ {
			if b.Forbidden(cand[d][i]) == NotForbidden {
				real++
				break
			}
		}
	}
	b.Undo()
	return real
}

// ForbiddenPoint is one point black may not play, with the reason.
type ForbiddenPoint struct {
	Point Point
	Kind  ForbiddenKind
}

// ForbiddenPoints lists black's forbidden points under renju, in increasing
// Point order; it is empty under the other rules. Only the cells of black's
// MaybeForbidden set can be forbidden, so only those are examined.
func (b *Board) ForbiddenPoints() []ForbiddenPoint {
	var out []ForbiddenPoint
	if b.rule != Renju {
		return out
	}
	var buf [64]Point
	for _, p := range b.Points(Black, MaybeForbidden, buf[:0]) {
		if k := b.Forbidden(p); k != NotForbidden {
			out = append(out, ForbiddenPoint{p, k})
		}
	}
	return out
}
