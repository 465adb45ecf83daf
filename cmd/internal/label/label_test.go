package label

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gomoku/engine"
	"gomoku/nnue/train"
	"gomoku/solver"
	"gomoku/solver/play"
)

// fixtureGames reads nnue/train's self-play fixture.
func fixtureGames(t *testing.T) []train.Game {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "nnue", "train", "testdata", "selfplay-freestyle.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	games, errs := train.ReadGames("selfplay-freestyle.jsonl", data)
	if len(errs) > 0 || len(games) < 5 {
		t.Fatalf("%d games, errors %v", len(games), errs)
	}
	return games
}

// TestPick: the plies drawn are distinct, ascending, after the opening,
// of undecided values and positions without a five-point; k bounds them;
// the same seed draws the same plies.
func TestPick(t *testing.T) {
	games := fixtureGames(t)
	for gi, g := range games[:20] {
		plies, err := Pick(g, 4, rand.New(rand.NewPCG(7, uint64(gi))))
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Pick(g, 4, rand.New(rand.NewPCG(7, uint64(gi))))
		if !slices.Equal(plies, again) {
			t.Errorf("game %d: %v then %v with the same seed", gi+1, plies, again)
		}
		if len(plies) > 4 || !slices.IsSorted(plies) || len(slices.Compact(slices.Clone(plies))) != len(plies) {
			t.Errorf("game %d: plies %v", gi+1, plies)
		}
		for _, p := range plies {
			if p < g.Opening || g.Values[p] < Undecided || g.Values[p] > 1-Undecided {
				t.Errorf("game %d: ply %d (opening %d, value %v)", gi+1, p, g.Opening, g.Values[p])
			}
			b, _ := engine.NewBoard(g.Size, g.Rule)
			for i, m := range g.Moves[:p] {
				b.Play(m, engine.Color(1+i%2))
			}
			if b.Count(engine.Black, engine.FivePoints)+b.Count(engine.White, engine.FivePoints) > 0 {
				t.Errorf("game %d: ply %d has a five-point", gi+1, p)
			}
		}
	}
	if p, _ := Pick(games[0], 0, rand.New(rand.NewPCG(1, 1))); p != nil {
		t.Errorf("k = 0 drew %v", p)
	}
}

// TestPosition: a labelled line is one training sample of nnue/train,
// whose policy target is the search's legal best move and whose value is
// the search's, with the game's result; a position whose side to move has
// a four to complete is labelled won with the five-point.
func TestPosition(t *testing.T) {
	games := fixtureGames(t)
	g := games[0]
	plies, err := Pick(g, 2, rand.New(rand.NewPCG(3, 3)))
	if err != nil || len(plies) == 0 {
		t.Fatalf("plies %v, %v", plies, err)
	}
	p := play.Player{Solver: solver.NewSolver(8), Searcher: play.NewAlphaBeta(4)}
	var lines []byte
	for _, ply := range plies {
		line, err := Position(context.Background(), g, ply, p, solver.Limits{Nodes: 20_000})
		if err != nil {
			t.Fatal(err)
		}
		if len(line.Moves) != ply+1 || line.Opening != ply || len(line.Values) != ply+1 {
			t.Fatalf("ply %d: %d moves, opening %d, %d values", ply, len(line.Moves), line.Opening, len(line.Values))
		}
		if v := line.Values[ply]; !(v >= 0 && v <= 1) {
			t.Errorf("ply %d: value %v", ply, v)
		}
		if want := g.Winner.String(); g.Winner != engine.Empty && line.Result != want {
			t.Errorf("result %q, want %q", line.Result, want)
		}
		data, _ := json.Marshal(line)
		lines = append(append(lines, data...), '\n')
	}
	back, errs := train.ReadGames("labelled", lines)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ds, err := train.NewDataset(engine.Freestyle, back, 1000, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	// freestyle: each position also with the colours swapped
	if ds.NumTrain() != 2*len(plies) {
		t.Errorf("%d training samples from %d positions, want %d", ds.NumTrain(), len(plies), 2*len(plies))
	}

	// black to move with an open four's five-points: won, one of them played
	won := train.Game{Rule: engine.Freestyle, Size: 15, Winner: engine.Black}
	for _, s := range []string{"h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "g8"} {
		m, _ := engine.ParsePoint(s, 15)
		won.Moves = append(won.Moves, m)
	}
	line, err := Position(context.Background(), won, 8, p, solver.Limits{Nodes: 20_000})
	if err != nil {
		t.Fatal(err)
	}
	if line.Values[8] != 1 || (line.Moves[8] != "g8" && line.Moves[8] != "l8") {
		t.Errorf("black's open four: labelled %s, %v", line.Moves[8], line.Values[8])
	}
	if _, err := Position(context.Background(), won, 9, p, solver.Limits{Nodes: 1000}); err == nil {
		t.Error("ply 9 of 9 moves: no error")
	}
}
