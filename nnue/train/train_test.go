package train

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/nnue"
)

func fixture(t testing.TB, name string, r engine.Rule) *Dataset {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	games, errs := ReadGames(name, data)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	d, err := NewDataset(r, games, 5, HashBytes(data))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sampleLoss is the loss of one sample as gradients computes it.
func sampleLoss(w *worker, s sample, cfg Config) float64 {
	w.d.load(s, w.b, float32(cfg.Lambda), &w.pos)
	_, _, wdl := w.forward(&w.pos)
	var l float64
	for k := range wdl {
		if w.pos.target[k] > 0 {
			l -= float64(w.pos.target[k]) * math.Log(float64(wdl[k]))
		}
	}
	if w.pos.move >= 0 {
		w.policy()
		l -= cfg.PolicyWeight * math.Log(float64(w.lg[w.pos.move]))
	}
	return l
}

// TestGradients compares the backward pass with finite differences of the
// loss on parameters of every group that the samples touch.
func TestGradients(t *testing.T) {
	for _, tc := range []struct {
		file string
		r    engine.Rule
	}{{"selfplay-freestyle.jsonl", engine.Freestyle}, {"selfplay-renju.jsonl", engine.Renju}} {
		d := fixture(t, tc.file, tc.r)
		n := nnue.New(tc.r, 3)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range n.Params { // away from the initial flat start
			n.Params[i] += float32(rng.NormFloat64() * 0.1)
		}
		cfg := DefaultConfig()
		w := newWorker(n, d)
		batch := []sample{d.train[3], d.train[40], d.train[len(d.train)/2]}
		w.gradients(batch, cfg)
		var idx []int
		for i, g := range w.grad {
			if g != 0 {
				idx = append(idx, i)
			}
		}
		if len(idx) < 1000 {
			t.Fatalf("%v: only %d parameters have a gradient", tc.r, len(idx))
		}
		agree, checked := 0, 0
		for k := 0; k < 300; k++ {
			i := idx[rng.IntN(len(idx))]
			old := n.Params[i]
			const eps = 1e-3
			loss := func(x float32) float64 {
				n.Params[i] = x
				var l float64
				for _, s := range batch {
					l += sampleLoss(w, s, cfg)
				}
				return l
			}
			num := (loss(old+eps) - loss(old-eps)) / (2 * eps)
			n.Params[i] = old
			checked++
			if math.Abs(num-float64(w.grad[i])) <= 2e-3+0.05*math.Abs(num) {
				agree++
			}
		}
		if agree < checked*9/10 {
			t.Errorf("%v: %d of %d gradients agree with finite differences", tc.r, agree, checked)
		}
	}
}

// TestTrainLowersValidationLoss trains on the freestyle fixture for a few
// epochs: the validation loss must fall below the untrained network's and
// the policy must find the played move far more often than chance.
func TestTrainLowersValidationLoss(t *testing.T) {
	d := fixture(t, "selfplay-freestyle.jsonl", engine.Freestyle)
	n := nnue.New(engine.Freestyle, 1)
	cfg := DefaultConfig()
	cfg.Epochs, cfg.Patience = 4, 4
	before := evaluate(n, d, []*worker{newWorker(n, d)}, cfg)
	rep, err := Train(context.Background(), n, d, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := rep.Epochs[rep.Best]
	t.Logf("%d train, %d validation samples; loss %.4f -> %.4f, policy top-1 %.3f -> %.3f, calibration %.3f -> %.3f",
		d.NumTrain(), d.NumVal(), before.Loss, after.Loss, before.PolicyTop1, after.PolicyTop1, before.Calibration, after.Calibration)
	if after.Loss > before.Loss-0.1 {
		t.Errorf("validation loss %.4f -> %.4f: training did not lower it", before.Loss, after.Loss)
	}
	if after.PolicyTop1 < 0.15 {
		t.Errorf("policy top-1 %.3f after training", after.PolicyTop1)
	}
	if n.Samples != int64(d.NumTrain()) || n.DataHash != d.Hash {
		t.Errorf("the network does not record its data")
	}
}

// TestReadGamesErrors: a bad line is named with its line and column and
// skipped; the others are read.
func TestReadGamesErrors(t *testing.T) {
	data := `{"rule":"freestyle","size":15,"moves":["h8","i9"],"values":[0.5,0.5],"result":"black","opening":2}
{"rule":"freestyle","size":15,"moves":["h8","z9"],"values":[],"result":"black","opening":0}
{"rule":"freestyle","size":15,"moves":["h8"],"values":[1.5],"result":"white","opening":0}
{"rule":"freestyle","size":15,"moves":"h8"}
not json
{"rule":"chess","size":15,"moves":[],"values":[],"result":"black","opening":0}
{"rule":"renju","size":15,"moves":["h8"],"values":[0.5],"result":"draw","opening":1}
`
	games, errs := ReadGames("g.jsonl", []byte(data))
	if len(games) != 2 || len(errs) != 5 {
		t.Fatalf("%d games and %d errors, want 2 and 5: %v", len(games), len(errs), errs)
	}
	for i, want := range []string{"g.jsonl:2:1:", "g.jsonl:3:1:", "g.jsonl:4:", "g.jsonl:5:", "g.jsonl:6:1:"} {
		if !strings.HasPrefix(errs[i].Error(), want) {
			t.Errorf("error %d: %v, want prefix %q", i, errs[i], want)
		}
	}
}

// FuzzParseGameLine: any line gives a game or an error, never a panic, and
// a game that parses builds a dataset without an error (it replays).
func FuzzParseGameLine(f *testing.F) {
	data, _ := os.ReadFile("testdata/selfplay-renju.jsonl")
	for _, l := range strings.SplitN(string(data), "\n", 4)[:3] {
		f.Add([]byte(l))
	}
	f.Add([]byte(`{"rule":"freestyle","size":15,"moves":["h8","h8"],"values":[],"result":"black","opening":0}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		g, err := ParseGameLine(line)
		if err != nil {
			return
		}
		if _, err := NewDataset(g.Rule, []Game{g}, 2, [32]byte{}); err != nil {
			t.Fatalf("a parsed game does not replay: %v", err)
		}
	})
}

// TestReadGamesReplay: a line whose moves do not replay (a stone on a
// stone, a move after a five) is reported with its file and line and
// skipped; the good lines around it are kept.
func TestReadGamesReplay(t *testing.T) {
	good := `{"rule":"freestyle","size":15,"moves":["h8","h9","i8"],"values":[0.5,0.5,0.5],"result":"draw","opening":0}`
	data := strings.Join([]string{good,
		`{"rule":"freestyle","size":15,"moves":["h8","h9","h8"],"values":[],"result":"black","opening":0}`,
		good,
		`{"rule":"renju","size":15,"moves":["h8","a1","i8","a2","j8","a3","k8","a4","l8","a5"],"values":[],"result":"black","opening":0}`,
	}, "\n")
	games, errs := ReadGames("g.jsonl", []byte(data))
	if len(games) != 2 || len(errs) != 2 {
		t.Fatalf("%d games and %d errors, want 2 and 2: %v", len(games), len(errs), errs)
	}
	for i, want := range []string{"g.jsonl:2:1: ", "g.jsonl:4:1: "} {
		if !strings.HasPrefix(errs[i].Error(), want) || !errors.Is(errs[i], ErrBadGame) {
			t.Errorf("error %d: %v, want %q... wrapping ErrBadGame", i, errs[i], want)
		}
	}
	if !strings.Contains(errs[0].Error(), "move 3") || !strings.Contains(errs[1].Error(), "move 10") {
		t.Errorf("errors do not name the move: %v", errs)
	}
	if _, err := NewDataset(engine.Freestyle, games, 2, [32]byte{}); err != nil {
		t.Fatal(err)
	}
}

// TestTrainDecay: with a step size too large for the data, some epoch fails
// to lower the validation loss by MinDelta; the next epoch must start from the best
// epoch's parameters with the step size times Decay, and with Decay 1 the
// step size never changes.
func TestTrainDecay(t *testing.T) {
	d := fixture(t, "selfplay-freestyle.jsonl", engine.Freestyle)
	for _, decay := range []float64{0.25, 1} {
		n := nnue.New(engine.Freestyle, 1)
		cfg := DefaultConfig()
		cfg.Epochs, cfg.Patience, cfg.LR, cfg.Decay = 8, 8, 0.05, decay
		rep, err := Train(context.Background(), n, d, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		best, decays := math.Inf(1), 0
		for i := 1; i < len(rep.Epochs); i++ {
			prev, cur := rep.Epochs[i-1], rep.Epochs[i]
			want := prev.LR
			if prev.Loss > best-cfg.MinDelta { // epoch i-1 was not better
				want = prev.LR * decay
			}
			best = min(best, prev.Loss)
			if math.Abs(cur.LR-want) > 1e-12 {
				t.Errorf("decay %g: epoch %d trained at %g after epoch %d (loss %.4f, best before %.4f) at %g, want %g",
					decay, cur.Epoch, cur.LR, prev.Epoch, prev.Loss, best, prev.LR, want)
			}
			if cur.LR < prev.LR {
				decays++
			}
		}
		for _, m := range rep.Epochs {
			t.Logf("decay %g: epoch %d step %g loss %.4f", decay, m.Epoch, m.LR, m.Loss)
		}
		if decay < 1 && decays == 0 {
			t.Errorf("decay %g: the step size never fell in %d epochs", decay, len(rep.Epochs))
		}
		if decay == 1 && decays != 0 {
			t.Errorf("decay 1: the step size fell")
		}
	}
}

// TestTrainInterruptedRecordsData: a run stopped by its context keeps the
// best parameters so far and records its own data, not the record of the
// network it started from (--init).
func TestTrainInterruptedRecordsData(t *testing.T) {
	d := fixture(t, "selfplay-freestyle.jsonl", engine.Freestyle)
	n := nnue.New(engine.Freestyle, 1)
	n.Samples, n.DataHash = 7, [32]byte{7}
	start := slices.Clone(n.Params)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := DefaultConfig()
	cfg.Progress = func(epoch, done, total int) { cancel() }
	if _, err := Train(ctx, n, d, cfg, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Train: %v, want context.Canceled", err)
	}
	if n.Samples != int64(d.NumTrain()) || n.DataHash != d.Hash {
		t.Errorf("interrupted network records %d samples, data %x; want %d, %x", n.Samples, n.DataHash[:4], d.NumTrain(), d.Hash[:4])
	}
	if !slices.Equal(n.Params, start) {
		t.Errorf("interrupted before an epoch ended, the parameters changed")
	}
}

// TestTrainWeightDecay: with decoupled weight decay the trained shape
// table is smaller (L2) than without, from the same start and the same
// minibatches; rows no sample touched keep their initial values.
func TestTrainWeightDecay(t *testing.T) {
	d := fixture(t, "selfplay-freestyle.jsonl", engine.Freestyle)
	var norms [2]float64
	var nets [2]*nnue.Net
	for i, wd := range []float64{0, 5} {
		n := nnue.New(engine.Freestyle, 1)
		cfg := DefaultConfig()
		cfg.Epochs, cfg.Patience, cfg.Workers, cfg.WeightDecay = 2, 2, 1, wd
		if _, err := Train(context.Background(), n, d, cfg, nil); err != nil {
			t.Fatal(err)
		}
		for _, x := range n.Tables().E {
			norms[i] += float64(x) * float64(x)
		}
		nets[i] = n
	}
	t.Logf("shape table L2²: plain %.1f, weight decay 5: %.1f", norms[0], norms[1])
	if !(norms[1] < 0.9*norms[0]) {
		t.Errorf("weight decay did not shrink the shape table: %.1f against %.1f", norms[1], norms[0])
	}
	start := nnue.New(engine.Freestyle, 1).Tables().E
	e0, e1 := nets[0].Tables().E, nets[1].Tables().E
	same := 0
	for i := range e0 {
		if e0[i] == start[i] && e1[i] != start[i] {
			t.Fatalf("parameter %d: untouched without decay, changed with it", i)
		}
		if e0[i] == start[i] {
			same++
		}
	}
	t.Logf("%d of %d shape parameters untouched by the fixture", same, len(e0))
}
