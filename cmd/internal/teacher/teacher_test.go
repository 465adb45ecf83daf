package teacher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"gomoku/cmd/internal/match"
	"gomoku/engine"
	"gomoku/nnue/train"
)

// TestMain turns the test binary into a fake teacher when FAKE_TEACHER is
// set: it plays the first empty cell in reading order and, with
// FAKE_TEACHER=eval, reports "Eval 250" before each move (=silent: no
// report; =crash: exits at its fifth move).
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAKE_TEACHER"); mode != "" {
		fakeTeacher(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func fakeTeacher(mode string) {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { fmt.Fprintln(out, s); out.Flush() }
	size := 15
	stones := map[[2]int]bool{}
	var board []string
	moves := 0
	move := func() {
		moves++
		if mode == "crash" && moves == 5 {
			os.Exit(3)
		}
		if mode == "eval" {
			say("MESSAGE Depth 3-3 | Eval 250 | Time 1ms")
		}
		for y := range size {
			for x := range size {
				if !stones[[2]int{x, y}] {
					stones[[2]int{x, y}] = true
					say(fmt.Sprintf("%d,%d", x, y))
					return
				}
			}
		}
	}
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if board != nil {
			if strings.EqualFold(line, "DONE") {
				for _, s := range board {
					var x, y, f int
					fmt.Sscanf(s, "%d,%d,%d", &x, &y, &f)
					stones[[2]int{x, y}] = true
				}
				board = nil
				move()
			} else {
				board = append(board, line)
			}
			continue
		}
		cmd, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(cmd) {
		case "START":
			fmt.Sscanf(arg, "%d", &size)
			say("OK")
		case "ABOUT":
			say(`name="fake"`)
		case "BEGIN":
			move()
		case "TURN":
			var x, y int
			fmt.Sscanf(arg, "%d,%d", &x, &y)
			stones[[2]int{x, y}] = true
			move()
		case "BOARD":
			board = []string{}
		case "END":
			return
		}
	}
}

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
// move 62) comes back as a training line
// that nnue/train reads, with the start's moves at 0.5 and each teacher
// move at the logistic of its report (250 over the scale 250: 0.731), or
// at the mover's result when it reported nothing.
func TestGame(t *testing.T) {
	start := []engine.Point{engine.PointAt(7, 7)} // h8
	for _, c := range []struct {
		mode       string
		black, wht float64
	}{
		{"eval", 1 / (1 + math.Exp(-1)), 1 / (1 + math.Exp(-1))},
		{"silent", 0, 1},
	} {
		line, err := Game(context.Background(), config(t, c.mode), 0, start, DefaultScale)
		if err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		if line.Result != "white" || line.Opening != 1 || len(line.Values) != len(line.Moves) || line.Moves[0] != "h8" {
			t.Fatalf("%s: result %s, opening %d, %d values for %d moves (%v...)", c.mode, line.Result, line.Opening,
				len(line.Values), len(line.Moves), line.Moves[:1])
		}
		if line.Values[0] != 0.5 {
			t.Errorf("%s: the start's move valued %v, want 0.5", c.mode, line.Values[0])
		}
		for k := 1; k < len(line.Values); k++ {
			want := c.black
			if k%2 == 1 {
				want = c.wht
			}
			if math.Abs(line.Values[k]-want) > 1e-12 {
				t.Fatalf("%s: move %d valued %v, want %v", c.mode, k+1, line.Values[k], want)
			}
		}
		data := fmt.Sprintf(`{"rule":%q,"size":%d,"moves":["%s"],"values":%s,"result":%q,"opening":%d}`, line.Rule,
			line.Size, strings.Join(line.Moves, `","`), floats(line.Values), line.Result, line.Opening)
		games, errs := train.ReadGames("line", []byte(data))
		if len(errs) > 0 || len(games) != 1 || games[0].Winner != engine.White || len(games[0].Moves) != len(line.Moves) {
			t.Fatalf("%s: read back as %d games, %v", c.mode, len(games), errs)
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
