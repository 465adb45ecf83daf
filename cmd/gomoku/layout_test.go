package main

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gomoku/positions/datatest"
)

// TestLayout pins the import graph of the module's packages (their
// non-test files): the arrows point one way, toward engine/. A package may
// import only the module packages listed for it; a new package must be
// listed here, with its arrows, before it builds into the tool.
func TestLayout(t *testing.T) {
	allowed := map[string][]string{
		"engine":                 {},
		"positions":              {"engine"},
		"positions/datatest":     {},
		"solver/proof":           {"engine"},
		"solver/store":           {},
		"solver":                 {"engine", "solver/proof", "solver/store"},
		"solver/internal/cases":  {"positions", "positions/datatest"},
		"solver/play":            {"engine", "solver", "solver/proof", "nnue"},
		"nnue":                   {"engine"},
		"nnue/train":             {"engine", "nnue"},
		"book":                   {"engine", "solver/store"},
		"analysis":               {"engine", "positions", "solver", "solver/play"},
		"cmd/internal/gomocup":   {"engine"},
		"cmd/internal/match":     {"engine", "cmd/internal/gomocup"},
		"cmd/internal/report":    {"engine", "positions/svg"},
		"cmd/internal/teacher":   {"engine", "cmd/internal/match", "nnue/train"},
		"cmd/internal/fakebrain": {},
		"cmd/internal/label":     {"engine", "cmd/internal/match", "cmd/internal/teacher", "nnue/train", "solver", "solver/play"},
		"positions/svg":          {"engine"},
		"cmd/gomoku": {"engine", "positions", "solver", "solver/proof", "solver/store", "solver/play", "book", "analysis",
			"cmd/internal/gomocup", "cmd/internal/match", "cmd/internal/report", "cmd/internal/teacher", "cmd/internal/label", "positions/svg", "nnue",
			"nnue/train"},
	}
	root := datatest.ModuleRoot(t)
	// every package of the module is listed
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		if _, err := build.ImportDir(path, 0); err == nil {
			if _, ok := allowed[filepath.ToSlash(rel)]; !ok && rel != "." {
				t.Errorf("package %s is not in the layout's list", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, ok := range allowed {
		pkg, err := build.ImportDir(filepath.Join(root, dir), 0)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		for _, imp := range pkg.Imports {
			rel, mine := strings.CutPrefix(imp, "gomoku/")
			if mine && !slices.Contains(ok, rel) {
				t.Errorf("%s imports %s, which its arrows do not allow", dir, rel)
			}
		}
	}
}
