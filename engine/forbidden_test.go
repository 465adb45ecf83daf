package engine

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
)

// TestForbiddenFixtures checks every forbidden-point case of the shared data
// (mintaka's fixtures and the tk benchmark): the full set where the record
// says it is complete, and each listed point with its kind in every case.
func TestForbiddenFixtures(t *testing.T) {
	data := sharedData(t)
	n := 0
	for _, file := range []string{"mintaka-forbidden.jsonl", "renju-benchmark-tk.jsonl"} {
		for i, r := range readRecords(t, filepath.Join(data, file)) {
			if r.Task != "forbidden" {
				continue
			}
			n++
			var expect []string
			if err := json.Unmarshal(r.Expect, &expect); err != nil {
				t.Fatalf("%s: %v", r.ID, err)
			}
			b := r.board(t)
			got := map[string]string{}
			var gotPoints []string
			for _, fp := range b.ForbiddenPoints() {
				got[fp.Point.String()] = fp.Kind.String()
				gotPoints = append(gotPoints, fp.Point.String())
			}
			kindName := map[string]string{"3": "double-three", "4": "double-four", "6": "overline"}
			for _, p := range expect {
				if want := kindName[r.Kinds[p]]; got[p] != want {
					t.Errorf("%s #%d (%s): %s is %q, want %q", file, i, r.ID, p, got[p], want)
				}
			}
			if r.Complete {
				slices.Sort(expect)
				slices.Sort(gotPoints)
				if !slices.Equal(expect, gotPoints) {
					t.Errorf("%s (%s): forbidden points %v, want exactly %v", file, r.ID, gotPoints, expect)
				}
			}
		}
	}
	if n != 20 {
		t.Errorf("read %d forbidden cases, want 20", n)
	}
}

// TestBlockCases checks the tk benchmark's "block" cases exactly: the forced
// block is the threatening side's five-point, and there is just one.
func TestBlockCases(t *testing.T) {
	n := 0
	for _, r := range readRecords(t, filepath.Join(sharedData(t), "renju-benchmark-tk.jsonl")) {
		if r.Task != "block" {
			continue
		}
		n++
		var expect []string
		if err := json.Unmarshal(r.Expect, &expect); err != nil {
			t.Fatal(err)
		}
		att, err := ParseColor(r.Attacker)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range r.board(t).Points(att, FivePoints, nil) {
			got = append(got, p.String())
		}
		if !slices.Equal(got, expect) {
			t.Errorf("%s: forced blocks %v, want %v", r.ID, got, expect)
		}
	}
	if n != 2 {
		t.Errorf("%d block cases, want 2", n)
	}
}
