package label

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gomoku/cmd/internal/fakebrain"
	"gomoku/cmd/internal/gomocup"
	"gomoku/cmd/internal/match"
	"gomoku/cmd/internal/teacher"
	"gomoku/engine"
	"gomoku/nnue/train"
	"gomoku/solver"
	"gomoku/solver/play"
)

// TestMain turns the test binary into a fake teacher when FAKE_TEACHER
// names a fakebrain mode (the first empty cell in reading order; "eval"
// reports -10 times its move number before each move, +M3 at its second;
// "crash" exits at its third move, "illegal" then answers an occupied
// cell).
func TestMain(m *testing.M) { fakebrain.Main(m, "FAKE_TEACHER") }

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

// fakeTeacher starts the test binary as a fake teacher brain in mode.
func fakeTeacher(t *testing.T, mode string) *match.Brain {
	t.Helper()
	self, _ := os.Executable()
	spec := match.EngineSpec{Name: mode, Argv: []string{"env", "FAKE_TEACHER=" + mode, self}}
	cfg := &match.Config{Engines: [2]match.EngineSpec{spec, spec}, Rule: engine.Freestyle, Size: 15, TurnTime: 2 * time.Second}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	br, err := match.StartBrain(cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(br.Close)
	return br
}

// firstEmpty is the fake brain's move: the first empty cell of moves'
// board in reading order (Piskvork's x, then y, from 0,0).
func firstEmpty(t *testing.T, moves []engine.Point) engine.Point {
	t.Helper()
	for y := range 15 {
		for x := range 15 {
			p, err := gomocup.ParsePoint(fmt.Sprintf("%d,%d", x, y), 15)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(moves, p) {
				return p
			}
		}
	}
	t.Fatal("a full board")
	return engine.NoPoint
}

// TestTeacher: positions of the fixture's games labelled by a fake
// teacher come back as one-position training lines whose policy target is
// the brain's move in that position (sent whole each time, so the brain
// sees the position and not the one it was asked before) and whose value
// is its report's win rate: the logistic of -10n over the scale at its
// n-th answer, 1 for +M3; with no report, the game's result for the side
// to move. A brain that crashes is an error, not a label.
func TestTeacher(t *testing.T) {
	games := fixtureGames(t)
	ctx := context.Background()
	for _, mode := range []string{"eval", "good"} {
		br := fakeTeacher(t, mode)
		for n, job := range []struct{ g, ply int }{{0, 6}, {1, 9}, {2, 12}, {3, 7}} {
			g := games[job.g]
			line, err := Teacher(ctx, g, job.ply, br, teacher.DefaultScale)
			if err != nil {
				t.Fatalf("%s: game %d ply %d: %v", mode, job.g+1, job.ply, err)
			}
			want := firstEmpty(t, g.Moves[:job.ply])
			if line.Opening != job.ply || len(line.Moves) != job.ply+1 || line.Moves[job.ply] != want.String() {
				t.Fatalf("%s: game %d ply %d: opening %d, %d moves, target %s; want %s", mode, job.g+1, job.ply,
					line.Opening, len(line.Moves), line.Moves[len(line.Moves)-1], want)
			}
			v := line.Values[job.ply]
			var wantV float64
			switch c := engine.Color(1 + job.ply%2); {
			case mode == "eval" && n == 1:
				wantV = 1 // +M3
			case mode == "eval":
				wantV = 1 / (1 + math.Exp(float64(10*(n+1))/teacher.DefaultScale))
			case g.Winner == c:
				wantV = 1
			case g.Winner == c.Opponent():
				wantV = 0
			default:
				wantV = 0.5
			}
			if math.Abs(v-wantV) > 1e-12 {
				t.Errorf("%s: answer %d valued %v, want %v", mode, n+1, v, wantV)
			}
			data, _ := json.Marshal(line)
			back, errs := train.ReadGames("line", data)
			if len(errs) > 0 || len(back) != 1 || back[0].Opening != job.ply {
				t.Fatalf("%s: the line reads back as %d games, %v", mode, len(back), errs)
			}
		}
	}
	for mode, want := range map[string]error{"crash": gomocup.ErrCrashed, "illegal": match.ErrBrainMove} {
		br := fakeTeacher(t, mode)
		var err error
		for ply := 4; ply < 7 && err == nil; ply++ {
			_, err = Teacher(ctx, games[0], ply, br, teacher.DefaultScale)
		}
		if !errors.Is(err, want) {
			t.Errorf("a teacher that fails its third answer (%s): %v, want %v", mode, err, want)
		}
	}
	br := fakeTeacher(t, "good")
	if _, err := Teacher(ctx, games[0], len(games[0].Moves), br, teacher.DefaultScale); err == nil {
		t.Error("a ply past the game's end was labelled")
	}
}
