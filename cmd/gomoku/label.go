package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/cmd/internal/label"
	"gomoku/cmd/internal/match"
	"gomoku/cmd/internal/teacher"
	"gomoku/engine"
	"gomoku/nnue/train"
	"gomoku/solver"
	"gomoku/solver/play"
)

func labelCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "label",
		Usage:     "search positions of self-play games again, deeper, and write them as training lines for `gomoku train`",
		ArgsUsage: "GAMES... (selfplay's JSON Lines; - for standard input)",
		Description: "Search distillation with deeper labels: from each game of --rule, --per-game undecided positions (after\n" +
			"the opening and random plies, no five-point on the board, the game's own value within 0.02..0.98) are\n" +
			"drawn at random (--seed), and each is searched as `best` does (the win and defence checks, then the\n" +
			"search) for --time. Each position is written as one line in selfplay's format: the moves up to it, then\n" +
			"the search's best move (train's policy target), \"opening\" at the position (so that train takes that\n" +
			"position alone), its value the search's win rate for the side to move, the result the game's. Lines\n" +
			"are appended to --out as they are done, so an interrupted run keeps them, and a rerun with the same\n" +
			"inputs, --seed and --per-game skips the positions --out already holds (a last line cut short by a kill\n" +
			"is cut off first). A bad game line, or a position the search or the teacher fails on, is reported and\n" +
			"skipped, and the run ends with exit 1.\n" +
			"With --teacher another Gomocup brain labels the positions instead: its move in --time (one thread,\n" +
			"--memory its INFO max_memory) is the policy target and its reported evaluation (Rapfi's \"Eval\" over\n" +
			"--teacher-scale, or a brain's win rate) the value; after a position it fails on (a timeout, a crash,\n" +
			"an illegal move) the brain is restarted.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "rule", Aliases: []string{"r"}, Required: true, Usage: "rule: freestyle, standard or renju (games of other rules are skipped)"},
			&cli.IntFlag{Name: "per-game", Value: 4, Usage: "positions drawn from each game, at most"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Value: 200 * time.Millisecond, Usage: "time per position, the checks included"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the positions drawn"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 1, Usage: "positions searched at once"},
			&cli.IntFlag{Name: "memory", Value: 64, Usage: "tables per job, MiB"},
			&cli.StringFlag{Name: "out", Usage: "append the lines to `FILE` (default: standard output)"},
			&cli.StringFlag{Name: "shard", Usage: "label only shard `k/n` of the positions (position i when i is k-1 modulo n, in the order drawn); auto: the shard a Kubernetes Indexed Job or a Slurm array runs"},
			&cli.StringFlag{Name: "teacher", Usage: "a Gomocup brain's command line (`CMD ARGS`, quotes as in a shell) that labels each position with its move and its reported evaluation instead of this engine's search"},
			&cli.Float64Flag{Name: "teacher-scale", Value: teacher.DefaultScale, Usage: "--teacher's evaluation units per logistic unit: its win rate is 1/(1+exp(-eval/SCALE)) (Rapfi's classical evaluation: 250)"},
		}, searchSetupFlags()...),
		Action: runLabel(stdin),
	}
}

// labelJob is one position to search: a game and the ply before which it
// stands.
type labelJob struct {
	g   *train.Game
	ply int
}

// positionKey names the position that moves reach: the moves in
// notation, each followed by a space.
func positionKey(moves []engine.Point) string {
	var sb strings.Builder
	for _, m := range moves {
		sb.WriteString(m.String())
		sb.WriteByte(' ')
	}
	return sb.String()
}

// labelledKeys returns the keys (positionKey's) of the positions that the
// lines of file name already label, for a rerun to skip; a missing file
// holds none. A last line cut short (a kill in the middle of a write) is
// cut off the file first, so that the lines appended after it stay whole.
// Errors: reading or truncating the file.
func labelledKeys(name string) (map[string]bool, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		if err := os.Truncate(name, int64(i+1)); err != nil {
			return nil, err
		}
		data = data[:i+1]
	}
	lines, _ := train.ReadGames(name, data) // lines that are not labels are train's to report
	have := make(map[string]bool, len(lines))
	for _, g := range lines {
		have[positionKey(g.Moves[:g.Opening])] = true
	}
	return have, nil
}

