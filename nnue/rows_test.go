package nnue

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"gomoku/engine"
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
		d1, d2 := add, add
		clampDelta(&d1, &old, &z)
		clampDeltaGeneric(&d2, &old, &z)
		if d1 != d2 {
			t.Fatalf("clampDelta differs from the portable rows: %v, want %v", d1, d2)
		}
		var wp [F]int16
		for j := range wp {
			wp[j] = int16(rng.IntN(2*PolicyClip*QP+1) - PolicyClip*QP)
		}
		if a, b := policyDot(&z, &wp), policyDotGeneric(&z, &wp); a != b {
			t.Fatalf("policyDot = %d, the portable loop %d", a, b)
		}
		p1, p2 := pool, pool
		widenAdd(&p1, &d1)
		widenAddGeneric(&p2, &d2)
		if p1 != p2 {
			t.Fatalf("widenAdd differs from the portable rows: %v, want %v", p1, p2)
		}
	}
}

// TestRowsSWAR checks the portable build's SWAR rows against the plain
// loops on random rows, edge values included (every build runs it).
func TestRowsSWAR(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	edges := []int16{0, 1, QA - 1, QA, QA + 1, -1, -QA, 32767, -32768, 0x7eff, 0x7f00}
	val := func() int16 {
		if rng.IntN(3) == 0 {
			return edges[rng.IntN(len(edges))]
		}
		return int16(rng.IntN(65536) - 32768)
	}
	var buf [4][F / 4]uint64 // aligned rows
	row := func(i int) *[F]int16 { return (*[F]int16)(unsafe.Pointer(&buf[i])) }
	for k := 0; k < 50000; k++ {
		z, add, sub, old := row(0), row(1), row(2), row(3)
		for j := range z {
			z[j], add[j], sub[j], old[j] = val(), val(), val(), val()
		}
		z1, z2 := *z, *z
		addSubGeneric(&z2, add, sub)
		addSubSWAR(z, add, sub)
		if *z != z2 {
			t.Fatalf("addSubSWAR(%v, %v, %v) = %v, want %v", z1, *add, *sub, *z, z2)
		}
		*z, z2 = z1, z1
		clampDeltaGeneric(&z2, old, add)
		clampDeltaSWAR(z, old, add)
		if *z != z2 {
			t.Fatalf("clampDeltaSWAR(%v, %v, %v) = %v, want %v", z1, *old, *add, *z, z2)
		}
	}
}

// TestRowsAligned: the rows the SWAR functions read as uint64 are 8-byte
// aligned (a misaligned one would also fail -race's pointer checks).
func TestRowsAligned(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAcc(noisyNet(engine.Freestyle, 1), b)
	if off := unsafe.Offsetof(a.z); off%8 != 0 {
		t.Errorf("Acc.z at offset %d", off)
	}
	if s := unsafe.Sizeof(logEntry{}); s%8 != 0 || unsafe.Offsetof(logEntry{}.z) != 0 {
		t.Errorf("logEntry of %d bytes, z at %d", s, unsafe.Offsetof(logEntry{}.z))
	}
	for name, r := range map[string]*[F]int16{"z": &a.z[0], "e": &a.n.q.e[1], "t": &a.n.q.t[1], "b0": &a.n.q.b0, "zero": zeroRow} {
		if uintptr(unsafe.Pointer(r))%8 != 0 {
			t.Errorf("row %s at %p", name, r)
		}
	}
}
