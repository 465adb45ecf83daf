package nnue

import "unsafe"

// The accumulators' row operations, on F int16 lanes. rows_simd.go has a
// vector version (GOEXPERIMENT=simd on amd64 with AVX2), and the portable
// build runs the SWAR versions below (four 16-bit lanes in a uint64, as in
// Warren's Hacker's Delight, §2-18); all give the same results as the
// plain loops (…Generic), which every build keeps for reference
// (TestRowsSIMD, TestRowsSWAR).
//
// The SWAR versions read rows as [F/4]uint64, so every row they are given
// is 8-byte aligned: Acc.z (TestRowsAligned), the network's tables (made
// by make), the undo log (logEntry is 72 bytes), Push's delta and zeroRow.

// addSubGeneric sets z += add - sub, lane by lane (int16, wrapping).
func addSubGeneric(z, add, sub *[F]int16) {
	for j := range z {
		z[j] += add[j] - sub[j]
	}
}

// clampDeltaGeneric adds clamp(nw, 0, QA) - clamp(old, 0, QA) to d, lane
// by lane (int16, wrapping; Push keeps the sum within ±41·QA, no wrap).
func clampDeltaGeneric(d, old, nw *[F]int16) {
	for j := range d {
		d[j] += max(0, min(QA, nw[j])) - max(0, min(QA, old[j]))
	}
}

// widenAddGeneric adds d to pool, lane by lane.
func widenAddGeneric(pool *[F]int32, d *[F]int16) {
	for j := range pool {
		pool[j] += int32(d[j])
	}
}

// policyDotGeneric returns Σ wp[j]·clamp(z[j], 0, QA) in int32 (exact:
// F·QA·PolicyClip·QP fits).
func policyDotGeneric(z, wp *[F]int16) int32 {
	var s int32
	for j, v := range z {
		s += int32(wp[j]) * int32(max(0, min(QA, v)))
	}
	return s
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

// SWAR constants: per 16-bit lane, its sign bit (swarH), its low bit
// (swarL), QA, and 0x8000 − (QA+1), which sets a lane's sign bit when added
// to a lane in [QA+1, 0x7fff].
const (
	swarH    = 0x8000_8000_8000_8000
	swarL    = 0x0001_0001_0001_0001
	swarQA   = QA * swarL
	swarOver = (0x8000 - (QA + 1)) * swarL
)

// words views an aligned row as F/4 uint64s.
func words(r *[F]int16) *[F / 4]uint64 { return (*[F / 4]uint64)(unsafe.Pointer(r)) }

// swarAdd and swarSub add and subtract four int16 lanes, wrapping.
func swarAdd(x, y uint64) uint64 { return ((x &^ swarH) + (y &^ swarH)) ^ ((x ^ y) & swarH) }
func swarSub(x, y uint64) uint64 { return ((x | swarH) - (y &^ swarH)) ^ ((x ^ ^y) & swarH) }

// swarClamp clamps four int16 lanes to [0, QA].
func swarClamp(x uint64) uint64 {
	x &^= (x >> 15 & swarL) * 0xffff // negative lanes to 0
	over := ((x + swarOver) >> 15 & swarL) * 0xffff
	return x&^over | swarQA&over
}

// addSubSWAR is addSubGeneric, four lanes at a time.
func addSubSWAR(z, add, sub *[F]int16) {
	zw, aw, sw := words(z), words(add), words(sub)
	for i := range zw {
		zw[i] = swarSub(swarAdd(zw[i], aw[i]), sw[i])
	}
}

// clampDeltaSWAR is clampDeltaGeneric, four lanes at a time.
func clampDeltaSWAR(d, old, nw *[F]int16) {
	dw, ow, nww := words(d), words(old), words(nw)
	for i := range dw {
		dw[i] = swarAdd(dw[i], swarSub(swarClamp(nww[i]), swarClamp(ow[i])))
	}
}
