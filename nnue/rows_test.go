package nnue

import (
	"math/rand/v2"
	"testing"
)

// TestRowsSIMD checks the row operations of this build (vector ones under
// GOEXPERIMENT=simd on amd64, else the portable ones) against the portable
// reference on random rows, edge values included.
func TestRowsSIMD(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	val := func() int16 {
		switch rng.IntN(4) {
		case 0:
			return int16(rng.IntN(2*QA+1) - QA/2)
		case 1:
			return []int16{0, QA, -1, QA + 1, 32767, -32768}[rng.IntN(6)]
		default:
			return int16(rng.IntN(65536) - 32768)
		}
	}
	t.Logf("SIMD: %v", SIMD)
	for k := 0; k < 20000; k++ {
		var z, add, sub, old [F]int16
		var pool [F]int32
		for j := range z {
			z[j], add[j], sub[j], old[j] = val(), val(), val(), val()
			pool[j] = int32(rng.IntN(1 << 20))
		}
		z1, z2 := z, z
		addSub(&z1, &add, &sub)
		addSubGeneric(&z2, &add, &sub)
		if z1 != z2 {
			t.Fatalf("addSub differs from the portable rows: %v, want %v", z1, z2)
		}
		var w1t [F][H]float32
		var x [F]float32
		b1 := make([]float32, H)
		for j := range w1t {
			for i := range w1t[j] {
				w1t[j][i] = float32(rng.NormFloat64())
			}
			x[j] = float32(rng.Float64() * 2)
		}
		for i := range b1 {
			b1[i] = float32(rng.NormFloat64())
		}
		var h1, h2 [H]float32
		hidden(&w1t, b1, &x, &h1)
		hiddenGeneric(&w1t, b1, &x, &h2)
		if h1 != h2 {
			t.Fatalf("hidden differs from the portable layer: %v, want %v", h1, h2)
		}
		p1, p2 := pool, pool
		poolDelta(&p1, &old, &z)
		poolDeltaGeneric(&p2, &old, &z)
		if p1 != p2 {
			t.Fatalf("poolDelta differs from the portable rows: %v, want %v", p1, p2)
		}
	}
}
