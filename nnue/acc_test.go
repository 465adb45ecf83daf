package nnue

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gomoku/engine"
)

// noisyNet returns a network whose tables are large enough that the
// clamp, the threats and every cell matter (New's start is nearly flat).
func noisyNet(r engine.Rule, seed uint64) *Net {
	n := New(r, seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, xs := range [][]float32{n.tables.E, n.tables.T} {
		for i := range xs {
			xs[i] = float32(rng.NormFloat64() * 0.4)
		}
	}
	n.Quantize()
	return n
}

// randomGame plays up to plies random legal moves near the stones and
// calls each after every move and undo, undoing one move in five.
func randomGame(t *testing.T, b *engine.Board, rng *rand.Rand, plies int, a *Acc, each func()) {
	t.Helper()
	for i := 0; i < plies && !b.LastMoveWon() && !b.Full(); i++ {
		c := engine.Color(1 + b.Stones()%2)
		var cands []engine.Point
		n := b.Size()
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				p := engine.PointAt(x, y)
				if b.At(p) == engine.Empty && b.Legal(c, p) {
					cands = append(cands, p)
				}
			}
		}
		if len(cands) == 0 {
			return
		}
		b.Play(cands[rng.IntN(len(cands))], c)
		a.Push()
		each()
		if rng.IntN(5) == 0 && b.Stones() > 0 {
			b.Undo()
			a.Pop()
			each()
		}
	}
}

// TestIncrementalEqualsRefresh plays random games in every rule on boards
// of 15 and 7 (edges everywhere) and checks after every Push and Pop that
// the empty cells' accumulators and the pools equal a recomputation from
// scratch.
func TestIncrementalEqualsRefresh(t *testing.T) {
	for r := engine.Rule(0); r < engine.NumRules; r++ {
		for _, size := range []int{15, 7} {
			n := noisyNet(r, uint64(r)+1)
			rng := rand.New(rand.NewPCG(uint64(size), uint64(r)))
			for g := 0; g < 6; g++ {
				b, err := engine.NewBoard(size, r)
				if err != nil {
					t.Fatal(err)
				}
				a := NewAcc(n, b)
				checks := 0
				randomGame(t, b, rng, 60, a, func() {
					checks++
					a.apply()
					fresh := NewAcc(n, b.Clone())
					if a.pool != fresh.pool {
						t.Fatalf("%v %dx%d game %d after %d stones: pools differ", r, size, size, g, b.Stones())
					}
					for y := 0; y < size; y++ {
						for x := 0; x < size; x++ {
							p := engine.PointAt(x, y)
							if b.At(p) == engine.Empty && a.z[p] != fresh.z[p] {
								t.Fatalf("%v %dx%d game %d after %d stones: z of %v differs", r, size, size, g, b.Stones(), p)
							}
							if a.shapes[p] != fresh.shapes[p] {
								t.Fatalf("%v: shapes of %v differ", r, p)
							}
						}
					}
				})
				if checks < 10 {
					t.Fatalf("%v %dx%d: only %d checks", r, size, size, checks)
				}
			}
		}
	}
}

// TestLazyBatches walks random lines of play forward and back (up to 40
// stones deep, in every rule, on boards of 15 and 7) and evaluates only now
// and then, so that apply takes batches of several moves and Pop takes back
// applied batches, partly applied ones and pending moves; whenever it
// evaluates, the empty cells' z, the shapes and the pool must equal a
// recomputation, and the value must be the same bits.
func TestLazyBatches(t *testing.T) {
	for r := engine.Rule(0); r < engine.NumRules; r++ {
		for _, size := range []int{15, 7} {
			n := noisyNet(r, uint64(r)+21)
			rng := rand.New(rand.NewPCG(uint64(size)+5, uint64(r)))
			b, err := engine.NewBoard(size, r)
			if err != nil {
				t.Fatal(err)
			}
			a := NewAcc(n, b)
			checks, longest := 0, 0
			for step := 0; step < 3000; step++ {
				c := engine.Color(1 + b.Stones()%2)
				forward := b.Stones() == 0 || (b.Stones() < 40 && !b.LastMoveWon() && !b.Full() && rng.IntN(5) < 3)
				if forward {
					p := engine.PointAt(rng.IntN(size), rng.IntN(size))
					if b.At(p) != engine.Empty || !b.Legal(c, p) {
						continue
					}
					b.Play(p, c)
					a.Push()
				} else {
					b.Undo()
					a.Pop()
				}
				if rng.IntN(4) != 0 {
					continue
				}
				longest = max(longest, len(a.frames)-a.applied)
				got := a.WDL(engine.Black)
				checks++
				fresh := NewAcc(n, b.Clone())
				if want := fresh.WDL(engine.Black); got != want || a.pool != fresh.pool {
					t.Fatalf("%v %dx%d step %d, %d stones: value %v, recomputed %v", r, size, size, step, b.Stones(), got, want)
				}
				for p := range engine.Point(engine.NumCells) {
					if !b.OnBoard(p) {
						continue
					}
					if b.At(p) == engine.Empty && a.z[p] != fresh.z[p] {
						t.Fatalf("%v %dx%d step %d: z of %v differs", r, size, size, step, p)
					}
					if a.shapes[p] != fresh.shapes[p] {
						t.Fatalf("%v %dx%d step %d: shapes of %v differ", r, size, size, step, p)
					}
				}
			}
			if checks < 300 || longest < 4 {
				t.Fatalf("%v %dx%d: %d checks, longest batch %d", r, size, size, checks, longest)
			}
		}
	}
}

