package play

import (
	"testing"

	"gomoku/engine"
)

// TestPartialBest: of an interrupted iteration, a move searched to the end
// that beat the first move with an exact score is taken; nothing is taken
// when the first move's score is not exact (it failed low or high, or was
// itself cut off), when no move beat it, or when the better score lies
// beyond the window (a bound, not a value).
func TestPartialBest(t *testing.T) {
	a, b, c := engine.PointAt(0, 0), engine.PointAt(1, 0), engine.PointAt(2, 0)
	scores := func(s ...int32) []rootMove {
		out := []rootMove{}
		for i, v := range s {
			out = append(out, rootMove{p: []engine.Point{a, b, c}[i], score: v})
		}
		return out
	}
	for _, tc := range []struct {
		s           []rootMove
		done        int
		alpha, beta int32
		want        engine.Point // NoPoint: none
	}{
		{scores(10, 30, 20), 3, -100, 100, b},
		{scores(10, 30, 40), 2, -100, 100, b},            // c not searched to the end
		{scores(10, 5, 8), 3, -100, 100, engine.NoPoint}, // none beat a
		{scores(10, 30, 20), 1, -100, 100, engine.NoPoint},
		{scores(-150, 30, 20), 3, -100, 100, engine.NoPoint}, // a failed low
		{scores(10, 130, 20), 3, -100, 100, engine.NoPoint},  // b's 130 is a bound, and c's 20 one below it
		{scores(10, 130, 20), 3, -100, 200, b},
	} {
		m, ok := partialBest(tc.s, tc.done, tc.alpha, tc.beta)
		got := engine.NoPoint
		if ok {
			got = m.p
		}
		if got != tc.want {
			t.Errorf("%+v done %d in (%d, %d): %v, want %v", tc.s, tc.done, tc.alpha, tc.beta, got, tc.want)
		}
	}
}
