package play

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
)

func TestZZProf(t *testing.T) {
	files, _ := filepath.Glob("/tmp/m4r/*.psq")
	slv := solver.NewSolver(64)
	slv.OneSearch, slv.ThreatLimit = true, solver.MaxAutoThreatLimit
	ab := NewAlphaBeta(64)
	ab.Threads = 1
	var kinds = map[Kind]int{}
	var searchT, total time.Duration
	n := 0
	for _, f := range files[:20] {
		data, _ := os.ReadFile(f)
		ps, _ := positions.Parse(f, data, positions.Detect(data), positions.Options{})
		full, err := ps[0].Board(engine.Renju)
		if err != nil {
			t.Fatal(err)
		}
		hist, cols := full.History()
		for _, ply := range []int{8, 14, 20, 26} {
			if ply >= len(hist)-2 {
				continue
			}
			b, _ := engine.NewBoard(15, engine.Renju)
			for i := 0; i < ply; i++ {
				b.Play(hist[i], cols[i])
			}
			c := cols[ply]
			rep, err := Best(context.Background(), slv, b, c, ab, solver.Limits{Time: 260 * time.Millisecond, MemoryMiB: 64}, 1, nil)
			if err != nil {
				continue
			}
			kinds[rep.Kind]++
			searchT += rep.SearchTime
			total += rep.Elapsed
			n++
		}
	}
	fmt.Println(n, kinds, "search", searchT/time.Duration(n), "total", total/time.Duration(n))
}
