package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gomoku/cmd/internal/match"
	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/datatest"
)

// brainSpec is this program's pbrain with args, run as a child process of
// the test binary (TestCLIChild).
func brainSpec(name string, args ...string) match.EngineSpec {
	data, _ := json.Marshal(append([]string{"pbrain"}, args...))
	return match.EngineSpec{Name: name, Argv: []string{"env", "GOMOKU_CLI_ARGS=" + string(data), os.Args[0], "-test.run=^TestCLIChild$"}}
}

// TestGomocup20 plays Gomocup's setting end to end: 20x20 freestyle from
// the first openings of c-gomoku-cli's 20x20 file, this program's two
// engines against each other through the protocol, on a match clock with
// no limit per move (timeout_turn 0), and then a swap2 game. No game may end
// by anything but a five or a full board: no timeout, illegal move or bad
// answer.
func TestGomocup20(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	name := filepath.Join(datatest.Shared(t), "raw", "gomocup-openings", "c-gomoku-cli_offset_freestyle_20x20.txt")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	opt := positions.DefaultOptions
	opt.Rule, opt.Size = engine.Freestyle, 20
	ps, errs := positions.Parse(name, data, positions.Auto, opt)
	if len(errs) > 0 || len(ps) < 2 {
		t.Fatalf("%d openings, %v", len(ps), errs)
	}
	var ops []match.Opening
	for _, p := range ps[:1] {
		if p.Size != 20 {
			t.Fatalf("%s: size %d", p.Label(), p.Size)
		}
		ops = append(ops, match.Opening{Name: p.Label(), Moves: p.Moves})
	}
	for _, cfg := range []match.Config{
		{Openings: ops, MatchTime: 12 * time.Second},
		{Swap2: true, TurnTime: 300 * time.Millisecond, Games: 2},
	} {
		cfg.Engines = [2]match.EngineSpec{brainSpec("ab", "--engine", "ab"), brainSpec("mcts", "--engine", "mcts")}
		cfg.Rule, cfg.Size, cfg.Tolerance, cfg.Threads, cfg.MemoryMiB = engine.Freestyle, 20, 100*time.Millisecond, 1, 64
		cfg.Concurrency = 2
		res, err := match.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range res.Games {
			if g.Reason != "five" && g.Reason != "full board" {
				t.Errorf("game %d (%s): %s by %s (%s)", g.Index, g.Opening, g.Winner, g.Reason, g.Detail)
			}
			if cfg.MatchTime > 0 && (g.TimeLeft[0] <= 0 || g.TimeLeft[1] <= 0) {
				t.Errorf("game %d: time left %v", g.Index, g.TimeLeft)
			}
			t.Logf("%s", g.Line(&cfg))
		}
	}
}
