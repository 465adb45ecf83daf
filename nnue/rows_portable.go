//go:build !(goexperiment.simd && amd64)

package nnue

// addSub sets z += add - sub (see addSubGeneric).
func addSub(z, add, sub *[F]int16) { addSubGeneric(z, add, sub) }

// poolDelta adds clamp(nw) - clamp(old) to pool (see poolDeltaGeneric).
func poolDelta(pool *[F]int32, old, nw *[F]int16) { poolDeltaGeneric(pool, old, nw) }

// hidden is the value head's hidden layer (see hiddenGeneric).
func hidden(w1t *[F][H]float32, b1 []float32, x *[F]float32, hid *[H]float32) {
	hiddenGeneric(w1t, b1, x, hid)
}

// SIMD reports whether the accumulators use vector instructions.
const SIMD = false
