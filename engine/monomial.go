package engine

import "encoding/binary"

// Monomials. A monomial is a five-cell window of the board: five consecutive
// cells along one direction, all on the board (García 2020, after Allis's
// "lines of five"). Every five is made inside one, each cell lies in at most
// 5 windows per direction, so at most 20 in all, and a stone changes only the
// windows that cover it. A window holding stones of both sides can never
// become a five and scores 0; a window holding k stones of one side only (and
// none of the other) scores WindowScore[k] for that side. The potential of a
// cell for a side is v(p) = Σ s(m) over the windows m that cover p: a cheap
// measure of how many live lines pass through p and how full they are, used
// to order and bias moves.

// WindowScore is the score s(m), per side, of a window holding k stones of
// that side and none of the other, for k = 0..5 (entries 6 and 7 are
// padding that lets the kernel index without bounds checks). The ratio 8 between levels
// makes one window with one more stone outweigh most sums of weaker windows.
var WindowScore = [8]int32{1, 8, 64, 512, 4096, 32768}

// Windows are stored line-major, [direction][line][position] with the line
// and position of lineOf, so the five windows covering a cell along one
// direction are adjacent in memory. A window is named by the position of its
// first cell (lowest position). Its state is one byte, black stones in the
// low nibble and white stones in the high nibble; Play and Undo update the
// states of the windows covering the move and nothing else. Potentials are
// computed from the states when asked for (20 table reads), which keeps
// their cost out of searches that never ask.

// packedScore gives, per window state byte, both sides' scores packed into
// one int64 as black + white·2^32. Packing is linear, so a sum of packed
// values is the packed pair of sums (see unpack).
var packedScore = func() (t [256]int64) {
	for nb := 0; nb <= 5; nb++ {
		for nw := 0; nw <= 5; nw++ {
			var sb, sw int64
			if nw == 0 {
				sb = int64(WindowScore[nb])
			}
			if nb == 0 {
				sw = int64(WindowScore[nw])
			}
			t[nb|nw<<4] = sb + sw<<32
		}
	}
	return t
}()

// unpack splits a packed pair into black's and white's halves.
func unpack(v int64) (black, white int32) {
	black = int32(v)
	return black, int32((v - int64(black)) >> 32)
}

// offBoardWindow is the state a window that does not lie wholly on the
// board starts with: eight stones of each side, so that its score is 0
// (packedScore knows counts up to 5 only) however many of its at most four
// on-board cells fill (at most 12 per nibble). Play and Undo can then update,
// and potentials read, the five windows around a cell without asking which
// lie on the board.
const offBoardWindow = 8 | 8<<4

// initWindows gives every window that does not lie wholly on the board the
// state offBoardWindow; the others start empty (0).
func (b *Board) initWindows() {
	for d := range b.windows {
		for l := range b.windows[d] {
			for pos := range b.windows[d][l] {
				b.windows[d][l][pos] = offBoardWindow
			}
		}
	}
	for i := range b.cells {
		p := Point(i)
		if !p.In(b.size) {
			continue
		}
		for d := 0; d < NumDirs; d++ {
			if end := Point(int(p) + 4*Dirs[d]); end.In(b.size) {
				l, pos := lineOf(p, d)
				b.windows[d][l][pos] = 0
			}
		}
	}
}

// updateWindows adds (play) or removes (undo) a stone of colour c at p in the
// states of the 20 windows around p, on the board or not (offBoardWindow):
// along each direction, the windows starting at positions pos-4..pos. The
// five states of a direction are adjacent bytes, updated as one 64-bit
// word: a count never leaves its nibble (at most 12, see offBoardWindow),
// so the bytes never carry into each other and the three bytes past the
// five are added zero.
func (b *Board) updateWindows(p Point, c Color, play bool) {
	inc := uint64(0x0101010101) << (4 * uint(c>>1&1)) // white counts in the high nibbles
	if !play {
		inc = -inc
	}
	x, y := xyOf(p)
	addWindows(&b.windows[0][y], x, inc)
	addWindows(&b.windows[1][x], y, inc)
	addWindows(&b.windows[2][diagLine(x, y)], y, inc)
	addWindows(&b.windows[3][antiLine(x, y)], y, inc)
}

// addWindows adds inc to the states of the windows starting at pos-4..pos
// of one line (and zero to the next three), pos in [4, Stride-4].
func addWindows(line *[Stride]uint8, pos int, inc uint64) {
	w := line[(pos-4)&(Stride-1):]
	binary.LittleEndian.PutUint64(w, binary.LittleEndian.Uint64(w)+inc)
}

// potentials returns v(p) for both sides, packed (see packedScore).
func (b *Board) potentials(p Point) int64 {
	x, y := xyOf(p)
	return lineScore(&b.windows[0][y], x) + lineScore(&b.windows[1][x], y) +
		lineScore(&b.windows[2][diagLine(x, y)], y) + lineScore(&b.windows[3][antiLine(x, y)], y)
}

// lineScore returns the packed scores of the windows starting at pos-4..pos
// of one line, pos in [4, Stride-4], read as one word (see addWindows).
func lineScore(line *[Stride]uint8, pos int) int64 {
	w := binary.LittleEndian.Uint64(line[(pos-4)&(Stride-1):])
	return packedScore[uint8(w)] + packedScore[uint8(w>>8)] + packedScore[uint8(w>>16)] +
		packedScore[uint8(w>>24)] + packedScore[uint8(w>>32)]
}

// Potential returns v(p) for side c: the sum of the scores of the windows
// covering p that hold no stone of the other side (see WindowScore), 0 to
// 20·WindowScore[5].
func (b *Board) Potential(c Color, p Point) int32 {
	black, white := unpack(b.potentials(p))
	if c == White {
		return white
	}
	return black
}

// Potentials returns v(p) for black and for white at once (see Potential),
// for the cost of one.
func (b *Board) Potentials(p Point) (black, white int32) {
	return unpack(b.potentials(p & (NumCells - 1)))
}

// WindowCounts returns the stones of each side (black, white) in the window
// starting at p and running four steps along d, and whether that window lies
// on the board.
func (b *Board) WindowCounts(p Point, d Direction) (black, white int, ok bool) {
	if int(p) >= NumCells || d >= NumDirs {
		return 0, 0, false
	}
	l, pos := lineOf(p, int(d))
	w := b.windows[d][l][pos]
	if w&0xf > 5 { // offBoardWindow's count, never reached on the board
		return 0, 0, false
	}
	return int(w & 0xf), int(w >> 4), true
}