func runLabel(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		rule, err := engine.ParseRule(c.String("rule"))
		if err != nil {
			return usageError{err}
		}
		if c.NArg() == 0 {
			return usagef("no input: name one or more files of selfplay games")
		}
		if c.Int("per-game") < 1 || c.Int("jobs") < 1 || c.Duration("time") <= 0 || c.Int("memory") < 1 {
			return usagef("--per-game, --jobs, --time and --memory must be positive")
		}
		if err := checkMemory(c.Int("memory") * c.Int("jobs")); err != nil {
			return usagef("--memory %d MiB × --jobs %d: %v", c.Int("memory"), c.Int("jobs"), err)
		}
		tcfg, err := teacherConfig(c, rule, 15)
		if err != nil {
			return err
		}
		setup, err := loadSearchSetup(c)
		if err != nil {
			return err
		}
		sh, err := parseShard(c.String("shard"), os.Getenv)
		if err != nil {
			return err
		}
		rnd := rand.New(rand.NewPCG(c.Uint64("seed"), 0))
		var jobs []labelJob
		failed := 0
		for _, name := range c.Args().Slice() {
			if o := c.String("out"); o != "" && name != "-" && sameFile(name, o) {
				return usagef("--out %s is an input: write the lines elsewhere", o)
			}
			data, err := readSource(name, stdin)
			if err != nil {
				return err
			}
			games, errs := train.ReadGames(name, data)
			for _, e := range errs {
				fmt.Fprintf(c.App.ErrWriter, "gomoku: %v (skipped)\n", e)
			}
			failed += len(errs)
			for i := range games {
				g := &games[i]
				if g.Rule != rule {
					continue
				}
				plies, err := label.Pick(*g, c.Int("per-game"), rnd)
				if err != nil {
					fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: game %d: %v (skipped)\n", name, i+1, err)
					failed++
					continue
				}
				for _, p := range plies {
					jobs = append(jobs, labelJob{g, p})
				}
			}
		}
		if sh.n > 0 { // this shard's positions, by their place in the whole run's order
			var mine []labelJob
			for i, j := range jobs {
				if i%sh.n == sh.k-1 {
					mine = append(mine, j)
				}
			}
			jobs = mine
		}
		resumed := 0
		if name := c.String("out"); name != "" {
			have, err := labelledKeys(name)
			if err != nil {
				return err
			}
			n := len(jobs)
			jobs = slices.DeleteFunc(jobs, func(j labelJob) bool { return have[positionKey(j.g.Moves[:j.ply])] })
			resumed = n - len(jobs)
		}
		fmt.Fprintf(c.App.ErrWriter, "label: %d positions to search, %v each (%d already in --out)\n", len(jobs), c.Duration("time"), resumed)
		var out io.Writer = c.App.Writer
		if name := c.String("out"); name != "" {
			f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				return err
			}
			defer f.Close()
			out = f
		}
		lim := solver.Limits{Time: c.Duration("time")}
		worker := func() (func(g int) (train.GameLine, error), error) {
			p := play.Player{Solver: solver.NewSolver(max(8, c.Int("memory")/2)), Searcher: setup.searcher(c.Int("memory") / 2)}
			return func(i int) (train.GameLine, error) {
				return label.Position(c.Context, *jobs[i].g, jobs[i].ply, p, lim)
			}, nil
		}
		if tcfg != nil {
			var brains teacherBrains
			defer brains.close()
			worker = func() (func(g int) (train.GameLine, error), error) {
				return brains.worker(c, tcfg, func(br *match.Brain, i int) (train.GameLine, error) {
					return label.Teacher(c.Context, *jobs[i].g, jobs[i].ply, br, c.Float64("teacher-scale"))
				})
			}
		}
		skipped, err := playGames(c, len(jobs), &shard{}, out, "positions labelled", worker)
		if err != nil {
			return err
		}
		if failed > 0 || skipped > 0 {
			return fmt.Errorf("%d game line(s) and %d position(s) failed: %w", failed, skipped, errRecords)
		}
		return nil
	}
}

// teacherConfig returns the match configuration of c's --teacher (both
// engines the teacher; --time its time per move, one thread, --memory its
// max_memory), or nil without --teacher. Usage errors: this engine's
// search flags given with --teacher, a --teacher-scale that is not
// positive, a command line that does not parse; Check's errors.
func teacherConfig(c *cli.Context, rule engine.Rule, size int) (*match.Config, error) {
	if c.String("teacher") == "" {
		return nil, nil
	}
	for _, f := range []string{"engine", "weights", "eval", "net", "search-params", "explore", "explore-margin"} {
		if c.IsSet(f) {
			return nil, usagef("--%s is this engine's; with --teacher the teacher plays", f)
		}
	}
	if sc := c.Float64("teacher-scale"); !(sc > 0) {
		return nil, usagef("--teacher-scale %v: want a positive number", sc)
	}
	spec, err := parseEngine(c.String("teacher"))
	if err != nil {
		return nil, err
	}
	cfg := match.Config{Engines: [2]match.EngineSpec{spec, spec}, Rule: rule, Size: size,
		TurnTime: c.Duration("time"), Tolerance: max(c.Duration("time"), 500*time.Millisecond), Threads: 1,
		MemoryMiB: c.Int("memory")}
	if err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("--teacher: %w", err)
	}
	return &cfg, nil
}

// teacherBrains holds the teacher's brains that label's workers start,
// one each, to be closed when the run ends.
type teacherBrains struct {
	mu     sync.Mutex
	brains []*match.Brain
}

// worker starts a brain of cfg for one worker of playGames and returns
// the worker's function: label(br, i) with the worker's brain. A brain
// that fails a position (a timeout, a crash, an illegal move) is closed
// and a new one started for the next. Errors: the first brain does not
// start.
func (t *teacherBrains) worker(c *cli.Context, cfg *match.Config, label func(br *match.Brain, i int) (train.GameLine, error)) (func(i int) (train.GameLine, error), error) {
	br, err := t.start(cfg)
	if err != nil {
		return nil, fmt.Errorf("--teacher: %w", err)
	}
	return func(i int) (train.GameLine, error) {
		if br == nil {
			if br, err = t.start(cfg); err != nil {
				return train.GameLine{}, fmt.Errorf("--teacher: %w", err)
			}
		}
		line, err := label(br, i)
		if err != nil && c.Context.Err() == nil {
			t.drop(br)
			br = nil
		}
		return line, err
	}, nil
}

// start starts a brain of cfg and records it.
func (t *teacherBrains) start(cfg *match.Config) (*match.Brain, error) {
	br, err := match.StartBrain(cfg, 0)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.brains = append(t.brains, br)
	t.mu.Unlock()
	return br, nil
}

// drop closes br and forgets it.
func (t *teacherBrains) drop(br *match.Brain) {
	br.Close()
	t.mu.Lock()
	t.brains = slices.DeleteFunc(t.brains, func(b *match.Brain) bool { return b == br })
	t.mu.Unlock()
}

// close closes every brain left.
func (t *teacherBrains) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, br := range t.brains {
		br.Close()
	}
	t.brains = nil
}
