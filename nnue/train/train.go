// Package train fits a network of package nnue to the engine's own games:
// search distillation, as Stockfish's first NNUE networks were trained on
// the values of its own searches.
//
// What it implements:
//
//   - Samples (Dataset): every position of a self-play game after its
//     opening where neither side has a five-point (the search decides
//     those), deduplicated under the eight symmetries; under freestyle and
//     standard each position is also shown with the colours and the side
//     to move swapped. Games, not positions, are split between training and
//     validation, so that no game's positions land on both sides.
//   - Targets: the value head's win, draw and loss probabilities are fit
//     by cross-entropy to λ·(the game's result) + (1−λ)·(v, 0, 1−v), v the
//     mover's win rate as the search saw it; the policy head's softmax over
//     the empty cells to the move the search played.
//   - Optimiser: minibatch Adam (Kingma and Ba 2015) with gradients summed
//     over Workers goroutines, and early stopping on the validation loss
//     (the best epoch's parameters are kept).
//   - Metrics per epoch: the value and policy losses, how often the
//     policy's top cell is the move played, and the calibration error of the
//     predicted win rate W + D/2 against the game's result (bins of 0.1,
//     weighted by their counts).
package train

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"gomoku/engine"
	"gomoku/nnue"
)

// Game is one finished game of the training data.
type Game struct {
	Rule engine.Rule
	Size int
	// Moves are the moves from the empty board, black first.
	Moves []engine.Point
	// Values[i] is the mover's win rate before move i as the search saw it
	// (0..1); missing or opening entries are ignored.
	Values []float64
	// Winner is the colour that made five, Empty for a draw.
	Winner engine.Color
	// Opening is the number of moves before the engine's (not sampled).
	Opening int
}

// sample is one training position: a game's first Ply moves, the side to
// move, and whether the colours are swapped.
type sample struct {
	game int32
	ply  int16
	swap bool
}

// Dataset is the samples of a set of games, split into training and
// validation.
type Dataset struct {
	// Rule is the rule of the games kept.
	Rule       engine.Rule
	games      []Game
	train, val []sample
	// Duplicates counts the positions skipped as repeats of one already
	// taken (up to symmetry).
	Duplicates int
	// Hash is the data's hash, recorded in the trained network.
	Hash [32]byte
	// BlackWins and WhiteWins count the games kept by winner.
	BlackWins, WhiteWins int
}

// Games returns the number of games kept (of the dataset's rule, 15x15).
func (d *Dataset) Games() int { return len(d.games) }

// NumTrain returns the number of training
// samples.
func (d *Dataset) NumTrain() int { return len(d.train) }

// NumVal returns the number of validation samples.
func (d *Dataset) NumVal() int { return len(d.val) }

// NewDataset builds the samples of the games of rule r (games of other
// rules or board sizes other than 15 are skipped), every valEvery-th game
// for validation, and hash as the data's hash. Errors: a game whose moves
// do not replay (named by its index).
func NewDataset(r engine.Rule, games []Game, valEvery int, hash [32]byte) (*Dataset, error) {
	d := &Dataset{Rule: r, Hash: hash}
	seen := make(map[uint64]bool)
	for _, g := range games {
		if g.Rule != r || g.Size != engine.DefaultSize {
			continue
		}
		gi := int32(len(d.games))
		d.games = append(d.games, g)
		switch g.Winner {
		case engine.Black:
			d.BlackWins++
		case engine.White:
			d.WhiteWins++
		}
		val := valEvery > 0 && int(gi)%valEvery == valEvery-1
		b, err := engine.NewBoard(g.Size, r)
		if err != nil {
			return nil, err
		}
		for i, m := range g.Moves {
			c := engine.Color(1 + i%2)
			if i >= g.Opening && i < 1<<15 && !b.LastMoveWon() && b.Count(c, engine.FivePoints) == 0 &&
				b.Count(c.Opponent(), engine.FivePoints) == 0 {
				h, _ := b.CanonicalHash()
				if seen[h] {
					d.Duplicates++
				} else {
					seen[h] = true
					add := func(sw bool) {
						s := sample{game: gi, ply: int16(i), swap: sw}
						if val {
							d.val = append(d.val, s)
						} else {
							d.train = append(d.train, s)
						}
					}
					add(false)
					if r != engine.Renju {
						add(true)
					}
				}
			}
			if err := b.Put(m, c); err != nil {
				return nil, fmt.Errorf("game %d, move %d: %w", gi+1, i+1, err)
			}
			if b.LastMoveWon() {
				break
			}
		}
	}
	return d, nil
}

