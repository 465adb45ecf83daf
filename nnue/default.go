package nnue

import (
	"bytes"
	"embed"
	"sync"

	"gomoku/engine"
)

//go:embed weights
var shipped embed.FS

var (
	defaultNets     [engine.NumRules]*Net
	defaultNetsOnce sync.Once
)

// Default returns the network shipped for rule r (nnue/weights/<rule>.nnue,
// embedded), or nil if none is shipped or it does not read. It is shared:
// do not change it.
func Default(r engine.Rule) *Net {
	defaultNetsOnce.Do(func() {
		for rule := range engine.Rule(engine.NumRules) {
			data, err := shipped.ReadFile("weights/" + rule.String() + ".nnue")
			if err != nil {
				continue
			}
			if n, err := Read(bytes.NewReader(data)); err == nil && n.Rule == rule {
				defaultNets[rule] = n
			}
		}
	})
	if r >= engine.NumRules {
		return nil
	}
	return defaultNets[r]
}

// Preferred reports whether the shipped network of rule r is the default
// evaluation of the best-move searches (the commands' --eval auto): true
// where 200-game matches at 300 ms a move on the balanced openings
// (`gomoku match`, one thread each, colours swapped) measured it stronger
// than the pattern tables in both builds. Freestyle, third generation,
// 2026-11-29: +61 Elo [+14, +112] portable and +70 [+23, +121] with
// GOEXPERIMENT=simd. Renju, fourth generation, the same day: +28 [−20,
// +77] portable and +49 [+1, +98] with GOEXPERIMENT=simd (the third:
// −16 and +35), so the tables stay; again on 2026-11-30, after the
// network's node rate doubled with AVX2: −2 [−50, +47] and +35 [−13, +84].
// Standard has no network.
func Preferred(r engine.Rule) bool {
	return r == engine.Freestyle && Default(r) != nil
}
