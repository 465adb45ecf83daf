package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/cmd/internal/teacher"
	"gomoku/engine"
	"gomoku/nnue"
	"gomoku/nnue/train"
	"gomoku/positions"
	"gomoku/solver"
	"gomoku/solver/play"
)

func selfplayCommand() *cli.Command {
	return &cli.Command{
		Name:  "selfplay",
		Usage: "play the engine against itself and write the games, with the search's value of every move, as JSON Lines",
		Description: "Training data for `gomoku tune`: each game starts from an opening of --openings (in turn) or the empty\n" +
			"board, then --random-plies random moves near the stones, then the engine plays both sides as `best` does\n" +
			"(a forced win, a defence, else the search), picking at random among its three best for the first --explore\n" +
			"moves when they are within --explore-margin of the best. One line per game: {\"rule\", \"size\", \"moves\",\n" +
			"\"values\" (the mover's win rate before each move), \"result\" (black, white or draw), \"opening\" (moves\n" +
			"before the engine's)}. Games are appended to --out as they end, so an interrupted run keeps them.\n" +
			"With --teacher another Gomocup brain plays both sides from the same start positions, and \"values\" are\n" +
			"what it reported before each move (Rapfi's \"Eval\" over --teacher-scale, or a brain's win rate); a game\n" +
			"it does not finish on the board (a crash, a timeout, an illegal move) is reported and skipped.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "rule", Aliases: []string{"r"}, Value: "renju", Usage: "rule: freestyle, standard or renju"},
			&cli.IntFlag{Name: "size", Value: engine.DefaultSize, Usage: "board size"},
			&cli.IntFlag{Name: "games", Aliases: []string{"n"}, Value: 100, Usage: "games to play"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Value: 50 * time.Millisecond, Usage: "time per move"},
			&cli.StringFlag{Name: "openings", Usage: "a file of openings (any input format) used in turn"},
			&cli.IntFlag{Name: "random-plies", Value: 3, Usage: "random moves after the opening"},
			&cli.IntFlag{Name: "explore", Value: 8, Usage: "moves picked among the three best after the random ones"},
			&cli.Float64Flag{Name: "explore-margin", Value: 0.05, Usage: "win rate below the best a picked move may be"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random moves (with --jobs 1 and --nodes, a run repeats)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 1, Usage: "games played at once"},
			&cli.IntFlag{Name: "memory", Value: 64, Usage: "tables per game, MiB"},
			&cli.StringFlag{Name: "out", Usage: "append the games to `FILE` (default: standard output)"},
			&cli.StringFlag{Name: "teacher", Usage: "a Gomocup brain's command line (`CMD ARGS`, quotes as in a shell) that plays both sides instead of this engine, each move labelled with the value the brain reports (Rapfi's \"Eval\" MESSAGE lines); --time is its time per move, one thread, --memory its INFO max_memory"},
			&cli.Float64Flag{Name: "teacher-scale", Value: teacher.DefaultScale, Usage: "--teacher's evaluation units per logistic unit: its win rate is 1/(1+exp(-eval/SCALE)) (Rapfi's classical evaluation: 250)"},
			&cli.StringFlag{Name: "shard", Usage: "play only shard `k/n` of the --games (game i when i is k-1 modulo n; each game's opening and seed follow from i, so the shards of a run together play the run's games); auto: the shard a Kubernetes Indexed Job or a Slurm array runs"},
		}, searchSetupFlags()...),
		Action: runSelfplay,
	}
}

