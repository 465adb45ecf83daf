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
	mib, _ := strconv.Atoi(os.Getenv("VCT_MIB"))
	files, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "lfz-*.jsonl"))
	s := NewSolver(mib)
	for _, f := range files {
		for _, p := range load(t, f) {
			if p.Puzzle.Task != "vct" {
				continue
			}
			a, err := s.Solve(context.Background(), problem(t, p), ModeVCT, Limits{Time: time.Duration(secs) * time.Second}, nil)
			fmt.Printf("%-24s %-7v T=%d %9d %12v %d %v\n", p.ID, a.Status, a.ThreatLimit, a.Nodes, a.Elapsed.Round(time.Microsecond), len(a.Line), err)
		}
	}
}
