package solver

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"gomoku/positions/datatest"
)

func TestScratchVCT(t *testing.T) {
	v := NewVCT(256)
	for _, p := range load(t, filepath.Join(datatest.Shared(t), "quintet.jsonl")) {
		if p.Puzzle.Task != "vct" || p.Puzzle.Heavy {
			continue
		}
		v.ThreatLimit = p.Puzzle.ThreatLimit
		pr := problem(t, p)
		res, err := v.Search(context.Background(), pr, Limits{Depth: p.Puzzle.Limit, Time: 20 * time.Second}, nil)
		fmt.Printf("%-40s T=%d L=%2d want %-6s got %-7s nodes %8d %12v proof %d %v err=%v\n", p.ID, p.Puzzle.ThreatLimit, p.Puzzle.Limit, p.Puzzle.Expect, res.Status, res.Nodes, res.Elapsed, res.ProofNodes, res.Line, err)
	}
}
