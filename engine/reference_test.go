package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refBoard is a deliberately naive rules implementation over a plain 2-D
// array, written independently of the pattern tables, to cross-check them.
type refBoard struct {
	n    int
	rule Rule
	c    [MaxSize][MaxSize]Color
}

var refDirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}

func (r *refBoard) at(x, y int) Color {
	if x < 0 || y < 0 || x >= r.n || y >= r.n {
		return Wall
	}
	return r.c[x][y]
}

// run returns the length of c's run through (x, y) along d, counting (x, y).
func (r *refBoard) run(x, y int, d [2]int, c Color) int {
	n := 1
	for i := 1; r.at(x+i*d[0], y+i*d[1]) == c; i++ {
		n++
	}
	for i := 1; r.at(x-i*d[0], y-i*d[1]) == c; i++ {
		n++
	}
	return n
}

func (r *refBoard) winsWith(n int, c Color) bool {
	if r.rule.exact(c) {
		return n == 5
	}
	return n >= 5
}

// five reports whether c at empty (x, y) makes a five.
func (r *refBoard) five(x, y int, c Color) bool {
	r.c[x][y] = c
	defer func() { r.c[x][y] = Empty }()
	for _, d := range refDirs {
		if r.winsWith(r.run(x, y, d, c), c) {
			return true
		}
	}
	return false
}

// fivePointsThrough returns the empty cells on line d through the stone at
// (x, y) where c would complete a five containing (x, y).
func (r *refBoard) fivePointsThrough(x, y int, d [2]int, c Color) [][2]int {
	var out [][2]int
	for k := -4; k <= 4; k++ {
		ex, ey := x+k*d[0], y+k*d[1]
		if k == 0 || r.at(ex, ey) != Empty {
			continue
		}
		r.c[ex][ey] = c
		n := r.run(ex, ey, d, c)
		// the run through e contains (x, y) iff every cell between is c
		between := true
		lo, hi := min(0, k), max(0, k)
		for i := lo; i <= hi; i++ {
			if r.at(x+i*d[0], y+i*d[1]) != c {
				between = false
			}
		}
		r.c[ex][ey] = Empty
		if between && r.winsWith(n, c) {
			out = append(out, [2]int{ex, ey})
		}
	}
	return out
}

// foursAt counts the fours c makes by playing empty (x, y): per line, two
// five-points five apart are one straight four, otherwise each five-point
// is a four.
func (r *refBoard) foursAt(x, y int, c Color) (fours int, straight bool) {
	r.c[x][y] = c
	defer func() { r.c[x][y] = Empty }()
	for _, d := range refDirs {
		fp := r.fivePointsThrough(x, y, d, c)
		if len(fp) == 2 && steps(fp[0], fp[1]) == 5 {
			fours++
			straight = true
		} else {
			fours += len(fp)
		}
	}
	return fours, straight
}

