package solver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/positions/datatest"
	"gomoku/solver/internal/cases"
)

// bookBench names lfz084 VCT puzzles that the portfolio wins in 10 to 30 s
// (measured 2026-12-01) and the threat limit that wins each; BenchmarkVCTBooks
// searches each at that limit alone for bookBenchNodes nodes.
var bookBench = []struct {
	label  string
	threat int
}{
	{"lfz-gaofei/146", 8},
	{"lfz-gaofei/141", 5},
	{"lfz-tengu/70", 2},
	{"lfz-gaofei/158", 2},
}

// bookBenchNodes caps each search of BenchmarkVCTBooks: a few seconds, the
// same nodes every run, so that ns/op measures the speed of a node.
const bookBenchNodes = 3_000_000

// BenchmarkVCTBooks runs VCT at one threat limit on hard puzzles of
// lfz084's books (bookBench) for bookBenchNodes nodes each; ns/op over
// bookBenchNodes is the time of a node (VCF nodes inside included).
func BenchmarkVCTBooks(b *testing.B) {
	dir := datatest.Shared(b)
	for _, c := range bookBench {
		file := "lfz-" + strings.Split(strings.TrimPrefix(c.label, "lfz-"), "/")[0] + ".jsonl"
		var pr Problem
		for _, p := range cases.Load(b, filepath.Join(dir, file)) {
			if p.Label() == c.label {
				pr = problem(b, p)
			}
		}
		if pr.Board == nil {
			b.Fatalf("%s not found", c.label)
		}
		b.Run(strings.TrimPrefix(c.label, "lfz-"), func(b *testing.B) {
			v := NewVCT(256)
			v.ThreatLimit = c.threat
			var nodes int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := v.Search(context.Background(), pr, Limits{Nodes: bookBenchNodes}, nil)
				if err != nil {
					b.Fatal(err)
				}
				nodes = res.Nodes
			}
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}
