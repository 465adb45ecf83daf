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
// embedded), or nil if none is shipped or it does not read. Standard, which
// has none of its own, borrows freestyle's (the same parameters, its Rule
// set to standard): exactly five and five or more differ only where a
// line could become an overline, which the search and the board's threat
// classes, the network's inputs beside the line shapes, judge by the rule.
// It is shared: do not change it.
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
		if fs := defaultNets[engine.Freestyle]; fs != nil && defaultNets[engine.Standard] == nil {
			borrowed := *fs
			borrowed.Rule = engine.Standard
			defaultNets[engine.Standard] = &borrowed
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
// than the pattern tables in the build that runs. Freestyle, third
// generation, 2026-11-29: +61 Elo [+14, +112] portable and +70 [+23,
// +121] with GOEXPERIMENT=simd. Renju, fourth generation: with the vector
// rows (SIMD: a GOEXPERIMENT=simd build on a CPU with AVX2) +49 [+1, +98]
// on 2026-11-29, +35 [−13, +84] and +61 [+14, +112] on 2026-11-30 (600
// games: 56.9%, +48), so it is renju's default there; portable +28 [−20,
// +77], −2 [−50, +47] and +12 [−36, +61] (600 games: 51.8%, +13), so the
// tables stay renju's default in the portable build. Standard, with
// freestyle's network (Default), 2026-11-30: +158 [+108, +215] portable
// and +123 [+74, +177] with GOEXPERIMENT=simd.
func Preferred(r engine.Rule) bool {
	if Default(r) == nil {
		return false
	}
	switch r {
	case engine.Freestyle, engine.Standard:
		return true
	case engine.Renju:
		return SIMD
	}
	return false
}
