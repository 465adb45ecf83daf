package solver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku/positions/datatest"
)

func TestScratchSome(t *testing.T) {
	want := map[string]bool{}
	for _, id := range strings.Fields(os.Getenv("IDS")) {
		want[id] = true
	}
	T, _ := strconv.Atoi(os.Getenv("VCT_T"))
	secs, _ := strconv.Atoi(os.Getenv("VCT_SECS"))
	files, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "lfz-*.jsonl"))
	v := NewVCT(256)
	v.ThreatLimit = T
	for _, f := range files {
		for _, p := range load(t, f) {
			if !want[p.ID] {
				continue
			}
			pr := problem(t, p)
			res, err := v.Search(context.Background(), pr, Limits{Time: time.Duration(secs) * time.Second}, nil)
			fmt.Printf("T=%d %-24s %-7v %9d %12v %v %v\n", T, p.ID, res.Status, res.Nodes, res.Elapsed.Round(time.Microsecond), len(res.Line), err)
		}
	}
}
