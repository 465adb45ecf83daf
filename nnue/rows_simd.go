//go:build goexperiment.simd && amd64

package nnue

import "simd/archsimd"

// Each vector function ends with VZEROUPPER (archsimd.ClearAVXUpperBits):
// without it the scalar SSE code that follows (the value head's output
// layer, math.Exp) pays for the dirty upper halves of the registers, and
// BenchmarkWDL took 5.9 µs instead of the portable 1.3 µs (2026-11-30).

// useSIMD is whether this CPU has the AVX2 instructions the vector rows
// use; without them the portable build's rows run (rows.go's SWAR ones
// and plain loops).
var useSIMD = archsimd.X86.AVX2()

// SIMD reports whether the accumulators use vector instructions.
var SIMD = useSIMD

// addSub sets z += add - sub: two 16-lane vectors per row.
func addSub(z, add, sub *[F]int16) {
	if !useSIMD {
		addSubSWAR(z, add, sub)
		return
	}
	for i := 0; i < F; i += 16 {
		zv := archsimd.LoadInt16x16((*[16]int16)(z[i : i+16]))
		av := archsimd.LoadInt16x16((*[16]int16)(add[i : i+16]))
		sv := archsimd.LoadInt16x16((*[16]int16)(sub[i : i+16]))
		zv.Add(av.Sub(sv)).Store((*[16]int16)(z[i : i+16]))
	}
	archsimd.ClearAVXUpperBits()
}

var (
	simdZero = archsimd.BroadcastInt16x16(0)
	simdQA   = archsimd.BroadcastInt16x16(QA)
)

// clampDelta adds clamp(nw) - clamp(old) to d: two 16-lane vectors.
func clampDelta(d, old, nw *[F]int16) {
	if !useSIMD {
		clampDeltaSWAR(d, old, nw)
		return
	}
	for i := 0; i < F; i += 16 {
		ov := archsimd.LoadInt16x16((*[16]int16)(old[i : i+16])).Max(simdZero).Min(simdQA)
		nv := archsimd.LoadInt16x16((*[16]int16)(nw[i : i+16])).Max(simdZero).Min(simdQA)
		dv := archsimd.LoadInt16x16((*[16]int16)(d[i : i+16]))
		dv.Add(nv.Sub(ov)).Store((*[16]int16)(d[i : i+16]))
	}
	archsimd.ClearAVXUpperBits()
}

// widenAdd adds d to pool, widened to int32 eight lanes at a time.
func widenAdd(pool *[F]int32, d *[F]int16) {
	if !useSIMD {
		widenAddGeneric(pool, d)
		return
	}
	for i := 0; i < F; i += 16 {
		dv := archsimd.LoadInt16x16((*[16]int16)(d[i : i+16]))
		p0 := archsimd.LoadInt32x8((*[8]int32)(pool[i : i+8]))
		p1 := archsimd.LoadInt32x8((*[8]int32)(pool[i+8 : i+16]))
		p0.Add(dv.GetLo().ExtendToInt32()).Store((*[8]int32)(pool[i : i+8]))
		p1.Add(dv.GetHi().ExtendToInt32()).Store((*[8]int32)(pool[i+8 : i+16]))
	}
	archsimd.ClearAVXUpperBits()
}

// policyDot returns Σ wp·clamp(z, 0, QA) (see policyDotGeneric): the
// clamped row times wp by pairs into eight int32 lanes (VPMADDWD), then
// the lanes summed; integer sums, so the same as the portable loop.
func policyDot(z, wp *[F]int16) int32 {
	if !useSIMD || F != 32 {
		return policyDotGeneric(z, wp)
	}
	z0 := archsimd.LoadInt16x16((*[16]int16)(z[0:16])).Max(simdZero).Min(simdQA)
	z1 := archsimd.LoadInt16x16((*[16]int16)(z[16:32])).Max(simdZero).Min(simdQA)
	w0 := archsimd.LoadInt16x16((*[16]int16)(wp[0:16]))
	w1 := archsimd.LoadInt16x16((*[16]int16)(wp[16:32]))
	var lanes [8]int32
	z0.DotProductPairs(w0).Add(z1.DotProductPairs(w1)).Store(&lanes)
	archsimd.ClearAVXUpperBits()
	return lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] + lanes[6] + lanes[7]
}

// hidden is the value head's hidden layer (see hiddenGeneric): H = 32
// lanes in four 8-lane vectors, one multiply and one add per column.
func hidden(w1t *[F][H]float32, b1 []float32, x *[F]float32, hid *[H]float32) {
	if !useSIMD || H != 32 {
		hiddenGeneric(w1t, b1, x, hid)
		return
	}
	h0 := archsimd.LoadFloat32x8Slice(b1[0:8])
	h1 := archsimd.LoadFloat32x8Slice(b1[8:16])
	h2 := archsimd.LoadFloat32x8Slice(b1[16:24])
	h3 := archsimd.LoadFloat32x8Slice(b1[24:32])
	for j := range x {
		v := archsimd.BroadcastFloat32x8(x[j])
		col := &w1t[j]
		h0 = h0.Add(archsimd.LoadFloat32x8((*[8]float32)(col[0:8])).Mul(v))
		h1 = h1.Add(archsimd.LoadFloat32x8((*[8]float32)(col[8:16])).Mul(v))
		h2 = h2.Add(archsimd.LoadFloat32x8((*[8]float32)(col[16:24])).Mul(v))
		h3 = h3.Add(archsimd.LoadFloat32x8((*[8]float32)(col[24:32])).Mul(v))
	}
	zero := archsimd.BroadcastFloat32x8(0)
	h0.Max(zero).Store((*[8]float32)(hid[0:8]))
	h1.Max(zero).Store((*[8]float32)(hid[8:16]))
	h2.Max(zero).Store((*[8]float32)(hid[16:24]))
	h3.Max(zero).Store((*[8]float32)(hid[24:32]))
	archsimd.ClearAVXUpperBits()
}
