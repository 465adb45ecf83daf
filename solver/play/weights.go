package play

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"gomoku/engine"
)

// The weights file: JSON,
//
//	{"format": "gomoku-eval", "version": 1, "scale": S,
//	 "source": "how the weights were made (tuner, data, seed)",
//	 "tables": [{"rule": "renju", "colour": "black",
//	             "move": [NumCodes ints], "wait": [NumCodes ints],
//	             "threat": [NumMasks ints]}, ...]}
//
// one table per rule and colour (six in all; a rule or colour left out
// keeps zeros). Code i is the i-th sorted 4-tuple of line patterns
// (CodePatterns); mask bits are threatMask's. Values are in the
// evaluation's units: the win rate of the side to move is
// 1/(1+exp(-E/scale)).

// weightsJSON is the file form of Weights.
type weightsJSON struct {
	Format  string      `json:"format"`
	Version int         `json:"version"`
	Scale   float64     `json:"scale"`
	Source  string      `json:"source,omitempty"`
	Tables  []tableJSON `json:"tables"`
}

type tableJSON struct {
	Rule   string  `json:"rule"`
	Colour string  `json:"colour"`
	Move   []int32 `json:"move"`
	Wait   []int32 `json:"wait"`
	Threat []int32 `json:"threat"`
}

const (
	weightsFormat  = "gomoku-eval"
	weightsVersion = 1
)

// ErrWeights: a weights file that is not one this program reads.
var ErrWeights = errors.New("not a gomoku-eval weights file")

// MarshalJSON writes the weights in their file form (with source, when
// Source is set by the caller through MarshalWeights).
func (w *Weights) MarshalJSON() ([]byte, error) { return MarshalWeights(w, "") }

// MarshalWeights writes w in the file form, with source saying how the
// weights were made.
func MarshalWeights(w *Weights, source string) ([]byte, error) {
	out := weightsJSON{Format: weightsFormat, Version: weightsVersion, Scale: w.Scale, Source: source}
	for r := engine.Rule(0); r < engine.NumRules; r++ {
		for i, c := range []engine.Color{engine.Black, engine.White} {
			t := &w.Tables[r][i]
			out.Tables = append(out.Tables, tableJSON{Rule: r.String(), Colour: c.String(),
				Move: t.Move[:], Wait: t.Wait[:], Threat: t.Threat[:]})
		}
	}
	// one line per array, so that a diff of two weight files reads
	var buf []byte
	head, err := json.Marshal(struct {
		Format  string  `json:"format"`
		Version int     `json:"version"`
		Scale   float64 `json:"scale"`
		Source  string  `json:"source,omitempty"`
	}{out.Format, out.Version, out.Scale, out.Source})
	if err != nil {
		return nil, err
	}
	buf = append(buf, head[:len(head)-1]...)
	buf = append(buf, ",\n\"tables\": [\n"...)
	for i, t := range out.Tables {
		if i > 0 {
			buf = append(buf, ",\n"...)
		}
		buf = fmt.Appendf(buf, "{\"rule\": %q, \"colour\": %q,\n", t.Rule, t.Colour)
		for j, arr := range [][]int32{t.Move, t.Wait, t.Threat} {
			a, err := json.Marshal(arr)
			if err != nil {
				return nil, err
			}
			buf = fmt.Appendf(buf, " %q: %s", [3]string{"move", "wait", "threat"}[j], a)
			if j < 2 {
				buf = append(buf, ",\n"...)
			}
		}
		buf = append(buf, "}"...)
	}
	buf = append(buf, "\n]}\n"...)
	return buf, nil
}

