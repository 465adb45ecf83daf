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

// TestTTKeySideToMove: the same stones with the other side to move are
// another table entry, so that a search whose root holds the stones of an
// earlier search's node with the other side to move reads none of its
// scores or static values.
func TestTTKeySideToMove(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	c := engine.Black
	for _, s := range []string{"h8", "h9", "i9", "g7"} {
		p, err := engine.ParsePoint(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		b.Play(p, c)
		c = c.Opponent()
	}
	kb, kw := ttKey(b, engine.Black), ttKey(b, engine.White)
	if kb == kw {
		t.Fatalf("black's and white's keys are both %#x", kb)
	}
	tt := newTTable(1)
	tt.store(kb, 123, 5, boundExact, engine.Point(7), 45)
	if _, ok := tt.probe(kb); !ok {
		t.Fatal("black's entry not found under black's key")
	}
	if e, ok := tt.probe(kw); ok {
		t.Fatalf("black's entry %+v read with white to move", e)
	}
}
