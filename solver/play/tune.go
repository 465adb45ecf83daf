package play

import (
	"errors"
	"fmt"
	"math"

	"gomoku/engine"
)

// Texel-style tuning of the evaluation (Peter Österlund's method for the
// chess engine Texel, 2014, as the chess engines use it): the evaluation
// is linear in its weights, E = Σ w·x over the counts x of a position's
// pattern codes and its threat mask; its win rate σ(E/Scale) is fitted to
// the results of games (and, blended in, the search's own value of the
// positions) by minimising the cross-entropy over the positions, with
// Adam (Kingma and Ba, 2015) on the full batch.
//
// A table has 1,365 codes and 2,048 masks per side and rule, more than a
// few thousand games can fit one by one, so each entry is fitted as a sum:
// a code's value is the sum of its four line patterns' values (12 per
// table part, shared by every code) plus its own residual, and a mask's
// the sum of its bits' values plus its residual. The L2 penalty holds the
// residuals near their start, while the shared values move freely: rare
// codes follow what the data says of their patterns.

// Sample is one training position: its features and its target.
type Sample struct {
	Rule engine.Rule
	// ToMove is the side to move; the target and the value are its.
	ToMove engine.Color
	// Target is the side to move's expected score, 0 to 1: the game's
	// result blended with the search's value.
	Target float64
	feats  []feature
}

// feature is a weight's index in the flat parameter vector and its count.
type feature struct {
	idx int32
	n   int16
}

// tableSize is one table's parameters in the flat vector: Move, Wait,
// Threat (the residuals), then the shared values: 12 patterns for Move,
// 12 for Wait, 11 threat mask bits.
const (
	tableEntries = 2*NumCodes + NumMasks
	tableShared  = 12 + 12 + 11
	tableSize    = tableEntries + tableShared
)

// sharedIndex returns the flat index of table (r, i)'s shared value k of
// part 0 (Move patterns), 1 (Wait patterns) or 2 (mask bits).
func sharedIndex(r engine.Rule, i int, part int, k int) int32 {
	return int32((int(r)*2+i)*tableSize + tableEntries + part*12 + k)
}

// expand returns, for flat entry index idx (a code or mask residual), the
// shared values that add to it, in buf.
func expandIndex(idx int32, buf []int32) []int32 {
	buf = buf[:0]
	t := int(idx) / tableSize
	off := int(idx) % tableSize
	r, i := engine.Rule(t/2), t%2
	switch {
	case off < 2*NumCodes:
		part := off / NumCodes
		for _, p := range CodePatterns(off % NumCodes) {
			buf = append(buf, sharedIndex(r, i, part, int(p)))
		}
	case off < tableEntries:
		mask := off - 2*NumCodes
		for bit := range 11 {
			if mask>>bit&1 != 0 {
				buf = append(buf, sharedIndex(r, i, 2, bit))
			}
		}
	}
	return buf
}

// entryValue is a table entry's value: its residual plus its shared parts.
func entryValue(v []float64, idx int32, buf []int32) float64 {
	x := v[idx]
	for _, j := range expandIndex(idx, buf) {
		x += v[j]
	}
	return x
}

// flatIndex returns the flat index of table (r, colour index i)'s entry
// k of part 0 (Move), 1 (Wait) or 2 (Threat).
func flatIndex(r engine.Rule, i int, part int, k int) int32 {
	return int32((int(r)*2+i)*tableSize + part*NumCodes + k)
}

// NewSample extracts the features of position b with c to move and the
// target score of c. It reads b; b is unchanged.
func NewSample(b *engine.Board, c engine.Color, target float64) Sample {
	r := b.Rule()
	ci, oi := int((c-1)&1), int((2-c)&1)
	o := c.Opponent()
	counts := map[int32]int16{}
	var cnt [2][engine.NumThreats]int16
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := engine.PointAt(x, y)
			if b.At(p) != engine.Empty {
				continue
			}
			st := b.State(p)
			counts[flatIndex(r, ci, 0, int(codeOf[st.Patterns(c)]))]++
			counts[flatIndex(r, oi, 1, int(codeOf[st.Patterns(o)]))]--
			cnt[0][st.Threat(engine.Black)]++
			cnt[1][st.Threat(engine.White)]++
		}
	}
	counts[flatIndex(r, ci, 2, threatMask(&cnt, c))]++
	s := Sample{Rule: r, ToMove: c, Target: target}
	for k, v := range counts {
		if v != 0 {
			s.feats = append(s.feats, feature{k, v})
		}
	}
	return s
}

// flatten writes w into a flat vector.
func flatten(w *Weights) []float64 {
	out := make([]float64, int(engine.NumRules)*2*tableSize)
	for r := range engine.Rule(engine.NumRules) {
		for i := range 2 {
			t := &w.Tables[r][i]
			for k := range NumCodes {
				out[flatIndex(r, i, 0, k)] = float64(t.Move[k])
				out[flatIndex(r, i, 1, k)] = float64(t.Wait[k])
			}
			for k := range NumMasks {
				out[flatIndex(r, i, 2, k)] = float64(t.Threat[k])
			}
		}
	}
	return out
}

// unflatten rounds a flat vector into weights, each entry its residual
// plus its shared values.
func unflatten(v []float64, scale float64) *Weights {
	w := &Weights{Scale: scale}
	round := func(x float64) int32 { return clampWeight(int32(math.Round(x))) }
	var buf [16]int32
	for r := range engine.Rule(engine.NumRules) {
		for i := range 2 {
			t := &w.Tables[r][i]
			for k := range NumCodes {
				t.Move[k] = round(entryValue(v, flatIndex(r, i, 0, k), buf[:]))
				t.Wait[k] = round(entryValue(v, flatIndex(r, i, 1, k), buf[:]))
			}
			for k := range NumMasks {
				t.Threat[k] = round(entryValue(v, flatIndex(r, i, 2, k), buf[:]))
			}
		}
	}
	return w
}