// steps is the distance in steps between two cells of one line.
func steps(a, b [2]int) int {
	return max(abs(a[0]-b[0]), abs(a[1]-b[1]))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (r *refBoard) overline(x, y int) bool {
	r.c[x][y] = Black
	defer func() { r.c[x][y] = Empty }()
	for _, d := range refDirs {
		if r.run(x, y, d, Black) >= 6 {
			return true
		}
	}
	return false
}

// forbidden is the RIF definition, recursively, for black at empty (x, y).
func (r *refBoard) forbidden(x, y int) ForbiddenKind {
	if r.rule != Renju || r.five(x, y, Black) {
		return NotForbidden
	}
	if r.overline(x, y) {
		return OverlineMove
	}
	if f, _ := r.foursAt(x, y, Black); f >= 2 {
		return DoubleFour
	}
	r.c[x][y] = Black
	defer func() { r.c[x][y] = Empty }()
	threes := 0
	for _, d := range refDirs {
		// a real three: some q on the line turns it into a straight four
		// containing (x, y), and q is not forbidden. A line that is already
		// a four is not a three.
		if len(r.fivePointsThrough(x, y, d, Black)) > 0 {
			continue
		}
		for k := -4; k <= 4; k++ {
			qx, qy := x+k*d[0], y+k*d[1]
			if k == 0 || r.at(qx, qy) != Empty {
				continue
			}
			r.c[qx][qy] = Black
			fp := r.fivePointsThrough(x, y, d, Black)
			straight := len(fp) == 2 && steps(fp[0], fp[1]) == 5
			r.c[qx][qy] = Empty
			if straight && r.forbidden(qx, qy) == NotForbidden {
				threes++
				break
			}
		}
	}
	if threes >= 2 {
		return DoubleThree
	}
	return NotForbidden
}

// randomBoards plays random stones on boards of random sizes and rules,
// biased towards the centre so that lines form, and calls check after each
// stone.
func randomBoards(t *testing.T, games, maxStones int, check func(b *Board, r *refBoard)) {
	rng := rand.New(rand.NewPCG(1, 2))
	for g := 0; g < games; g++ {
		size := MinSize + rng.IntN(MaxSize-MinSize+1)
		if g%3 == 0 {
			size = 15
		}
		rule := Rule(g % int(NumRules))
		b, err := NewBoard(size, rule)
		if err != nil {
			t.Fatal(err)
		}
		ref := &refBoard{n: size, rule: rule}
		span := max(3, size*2/3)
		off := (size - span) / 2
		for s := 0; s < maxStones && s < span*span; s++ {
			x, y := off+rng.IntN(span), off+rng.IntN(span)
			if ref.c[x][y] != Empty {
				continue
			}
			c := Color(1 + rng.IntN(2))
			b.Play(PointAt(x, y), c)
			ref.c[x][y] = c
			check(b, ref)
		}
	}
}

// TestAgainstReference compares, on random positions of every rule and many
// sizes, the board's fives, fours and forbidden points with refBoard.
func TestAgainstReference(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 12
	}
	checked, withFive := 0, 0
	randomBoards(t, games, 120, func(b *Board, ref *refBoard) {
		for _, c := range []Color{Black, White} {
			want := ref.hasFive(c)
			if got := b.HasFive(c); got != want {
				t.Fatalf("%v %v: HasFive %v, reference %v", ref.rule, c, got, want)
			}
			if want {
				withFive++
			}
		}
		var want []ForbiddenPoint // every cell's verdict, in Point order
		for i := range NumCells {
			if k := b.Forbidden(Point(i)); k != NotForbidden {
				want = append(want, ForbiddenPoint{Point(i), k})
			}
		}
		if got := b.ForbiddenPoints(); !slices.Equal(got, want) {
			t.Fatalf("%v: ForbiddenPoints %v, every cell's verdict %v", ref.rule, got, want)
		}
		for x := 0; x < ref.n; x++ {
			for y := 0; y < ref.n; y++ {
				if ref.c[x][y] != Empty {
					continue
				}
				p := PointAt(x, y)
				for _, c := range []Color{Black, White} {
					wantFive := ref.five(x, y, c)
					if got := b.Threat(c, p) == ThreatFive; got != wantFive {
						t.Fatalf("%v %v %v: five %v, reference %v", ref.rule, p, c, got, wantFive)
					}
					fours, straight := ref.foursAt(x, y, c)
					forbidden := c == Black && ref.rule == Renju && !wantFive &&
						(ref.overline(x, y) || fours >= 2)
					wantFour := !wantFive && fours >= 1 && !forbidden
					gotFour := b.Threat(c, p) >= ThreatFour && b.Threat(c, p) < ThreatFive
					if gotFour != wantFour {
						t.Fatalf("%v %v %v: four %v (%v), reference %v", ref.rule, p, c, gotFour, b.Threat(c, p), wantFour)
					}
					wantWin4 := wantFour && (straight || fours >= 2)
					if got := b.Threat(c, p) == ThreatStraightFour; got != wantWin4 {
						t.Fatalf("%v %v %v: straight/double four %v, reference %v", ref.rule, p, c, got, wantWin4)
					}
				}
				if got, want := b.Forbidden(p), ref.forbidden(x, y); got != want {
					t.Fatalf("%v %v: forbidden %v, reference %v", ref.rule, p, got, want)
				}
				checked++
			}
		}
	})
	t.Logf("%d cells checked; %d positions with a five", checked, withFive)
	if withFive == 0 {
		t.Error("no position had a five: HasFive untested")
	}
}

