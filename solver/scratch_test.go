package solver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/positions"
)

func TestScratchVCF(t *testing.T) {
	files, _ := filepath.Glob("../../shared/data/*.jsonl")
	v := NewVCF(64)
	for _, f := range files {
		data, _ := os.ReadFile(f)
		ps, _ := positions.Parse(f, data, positions.Auto, positions.DefaultOptions)
		n, solved, wrong := 0, 0, 0
		var times []time.Duration
		var worst string
		var worstT time.Duration
		for _, p := range ps {
			if p.Puzzle == nil || p.Puzzle.Task != "vcf" {
				continue
			}
			n++
			b, err := p.Board(p.Rule)
			if err != nil {
				t.Fatal(err)
			}
			pr := Problem{Board: b, ToMove: p.ToMove, Attacker: p.Attacker}
			res, err := v.Search(context.Background(), pr, Limits{Depth: p.Puzzle.Limit, Time: 10 * time.Second}, nil)
			if err != nil {
				fmt.Println(p.ID, err)
				continue
			}
			times = append(times, res.Elapsed)
			if res.Elapsed > worstT {
				worstT, worst = res.Elapsed, p.ID
			}
			want := StatusWin
			if p.Puzzle.Expect == "no-win" {
				want = StatusNoWin
			}
			if res.Status == want {
				solved++
			} else {
				wrong++
				fmt.Println("MISS", p.ID, res.Status, res.Nodes, res.Elapsed, p.Puzzle.Limit)
			}
			if len(ps) < 50 {
				fmt.Println("  ", p.ID, res.Status, res.Nodes, res.Elapsed, len(res.Line), res.End)
			}
		}
		if n == 0 {
			continue
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		fmt.Printf("%s: %d/%d median %v worst %v (%s)\n", filepath.Base(f), solved, n, times[len(times)/2], worstT, worst)
	}
	_ = engine.Black
}