func runSelfplay(c *cli.Context) error {
	rule, err := engine.ParseRule(c.String("rule"))
	if err != nil {
		return usageError{err}
	}
	if c.Int("games") < 1 || c.Int("jobs") < 1 || c.Duration("time") <= 0 || c.Int("random-plies") < 0 {
		return usagef("--games, --jobs and --time must be positive, --random-plies not negative")
	}
	// --memory is per game and every job plays one at a time
	if err := checkMemory(c.Int("memory") * c.Int("jobs")); err != nil {
		return usagef("--memory %d MiB per game × --jobs %d: %v", c.Int("memory"), c.Int("jobs"), err)
	}
	if c.Int("memory") < 1 {
		return usagef("--memory %d: want at least 1 MiB", c.Int("memory"))
	}
	setup, err := loadSearchSetup(c)
	if err != nil {
		return err
	}
	var openings [][]engine.Point
	if name := c.String("openings"); name != "" {
		data, err := readSource(name, c.App.Reader)
		if err != nil {
			return err
		}
		opt := positions.DefaultOptions
		opt.Rule, opt.Size = rule, c.Int("size")
		ps, errs := positions.Parse(name, data, positions.Auto, opt)
		for _, e := range errs {
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %v (skipped)\n", e)
		}
		for _, p := range ps {
			if len(p.Moves) == len(p.Black)+len(p.White) && p.Size == c.Int("size") {
				openings = append(openings, p.Moves)
			} else {
				fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: not an opening of %dx%d in move order (skipped)\n", p.Label(),
					c.Int("size"), c.Int("size"))
			}
		}
		if len(openings) == 0 {
			// never the empty board instead of what was asked for
			return fmt.Errorf("--openings %s: no opening of %dx%d in move order", name, c.Int("size"), c.Int("size"))
		}
	}
	var out io.Writer = c.App.Writer
	if name := c.String("out"); name != "" {
		if o := c.String("openings"); o != "" && o != "-" && sameFile(name, o) {
			return usagef("--out %s is the openings file: write the games elsewhere", name)
		}
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	sh, err := parseShard(c.String("shard"), os.Getenv)
	if err != nil {
		return err
	}
	if c.String("teacher") != "" {
		return runTeacher(c, rule, openings, sh, out)
	}
	_, err = playGames(c, c.Int("games"), sh, out, "games", func() (func(g int) (train.GameLine, error), error) {
		slv := solver.NewSolver(max(8, c.Int("memory")/2))
		return func(g int) (train.GameLine, error) {
			searcher := setup.searcher(c.Int("memory") / 2) // a fresh table each game
			cfg := play.SelfPlayConfig{Rule: rule, Size: c.Int("size"), RandomPlies: c.Int("random-plies"),
				Time: c.Duration("time"), Explore: c.Int("explore"), ExploreMargin: c.Float64("explore-margin"),
				Rand: rand.New(rand.NewPCG(c.Uint64("seed"), uint64(g)))}
			if len(openings) > 0 {
				cfg.Opening = openings[g%len(openings)]
			}
			rec, err := play.SelfPlay(c.Context, cfg, slv, searcher)
			if err != nil {
				return train.GameLine{}, err
			}
			line := train.GameLine{Rule: rule.String(), Size: rec.Size, Values: rec.Values, Result: "draw", Opening: rec.Opening}
			for _, m := range rec.Moves {
				line.Moves = append(line.Moves, m.String())
			}
			if rec.Winner != engine.Empty {
				line.Result = rec.Winner.String()
			}
			return line, nil
		}, nil
	})
	return err
}