// TestLazyLongBatch applies 200 pending moves at once, with every cell's z
// saturated at QA, so that the pool's change (200·QA) passes int16's
// range: the pool must come out as recomputed, 25 empty cells at QA.
func TestLazyLongBatch(t *testing.T) {
	n := New(engine.Freestyle, 3)
	clear(n.tables.E)
	clear(n.tables.T)
	for j := range n.tables.B0 {
		n.tables.B0[j] = 2
	}
	n.Quantize()
	b, _ := engine.NewBoard(15, engine.Freestyle)
	a := NewAcc(n, b)
	rng := rand.New(rand.NewPCG(4, 4))
	for b.Stones() < 200 {
		p := engine.PointAt(rng.IntN(15), rng.IntN(15))
		if b.At(p) == engine.Empty {
			b.Play(p, engine.Color(1+b.Stones()%2))
			a.Push()
		}
	}
	a.apply()
	if fresh := NewAcc(n, b.Clone()); a.pool != fresh.pool {
		t.Fatalf("pool after one batch of 200 moves %v, recomputed %v", a.pool[:4], fresh.pool[:4])
	}
	if a.pool[0] != 25*QA {
		t.Fatalf("pool %d, want %d (25 empty cells at QA)", a.pool[0], 25*QA)
	}
}

// TestQuantizedAgrees compares the int16 accumulators' value and policy
// with the float network's on random positions: within 0.01 of win rate
// and 0.05 of a policy logit.
func TestQuantizedAgrees(t *testing.T) {
	for r := engine.Rule(0); r < engine.NumRules; r++ {
		n := noisyNet(r, 11+uint64(r))
		rng := rand.New(rand.NewPCG(3, uint64(r)))
		b, _ := engine.NewBoard(15, r)
		a := NewAcc(n, b)
		worst, worstP := 0.0, 0.0
		randomGame(t, b, rng, 50, a, func() {
			for _, c := range []engine.Color{engine.Black, engine.White} {
				wdl, logits := n.EvaluateFloat(b, c, nil)
				got := a.WDL(c)
				worst = max(worst, math.Abs(WinRate(wdl)-WinRate(got)))
				for i, f := range Features(b, nil) {
					worstP = max(worstP, math.Abs(float64(logits[i]-a.Policy(c, f.Cell))))
				}
			}
		})
		if worst > 0.01 || worstP > 0.05 {
			t.Errorf("%v: quantized against float: win rate off by %.4f, policy logit by %.4f", r, worst, worstP)
		}
		t.Logf("%v: largest difference: win rate %.5f, policy logit %.5f", r, worst, worstP)
	}
}

// TestSymmetric checks that the value is the same on the eight symmetric
// images of random positions.
func TestSymmetric(t *testing.T) {
	for r := engine.Rule(0); r < engine.NumRules; r++ {
		n := noisyNet(r, 5)
		rng := rand.New(rand.NewPCG(9, uint64(r)))
		b, _ := engine.NewBoard(15, r)
		a := NewAcc(n, b)
		randomGame(t, b, rng, 30, a, func() {})
		pts, cols := b.History()
		want := a.WDL(engine.Black)
		for k := 0; k < engine.NumSymmetries; k++ {
			img, _ := engine.NewBoard(15, r)
			for i, p := range pts {
				img.Play(engine.Transform(p, k, 15), cols[i])
			}
			if got := NewAcc(n, img).WDL(engine.Black); got != want {
				t.Fatalf("%v: symmetry %d: %v, want %v", r, k, got, want)
			}
		}
	}
}

// TestWeightsFile round-trips a network through its file and checks that
// damaged files are refused.
func TestWeightsFile(t *testing.T) {
	n := noisyNet(engine.Renju, 2)
	n.Samples = 1234
	n.DataHash[0] = 9
	var buf bytes.Buffer
	if _, err := n.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	m, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if m.Rule != n.Rule || m.Samples != 1234 || m.DataHash != n.DataHash || len(m.Params) != len(n.Params) {
		t.Fatalf("read back: rule %v samples %d", m.Rule, m.Samples)
	}
	for i := range m.Params {
		if m.Params[i] != n.Params[i] {
			t.Fatalf("parameter %d: %v, want %v", i, m.Params[i], n.Params[i])
		}
	}
	data := buf.Bytes()
	for _, bad := range [][]byte{
		data[:len(data)-1],
		append([]byte("XX"), data[2:]...),
		func() []byte { d := bytes.Clone(data); d[200] ^= 1; return d }(),
		func() []byte { d := bytes.Clone(data); d[8] = 9; return d }(),
		nil,
	} {
		if _, err := Read(bytes.NewReader(bad)); !errors.Is(err, ErrBadWeights) {
			t.Errorf("damaged file: err %v, want ErrBadWeights", err)
		}
	}
}