// hasFive reports whether c has a five on the board (a winning run by the
// rule: exactly five where c needs it, else five or more).
func (r *refBoard) hasFive(c Color) bool {
	for x := 0; x < r.n; x++ {
		for y := 0; y < r.n; y++ {
			if r.c[x][y] != c {
				continue
			}
			for _, d := range refDirs {
				if r.winsWith(r.run(x, y, d, c), c) {
					return true
				}
			}
		}
	}
	return false
}

// TestPlayUndoRestores plays and takes back random stones and checks that
// the incremental state equals that of a board set up from scratch.
func TestPlayUndoRestores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for g := 0; g < 30; g++ {
		size := MinSize + rng.IntN(MaxSize-MinSize+1)
		rule := Rule(g % int(NumRules))
		b, _ := NewBoard(size, rule)
		var played []Point
		for step := 0; step < 400; step++ {
			if len(played) > 0 && rng.IntN(3) == 0 {
				b.Undo()
				played = played[:len(played)-1]
			} else {
				p := PointAt(rng.IntN(size), rng.IntN(size))
				if b.At(p) != Empty {
					continue
				}
				b.Play(p, Color(1+len(played)%2))
				played = append(played, p)
			}
		}
		checkFromScratch(t, b)
		fresh, _ := NewBoard(size, rule)
		for i, p := range played {
			fresh.Play(p, Color(1+i%2))
		}
		if b.cells != fresh.cells || b.words != fresh.words || b.st != fresh.st ||
			b.sets != fresh.sets || b.setSize != fresh.setSize || b.hash != fresh.hash ||
			b.windows != fresh.windows {
			t.Fatalf("game %d (%v, %dx%d): incremental state differs from a fresh board", g, rule, size, size)
		}
		for len(played) > 0 {
			b.Undo()
			played = played[:len(played)-1]
		}
		empty, _ := NewBoard(size, rule)
		if b.words != empty.words || b.st != empty.st || b.hash != 0 || b.windows != empty.windows ||
			b.setSize != empty.setSize {
			t.Fatalf("game %d: undoing every stone does not restore the empty board", g)
		}
	}
}

// checkFromScratch compares the line patterns and threats the board keeps
// for every empty cell with those recompute derives from the line words
// alone, as NewBoard does, so that a cell the incremental update skipped or
// got wrong is caught (comparing with another board built by Play would
// repeat the same update).
func checkFromScratch(t *testing.T, b *Board) {
	t.Helper()
	scratch := b.Clone()
	for i := range NumCells {
		p := Point(i)
		if !b.OnBoard(p) || b.At(p) != Empty {
			continue
		}
		scratch.recompute(p)
		if got, want := b.st[p], scratch.st[p]; got != want {
			t.Fatalf("%v %v: cell state %#x, from scratch %#x", b.rule, p, got, want)
		}
	}
}

// TestPotentialMatchesWindows recomputes v(p) from the window definition.
func TestPotentialMatchesWindows(t *testing.T) {
	randomBoards(t, 9, 60, func(b *Board, ref *refBoard) {
		for x := 0; x < ref.n; x++ {
			for y := 0; y < ref.n; y++ {
				p := PointAt(x, y)
				for _, c := range []Color{Black, White} {
					var want int32
					for _, d := range refDirs {
						for s := -4; s <= 0; s++ {
							own, opp, ok := 0, 0, true
							for j := s; j < s+5; j++ {
								switch ref.at(x+j*d[0], y+j*d[1]) {
								case Wall:
									ok = false
								case c:
									own++
								case c.Opponent():
									opp++
								}
							}
							if ok && opp == 0 {
								want += WindowScore[own]
							}
						}
					}
					if got := b.Potential(c, p); got != want {
						t.Fatalf("%v %v: potential %d, want %d", p, c, got, want)
					}
				}
			}
		}
	})
}

