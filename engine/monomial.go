package engine

// Monomials. A monomial is a five-cell window of the board: five consecutive
// cells along one direction, all on the board (García 2020, after Allis's
// "lines of five"). Every five is made inside one, each cell lies in at most
// 5 windows per direction, so at most 20 in all, and a stone changes only the
// windows that cover it. A window holding stones of both sides can never
// become a five and scores 0; a window holding k stones of one side only (and
// none of the other) scores WindowScore[k] for that side. The potential of a
// cell for a side is v(p) = Σ s(m) over the windows m that cover p: a cheap,
// incrementally kept measure of how many live lines pass through p and how
// full they are, used to order and bias moves.

// WindowScore is the score s(m), per side, of a window holding k stones of
// that side and none of the other, for k = 0..5 (entries 6 and 7 are
// padding that lets the kernel index without bounds checks). The ratio 8 between levels
// makes one window with one more stone outweigh most sums of weaker windows.
var WindowScore = [8]int32{1, 8, 64, 512, 4096, 32768}

// Windows and potentials are stored line-major, [direction][line][position]
// with the line and position of lineOf, so the five windows covering a cell
// along one direction, and the nine cells they cover, are adjacent in memory.
// A window is named by the position of its first cell (lowest position).
//
// The potential of a cell is kept per direction, pot[d][l][pos][side], the
// sum over the windows along d only; v(p) adds the four directions.

// initWindows marks the windows that lie wholly on the board and sets every
// cell's potential to the sum over its empty windows.
func (b *Board) initWindows() {
	for i := range b.cells {
		p := Point(i)
		if !p.In(b.size) {
			continue
		}
		for d := 0; d < NumDirs; d++ {
			end := Point(int(p) + 4*Dirs[d])
			if !end.In(b.size) {
				continue
			}
			l, pos := lineOf(p, d)
			b.windowOK[d][l] |= 1 << pos
			for k := 0; k < 5; k++ {
				b.pot[d][l][pos+k][0] += WindowScore[0]
				b.pot[d][l][pos+k][1] += WindowScore[0]
			}
		}
	}
}

// updateWindows adds (play) or removes (undo) a stone of colour c at p in the
// counts of the windows covering p, and moves the potentials of their cells
// by the change in each window's score.
//
// Along each direction the five windows covering p start at positions
// pos-4..pos and together cover the nine cells pos-4..pos+4; the change at
// pos+j is the sum of the changes of the windows starting in [j-4, j], kept
// as a running sum, so each cell is written once per direction.
func (b *Board) updateWindows(p Point, c Color, play bool) {
	o1, o2 := int(c-1)&1, int(2-c)&1
	for d := 0; d < NumDirs; d++ {
		l, pos := lineOf(p, d)
		l &= 2*Stride - 1
		ok := b.windowOK[d][l] >> (pos - 4) & 0x1f // bit k-? : window starting at pos-4+i
		if ok == 0 {
			continue
		}
		win := (*[5][2]uint8)(b.windows[d][l][pos-4 : pos+1])
		var dOwn, dOpp [5]int32 // per window, by start position pos-4+i
		any := false
		for i := 0; i < 5; i++ {
			if ok>>i&1 == 0 {
				continue
			}
			cnt := &win[i]
			n, o := int32(cnt[o1]), int32(cnt[o2])
			if play {
				cnt[o1]++
				if o == 0 {
					dOwn[i] = WindowScore[(n+1)&7] - WindowScore[n&7]
				}
				if n == 0 {
					dOpp[i] = -WindowScore[o&7]
				}
			} else {
				cnt[o1]--
				if o == 0 {
					dOwn[i] = WindowScore[(n-1)&7] - WindowScore[n&7]
				}
				if n == 1 {
					dOpp[i] = WindowScore[o&7]
				}
			}
			any = any || dOwn[i] != 0 || dOpp[i] != 0
		}
		if !any {
			continue
		}
		pot := (*[9][2]int32)(b.pot[d][l][pos-4 : pos+5])
		var sOwn, sOpp int32
		for j := 0; j < 9; j++ {
			if j < 5 {
				sOwn += dOwn[j]
				sOpp += dOpp[j]
			}
			if j >= 5 {
				sOwn -= dOwn[j-5]
				sOpp -= dOpp[j-5]
			}
			pot[j][o1] += sOwn
			pot[j][o2] += sOpp
		}
	}
}

// Potential returns v(p) for side c: the sum of the scores of the windows
// covering p that hold no stone of the other side (see WindowScore).
func (b *Board) Potential(c Color, p Point) int32 {
	var v int32
	for d := 0; d < NumDirs; d++ {
		l, pos := lineOf(p, d)
		v += b.pot[d][l&(2*Stride-1)][pos][(c-1)&1]
	}
	return v
}

// WindowCounts returns the stones of each side (black, white) in the window
// starting at p and running four steps along d, and whether that window lies
// on the board.
func (b *Board) WindowCounts(p Point, d Direction) (black, white int, ok bool) {
	if int(p) >= NumCells || d >= NumDirs {
		return 0, 0, false
	}
	l, pos := lineOf(p, int(d))
	if b.windowOK[d][l]>>pos&1 == 0 {
		return 0, 0, false
	}
	w := b.windows[d][l][pos]
	return int(w[0]), int(w[1]), true
}
