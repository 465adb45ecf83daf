package nnue

import "gomoku/engine"

// A shape code is 16 bits: two per cell for the eight cells around a centre
// along one direction, slot i (bits 2i, 2i+1) holding the cell at offset
// i-4 for i = 0..3 and at offset i-3 for i = 4..7, with the engine.Color
// codes (0 empty, 1 black, 2 white, 3 off the board).
const (
	shapeCells = 8
	numCodes   = 1 << (2 * shapeCells)
	// Reach is how far along a line a stone changes the shapes of other
	// cells: 4 steps.
	Reach = shapeCells / 2
)

// slotOf returns the slot of offset k (k in [-4,-1] or [1,4]).
func slotOf(k int) uint {
	if k < 0 {
		return uint(k + Reach)
	}
	return uint(k + Reach - 1)
}

// NumShapes is the number of shape indices: the shapes that can occur on a
// board (cells off the board only beyond the last cell on it, on each
// side), a shape and its mirror image counted once.
var NumShapes int

// shapeIndex maps a code to its index in [0, NumShapes); codes that cannot
// occur map to 0.
var shapeIndex [numCodes]uint16

func init() {
	valid := func(code int) bool {
		for _, side := range [2][4]int{{3, 2, 1, 0}, {4, 5, 6, 7}} { // nearest slot first
			wall := false
			for _, s := range side {
				w := code>>(2*s)&3 == 3
				if wall && !w {
					return false
				}
				wall = w
			}
		}
		return true
	}
	canon := make([]int32, numCodes)
	for i := range canon {
		canon[i] = -1
	}
	n := 0
	for code := 0; code < numCodes; code++ {
		if !valid(code) {
			continue
		}
		m := mirror(code)
		if m < code {
			canon[code] = canon[m]
		} else {
			canon[code] = int32(n)
			n++
		}
	}
	NumShapes = n
	for code := 0; code < numCodes; code++ {
		if canon[code] < 0 {
			continue
		}
		shapeIndex[code] = uint16(canon[code])
	}
}

// mirror returns the code of the shape read the other way along its line.
func mirror(code int) int {
	m := 0
	for i := 0; i < shapeCells; i++ {
		m |= (code >> (2 * i) & 3) << (2 * (shapeCells - 1 - i))
	}
	return m
}

// shapeAt returns the shape code of p along direction d, read from the
// board (the cells at offsets ±1..±4 lie in the padded array for every
// on-board p).
func shapeAt(b *engine.Board, p engine.Point, d int) uint16 {
	var code uint16
	step := engine.Dirs[d]
	for k := -Reach; k <= Reach; k++ {
		if k == 0 {
			continue
		}
		c := b.At(engine.Point(int(p) + k*step))
		code |= uint16(c&3) << (2 * slotOf(k))
	}
	return code
}

// threatIndex returns the threat row of a cell whose black and white threat
// classes are tb and tw.
func threatIndex(tb, tw engine.Threat) int {
	return int(tb)*int(engine.NumThreats) + int(tw)
}

// numThreatRows is the number of threat rows: pairs of threat classes.
const numThreatRows = int(engine.NumThreats) * int(engine.NumThreats)

// CellFeatures are one empty cell's feature rows: its four shape indices
// and its threat row.
type CellFeatures struct {
	Cell   engine.Point
	Shapes [engine.NumDirs]uint16
	Threat uint16
}

// Features appends to buf the features of every empty cell of b, in board
// order, and returns it. It reads the board from scratch: the trainer and
// the tests use it; searches use Acc.
func Features(b *engine.Board, buf []CellFeatures) []CellFeatures {
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := engine.PointAt(x, y)
			if b.At(p) != engine.Empty {
				continue
			}
			f := CellFeatures{Cell: p}
			for d := 0; d < engine.NumDirs; d++ {
				f.Shapes[d] = shapeIndex[shapeAt(b, p, d)]
			}
			f.Threat = uint16(threatIndex(b.Threat(engine.Black, p), b.Threat(engine.White, p)))
			buf = append(buf, f)
		}
	}
	return buf
}

// persp returns the index of side c's head: 0 black, 1 white.
func persp(c engine.Color) int { return int(c-1) & 1 }