// UnmarshalJSON reads the file form. Errors wrap ErrWeights.
func (w *Weights) UnmarshalJSON(data []byte) error {
	var in weightsJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("%w: %v", ErrWeights, err)
	}
	if in.Format != weightsFormat || in.Version != weightsVersion {
		return fmt.Errorf("%w: format %q version %d", ErrWeights, in.Format, in.Version)
	}
	if in.Scale <= 0 {
		return fmt.Errorf("%w: scale %g", ErrWeights, in.Scale)
	}
	var out Weights
	out.Scale = in.Scale
	var seen [len(out.Tables)][2]bool
	for _, t := range in.Tables {
		r, err := engine.ParseRule(t.Rule)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrWeights, err)
		}
		c, err := engine.ParseColor(t.Colour)
		if err != nil || c == engine.Empty {
			return fmt.Errorf("%w: colour %q", ErrWeights, t.Colour)
		}
		if len(t.Move) != NumCodes || len(t.Wait) != NumCodes || len(t.Threat) != NumMasks {
			return fmt.Errorf("%w: %s %s: want %d move, %d wait and %d threat values", ErrWeights, t.Rule, t.Colour,
				NumCodes, NumCodes, NumMasks)
		}
		if int(r) >= len(seen) || seen[r][c-1] {
			return fmt.Errorf("%w: %s %s: a table given twice", ErrWeights, t.Rule, t.Colour)
		}
		seen[r][c-1] = true
		dst := &out.Tables[r][c-1]
		for i := range NumCodes {
			dst.Move[i], dst.Wait[i] = clampWeight(t.Move[i]), clampWeight(t.Wait[i])
		}
		for i := range NumMasks {
			dst.Threat[i] = clampWeight(t.Threat[i])
		}
	}
	// every rule and colour: a missing table would value every position
	// 0.5 without a word
	for r := range seen {
		for c := range seen[r] {
			if !seen[r][c] {
				return fmt.Errorf("%w: no table for %v %v (want one per rule and colour)", ErrWeights, engine.Rule(r),
					engine.Color(c+1))
			}
		}
	}
	*w = out
	return nil
}

// clampWeight bounds a weight so that no sum over a board overflows or
// reaches the win scores: 400 cells of ±2^16 stay far below EvalMax·64.
func clampWeight(v int32) int32 { return max(-1<<16, min(1<<16, v)) }

// ReadWeights reads a weights file. Errors: the file's, ErrWeights.
func ReadWeights(path string) (*Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w := new(Weights)
	if err := json.Unmarshal(data, w); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

//go:embed weights.json
var defaultWeightsJSON []byte

var (
	defaultWeights     *Weights
	defaultWeightsOnce sync.Once
)

// DefaultWeights returns the weights embedded in the program
// (solver/play/weights.json, made by `gomoku tune`; see docs/play.md's
// Evaluation section for how). They are shared: do not change them.
func DefaultWeights() *Weights {
	defaultWeightsOnce.Do(func() {
		w := new(Weights)
		if err := json.Unmarshal(defaultWeightsJSON, w); err != nil {
			// the embedded file is tested (TestDefaultWeights); fall back to
			// the hand-set weights rather than fail at run time
			w = HandWeights()
		}
		defaultWeights = w
	})
	return defaultWeights
}

// HandWeights returns weights set by hand from the line-length scores of
// the move heuristic (heuristic.go): the starting point of tuning, before
// any game was played. A cell's code is worth its attack score for the
// side to move and two thirds of it for the side that waits; the threat
// table says who wins by force: a five for the opponent or a straight four
// or four-three of the side to move is nearly won, and so on.
func HandWeights() *Weights {
	w := &Weights{Scale: 600}
	for r := range engine.Rule(engine.NumRules) {
		for i := range 2 {
			t := &w.Tables[r][i]
			for code := range NumCodes {
				v := int32(0)
				for _, p := range CodePatterns(code) {
					v += min(attackScore[p], 400) / 4
				}
				t.Move[code], t.Wait[code] = v, v*2/3
			}
			for m := range NumMasks {
				v := int32(0)
				switch {
				case m&1 != 0: // the opponent has a five-point we cannot answer with one of ours
					v = -3000
				case m&0b10 != 0, m&0b1000 != 0: // our straight four or four-three
					v = 3000
				case m&0b100 != 0: // the opponent's straight four
					v = -2500
				case m&0b10000 != 0 && m&0b1100000 != 0: // our four and three
					v = 1200
				case m&0b10000000 != 0: // the opponent's four-three
					v = -1500
				case m&0b100000 != 0, m&0b1000000 != 0: // our three
					v = 600
				case m&0b1000000000 != 0: // the opponent's double three
					v = -400
				}
				t.Threat[m] = v
			}
		}
	}
	return w
}
