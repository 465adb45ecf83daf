package play

import (
	"math"
	"math/rand/v2"
	"testing"

	"gomoku/engine"
)

// randomWeights fills every table with random values, so that a missed
// cell or a wrong sign shows.
func randomWeights(rng *rand.Rand) *Weights {
	w := &Weights{Scale: 600}
	for r := range engine.Rule(engine.NumRules) {
		for i := range 2 {
			t := &w.Tables[r][i]
			for k := range NumCodes {
				t.Move[k], t.Wait[k] = int32(rng.IntN(200)-100), int32(rng.IntN(200)-100)
			}
			for k := range NumMasks {
				t.Threat[k] = int32(rng.IntN(2000) - 1000)
			}
		}
	}
	return w
}

// TestEvalIncremental plays and takes back random moves through an Eval
// under every rule and checks its value, for both sides to move, against
// an Eval built from scratch on the same position, and against the
// tuner's linear model of the same weights (NewSample): the three agree.
func TestEvalIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	w := randomWeights(rng)
	for _, r := range []engine.Rule{engine.Freestyle, engine.Standard, engine.Renju} {
		b, _ := engine.NewBoard(15, r)
		e := NewEval(w, b)
		for step := 0; step < 3000; step++ {
			if b.Stones() > 0 && (rng.IntN(3) == 0 || b.LastMoveWon() || b.Stones() > 120) {
				e.Undo()
			} else {
				p := engine.PointAt(rng.IntN(15), rng.IntN(15))
				if b.At(p) != engine.Empty {
					continue
				}
				e.Play(p, engine.Color(1+b.Stones()%2))
			}
			if step%7 != 0 {
				continue
			}
			fresh := NewEval(w, b.Clone())
			for _, c := range []engine.Color{engine.Black, engine.White} {
				if got, want := e.Value(c), fresh.Value(c); got != want {
					t.Fatalf("%v, %d stones, %v to move: incremental %d, from scratch %d", r, b.Stones(), c, got, want)
				}
				s := NewSample(b, c, 0)
				if p, want := s.predict(flatten(w), w.Scale), w.WinRate(e.Value(c)); math.Abs(p-want) > 1e-9 {
					t.Fatalf("%v, %v to move: the tuner's model %.6f, the evaluation %.6f", r, c, p, want)
				}
			}
		}
	}
}

// TestCodes checks the pattern codes: NumCodes of them, each the same for
// every order of its four patterns, and CodePatterns inverting codeOf.
func TestCodes(t *testing.T) {
	seen := map[uint16]bool{}
	for k := 0; k < 1<<16; k++ {
		p := [4]int{k & 0xf, k >> 4 & 0xf, k >> 8 & 0xf, k >> 12 & 0xf}
		if p[0] > 11 || p[1] > 11 || p[2] > 11 || p[3] > 11 {
			continue
		}
		code := codeOf[k]
		seen[code] = true
		rev := p[3] | p[2]<<4 | p[1]<<8 | p[0]<<12
		if codeOf[rev] != code {
			t.Fatalf("%x and %x: codes %d and %d", k, rev, code, codeOf[rev])
		}
		back := CodePatterns(int(code))
		packed := int(back[0]) | int(back[1])<<4 | int(back[2])<<8 | int(back[3])<<12
		if codeOf[packed] != code {
			t.Fatalf("CodePatterns(%d) = %v does not map back", code, back)
		}
	}
	if len(seen) != NumCodes {
		t.Errorf("%d codes, want %d", len(seen), NumCodes)
	}
}

// TestDefaultWeights: the embedded weights read, round-trip through their
// file form, and score an open four for its side far above even.
func TestDefaultWeights(t *testing.T) {
	var w Weights
	if err := w.UnmarshalJSON(defaultWeightsJSON); err != nil {
		t.Fatalf("the embedded weights: %v", err)
	}
	data, err := MarshalWeights(&w, "test")
	if err != nil {
		t.Fatal(err)
	}
	var back Weights
	if err := back.UnmarshalJSON(data); err != nil || back != w {
		t.Fatalf("round trip: %v", err)
	}
	b := movesBoard(t, engine.Freestyle, "h8 a1 i8 a3 j8 a5")
	e := NewEval(DefaultWeights(), b)
	if v := w.WinRate(e.Value(engine.Black)); v < 0.7 {
		t.Errorf("black to move with an open three: win rate %.2f", v)
	}
}

// TestTuneFits fits weights to targets made by other weights on random
// positions: the loss falls, and the fitted weights predict the held-out
// positions better than the start.
func TestTuneFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	truth := randomWeights(rng)
	var train, valid []Sample
	for g := 0; g < 60; g++ {
		b, _ := engine.NewBoard(15, engine.Freestyle)
		e := NewEval(truth, b)
		for ply := 0; ply < 30 && !b.LastMoveWon(); ply++ {
			p := engine.PointAt(3+rng.IntN(9), 3+rng.IntN(9))
			if b.At(p) != engine.Empty {
				continue
			}
			c := engine.Color(1 + b.Stones()%2)
			s := NewSample(b, c, truth.WinRate(e.Value(c)))
			if g%5 == 0 {
				valid = append(valid, s)
			} else {
				train = append(train, s)
			}
			e.Play(p, c)
		}
	}
	start := &Weights{Scale: 600}
	before, _ := Loss(start, valid)
	w, err := Tune(start, train, valid, TuneConfig{Epochs: 300, Rate: 8})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := Loss(w, valid)
	trainAfter, _ := Loss(w, train)
	if after >= before || trainAfter >= before {
		t.Errorf("validation loss %.4f -> %.4f, training %.4f", before, after, trainAfter)
	}
}

// BenchmarkEvalUpdate measures the evaluation's cost per node: a move played
// and taken back through Eval (the board's update plus the incremental
// sums) with the value read, on every empty cell of the renju middle game in
// turn, against the board's Play and Undo alone. The difference per
// op is the evaluation's cost of a node, the figure of the README.
func BenchmarkEvalUpdate(b *testing.B) {
	bd := movesBoard(b, engine.Renju, midgame)
	var empty []engine.Point
	for y := range bd.Size() {
		for x := range bd.Size() {
			if p := engine.PointAt(x, y); bd.At(p) == engine.Empty {
				empty = append(empty, p)
			}
		}
	}
	c := toMove(bd)
	b.Run("board", func(b *testing.B) {
		i := 0
		for b.Loop() {
			p := empty[i%len(empty)]
			bd.Play(p, c)
			bd.Undo()
			i++
		}
	})
	b.Run("eval", func(b *testing.B) {
		e := NewEval(DefaultWeights(), bd)
		var sink int32
		i := 0
		for b.Loop() {
			p := empty[i%len(empty)]
			e.Play(p, c)
			sink += e.Value(c.Opponent())
			e.Undo()
			i++
		}
		if sink == 1 {
			b.Log(sink)
		}
	})
}
