package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku/positions/datatest"
)

// TestBookMergeRepeats: a shard merged twice, with a copy of itself, or
// into a book that holds it already is refused (exit 2): its games would
// be counted twice. Before, `book merge --book M S S` doubled every count
// (issue 56, item 4).
func TestBookMergeRepeats(t *testing.T) {
	games := filepath.Join(datatest.Local(t), "games")
	dir := t.TempDir()
	s1, s2, m := filepath.Join(dir, "s1"), filepath.Join(dir, "s2"), filepath.Join(dir, "m")
	for _, args := range [][]string{
		{"book", "build", "--book", s1, "--shard", "1/2", games},
		{"book", "build", "--book", s2, "--shard", "2/2", games},
	} {
		if code, _, errOut := gomoku(t, "", args...); code != exitOK {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
	}
	s1copy := filepath.Join(dir, "s1copy")
	if err := os.CopyFS(s1copy, os.DirFS(s1)); err != nil {
		t.Fatal(err)
	}
	for _, srcs := range [][]string{{s1, s1}, {s1, s1copy}} {
		code, _, errOut := gomoku(t, "", append([]string{"book", "merge", "--book", filepath.Join(dir, "x")}, srcs...)...)
		if code != exitUsage || !strings.Contains(errOut, "already counted") {
			t.Errorf("merge %v: exit %d %s", srcs, code, errOut)
		}
	}
	if code, _, errOut := gomoku(t, "", "book", "merge", "--book", m, s1, s2); code != exitOK {
		t.Fatalf("merge: exit %d %s", code, errOut)
	}
	if code, _, errOut := gomoku(t, "", "book", "merge", "--book", m, s2); code != exitUsage {
		t.Errorf("a shard into the book that holds it: exit %d %s", code, errOut)
	}
}

// TestSummarizeRepeats: analyze summarize counts each game once when a
// shard is given twice or with the whole run, and flags an interrupted
// analysis; a bad record is reported by one shard only; and a rerun of
// analyze never reads its own output in the input directory. Before, a run
// plus one of its shards counted 50 games instead of 33, and every shard
// reported every bad record (issue 56, items 4, 7 and 19).
func TestSummarizeRepeats(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(datatest.Local(t), "games"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("h8 z99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	analyze := func(out string, extra ...string) (int, string) {
		t.Helper()
		args := append([]string{"analyze", "--per-position-nodes", "500", "--eval=false", "--format", "json", "-o", out}, extra...)
		code, _, errOut := gomoku(t, "", append(args, dir)...)
		return code, errOut
	}
	shards := []string{filepath.Join(t.TempDir(), "1.jsonl"), filepath.Join(t.TempDir(), "2.jsonl")}
	reported := 0
	for k, out := range shards {
		_, errOut := analyze(out, "--shard", []string{"1/2", "2/2"}[k])
		reported += strings.Count(errOut, "z99")
	}
	if reported != 1 {
		t.Errorf("the bad record was reported %d times by the shards, want once", reported)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if code, errOut := analyze(whole); code != exitError || strings.Count(errOut, "z99") != 1 {
		t.Fatalf("whole run: exit %d %s", code, errOut)
	}
	// a rerun into the same directory reads the same games, not its output
	if code, errOut := analyze(whole); code != exitError || strings.Count(errOut, "z99") != 1 || strings.Contains(errOut, "whole.jsonl") {
		t.Errorf("rerun: exit %d %s", code, errOut)
	}
	count := func(files ...string) map[string]any {
		t.Helper()
		_, out, _ := gomoku(t, "", append([]string{"analyze", "summarize", "--format", "json"}, files...)...)
		return jsonLines(t, out)[0]["batch"].(map[string]any)
	}
	want := count(whole)
	for _, files := range [][]string{shards, {shards[0], shards[1], shards[0]}, {whole, shards[1]}} {
		if got := count(files...); got["games"] != want["games"] || got["failed_records"] != want["failed_records"] {
			t.Errorf("summarize %v: %v games, %v bad records; the whole run has %v, %v", files, got["games"],
				got["failed_records"], want["games"], want["failed_records"])
		}
	}
}

// TestPartialAnalysis: an analysis interrupted by Ctrl-C writes the games
// it finished and a batch line that says it is partial, with the games
// read; summarize flags it. Before, the batch line looked complete (issue
// 56, item 7).
func TestPartialAnalysis(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "an.jsonl")
	game := filepath.Join(datatest.Local(t), "games", "long-renju.txt")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	var stdout, stderr syncBuffer
	go func() {
		done <- run(ctx, []string{"gomoku", "analyze", "--per-position", "2s", "--jobs", "1", "--format", "json",
			"--progress=false", "-o", out, game, game + "#copy"}, strings.NewReader(""), &stdout, &stderr)
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	if code := <-done; code != exitInterrupted {
		t.Fatalf("exit %d %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	recs := jsonLines(t, string(data))
	b := recs[len(recs)-1]["batch"].(map[string]any)
	if b["partial"] != true || b["games_read"] != 1.0 {
		t.Errorf("the batch line of an interrupted run: %v", b)
	}
	_, sum, errOut := gomoku(t, "", "analyze", "summarize", out)
	if !strings.Contains(sum, "PARTIAL") || !strings.Contains(errOut, "PARTIAL") {
		t.Errorf("summarize does not flag it:\n%s%s", sum, errOut)
	}
}
