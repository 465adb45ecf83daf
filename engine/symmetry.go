package engine

import "sync"

// The eight symmetries of a square board (the dihedral group D4), numbered
// 0..7: identity, mirror left-right, mirror top-bottom, rotate 180°, and the
// same four composed with the transpose (x, y) -> (y, x). Symmetry k maps
// (x, y) on an n×n board to
//
//	0 (x, y)        1 (n-1-x, y)      2 (x, n-1-y)      3 (n-1-x, n-1-y)
//	4 (y, x)        5 (n-1-y, x)      6 (y, n-1-x)      7 (n-1-y, n-1-x)
//
// Positions that are images of each other under a symmetry have the same
// game value, so stores of solved positions and opening books key them by
// the least of the eight Zobrist keys (CanonicalHash).

// NumSymmetries is the number of board symmetries.
const NumSymmetries = 8

var (
	symTables    [MaxSize + 1]*[NumSymmetries][NumCells]Point
	symTableOnce [MaxSize + 1]sync.Once
)

// symmetryTable returns, for boards of side n, the image of every on-board
// cell under each symmetry (off-board cells map to NoPoint).
func symmetryTable(n int) *[NumSymmetries][NumCells]Point {
	symTableOnce[n].Do(func() {
		t := new([NumSymmetries][NumCells]Point)
		for i := range NumCells {
			p := Point(i)
			if !p.In(n) {
				continue
			}
			for k := 0; k < NumSymmetries; k++ {
				t[k][p] = transform(p, k, n)
			}
		}
		symTables[n] = t
	})
	return symTables[n]
}

// transform applies symmetry k to p on an n×n board.
func transform(p Point, k, n int) Point {
	x, y := p.X(), p.Y()
	if k >= 4 {
		x, y = y, x
	}
	if k&1 != 0 {
		x = n - 1 - x
	}
	if k&2 != 0 {
		y = n - 1 - y
	}
	return PointAt(x, y)
}

// Transform returns the image of p under symmetry k (0..7) on a size×size
// board. p must be on that board.
func Transform(p Point, k, size int) Point { return transform(p, k, size) }

// InverseSymmetry returns the symmetry that undoes k: every symmetry is its
// own inverse except the two quarter turns, 5 and 6, which undo each other.
func InverseSymmetry(k int) int {
	switch k {
	case 5:
		return 6
	case 6:
		return 5
	}
	return k
}

// CanonicalHash returns the least of the Zobrist keys of the position's eight
// symmetric images and the symmetry k that gives it: the position's image
// under k is the canonical one. Symmetric positions share the result's hash.
// The keys are computed from the stones on demand (8 per stone), not kept up
// to date by Play: the searches never ask for them, and keeping them cost
// every Play and Undo 16 table reads.
func (b *Board) CanonicalHash() (uint64, int) {
	keys := b.symKeys()
	best, k := keys[0], 0
	for i := 1; i < NumSymmetries; i++ {
		if keys[i] < best {
			best, k = keys[i], i
		}
	}
	return best, k
}

// symKeys returns the Zobrist keys of the position's eight symmetric images,
// image k at index k, computed from the stones.
func (b *Board) symKeys() (keys [NumSymmetries]uint64) {
	for _, m := range b.history {
		for k := range keys {
			keys[k] ^= zobrist[(m.c-1)&1][b.sym[k][m.p]]
		}
	}
	return keys
}