// position is a sample set up for the network: its cells' features, the
// side to move, the targets.
type position struct {
	feats  []nnue.CellFeatures
	c      engine.Color
	target [3]float32 // win, draw, loss of c
	result float32    // c's score: 1, 0.5 or 0
	move   int        // index in feats of the move played, -1 if none
}

// load sets up sample s in pos, with board b (of the dataset's rule) as
// scratch.
func (d *Dataset) load(s sample, b *engine.Board, lambda float32, pos *position) {
	g := &d.games[s.game]
	b.Reset()
	for i := 0; i < int(s.ply); i++ {
		c := engine.Color(1 + i%2)
		if s.swap {
			c = c.Opponent()
		}
		b.Play(g.Moves[i], c)
	}
	c := engine.Color(1 + int(s.ply)%2)
	winner := g.Winner
	v := float32(0.5)
	if int(s.ply) < len(g.Values) {
		v = float32(g.Values[s.ply])
	}
	var res [3]float32
	switch winner {
	case c:
		res = [3]float32{1, 0, 0}
	case c.Opponent():
		res = [3]float32{0, 0, 1}
	default:
		res = [3]float32{0, 1, 0}
	}
	pos.result = res[0] + res[1]/2
	for k := range res {
		sv := [3]float32{v, 0, 1 - v}
		pos.target[k] = lambda*res[k] + (1-lambda)*sv[k]
	}
	if s.swap {
		c = c.Opponent()
	}
	pos.c = c
	pos.feats = nnue.Features(b, pos.feats[:0])
	pos.move = -1
	mv := g.Moves[s.ply]
	for i, f := range pos.feats {
		if f.Cell == mv {
			pos.move = i
			break
		}
	}
}

// Config is a training run's setting.
type Config struct {
	// Epochs is the most passes over the training samples; Patience the
	// epochs without a better validation loss, in a row, before stopping.
	Epochs, Patience int
	// Decay (0 < Decay ≤ 1) multiplies the step size after each epoch that
	// did not lower the best validation loss by MinDelta, and that epoch's
	// parameters are dropped for the best epoch's, with Adam's moments
	// reset (reduce on plateau). 1 keeps the step size and the parameters.
	// Outside (0, 1], Train takes 1. The default,
	// 0.25, does in one run what a second run from the best network at a
	// quarter of the step size did by hand (2026-11-29: freestyle
	// validation loss 1.4647, then 1.4528 after that second run).
	Decay float64
	// MinDelta is how much an epoch must lower the best validation loss
	// to count as better for Patience and Decay (an epoch that lowers it
	// less is still kept as the best). The default, 0.001: at the step
	// sizes after three decays, epochs lowered the freestyle loss by
	// 0.0002 to 0.0005 each (1.4558 to 1.4543 in 7 epochs, 2026-11-29).
	MinDelta float64
	// Batch is the minibatch size (samples), LR Adam's step size.
	Batch int
	LR    float64
	// WeightDecay (≥ 0) is decoupled weight decay (AdamW: Loshchilov and
	// Hutter, "Decoupled weight decay regularization", ICLR 2019,
	// Algorithm 2): each step also moves every parameter it updates by
	// −LR·WeightDecay times its value, towards 0. 0, the default, is plain
	// Adam. A parameter no sample of the run has touched yet (an unseen
	// shape's row) is not decayed.
	WeightDecay float64
	// Lambda weighs the game's result against the search's value in the
	// value target (0..1); PolicyWeight weighs the policy loss.
	Lambda, PolicyWeight float64
	// Workers is the number of goroutines computing gradients.
	Workers int
	// Seed orders the samples.
	Seed uint64
	// Progress, if set, is called after each minibatch with the samples
	// done in the epoch and the epoch's total.
	Progress func(epoch, done, total int)
}