// FuzzRead feeds arbitrary bytes to the weights reader: an error or a
// network, never a panic.
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	New(engine.Freestyle, 1).WriteTo(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte("GMKNNUE\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Read(bytes.NewReader(data))
		if err == nil && n == nil {
			t.Fatal("nil network without an error")
		}
	})
}

func BenchmarkPushPop(b *testing.B) {
	n := noisyNet(engine.Freestyle, 1)
	bd, _ := engine.NewBoard(15, engine.Freestyle)
	for _, s := range []string{"h8", "i9", "g7", "h9", "j10", "g9", "k11", "f9"} {
		p, _ := engine.ParsePoint(s, 15)
		bd.Play(p, engine.Color(1+bd.Stones()%2))
	}
	a := NewAcc(n, bd)
	p, _ := engine.ParsePoint("j8", 15)
	b.ReportAllocs()
	for b.Loop() {
		bd.Play(p, engine.Black)
		a.Push()
		bd.Undo()
		a.Pop()
	}
}

func BenchmarkWDL(b *testing.B) {
	n := noisyNet(engine.Freestyle, 1)
	bd, _ := engine.NewBoard(15, engine.Freestyle)
	a := NewAcc(n, bd)
	b.ReportAllocs()
	for b.Loop() {
		a.WDL(engine.Black)
	}
}

// BenchmarkPolicy scores every empty cell of a 10-stone position for the
// policy (225 - 10 cells a loop), as alpha-beta's move ordering scores its
// candidates.
func BenchmarkPolicy(b *testing.B) {
	n := noisyNet(engine.Freestyle, 1)
	bd, _ := engine.NewBoard(15, engine.Freestyle)
	for _, s := range []string{"h8", "i9", "g7", "h9", "j10", "g9", "k11", "f9", "h10", "h7"} {
		p, _ := engine.ParsePoint(s, 15)
		bd.Play(p, engine.Color(1+bd.Stones()%2))
	}
	a := NewAcc(n, bd)
	var cells []engine.Point
	for x := range 15 {
		for y := range 15 {
			if p := engine.PointAt(x, y); bd.At(p) == engine.Empty {
				cells = append(cells, p)
			}
		}
	}
	b.ReportAllocs()
	var sink float32
	for b.Loop() {
		for _, p := range cells {
			sink += a.Policy(engine.Black, p)
		}
	}
	_ = sink
}

// TestShippedNetworks checks the networks embedded from nnue/weights:
// freestyle's and renju's read, are of their rule, record their data, and
// evaluate a position to a win rate strictly between 0 and 1; standard
// borrows freestyle's, which values the same stones the same.
func TestShippedNetworks(t *testing.T) {
	for _, r := range []engine.Rule{engine.Freestyle, engine.Renju} {
		n := Default(r)
		if n == nil {
			t.Fatalf("no %v network shipped", r)
		}
		if n.Rule != r || n.Samples < 100000 || n.DataHash == ([32]byte{}) {
			t.Errorf("%v: rule %v, %d samples, data %x", r, n.Rule, n.Samples, n.DataHash[:4])
		}
		b, _ := engine.NewBoard(15, r)
		for _, s := range []string{"h8", "i9", "h9"} {
			p, _ := engine.ParsePoint(s, 15)
			b.Play(p, engine.Color(1+b.Stones()%2))
		}
		if wr := WinRate(NewAcc(n, b).WDL(engine.White)); !(wr > 0 && wr < 1) {
			t.Errorf("%v: win rate %v", r, wr)
		}
	}
	std, fs := Default(engine.Standard), Default(engine.Freestyle)
	if std == nil || std.Rule != engine.Standard || &std.Params[0] != &fs.Params[0] || fs.Rule != engine.Freestyle {
		t.Errorf("standard's network is not freestyle's borrowed: %+v", std)
	}
	// borrowed, it evaluates a standard board as freestyle's does the same
	// stones on a freestyle board
	var boards [2]*engine.Board
	for i, r := range []engine.Rule{engine.Standard, engine.Freestyle} {
		boards[i], _ = engine.NewBoard(15, r)
		for _, s := range []string{"h8", "i9", "h9", "h10", "g8"} {
			p, _ := engine.ParsePoint(s, 15)
			boards[i].Play(p, engine.Color(1+boards[i].Stones()%2))
		}
	}
	if a, b := WinRate(NewAcc(std, boards[0]).WDL(engine.White)), WinRate(NewAcc(fs, boards[1]).WDL(engine.White)); a != b || !(a > 0 && a < 1) {
		t.Errorf("standard %v, freestyle %v", a, b)
	}
}
