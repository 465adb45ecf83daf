package match

import (
	"strconv"
	"strings"
)

// Eval is what a brain reported of the position before its move, from its
// own side (the mover's): the value after the word "Eval" in the last
// MESSAGE line that has one, as Rapfi prints it ("MESSAGE Depth 14-23 |
// Eval -216 | Time 71ms | ..."). Known is false when no line had one.
// Score is in the brain's own units (Rapfi's win rate is the logistic of
// Score over its model's scaling factor, 250 for its classical
// evaluation). Mate, when not zero, is a forced win (positive) or loss
// (negative) in |Mate| plies, as "+M5" and "-M4" say; MateUnknown plies
// for Rapfi's "+M*" and "-M*" (a win or loss from its database, length
// not given). This program's own pbrain reports a win rate instead
// ("MESSAGE depth 7 ev 0.99 nodes ..."): Rate then holds it, 0..1, and
// IsRate is set.
type Eval struct {
	Known  bool
	Score  int
	Mate   int
	Rate   float64
	IsRate bool
}

// MateUnknown is Eval.Mate's magnitude for a forced result of unstated
// length.
const MateUnknown = 1 << 20

// maxScore bounds a plain score's magnitude: larger numbers are not read
// as evaluations.
const maxScore = 1 << 20

// LastEval returns the Eval of the last of msgs (MESSAGE lines, oldest
// first) that carries one, or an Eval with Known false.
func LastEval(msgs []string) Eval {
	for i := len(msgs) - 1; i >= 0; i-- {
		if e, ok := ParseEval(msgs[i]); ok {
			return e
		}
	}
	return Eval{}
}

// ParseEval reads the value after the word "Eval" (any case, the first
// such word followed by a value) in line: an integer of at most maxScore
// in magnitude, "+M<plies>", "-M<plies>", "+M*" or "-M*"; or the win rate
// after the word "ev" (this program's pbrain), a number from 0 to 1. ok is
// false when the line has none.
func ParseEval(line string) (e Eval, ok bool) {
	f := strings.Fields(line)
	for i := 0; i+1 < len(f); i++ {
		v := f[i+1]
		if f[i] == "ev" {
			r, err := strconv.ParseFloat(v, 64)
			if err != nil || !(r >= 0 && r <= 1) {
				continue
			}
			return Eval{Known: true, Rate: r, IsRate: true}, true
		}
		if !strings.EqualFold(f[i], "eval") {
			continue
		}
		if len(v) >= 2 && (v[0] == '+' || v[0] == '-') && (v[1] == 'M' || v[1] == 'm') {
			sign := 1
			if v[0] == '-' {
				sign = -1
			}
			if v[2:] == "*" {
				return Eval{Known: true, Mate: sign * MateUnknown}, true
			}
			n, err := strconv.Atoi(v[2:])
			if err != nil || n < 0 || n >= MateUnknown {
				continue
			}
			return Eval{Known: true, Mate: sign * max(n, 1)}, true
		}
		n, err := strconv.Atoi(v)
		if err != nil || n > maxScore || n < -maxScore {
			continue
		}
		return Eval{Known: true, Score: n}, true
	}
	return Eval{}, false
}