// DefaultConfig returns the settings `gomoku train` starts from.
func DefaultConfig() Config {
	return Config{Epochs: 20, Patience: 3, Decay: 0.25, MinDelta: 0.001, Batch: 256, LR: 2e-3, Lambda: 0.5, PolicyWeight: 0.5, Workers: 2, Seed: 1}
}

// Metrics are the validation figures after an epoch.
type Metrics struct {
	Epoch int
	// TrainLoss is the epoch's mean training loss (value + weighted
	// policy); ValueLoss and PolicyLoss the validation cross-entropies.
	TrainLoss, ValueLoss, PolicyLoss float64
	// Loss is ValueLoss + PolicyWeight·PolicyLoss, what early stopping
	// watches.
	Loss float64
	// PolicyTop1 is the fraction of validation positions whose top policy
	// cell is the move played.
	PolicyTop1 float64
	// Calibration is the mean absolute difference between the predicted
	// win rate and the game's result over bins of 0.1 of prediction,
	// weighted by the bins' counts.
	Calibration float64
	// LR is the step size the epoch trained with.
	LR      float64
	Elapsed time.Duration
}

// Report is a training run's outcome.
type Report struct {
	Epochs []Metrics
	// Best is the epoch whose parameters were kept (index into Epochs).
	Best int
}

// ErrNoSamples is returned when the dataset has no training or no
// validation samples.
var ErrNoSamples = errors.New("no training or no validation samples")

// Train fits n (of the dataset's rule) to the dataset and leaves in it the
// parameters of the epoch with the lowest validation loss, quantized: Adam
// (Kingma and Ba 2015) on minibatches of cfg.Batch, cfg.Workers
// goroutines sharing each one, the step size reduced by cfg.Decay after an
// epoch that does not lower the best validation loss by cfg.MinDelta.
// Errors: ErrNoSamples, ctx's error (the best parameters so far are kept,
// and the network records the dataset all the same).
func Train(ctx context.Context, n *nnue.Net, d *Dataset, cfg Config, epochDone func(Metrics)) (Report, error) {
	if len(d.train) == 0 || len(d.val) == 0 {
		return Report{}, ErrNoSamples
	}
	if n.Rule != d.Rule {
		return Report{}, fmt.Errorf("network of rule %v, data of %v", n.Rule, d.Rule)
	}
	cfg.Workers = max(1, cfg.Workers)
	cfg.Batch = max(1, cfg.Batch)
	if !(cfg.Decay > 0 && cfg.Decay <= 1) {
		cfg.Decay = 1
	}
	opt := newAdam(len(n.Params), cfg.LR, cfg.WeightDecay)
	workers := make([]*worker, cfg.Workers)
	for i := range workers {
		workers[i] = newWorker(n, d)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x747261696e))
	order := slices.Clone(d.train)
	var rep Report
	best := math.Inf(1)
	bestParams := slices.Clone(n.Params)
	stale := 0
	grad := make([]float32, len(n.Params))
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		start := time.Now()
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var lossSum float64
		for lo := 0; lo < len(order); lo += cfg.Batch {
			if err := ctx.Err(); err != nil {
				keep(n, d, bestParams)
				return rep, err
			}
			batch := order[lo:min(len(order), lo+cfg.Batch)]
			var wg sync.WaitGroup
			for wi, w := range workers {
				part := batch[wi*len(batch)/len(workers) : (wi+1)*len(batch)/len(workers)]
				wg.Add(1)
				go func() {
					defer wg.Done()
					w.gradients(part, cfg)
				}()
			}
			wg.Wait()
			clear(grad)
			for _, w := range workers {
				for i, g := range w.grad {
					grad[i] += g
				}
				lossSum += w.loss
			}
			scale := 1 / float32(len(batch))
			for i := range grad {
				grad[i] *= scale
			}
			opt.step(n.Params, grad)
			clipTables(n)
			if cfg.Progress != nil {
				cfg.Progress(epoch, lo+len(batch), len(order))
			}
		}
		m := evaluate(n, d, workers, cfg)
		m.Epoch, m.LR = epoch, opt.lr
		m.TrainLoss = lossSum / float64(len(order))
		m.Elapsed = time.Since(start)
		rep.Epochs = append(rep.Epochs, m)
		if epochDone != nil {
			epochDone(m)
		}
		better := m.Loss <= best-cfg.MinDelta
		if m.Loss < best {
			best, rep.Best = m.Loss, len(rep.Epochs)-1
			copy(bestParams, n.Params)
		}
		if better {
			stale = 0
		} else if stale++; stale >= cfg.Patience {
			break
		} else if cfg.Decay < 1 {
			copy(n.Params, bestParams)
			opt = newAdam(len(n.Params), opt.lr*cfg.Decay, cfg.WeightDecay)
		}
	}
	keep(n, d, bestParams)
	return rep, nil
}

