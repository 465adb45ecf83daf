package teacher

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"gomoku/cmd/internal/fakebrain"
	"gomoku/cmd/internal/match"
	"gomoku/engine"
	"gomoku/nnue/train"
)

// TestMain turns the test binary into a fake teacher when FAKE_TEACHER
// names a fakebrain mode: it plays the first empty cell in reading order;
// "eval" reports -10 times its move number before each move (+M3 at its
// second), "good" reports nothing, "crash" exits at its third move.
func TestMain(m *testing.M) { fakebrain.Main(m, "FAKE_TEACHER") }

func config(t *testing.T, mode string) *match.Config {
	t.Helper()
	self, _ := os.Executable()
	spec := match.EngineSpec{Name: mode, Argv: []string{"env", "FAKE_TEACHER=" + mode, self}}
	cfg := &match.Config{Engines: [2]match.EngineSpec{spec, spec}, Rule: engine.Freestyle, TurnTime: 2 * time.Second}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestGame: the fake teacher's game from h8 (first empty cell each move,
// white first: white's stones make a checkerboard, and a diagonal five at
// move 62) comes back as a training line that nnue/train reads, with the
// start's moves at 0.5 and each teacher move at the logistic of its report
// over the scale (1 for a mate), or at the mover's result when it
// reported nothing.
func TestGame(t *testing.T) {
	start := []engine.Point{engine.PointAt(7, 7)} // h8
	for _, mode := range []string{"eval", "good"} {
		line, err := Game(context.Background(), config(t, mode), 0, start, DefaultScale)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if line.Result != "white" || line.Opening != 1 || len(line.Values) != len(line.Moves) || line.Moves[0] != "h8" {
			t.Fatalf("%s: result %s, opening %d, %d values for %d moves (%v...)", mode, line.Result, line.Opening,
				len(line.Values), len(line.Moves), line.Moves[:1])
		}
		if line.Values[0] != 0.5 {
			t.Errorf("%s: the start's move valued %v, want 0.5", mode, line.Values[0])
		}
		for k := 1; k < len(line.Values); k++ {
			want := float64(k % 2)                // no report: white's result 1, black's 0
			if n := (k-1)/2 + 1; mode == "eval" { // the mover's n-th move
				want = 1 / (1 + math.Exp(float64(10*n)/DefaultScale))
				if n == 2 {
					want = 1 // +M3
				}
			}
			if math.Abs(line.Values[k]-want) > 1e-12 {
				t.Fatalf("%s: move %d valued %v, want %v", mode, k+1, line.Values[k], want)
			}
		}
		data := fmt.Sprintf(`{"rule":%q,"size":%d,"moves":["%s"],"values":%s,"result":%q,"opening":%d}`, line.Rule,
			line.Size, strings.Join(line.Moves, `","`), floats(line.Values), line.Result, line.Opening)
		games, errs := train.ReadGames("line", []byte(data))
		if len(errs) > 0 || len(games) != 1 || games[0].Winner != engine.White || len(games[0].Moves) != len(line.Moves) {
			t.Fatalf("%s: read back as %d games, %v", mode, len(games), errs)
		}
	}
}

func floats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}

// TestGameTeacherFails: a teacher that crashes mid-game gives ErrTeacher,
// not a training line.
func TestGameTeacherFails(t *testing.T) {
	_, err := Game(context.Background(), config(t, "crash"), 0, nil, DefaultScale)
	if !errors.Is(err, ErrTeacher) {
		t.Fatalf("%v, want ErrTeacher", err)
	}
}

// TestWinRate: mates are certain, scores logistic, an unknown report is
// no value.
func TestWinRate(t *testing.T) {
	for _, c := range []struct {
		e    match.Eval
		want float64
		ok   bool
	}{
		{match.Eval{Known: true, Mate: 5}, 1, true},
		{match.Eval{Known: true, Mate: -match.MateUnknown}, 0, true},
		{match.Eval{Known: true}, 0.5, true},
		{match.Eval{Known: true, Score: -500}, 1 / (1 + math.Exp(2)), true},
		{match.Eval{Known: true, Rate: 0.3, IsRate: true}, 0.3, true},
		{match.Eval{}, 0, false},
	} {
		got, ok := WinRate(c.e, DefaultScale)
		if math.Abs(got-c.want) > 1e-12 || ok != c.ok {
			t.Errorf("%+v: %v %v, want %v %v", c.e, got, ok, c.want, c.ok)
		}
	}
}

// TestLine turns a game of two engines into a training line: the
// opening's moves at 0.5, each engine's moves at its own report (a rate as
// it is, a score through the scale), a move without a report at its
// mover's result; a game lost on time is refused.
func TestLine(t *testing.T) {
	pts := []engine.Point{engine.PointAt(7, 7), engine.PointAt(7, 8), engine.PointAt(8, 8), engine.PointAt(6, 6), engine.PointAt(9, 9)}
	g := match.GameResult{Index: 4, Black: 0, White: 1, Winner: engine.White, Reason: "five", Moves: pts, OpeningLen: 1,
		Evals: []match.Eval{{Known: true, Score: 250}, {Known: true, Rate: 0.8, IsRate: true}, {}}}
	line, err := Line(&g, engine.Renju, 15, DefaultScale)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5, 1 / (1 + math.Exp(-1)), 0.8, 1, 0} // the last two: white's move, then black's, unreported
	if line.Rule != "renju" || line.Size != 15 || line.Result != "white" || line.Opening != 1 || len(line.Moves) != 5 ||
		line.Moves[0] != "h8" || floats(line.Values) != floats(want) {
		t.Fatalf("line %+v, want values %v", line, want)
	}
	g.Reason, g.Detail = "timeout", "late"
	if _, err := Line(&g, engine.Renju, 15, DefaultScale); !errors.Is(err, ErrTeacher) || !strings.Contains(err.Error(), "game 5") {
		t.Errorf("a game lost on time: %v, want ErrTeacher naming game 5", err)
	}
}
