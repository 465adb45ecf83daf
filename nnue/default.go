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
