package engine

import (
	"math"
	"runtime"
	"testing"
)

// midgame is the first 24 moves of a renju game between Rapfi and mintaka
// (../shared/data/games/renju/003.psq): a 15×15 middle game.
const midgame = "h8h7h9g7i7g9i8g8g10j7h11f9h10h12i6i9i10f10k8j9j8l8k9e10"

func midgameBoard(tb testing.TB, r Rule) *Board {
	tb.Helper()
	b, err := NewBoard(15, r)
	if err != nil {
		tb.Fatal(err)
	}
	for i, s := 0, midgame; len(s) > 0; i++ {
		p, n := ScanPoint(s, 15)
		if n == 0 {
			tb.Fatalf("bad move list at %q", s)
		}
		b.Play(p, Color(1+i%2))
		s = s[n:]
	}
	return b
}

// BenchmarkPlayUndo measures one Play and its Undo on a renju middle game,
// cycling through every empty cell; ns/op is per Play+Undo pair.
func BenchmarkPlayUndo(b *testing.B) {
	for _, r := range []Rule{Freestyle, Renju} {
		b.Run(r.String(), func(b *testing.B) {
			bd := midgameBoard(b, r)
			var empty []Point
			for i := range NumCells {
				if bd.At(Point(i)) == Empty {
					empty = append(empty, Point(i))
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				bd.Play(empty[i%len(empty)], Black)
				bd.Undo()
			}
		})
	}
}

// BenchmarkForbiddenPoints measures a full scan of black's forbidden points
// on the middle game (none) and on a board with three, a double-four (h3),
// an overline (l9) and a double-three (c10).
func BenchmarkForbiddenPoints(b *testing.B) {
	b.Run("midgame", func(b *testing.B) { benchForbidden(b, midgameBoard(b, Renju)) })
	bd, err := NewBoard(15, Renju)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []string{"e3", "f3", "g3", "h4", "h5", "h6", "d10", "e10", "c11", "c12", "j9", "k9", "m9", "n9", "o9"} {
		p, err := ParsePoint(s, 15)
		if err != nil {
			b.Fatal(err)
		}
		bd.Play(p, Black)
	}
	if n := len(bd.ForbiddenPoints()); n != 3 {
		b.Fatalf("%d forbidden points on the benchmark board, want 3", n)
	}
	b.Run("forbidden", func(b *testing.B) { benchForbidden(b, bd) })
}

func benchForbidden(b *testing.B, bd *Board) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bd.ForbiddenPoints()
	}
}

// TestPlayUndoAllocs pins the "no allocation per move" property.
func TestPlayUndoAllocs(t *testing.T) {
	bd := midgameBoard(t, Renju)
	p := PointAt(0, 0)
	if a := testing.AllocsPerRun(100, func() { bd.Play(p, White); bd.Undo() }); a != 0 {
		t.Errorf("Play+Undo allocates %v times", a)
	}
}

// TestScratchPlayAllocs pins the same property on a board copied onto a
// new Board, as Scratch does when its pool is empty (the first search of a
// process): its history had room only for the stones copied, so each of the
// search's first Plays grew it.
func TestScratchPlayAllocs(t *testing.T) {
	src := midgameBoard(t, Renju)
	var empty []Point
	for y := 0; y < 15 && len(empty) < 40; y++ {
		for x := 0; x < 15 && len(empty) < 40; x++ {
			if p := PointAt(x, y); src.At(p) == Empty {
				empty = append(empty, p)
			}
		}
	}
	// Mallocs counts the whole process's allocations, so another goroutine
	// of the runtime or of the test binary can add to one window (a CI run
	// once saw 6): the fewest of three fresh copies is what Play did, since
	// an allocation of Play's own shows in every one of them.
	least := uint64(math.MaxUint64)
	for range 3 {
		c := new(Board).CopyFrom(src)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i, p := range empty {
			c.Play(p, Color(1+i%2))
		}
		runtime.ReadMemStats(&after)
		for range empty {
			c.Undo()
		}
		least = min(least, after.Mallocs-before.Mallocs)
		if c.Hash() != src.Hash() || c.Stones() != src.Stones() {
			t.Fatal("the copy did not come back to the source's position")
		}
	}
	if least != 0 {
		t.Errorf("%d Plays on a copied board allocated %d times (the fewest of three copies)", len(empty), least)
	}
}