// effective returns the entries' values (residual plus shared) of flat
// vector v, in a vector of the same layout.
func effective(v []float64) []float64 {
	out := append([]float64(nil), v...)
	var buf [16]int32
	for t := 0; t < len(v)/tableSize; t++ {
		for off := range tableEntries {
			idx := int32(t*tableSize + off)
			out[idx] = entryValue(v, idx, buf[:])
		}
	}
	return out
}

// predict is a sample's predicted win rate under the entries' values v
// (effective's).
func (s *Sample) predict(v []float64, scale float64) float64 {
	e := 0.0
	for _, f := range s.feats {
		e += v[f.idx] * float64(f.n)
	}
	return 1 / (1 + math.Exp(-e/scale))
}

// Loss returns the mean cross-entropy of the samples' targets under w,
// and the calibration error: over ten bins of predicted win rate, the
// mean of |mean prediction - mean target| weighted by the bin's share.
func Loss(w *Weights, samples []Sample) (loss, calibration float64) {
	v := flatten(w)
	return lossOf(v, w.Scale, samples)
}

func lossOf(v []float64, scale float64, samples []Sample) (loss, calibration float64) {
	if len(samples) == 0 {
		return 0, 0
	}
	var bins [10]struct{ n, pred, target float64 }
	for i := range samples {
		s := &samples[i]
		p := min(max(s.predict(v, scale), 1e-9), 1-1e-9)
		loss -= s.Target*math.Log(p) + (1-s.Target)*math.Log(1-p)
		b := &bins[min(9, int(p*10))]
		b.n++
		b.pred += p
		b.target += s.Target
	}
	for _, b := range bins {
		if b.n > 0 {
			calibration += math.Abs(b.pred-b.target) / float64(len(samples))
		}
	}
	return loss / float64(len(samples)), calibration
}

// TuneConfig sets the optimiser.
type TuneConfig struct {
	// Epochs is the number of full-batch Adam steps.
	Epochs int
	// Rate is Adam's step size, in evaluation units.
	Rate float64
	// L2 is the penalty on a weight's distance from its start, per unit².
	L2 float64
	// Progress, when not nil, is called every 50 epochs with the training
	// and validation losses.
	Progress func(epoch int, train, valid float64)
}

// Tune fits the weights to the training samples, starting from w, and
// returns the new weights (w is unchanged). Errors: no samples.
func Tune(w *Weights, train, valid []Sample, cfg TuneConfig) (*Weights, error) {
	if len(train) == 0 {
		return nil, errors.New("no training positions")
	}
	if cfg.Epochs <= 0 {
		cfg.Epochs = 500
	}
	if cfg.Rate <= 0 {
		cfg.Rate = 4
	}
	start := flatten(w)
	v := append([]float64(nil), start...)
	m := make([]float64, len(v))
	u := make([]float64, len(v))
	g := make([]float64, len(v))
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	n := float64(len(train))
	var buf [16]int32
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		clear(g)
		eff := effective(v)
		for i := range train {
			s := &train[i]
			d := (s.predict(eff, w.Scale) - s.Target) / w.Scale / n
			for _, f := range s.feats {
				x := d * float64(f.n)
				g[f.idx] += x
				for _, j := range expandIndex(f.idx, buf[:]) {
					g[j] += x
				}
			}
		}
		b1, b2 := 1-math.Pow(beta1, float64(epoch)), 1-math.Pow(beta2, float64(epoch))
		for j := range v {
			gj := g[j]
			if int(j)%tableSize < tableEntries {
				gj += cfg.L2 * (v[j] - start[j]) // the residuals only
			}
			if gj == 0 && m[j] == 0 {
				continue
			}
			m[j] = beta1*m[j] + (1-beta1)*gj
			u[j] = beta2*u[j] + (1-beta2)*gj*gj
			v[j] -= cfg.Rate * (m[j] / b1) / (math.Sqrt(u[j]/b2) + eps)
		}
		if cfg.Progress != nil && (epoch%50 == 0 || epoch == cfg.Epochs) {
			eff := effective(v)
			tl, _ := lossOf(eff, w.Scale, train)
			vl, _ := lossOf(eff, w.Scale, valid)
			cfg.Progress(epoch, tl, vl)
		}
	}
	return unflatten(v, w.Scale), nil
}

// GameSamples turns a finished game into samples: every position after
// the opening's moves where the side to move has no five-point and the
// opponent no five-point to block (the search decides those; they teach
// the evaluation nothing), with the target lambda·result + (1-lambda)·
// value, where value is the mover's win rate as the search saw it.
// Errors: a move that does not replay.
func GameSamples(r engine.Rule, size int, moves []engine.Point, values []float64, winner engine.Color, opening int,
	lambda float64) ([]Sample, error) {
	b, err := engine.NewBoard(size, r)
	if err != nil {
		return nil, err
	}
	var out []Sample
	for i, m := range moves {
		c := engine.Color(1 + i%2)
		if i >= opening && !b.LastMoveWon() && b.Count(c, engine.FivePoints) == 0 && b.Count(c.Opponent(), engine.FivePoints) == 0 {
			result := 0.5
			switch winner {
			case c:
				result = 1
			case c.Opponent():
				result = 0
			}
			v := result
			if i < len(values) {
				v = values[i]
			}
			out = append(out, NewSample(b, c, lambda*result+(1-lambda)*v))
		}
		if err := b.Put(m, c); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return out, nil
}
