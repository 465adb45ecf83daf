package book

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gomoku/engine"
)

// randomGames plays n games of random legal moves (up to 40 each) on a
// 15x15 freestyle board, the same ones for the same seed.
func randomGames(n int, seed uint64) [][]engine.Point {
	rng := rand.New(rand.NewPCG(seed, 59))
	games := make([][]engine.Point, n)
	for g := range games {
		b, _ := engine.NewBoard(15, engine.Freestyle)
		for i := 0; i < 40 && !b.LastMoveWon(); i++ {
			c := engine.Color(1 + i%2)
			for {
				p := engine.PointAt(3+rng.IntN(9), 3+rng.IntN(9))
				if b.At(p) == engine.Empty {
					b.Play(p, c)
					games[g] = append(games[g], p)
					break
				}
			}
		}
	}
	return games
}

// TestStreamedBuild: a build streamed in parts of 200 nodes (Writer, Sink)
// holds no more than a part and a game's positions at a time, and writes
// the same book as one part; a streamed write aborted after parts are
// written leaves the book as it was (issue 56, item 15: book build held
// about 50 KB a game, and 75,000 games died of Go's out-of-memory error).
func TestStreamedBuild(t *testing.T) {
	games := randomGames(300, 1)
	whole := openBook(t, filepath.Join(t.TempDir(), "whole"))
	bd := NewBuilder()
	for _, g := range games {
		if _, err := bd.AddGame(engine.Freestyle, 15, g, engine.Color(1+len(g)%2)); err != nil {
			t.Fatal(err)
		}
	}
	if err := whole.Write(bd); err != nil {
		t.Fatal(err)
	}
	streamed := openBook(t, filepath.Join(t.TempDir(), "streamed"))
	w, err := streamed.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	sb := NewBuilder()
	parts, most := 0, 0
	sb.FlushAt = 200
	sb.Sink = func(b *Builder) error {
		parts++
		most = max(most, len(b.nodes))
		return w.Part(b)
	}
	for _, g := range games {
		if _, err := sb.AddGame(engine.Freestyle, 15, g, engine.Color(1+len(g)%2)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(sb); err != nil {
		t.Fatal(err)
	}
	if parts < 5 || most > 200+41 {
		t.Errorf("%d parts, at most %d nodes held: want several parts of about 200", parts, most)
	}
	sameBooks(t, "streamed against one part", dump(t, whole), dump(t, streamed))

	// an aborted streamed write into a book that has content
	before := dump(t, whole)
	w, err = whole.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	ab := NewBuilder()
	ab.FlushAt, ab.Sink = 100, w.Part
	for _, g := range randomGames(100, 2) {
		if _, err := ab.AddGame(engine.Freestyle, 15, g, engine.Black); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	sameBooks(t, "after an aborted write", before, dump(t, whole))
}
