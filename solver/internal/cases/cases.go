// Package cases loads the puzzle cases the tests of the solver and its
// rooms share (quintet's VCF and VCT cases), from the shared data or the
// repository's sample. It is imported by tests only.
package cases

import (
	"os"
	"path/filepath"
	"testing"

	"gomoku/positions"
	"gomoku/positions/datatest"
)

// Load reads the positions of a file, failing the test on any bad record.
func Load(t testing.TB, path string) []*positions.Position {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps, errs := positions.Parse(path, data, positions.Auto, positions.DefaultOptions)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", path, errs)
	}
	return ps
}

// Quintet returns quintet's cases of one task, "vcf" or "vct": all of them
// from the shared data (6 VCF, 32 VCT; another count fails the test), or
// the sample in testdata/quintet when the shared data is absent (outside
// CI; under CI the test fails).
func Quintet(t testing.TB, task string) []*positions.Position {
	t.Helper()
	want := map[string]int{"vcf": 6, "vct": 32}[task]
	var ps []*positions.Position
	if datatest.HasShared(t) {
		for _, p := range Load(t, filepath.Join(datatest.Shared(t), "quintet.jsonl")) {
			if p.Puzzle.Task == task {
				ps = append(ps, p)
			}
		}
		if len(ps) != want {
			t.Fatalf("%d quintet %s cases, want %d", len(ps), task, want)
		}
		return ps
	}
	if os.Getenv("CI") != "" {
		datatest.Shared(t) // under CI the shared data must be there: this fails
	}
	// without it, the sample in testdata/ (quintet's MIT-licensed cases)
	files, _ := filepath.Glob(filepath.Join(datatest.Local(t), "quintet", task+"_*.txt"))
	for _, f := range files {
		ps = append(ps, Load(t, f)...)
	}
	if len(ps) == 0 {
		t.Fatalf("no quintet %s cases in testdata", task)
	}
	return ps
}
