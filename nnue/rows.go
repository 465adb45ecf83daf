package nnue

// The accumulators' row operations, on F int16 lanes. rows_simd.go has a
// vector version (GOEXPERIMENT=simd on amd64 with AVX2) that gives the
// same results (TestRowsSIMD); these are the portable ones, which every
// build keeps for reference.

// addSubGeneric sets z += add - sub, lane by lane (int16, wrapping).
func addSubGeneric(z, add, sub *[F]int16) {
	for j := range z {
		z[j] += add[j] - sub[j]
	}
}

// poolDeltaGeneric adds clamp(nw, 0, QA) - clamp(old, 0, QA) to pool.
func poolDeltaGeneric(pool *[F]int32, old, nw *[F]int16) {
	for j := range pool {
		pool[j] += int32(max(0, min(QA, nw[j]))) - int32(max(0, min(QA, old[j])))
	}
}

// hiddenGeneric sets hid = ReLU(b1 + W1·x), W1 given by column (w1t[j] is
// column j), adding the columns in order j = 0..F-1 and rounding each
// product to float32 before the sum (no fused multiply-add), so that the
// vector version gives the same bits.
func hiddenGeneric(w1t *[F][H]float32, b1 []float32, x *[F]float32, hid *[H]float32) {
	copy(hid[:], b1)
	for j, v := range x {
		col := &w1t[j]
		for i := range hid {
			hid[i] += float32(col[i] * v)
		}
	}
	for i := range hid {
		hid[i] = max(0, hid[i])
	}
}
