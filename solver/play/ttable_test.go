package play

import (
	"math/rand/v2"
	"testing"

	"gomoku/engine"
)

// TestTTEntryRoundTrip: every field of an entry reads back as stored, win
// scores relative to a node and static values that do not fit in 16 bits
// (read back as none) included, and a store is found by its key only.
func TestTTEntryRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	scores := []int32{0, 1, -1, EvalMax, -EvalMax, WinScore + MaxPly, -WinScore - MaxPly, WinScore - 3, -WinScore + 2}
	statics := []int32{0, 1, -1, 32767, -32767, 32768, -32768, EvalMax, -EvalMax, noStatic}
	tt := newTTable(1)
	for k := 0; k < 20000; k++ {
		score := scores[rng.IntN(len(scores))]
		if rng.IntN(2) == 0 {
			score = int32(rng.IntN(2*EvalMax+1) - EvalMax)
		}
		static := statics[rng.IntN(len(statics))]
		if rng.IntN(2) == 0 {
			static = int32(rng.IntN(65535) - 32767)
		}
		depth := int8(rng.IntN(128))
		bound := uint8(rng.IntN(3))
		move := engine.Point(rng.IntN(engine.NumCells))
		gen := uint64(rng.IntN(64))
		got := unpackEntry(packEntry(score, depth, bound, move, gen, static))
		want := ttEntry{move: move, score: score, depth: depth, bound: bound, static: static}
		if static < -32767 || static > 32767 {
			want.static = noStatic
		}
		if got != want {
			t.Fatalf("packed %+v, read %+v", want, got)
		}
		key := rng.Uint64()
		tt.store(key, score, depth, bound, move, static)
		if e, ok := tt.probe(key); !ok || e != want {
			t.Fatalf("stored %+v under %x, probed %+v, %v", want, key, e, ok)
		}
		if _, ok := tt.probe(key ^ 1<<63); ok {
			t.Fatalf("a key never stored was found")
		}
	}
}
