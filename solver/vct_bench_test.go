package solver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/engine"
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

// allMovesBench is a freestyle position from D6's proof (h8 h9 i8, then
// white i7, black j10, white j8, black k9, white k11; black to move) that
// proof-number search over all moves does not decide within
// allMovesBenchNodes, so every run expands the same nodes.
var allMovesBench = []string{"h8", "h9", "i8", "i7", "j10", "j8", "k9", "k11"}

// allMovesBenchNodes caps each search of BenchmarkAllMoves (a few seconds).
const allMovesBenchNodes = 300_000

// attackerToMove is openingProblem with the side to move attacking.
func attackerToMove(b testing.TB, moves ...string) Problem {
	pr := openingProblem(b, engine.Freestyle, moves...)
	pr.Attacker = pr.ToMove
	return pr
}

// BenchmarkAllMoves runs proof-number search over all moves (VCT.AllMoves,
// solve --mode win's last stage and prove's child search) on allMovesBench
// for allMovesBenchNodes nodes; ns/op over the nodes is the time of a node.
func BenchmarkAllMoves(b *testing.B) {
	pr := attackerToMove(b, allMovesBench...)
	v := NewVCT(256)
	v.AllMoves = true
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := v.Search(context.Background(), pr, Limits{Nodes: allMovesBenchNodes}, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes = res.Nodes
	}
	b.ReportMetric(float64(nodes), "nodes/op")
}

// BenchmarkQuietMoves orders the quiet moves of allMovesBench's position
// (quietMoves: nearest stone first, then the windows' potential).
func BenchmarkQuietMoves(b *testing.B) {
	r := allMovesRun(b)
	threats := r.threatCandidates(nil, 3)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.quietMoves(threats)
	}
}

// BenchmarkThreatCandidates lists the attacker's threat candidates of
// allMovesBench's position at threat limit 3 (prove's child searches), the
// board scan every expanded attacker node makes.
func BenchmarkThreatCandidates(b *testing.B) {
	r := allMovesRun(b)
	buf := make([]engine.Point, 0, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = r.threatCandidates(buf[:0], 3)
	}
}

// allMovesRun returns a search run (small tables, no limits) on
// allMovesBench's position, the attacker to move: the setup of the
// move-list benchmarks.
func allMovesRun(b testing.TB) *vctRun {
	pr := attackerToMove(b, allMovesBench...)
	return NewVCT(16).newRun(pr.Board, pr.Attacker, NewBudget(context.Background(), Limits{}, nil))
}