// playGames plays the n games (or positions: `label`) of shard sh on
// --jobs goroutines, each with the game function that newWorker makes for
// it, and writes each one's line to out as JSON, in the order they end,
// with a progress line (the command's name, the count, then what) every
// ten. A game's error is reported and the game skipped; skipped counts
// them. newWorker's error, or one writing out, ends the run and is
// returned. Cancelled: ctx's error, the games written so far kept.
func playGames(c *cli.Context, n int, sh *shard, out io.Writer, what string,
	newWorker func() (func(g int) (train.GameLine, error), error)) (skipped int, err error) {
	var mu sync.Mutex
	next, done := 0, 0
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range c.Int("jobs") {
		wg.Go(func() {
			game, err := newWorker()
			if err != nil {
				mu.Lock()
				firstErr = cmp.Or(firstErr, err)
				mu.Unlock()
				return
			}
			for {
				mu.Lock()
				if next >= n || firstErr != nil || c.Context.Err() != nil {
					mu.Unlock()
					return
				}
				g := next
				next++
				mu.Unlock()
				if sh.n > 0 && g%sh.n != sh.k-1 {
					continue // another shard's game
				}
				line, err := game(g)
				if c.Context.Err() != nil {
					return
				}
				mu.Lock()
				switch {
				case err != nil:
					skipped++
					fmt.Fprintf(c.App.ErrWriter, "gomoku: %s %d: %v (skipped)\n", strings.TrimSuffix(strings.Fields(what)[0], "s"), g+1, err)
				default:
					data, _ := json.Marshal(line)
					if _, werr := fmt.Fprintf(out, "%s\n", data); werr != nil && firstErr == nil {
						firstErr = fmt.Errorf("%w: %w", errOutput, werr)
					}
					done++
					if done%10 == 0 {
						fmt.Fprintf(c.App.ErrWriter, "%s: %d %s, %d skipped, %.0f s\n", c.Command.Name, done, what, skipped,
							time.Since(start).Seconds())
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return skipped, firstErr
	}
	return skipped, c.Context.Err()
}

// runTeacher is selfplay with --teacher: the games of shard sh of
// --games, each from play.StartPosition (the opening in turn and the
// random plies, seeded as the engine's own games are), played by the
// teacher on both sides (teacher.Game), --jobs at once, written to out. A
// game the teacher does not finish on the board is reported and skipped.
func runTeacher(c *cli.Context, rule engine.Rule, openings [][]engine.Point, sh *shard, out io.Writer) error {
	cfg, err := teacherConfig(c, rule, c.Int("size"))
	if err != nil {
		return err
	}
	_, err = playGames(c, c.Int("games"), sh, out, "games by the teacher", func() (func(g int) (train.GameLine, error), error) {
		return func(g int) (train.GameLine, error) {
			pc := play.SelfPlayConfig{Rule: rule, Size: c.Int("size"), RandomPlies: c.Int("random-plies"),
				Rand: rand.New(rand.NewPCG(c.Uint64("seed"), uint64(g)))}
			if len(openings) > 0 {
				pc.Opening = openings[g%len(openings)]
			}
			moves, err := play.StartPosition(pc)
			if err != nil {
				return train.GameLine{}, err // a random ply made five, say
			}
			return teacher.Game(c.Context, cfg, g, moves, c.Float64("teacher-scale"))
		}, nil
	})
	return err
}

// loadWeights reads --weights and the evaluation (--eval, or analyze's
// --evaluator: auto, linear or nnue, with --net); nil means the built-in
// tables (linear, or a command without --eval, and no --weights). auto puts the shipped network of each rule that
// nnue.Preferred names in place of the tables, and --net's network for its
// rule. Errors: an unreadable file, an unknown evaluation, --net with
// linear.
func loadWeights(c *cli.Context) (*play.Weights, error) {
	var w *play.Weights
	if name := c.String("weights"); name != "" {
		var err error
		if w, err = play.ReadWeights(name); err != nil {
			return nil, err
		}
	}
	mode := c.String("eval")
	if m := c.String("evaluator"); m != "" { // analyze, whose --eval is a switch
		mode = m
	}
	net := c.String("net")
	var auto bool
	switch mode {
	case "auto":
		auto = true
	case "", "linear": // "": a command without --eval (tune)
		if net != "" {
			return nil, usagef("--net wants --eval nnue or auto")
		}
		return w, nil
	case "nnue":
	default:
		return nil, usagef("evaluation %q: want auto, linear or nnue", mode)
	}
	cp := withNetworks(w, auto)
	if net != "" {
		f, err := os.Open(net)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		n, err := nnue.Read(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", net, err)
		}
		cp.Nets[n.Rule] = n
	}
	return cp, nil
}

// withNetworks returns a copy of w (play.DefaultWeights when nil) with
// each rule's shipped network: with auto only where --eval auto takes it
// (nnue.Preferred), else in every rule.
func withNetworks(w *play.Weights, auto bool) *play.Weights {
	if w == nil {
		w = play.DefaultWeights()
	}
	cp := *w // the defaults are shared
	for r := range engine.Rule(engine.NumRules) {
		if !auto || nnue.Preferred(r) {
			cp.Nets[r] = nnue.Default(r)
		}
	}
	return &cp
}

// evalUsage is the help of --eval (and of analyze's --evaluator).
const evalUsage = "evaluation: auto (the network where matches measured it stronger than the tables: freestyle, standard (with freestyle's network), and renju in a GOEXPERIMENT=simd build on a CPU with AVX2; the tables in renju otherwise), linear (the pattern tables) or nnue (the network of the rule, package nnue; the tables where no network is shipped or given)"

// evalFlag is --eval, the evaluation of the best-move searches.
func evalFlag() cli.Flag {
	return &cli.StringFlag{Name: "eval", Value: "auto", Usage: evalUsage}
}

// netFlag is --net, a network weights file for --eval nnue or auto.
func netFlag() cli.Flag {
	return &cli.StringFlag{Name: "net", Usage: "with --eval nnue or auto (analyze: --evaluator), the network `FILE` (gomoku train --out) for its rule, in place of the shipped one"}
}

// searchParamsFlag is --search-params, for the commands that run the
// alpha-beta search.
func searchParamsFlag() cli.Flag {
	return &cli.StringFlag{Name: "search-params", Usage: "alpha-beta's parameters from `FILE`, a JSON object of ABParams fields as `tune --ga --out` writes it (the fields left out keep their defaults)"}
}

// loadSearchParams reads --search-params, or returns nil for the defaults.
// A flaw in the file is reported with its file, line and column.
func loadSearchParams(c *cli.Context) (*play.ABParams, error) {
	name := c.String("search-params")
	if name == "" {
		return nil, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	p, err := play.ParseABParams(data)
	if err != nil {
		var pe *play.ParamsError
		if errors.As(err, &pe) && pe.Offset > 0 {
			l, col := positions.LineCol(data, pe.Offset)
			return nil, fmt.Errorf("%s:%d:%d: %s", name, l, col, pe.Msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &p, nil
}

// setParams gives an alpha-beta searcher its parameters (nil: the
// defaults); other searchers have none.
func setParams(s play.Searcher, p *play.ABParams) {
	if ab, ok := s.(*play.AlphaBeta); ok && p != nil {
		ab.Params = *p
	}
}

// setWeights gives a searcher the evaluation weights (nil: the built-in
// ones).
func setWeights(s play.Searcher, w *play.Weights) {
	if w == nil {
		return
	}
	switch s := s.(type) {
	case *play.AlphaBeta:
		s.Weights = w
	case *play.MCTS:
		s.Weights = w
	}
}

// searchSetup is what --engine, --weights, --eval, --net and
// --search-params ask of a best-move searcher: its name, the evaluation
// weights (nil: the built-in tables) and alpha-beta's parameters (nil:
// the defaults).
type searchSetup struct {
	engine  string
	weights *play.Weights
	params  *play.ABParams
}

// searchSetupFlags are those flags.
func searchSetupFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "engine", Aliases: []string{"e"}, Value: "ab", Usage: "search: ab or mcts"},
		&cli.StringFlag{Name: "weights", Usage: "evaluation weights `FILE` (default: the built-in ones)"},
		evalFlag(), netFlag(),
		searchParamsFlag(),
	}
}

// loadSearchSetup reads those flags. Errors: usage errors (an unknown
// --engine or evaluation), unreadable or malformed files.
func loadSearchSetup(c *cli.Context) (searchSetup, error) {
	if _, err := newSearcher(c.String("engine"), 1, 1); err != nil {
		return searchSetup{}, err
	}
	weights, err := loadWeights(c)
	if err != nil {
		return searchSetup{}, err
	}
	params, err := loadSearchParams(c)
	if err != nil {
		return searchSetup{}, err
	}
	return searchSetup{c.String("engine"), weights, params}, nil
}

// searcher returns a new one-thread searcher of s whose tables take about
// mib MiB.
func (s searchSetup) searcher(mib int) play.Searcher {
	searcher, _ := newSearcher(s.engine, 1, mib) // the name was checked
	setWeights(searcher, s.weights)
	setParams(searcher, s.params)
	return searcher
}