// keep leaves in n the parameters params, quantized, and records the
// dataset d they were trained on: Train's one exit for a finished and an
// interrupted run alike (before 2026-11-29 an interrupted run started from
// another network, --init, kept that network's record).
func keep(n *nnue.Net, d *Dataset, params []float32) {
	copy(n.Params, params)
	n.Samples = int64(len(d.train))
	n.DataHash = d.Hash
	n.Quantize()
}

// clipTables keeps E, T and B0 within ±nnue.ParamClip (what int16 holds).
func clipTables(n *nnue.Net) {
	t := n.Tables()
	for _, xs := range [][]float32{t.E, t.T, t.B0} {
		for i, x := range xs {
			xs[i] = max(-nnue.ParamClip, min(nnue.ParamClip, x))
		}
	}
}

// adam is the Adam optimiser's state (Kingma and Ba 2015, Algorithm 1),
// with decoupled weight decay wd (AdamW) when wd > 0.
type adam struct {
	m, v   []float32
	lr, wd float64
	b1, b2 float64
	t      int
}

func newAdam(n int, lr, wd float64) *adam {
	return &adam{m: make([]float32, n), v: make([]float32, n), lr: lr, wd: wd, b1: 0.9, b2: 0.999}
}

// step applies one update of gradient g to params p. A parameter whose
// gradient and moments are all zero (a shape row no sample touched yet)
// is skipped.
func (a *adam) step(p, g []float32) {
	a.t++
	b1, b2 := float32(a.b1), float32(a.b2)
	c1 := float32(1 - math.Pow(a.b1, float64(a.t)))
	c2 := float32(1 - math.Pow(a.b2, float64(a.t)))
	lr := float32(a.lr)
	shrink := 1 - float32(a.lr*a.wd)
	for i, gi := range g {
		if gi == 0 && a.m[i] == 0 {
			continue
		}
		m := b1*a.m[i] + (1-b1)*gi
		v := b2*a.v[i] + (1-b2)*gi*gi
		a.m[i], a.v[i] = m, v
		p[i] = p[i]*shrink - lr*(m/c1)/(float32(math.Sqrt(float64(v/c2)))+1e-8)
	}
}

// worker computes the gradients of part of a minibatch.
type worker struct {
	n    *nnue.Net
	d    *Dataset
	b    *engine.Board
	pos  position
	grad []float32
	loss float64
	z    [][nnue.F]float32
	lg   []float32
	// views of grad, laid out as n.Params
	gt nnue.Tables
	gh [2]nnue.Head
}

