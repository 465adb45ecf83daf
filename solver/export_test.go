package solver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver/store"
)

// exportFixture is a store holding wins, a no-win beside a win, attempts
// (one a failed deepening's, with levels) and an evaluation.
func exportFixture(t *testing.T) *Store {
	t.Helper()
	st, err := OpenStore("", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if _, err := st.put(testKey(i), testEntry(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.put(testKey(3), storeEntry{status: StatusNoWin, depth: 9}); err != nil {
		t.Fatal(err)
	}
	for i := 20; i < 25; i++ {
		if _, err := st.putAttempt(testKey(i), Attempt{Time: time.Duration(i) * time.Second, Nodes: int64(i) << 20}); err != nil {
			t.Fatal(err)
		}
	}
	dk := testKey(25)
	dk.mode, dk.passes = modeDeepen, true
	if _, err := st.putAttempt(dk, Attempt{Time: time.Minute, Levels: 3}); err != nil {
		t.Fatal(err)
	}
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	b.Play(engine.PointAt(7, 7), engine.Black)
	if err := st.PutEvaluation(b, engine.White, Evaluation{Value: 0.25, PV: []engine.Point{engine.PointAt(8, 8)}}); err != nil {
		t.Fatal(err)
	}
	return st
}

// entries returns every key and value of the store, in key order.
func entries(t *testing.T, st *Store) []string {
	t.Helper()
	if err := st.Flush(); err != nil {
		t.Fatal(err)
	}
	var out []string
	if err := st.db.Each(nil, func(k, v []byte) error {
		out = append(out, fmt.Sprintf("%x=%x", k, v))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStoreExportImport: a store exported and imported into an empty one
// gives the same entries; imported again, nothing is kept (nothing is
// stronger); imported into a store holding a stronger no-win, that one
// stays.
func TestStoreExportImport(t *testing.T) {
	src := exportFixture(t)
	defer src.Close()
	var buf bytes.Buffer
	n, err := src.Export(context.Background(), &buf, ExportOptions{})
	if err != nil || n != 28 {
		t.Fatalf("export: %d entries, %v; want 28", n, err)
	}
	dst, err := OpenStore(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	is, err := dst.Import(context.Background(), bytes.NewReader(buf.Bytes()), "x.jsonl")
	if err != nil || is.Read != 28 || is.Kept != 28 || is.Bad != 0 || is.Corrupt != 0 {
		t.Fatalf("import: %+v, %v", is, err)
	}
	want, got := entries(t, src), entries(t, dst)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("imported store differs:\n%v\nwant\n%v", got, want)
	}
	if is, err = dst.Import(context.Background(), bytes.NewReader(buf.Bytes()), "x.jsonl"); err != nil || is.Kept != 1 {
		// the evaluation is replaced (the last one read stands); no result is stronger
		t.Errorf("second import: %+v, %v; want 1 kept (the evaluation)", is, err)
	}
	if _, err := dst.put(testKey(3), storeEntry{status: StatusNoWin, depth: 12}); err != nil {
		t.Fatal(err)
	}
	if _, err := dst.Import(context.Background(), bytes.NewReader(buf.Bytes()), "x.jsonl"); err != nil {
		t.Fatal(err)
	}
	if e, ok, _ := dst.get(testKey(3), StatusNoWin); !ok || e.depth != 12 {
		t.Errorf("a weaker imported no-win replaced the stronger one: %+v", e)
	}
	if a, ok, _ := dst.attempt(testKey(22)); !ok || a.Time != 22*time.Second || a.Nodes != 22<<20 {
		t.Errorf("attempt 22 after import: %+v %v", a, ok)
	}
	dk := testKey(25)
	dk.mode, dk.passes = modeDeepen, true
	if a, ok, _ := dst.attempt(dk); !ok || a != (Attempt{Time: time.Minute, Levels: 3}) {
		t.Errorf("the failed deepening after import: %+v %v", a, ok)
	}
}

// TestStoreImportBad: each bad line is reported with its file, line and
// column and left out, and the good lines around it are imported; a file
// without the header is refused.
func TestStoreImportBad(t *testing.T) {
	src := exportFixture(t)
	defer src.Close()
	var buf bytes.Buffer
	if _, err := src.Export(context.Background(), &buf, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	// a flipped value byte: the checksum fails
	flip := []byte(lines[2])
	i := bytes.Index(flip, []byte(`"value":"`)) + len(`"value":"`) + 6
	if flip[i] == 'A' {
		flip[i] = 'B'
	} else {
		flip[i] = 'A'
	}
	bad := []string{
		`{"key":"01", "value":"AA=="}`,                             // short key
		`{"key":"zz0102030405060708090a0b0c0d0e","value":"AA=="}`,  // not hex
		`{"key":"` + strings.Repeat("01", 15) + `","value":"%%%"}`, // not base64
		`{"key": 12`,      // broken JSON
		`not json at all`, // no JSON
		`{"key":"` + strings.Repeat("00", 15) + `","value":"AAAA"}`, // an internal key
	}
	text := strings.Join(append(append([]string{lines[0], lines[1], string(flip)}, bad...), lines[3:]...), "\n")
	dst, err := OpenStore("", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	is, err := dst.Import(context.Background(), strings.NewReader(text), "bad.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if is.Bad != 5 || is.Corrupt != 2 || is.Read != 29 || is.Kept != 27 {
		t.Errorf("import: %+v; want 5 bad lines, 2 corrupt (the flipped value, the internal key), 27 kept", is)
	}
	wantAt := []string{"bad.jsonl:4:8:", "bad.jsonl:5:8:", "bad.jsonl:6:49:", "bad.jsonl:7:10:", "bad.jsonl:8:2:"}
	for k, e := range is.Errors {
		var pe *ImportError
		if !errors.As(e, &pe) || k >= len(wantAt) || !strings.HasPrefix(e.Error(), wantAt[k]) {
			t.Errorf("error %d: %v, want it at %s", k, e, wantAt[min(k, len(wantAt)-1)])
		}
	}
	for _, head := range []string{"", lines[1], `{"format":"gomoku-store","version":2}`} {
		_, err := dst.Import(context.Background(), strings.NewReader(head+"\n"+lines[1]), "h.jsonl")
		if !errors.Is(err, ErrExportFormat) || !strings.HasPrefix(err.Error(), "h.jsonl:1:") {
			t.Errorf("header %q: %v, want ErrExportFormat at h.jsonl:1", head, err)
		}
	}
	if _, err := dst.Import(context.Background(), strings.NewReader(""), "empty"); !errors.Is(err, ErrExportFormat) {
		t.Errorf("empty file: %v, want ErrExportFormat", err)
	}
}

// FuzzStoreImport: whatever follows the header, Import neither panics nor
// fails (bad lines are counted and reported), and every line is counted
// once.
func FuzzStoreImport(f *testing.F) {
	f.Add([]byte(`{"key":"010f0102030405060708090a0b0c0d01","value":"AA=="}`))
	f.Add([]byte("{\"key\":\"\"}\n\n{}"))
	f.Add([]byte(`{"key":"010f0102030405060708090a0b0c0d03","value":"AQIDBA=="}`))
	st, err := OpenStore("", store.Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	f.Fuzz(func(t *testing.T, body []byte) {
		text := `{"format":"gomoku-store","version":1}` + "\n" + string(body)
		is, err := st.Import(context.Background(), strings.NewReader(text), "fuzz")
		if err != nil {
			if strings.Contains(err.Error(), "token too long") {
				return
			}
			t.Fatal(err)
		}
		lines := 0
		for _, l := range strings.Split(string(body), "\n") {
			if len(bytes.TrimSpace([]byte(l))) > 0 {
				lines++
			}
		}
		if is.Read+is.Bad != lines {
			t.Errorf("%d lines, %+v", lines, is)
		}
	})
}
