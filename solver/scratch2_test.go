package solver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gomoku/positions/datatest"
)

func TestScratchLFZ(t *testing.T) {
	secs, _ := strconv.Atoi(os.Getenv("VCT_SECS"))
	files, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "lfz-*.jsonl"))
	s := NewSolver(512)
	for _, f := range files {
		for _, p := range load(t, f) {
			if p.Puzzle.Task != "vct" {
				continue
			}
			pr := problem(t, p)
			a, err := s.Solve(context.Background(), pr, ModeVCT, Limits{Time: time.Duration(secs) * time.Second}, nil)
			fmt.Printf("%-24s %-7v T=%d %9d %12v %d %v\n", p.ID, a.Status, a.ThreatLimit, a.Nodes, a.Elapsed.Round(time.Microsecond), len(a.Line), err)
		}
	}
}