func newWorker(n *nnue.Net, d *Dataset) *worker {
	b, _ := engine.NewBoard(engine.DefaultSize, d.Rule)
	w := &worker{n: n, d: d, b: b, grad: make([]float32, len(n.Params))}
	w.gt, w.gh = nnue.Views(w.grad)
	return w
}

// forward runs the network on pos: the cells' z (in w.z), the policy
// logits (w.lg), the pooled features, the hidden layer and the WDL.
func (w *worker) forward(pos *position) (x [nnue.F]float32, hid [nnue.H]float32, wdl [3]float32) {
	t := w.n.Tables()
	hd := w.n.Head(pos.c)
	w.z = slices.Grow(w.z[:0], len(pos.feats))[:len(pos.feats)]
	w.lg = slices.Grow(w.lg[:0], len(pos.feats))[:len(pos.feats)]
	for i, f := range pos.feats {
		z := &w.z[i]
		copy(z[:], t.B0)
		for _, sh := range f.Shapes {
			row := t.E[int(sh)*nnue.F : int(sh)*nnue.F+nnue.F]
			for j := range z {
				z[j] += row[j]
			}
		}
		row := t.T[int(f.Threat)*nnue.F : int(f.Threat)*nnue.F+nnue.F]
		var lg float32
		for j := range z {
			z[j] += row[j]
			h := max(0, min(1, z[j]))
			x[j] += h
			lg += hd.WP[j] * h
		}
		w.lg[i] = lg
	}
	for j := range x {
		x[j] /= nnue.PoolDiv
	}
	var logit [3]float32
	for i := 0; i < nnue.H; i++ {
		s := hd.B1[i]
		for j, v := range x {
			s += hd.W1[i*nnue.F+j] * v
		}
		hid[i] = max(0, s)
	}
	for k := 0; k < 3; k++ {
		s := hd.B2[k]
		for i, v := range hid {
			s += hd.W2[k*nnue.H+i] * v
		}
		logit[k] = s
	}
	return x, hid, nnue.Softmax3(logit)
}

// policy returns the softmax of the policy logits in w.lg (in place) and
// the index of the largest.
func (w *worker) policy() int {
	m, arg := float32(math.Inf(-1)), -1
	for i, v := range w.lg {
		if v > m {
			m, arg = v, i
		}
	}
	var sum float32
	for i, v := range w.lg {
		e := float32(math.Exp(float64(v - m)))
		w.lg[i] = e
		sum += e
	}
	for i := range w.lg {
		w.lg[i] /= sum
	}
	return arg
}

// gradients sums the loss gradients of samples into w.grad (cleared
// first) and their losses into w.loss.
func (w *worker) gradients(samples []sample, cfg Config) {
	clear(w.grad)
	w.loss = 0
	pw := float32(cfg.PolicyWeight)
	for _, s := range samples {
		pos := &w.pos
		w.d.load(s, w.b, float32(cfg.Lambda), pos)
		x, hid, wdl := w.forward(pos)
		hd := w.n.Head(pos.c)
		gh := &w.gh[persp(pos.c)]
		var dl [3]float32
		for k := range dl {
			dl[k] = wdl[k] - pos.target[k]
			if pos.target[k] > 0 {
				w.loss -= float64(pos.target[k]) * math.Log(max(1e-12, float64(wdl[k])))
			}
		}
		var dhid [nnue.H]float32
		for k := 0; k < 3; k++ {
			gh.B2[k] += dl[k]
			for i, v := range hid {
				gh.W2[k*nnue.H+i] += dl[k] * v
				dhid[i] += dl[k] * hd.W2[k*nnue.H+i]
			}
		}
		var dx [nnue.F]float32
		for i := 0; i < nnue.H; i++ {
			if hid[i] <= 0 {
				continue
			}
			d := dhid[i]
			gh.B1[i] += d
			for j, v := range x {
				gh.W1[i*nnue.F+j] += d * v
				dx[j] += d * hd.W1[i*nnue.F+j]
			}
		}
		for j := range dx {
			dx[j] /= nnue.PoolDiv
		}
		hasMove := pos.move >= 0 && pw > 0
		if hasMove {
			w.policy()
			w.loss -= float64(pw) * math.Log(max(1e-12, float64(w.lg[pos.move])))
			w.lg[pos.move] -= 1
		}
		for i, f := range pos.feats {
			z := &w.z[i]
			var dlg float32
			if hasMove {
				dlg = pw * w.lg[i]
			}
			var dz [nnue.F]float32
			any := false
			for j, v := range z {
				if dlg != 0 {
					gh.WP[j] += dlg * max(0, min(1, v))
				}
				if v > 0 && v < 1 {
					dz[j] = dx[j] + dlg*hd.WP[j]
					any = true
				}
			}
			if !any {
				continue
			}
			for j, g := range dz {
				w.gt.B0[j] += g
			}
			for _, sh := range f.Shapes {
				row := w.gt.E[int(sh)*nnue.F : int(sh)*nnue.F+nnue.F]
				for j, g := range dz {
					row[j] += g
				}
			}
			row := w.gt.T[int(f.Threat)*nnue.F : int(f.Threat)*nnue.F+nnue.F]
			for j, g := range dz {
				row[j] += g
			}
		}
	}
}

