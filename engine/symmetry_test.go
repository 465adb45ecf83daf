package engine

import (
	"math/rand/v2"
	"testing"
)

// TestSymmetry checks that the eight images of a random position have the
// same canonical hash, that Transform and InverseSymmetry undo each other,
// and that the incremental keys match keys computed from scratch.
func TestSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{6, 15, 20} {
		var stones []Point
		var colors []Color
		b, _ := NewBoard(n, Renju)
		for len(stones) < 20 {
			p := PointAt(rng.IntN(n), rng.IntN(n))
			if b.At(p) != Empty {
				continue
			}
			c := Color(1 + len(stones)%2)
			b.Play(p, c)
			stones, colors = append(stones, p), append(colors, c)
		}
		want, _ := b.CanonicalHash()
		for k := 0; k < NumSymmetries; k++ {
			img, _ := NewBoard(n, Renju)
			var h uint64
			for i, p := range stones {
				q := Transform(p, k, n)
				if back := Transform(q, InverseSymmetry(k), n); back != p {
					t.Fatalf("n=%d k=%d: %v -> %v -> %v", n, k, p, q, back)
				}
				img.Play(q, colors[i])
				h ^= ZobristKey(colors[i], q)
			}
			if img.Hash() != h || b.symKeys()[k] != h {
				t.Fatalf("n=%d k=%d: image's key differs from the board's key of that symmetry", n, k)
			}
			if got, _ := img.CanonicalHash(); got != want {
				t.Fatalf("n=%d k=%d: canonical hash %x, want %x", n, k, got, want)
			}
		}
	}
}
