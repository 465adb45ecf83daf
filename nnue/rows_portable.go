//go:build !(goexperiment.simd && amd64)

package nnue

// addSub sets z += add - sub (see addSubGeneric).
func addSub(z, add, sub *[F]int16) { addSubSWAR(z, add, sub) }

// clampDelta adds clamp(nw) - clamp(old) to d (see clampDeltaGeneric).
func clampDelta(d, old, nw *[F]int16) { clampDeltaSWAR(d, old, nw) }

// widenAdd adds d to pool (see widenAddGeneric).
func widenAdd(pool *[F]int32, d *[F]int16) { widenAddGeneric(pool, d) }

// policyDot returns the policy head's dot product (see policyDotGeneric).
func policyDot(z, wp *[F]int16) int32 { return policyDotGeneric(z, wp) }

// hidden is the value head's hidden layer (see hiddenGeneric).
func hidden(w1t *[F][H]float32, b1 []float32, x *[F]float32, hid *[H]float32) {
	hiddenGeneric(w1t, b1, x, hid)
}

// SIMD reports whether the accumulators use vector instructions.
const SIMD = false