// persp returns the index of side c's head: 0 black, 1 white.
func persp(c engine.Color) int { return int(c-1) & 1 }

// evaluate computes the validation metrics with the workers' scratch.
func evaluate(n *nnue.Net, d *Dataset, workers []*worker, cfg Config) Metrics {
	type part struct {
		vl, pl       float64
		top, withPol int
		bins         [10]struct{ n, pred, res float64 }
	}
	parts := make([]part, len(workers))
	var wg sync.WaitGroup
	for wi, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &parts[wi]
			for _, s := range d.val[wi*len(d.val)/len(workers) : (wi+1)*len(d.val)/len(workers)] {
				w.d.load(s, w.b, float32(cfg.Lambda), &w.pos)
				_, _, wdl := w.forward(&w.pos)
				for k := range wdl {
					if w.pos.target[k] > 0 {
						p.vl -= float64(w.pos.target[k]) * math.Log(max(1e-12, float64(wdl[k])))
					}
				}
				pred := nnue.WinRate(wdl)
				bin := min(9, int(pred*10))
				p.bins[bin].n++
				p.bins[bin].pred += pred
				p.bins[bin].res += float64(w.pos.result)
				if w.pos.move >= 0 {
					top := w.policy()
					p.pl -= math.Log(max(1e-12, float64(w.lg[w.pos.move])))
					p.withPol++
					if top == w.pos.move {
						p.top++
					}
				}
			}
		}()
	}
	wg.Wait()
	var m Metrics
	var total part
	for _, p := range parts {
		total.vl += p.vl
		total.pl += p.pl
		total.top += p.top
		total.withPol += p.withPol
		for i := range p.bins {
			total.bins[i].n += p.bins[i].n
			total.bins[i].pred += p.bins[i].pred
			total.bins[i].res += p.bins[i].res
		}
	}
	m.ValueLoss = total.vl / float64(len(d.val))
	if total.withPol > 0 {
		m.PolicyLoss = total.pl / float64(total.withPol)
		m.PolicyTop1 = float64(total.top) / float64(total.withPol)
	}
	m.Loss = m.ValueLoss + cfg.PolicyWeight*m.PolicyLoss
	var cal, cnt float64
	for _, b := range total.bins {
		if b.n > 0 {
			cal += math.Abs(b.pred - b.res) // n·|mean prediction − mean result|
			cnt += b.n
		}
	}
	if cnt > 0 {
		m.Calibration = cal / cnt
	}
	return m
}

// HashBytes returns the SHA-256 of the concatenated inputs (the data's
// hash recorded in the weights file).
func HashBytes(parts ...[]byte) [32]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
