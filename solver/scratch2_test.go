package solver

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"gomoku/positions/datatest"
)

func TestScratchOne(t *testing.T) {
	v := NewVCT(256)
	for _, p := range load(t, filepath.Join(datatest.Shared(t), "quintet.jsonl")) {
		if p.ID != "quintet/vct_game_white_l12_1" {
			continue
		}
		v.ThreatLimit = p.Puzzle.ThreatLimit
		pr := problem(t, p)
		res, err := v.Search(context.Background(), pr, Limits{Depth: p.Puzzle.Limit, Time: 20 * time.Second}, nil)
		t.Log(res.Status, res.Nodes, res.Elapsed, err)
	}
}
