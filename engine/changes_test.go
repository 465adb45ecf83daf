package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLastChanges plays random games under every rule and checks, move by
// move, that LastChanges lists the played cell first and then exactly the
// empty cells whose state changed, the first entry of each holding its
// state from before the move, and that ChangesOf gives every earlier move's
// list as LastChanges gave it.
func TestLastChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, r := range []Rule{Freestyle, Standard, Renju} {
		for game := 0; game < 20; game++ {
			b, _ := NewBoard(15, r)
			var kept [][]Change // each move's changes, as LastChanges gave them
			for ply := 0; ply < 80 && !b.LastMoveWon(); ply++ {
				p := PointAt(rng.IntN(15), rng.IntN(15))
				if b.At(p) != Empty {
					continue
				}
				var before [NumCells]CellState
				for q := range Point(NumCells) {
					if b.At(q) == Empty {
						before[q] = b.State(q)
					}
				}
				b.Play(p, Color(1+b.Stones()%2))
				ch := b.LastChanges()
				kept = append(kept, slices.Clone(ch))
				for i, want := range kept {
					if !slices.Equal(b.ChangesOf(i), want) {
						t.Fatalf("%v: ChangesOf(%d) after %d moves differs from the move's LastChanges", r, i, len(kept))
					}
				}
				if len(ch) == 0 || ch[0].Point() != p || ch[0].Old() != before[p] {
					t.Fatalf("%v: the played cell is not the first change", r)
				}
				seen := map[Point]bool{p: true}
				for _, c := range ch[1:] {
					q := c.Point()
					if !seen[q] {
						seen[q] = true
						if c.Old() != before[q] {
							t.Fatalf("%v: %v's first change holds %x, its state was %x", r, q, c.Old(), before[q])
						}
					}
				}
				for q := range Point(NumCells) {
					if b.At(q) == Empty && b.State(q) != before[q] && !seen[q] {
						t.Fatalf("%v: %v changed but is not listed", r, q)
					}
				}
			}
		}
	}
}
