// Package datatest finds test data for the tests of this module: the shared
// puzzle data (../shared/data beside the module root) and the repository's
// own testdata/ folder. It is imported by tests only.
package datatest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ModuleRoot returns the nearest folder at or above the working directory
// that holds go.mod. Go runs each package's tests in the package's folder,
// so this is the repository root.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("datatest: no go.mod at or above the test's folder")
		}
		dir = parent
	}
}

// Shared returns the path of ../shared/data beside the module root. When the
// folder is absent the test is skipped, unless the CI environment variable
// is set, in which case it fails: CI must see the data.
func Shared(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(ModuleRoot(t), "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		if !errors.Is(err, os.ErrNotExist) || os.Getenv("CI") != "" {
			t.Fatalf("datatest: shared data unavailable (CI=%q): %v", os.Getenv("CI"), err)
		}
		t.Skipf("datatest: shared data absent: %v", err)
	}
	return dir
}

// HasShared reports whether ../shared/data is present, without skipping.
func HasShared(t testing.TB) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(ModuleRoot(t), "..", "shared", "data"))
	return err == nil
}

// Local returns the path of the repository's own testdata/ folder.
func Local(t testing.TB) string {
	t.Helper()
	return filepath.Join(ModuleRoot(t), "testdata")
}