// TestFourBlock checks, on random positions of every rule, that FourBlock
// names the one five-point a single four makes (played out and read from
// the FivePoints set) and NoPoint for every other move; and, for renju, that
// a white stone never adds a cell to black's MaybeForbidden set, which lets
// a search tell a black block is not forbidden before the white four that
// forces it is played (solver's VCF transposition cutoff relies on both).
func TestFourBlock(t *testing.T) {
	games := 45
	if testing.Short() {
		games = 9
	}
	fours, whites := 0, 0
	var buf, before []Point
	randomBoards(t, games, 90, func(b *Board, ref *refBoard) {
		if b.Count(Black, FivePoints) > 0 || b.Count(White, FivePoints) > 0 {
			return // the search asks only where no five-point is open
		}
		for x := 0; x < ref.n; x++ {
			for y := 0; y < ref.n; y++ {
				p := PointAt(x, y)
				if b.At(p) != Empty {
					continue
				}
				for _, c := range []Color{Black, White} {
					got := b.FourBlock(c, p)
					t4 := b.Threat(c, p)
					if t4 != ThreatFour && t4 != ThreatFourThree {
						if got != NoPoint {
							t.Fatalf("%v %v %v (%v): FourBlock %v, want none", ref.rule, p, c, t4, got)
						}
						continue
					}
					b.Play(p, c)
					buf = b.Points(c, FivePoints, buf[:0])
					b.Undo()
					if len(buf) != 1 || buf[0] != got {
						t.Fatalf("%v %v %v: FourBlock %v, five-points after the move %v", ref.rule, p, c, got, buf)
					}
					fours++
				}
				if ref.rule != Renju {
					continue
				}
				before = b.Points(Black, MaybeForbidden, before[:0])
				b.Play(p, White)
				buf = b.Points(Black, MaybeForbidden, buf[:0])
				for _, q := range buf {
					if !slices.Contains(before, q) {
						t.Fatalf("white %v adds %v to black's MaybeForbidden (before %v)", p, q, before)
					}
				}
				for _, fp := range b.ForbiddenPoints() {
					if !slices.Contains(before, fp.Point) {
						t.Fatalf("white %v makes %v forbidden outside MaybeForbidden %v", p, fp.Point, before)
					}
				}
				b.Undo()
				whites++
			}
		}
	})
	if fours == 0 || whites == 0 {
		t.Fatalf("nothing checked: %d fours, %d white stones", fours, whites)
	}
	t.Logf("%d fours, %d white stones checked", fours, whites)
}

// TestThreatIf compares Board.ThreatIf with playing the stone: for every
// pair of empty cells q, r on random positions of every rule, both sides'
// threat class at q after c plays r, read from the board, must be what
// ThreatIf predicted.
func TestThreatIf(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	checked, changed := 0, 0
	rng := rand.New(rand.NewPCG(5, 9))
	randomBoards(t, games, 90, func(b *Board, ref *refBoard) {
		if rng.IntN(6) != 0 {
			return
		}
		n := b.Size()
		for i := 0; i < 60; i++ {
			q, r := PointAt(rng.IntN(n), rng.IntN(n)), PointAt(rng.IntN(n), rng.IntN(n))
			if i%2 == 0 { // near pairs, mostly on one line
				d := Dirs[rng.IntN(NumDirs)]
				r = q + Point((1+rng.IntN(Pad))*d)
				if !b.OnBoard(r) {
					continue
				}
			}
			if b.At(q) != Empty || b.At(r) != Empty || q == r {
				continue
			}
			for _, c := range []Color{Black, White} {
				pred := [2]Threat{b.ThreatIf(Black, q, c, r), b.ThreatIf(White, q, c, r)}
				before := [2]Threat{b.Threat(Black, q), b.Threat(White, q)}
				b.Play(r, c)
				want := [2]Threat{b.Threat(Black, q), b.Threat(White, q)}
				b.Undo()
				if pred != want {
					t.Fatalf("%v: %v at %v: threats at %v %v, ThreatIf said %v", b.Rule(), c, r, q, want, pred)
				}
				checked++
				if want != before {
					changed++
				}
			}
		}
	})
	t.Logf("%d predictions, %d of them changes", checked, changed)
	if changed < 100 {
		t.Errorf("only %d predicted changes: too few to test ThreatIf", changed)
	}
}
