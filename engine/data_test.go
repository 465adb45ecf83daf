package engine

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"gomoku/positions/datatest"
)

// sharedData returns the path of ../shared/data (see datatest.Shared: the
// test is skipped when it is absent, unless CI is set).
func sharedData(t testing.TB) string {
	t.Helper()
	return datatest.Shared(t)
}

// record is the part of the shared JSONL schema the engine tests read.
type record struct {
	ID       string            `json:"id"`
	Size     int               `json:"size"`
	Rule     string            `json:"rule"`
	Black    []string          `json:"black"`
	White    []string          `json:"white"`
	Task     string            `json:"task"`
	Attacker string            `json:"attacker"`
	Expect   json.RawMessage   `json:"expect"`
	Kinds    map[string]string `json:"kinds"`
	Complete bool              `json:"complete"`
}

// readRecords reads a JSONL file of the shared schema.
func readRecords(t testing.TB, path string) []record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// board sets up a record's stones.
func (r record) board(t testing.TB) *Board {
	t.Helper()
	rule, err := ParseRule(r.Rule)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBoard(r.Size, rule)
	if err != nil {
		t.Fatal(err)
	}
	for c, stones := range [][]string{r.Black, r.White} {
		for _, s := range stones {
			p, err := ParsePoint(s, r.Size)
			if err != nil {
				t.Fatalf("%s: %v", r.ID, err)
			}
			if err := b.Put(p, Color(c+1)); err != nil {
				t.Fatalf("%s: %v", r.ID, err)
			}
		}
	}
	return b
}
