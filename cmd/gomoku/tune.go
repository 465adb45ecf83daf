package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/nnue/train"
	"gomoku/positions"
	"gomoku/solver/play"
)

func tuneCommand(stdin interface{ Read([]byte) (int, error) }) *cli.Command {
	return &cli.Command{
		Name:      "tune",
		Usage:     "fit the evaluation's weights to game results (Texel tuning) and write a weights file; or, with --ga, tune the search's parameters",
		ArgsUsage: "GAMES... (selfplay's JSON Lines, or game records in any input format: .psq, .sgf, move lists); with --ga, a file of openings",
		Description: "Reads games, takes every position after the opening where neither side has a five-point, and fits the\n" +
			"evaluation's win rate to the game's result blended with the search's value (--lambda of the result; games\n" +
			"without values use the result alone) by full-batch Adam on the cross-entropy. A game given twice (the same rule,\n" +
			"size and moves, as match's .psq and .sgf of one game) is read once. Every tenth game is held back\n" +
			"for validation; the losses and the calibration error before and after are printed. The fit starts from\n" +
			"--weights (default: the built-in weights) and writes --out.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "weights", Usage: "starting weights `FILE` (default: the built-in ones)"},
			&cli.BoolFlag{Name: "hand", Usage: "start from the hand-set weights instead"},
			&cli.StringFlag{Name: "out", Usage: "write the fitted weights (with --ga: the parameters, JSON) to `FILE`"},
			&cli.BoolFlag{Name: "ga", Usage: "instead, tune the alpha-beta search's parameters by the genetic algorithm, by games against the defaults"},
			&cli.IntFlag{Name: "population", Value: 8, Usage: "--ga: parameter sets per generation"},
			&cli.IntFlag{Name: "generations", Value: 4, Usage: "--ga: generations"},
			&cli.IntFlag{Name: "games-per-eval", Value: 10, Usage: "--ga: games of a set against the defaults"},
			&cli.DurationFlag{Name: "time", Value: 50 * time.Millisecond, Usage: "--ga: time per move"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "--ga: random seed"},
			&cli.IntFlag{Name: "epochs", Value: 400, Usage: "full-batch Adam steps"},
			&cli.Float64Flag{Name: "rate", Value: 4, Usage: "Adam's step size, evaluation units"},
			&cli.Float64Flag{Name: "l2", Value: 1e-7, Usage: "L2 penalty on the distance from the starting weights"},
			&cli.Float64Flag{Name: "lambda", Value: 0.7, Usage: "share of the game result in the target (the rest: the search's value)"},
			&cli.StringFlag{Name: "rule", Aliases: []string{"r"}, Usage: "rule of game records that state none"},
		},
		Action: runTune,
	}
}

func runTune(c *cli.Context) error {
	if c.Bool("ga") {
		return runGA(c)
	}
	if c.NArg() == 0 {
		return usagef("name one or more files of games")
	}
	if c.String("out") == "" {
		return usagef("--out: name the weights file to write")
	}
	start := play.DefaultWeights()
	if c.Bool("hand") {
		start = play.HandWeights()
	}
	if name := c.String("weights"); name != "" {
		w, err := play.ReadWeights(name)
		if err != nil {
			return err
		}
		start = w
	}
	lambda := c.Float64("lambda")
	if lambda < 0 || lambda > 1 {
		return usagef("--lambda %g: want 0 to 1", lambda)
	}
	var train, valid []play.Sample
	games, repeated := 0, 0
	// seen holds the games read so far (rule, size and moves): a game met
	// again, such as the .psq and the .sgf that match writes of each game,
	// is read once, so that no game can fall on both sides of the split
	seen := make(map[string]bool)
	add := func(r engine.Rule, size int, moves []engine.Point, values []float64, winner engine.Color, opening int) error {
		key := gameKey(r, size, moves)
		if seen[key] {
			repeated++
			return nil
		}
		seen[key] = true
		l := lambda
		if len(values) == 0 {
			l = 1
		}
		ss, err := play.GameSamples(r, size, moves, values, winner, opening, l)
		if err != nil {
			return err
		}
		if games%10 == 9 {
			valid = append(valid, ss...)
		} else {
			train = append(train, ss...)
		}
		games++
		return nil
	}
	failed := 0
	for _, name := range expandInputs(c.Args().Slice(), nil, func(err error) { failed++; fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", err) }) {
		data, err := readSource(name, c.App.Reader)
		if err != nil {
			return err
		}
		if first, _, _ := bytes.Cut(data, []byte("\n")); bytes.Contains(first, []byte(`"values"`)) {
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 16<<20)
			for line := 1; sc.Scan(); line++ {
				if err := addSelfplayLine(sc.Bytes(), add); err != nil {
					failed++
					fmt.Fprintf(c.App.ErrWriter, "gomoku: %s:%d: %v\n", name, line, err)
				}
			}
			continue
		}
		opt := positions.DefaultOptions
		if r := c.String("rule"); r != "" {
			if opt.Rule, err = engine.ParseRule(r); err != nil {
				return usageError{err}
			}
			opt.PSQRule = opt.Rule
		}
		ps, errs := positions.Parse(name, data, positions.Auto, opt)
		for _, e := range errs {
			failed++
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", e)
		}
		for _, p := range ps {
			if len(p.Moves) == 0 || len(p.Moves) != len(p.Black)+len(p.White) {
				continue
			}
			b, err := p.Board(p.Rule)
			if err != nil {
				continue
			}
			if err := add(p.Rule, p.Size, p.Moves, nil, recordWinner(p, p.Rule), 0); err != nil && b != nil {
				failed++
				fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: %v\n", p.Label(), err)
			}
		}
	}
	if len(train) == 0 {
		return fmt.Errorf("no training positions in %d games", games)
	}
	out := c.App.Writer
	fmt.Fprintf(out, "tune: %d games, %d training and %d validation positions (every tenth game held back)",
		games, len(train), len(valid))
	if repeated > 0 {
		fmt.Fprintf(out, "; %d repeated games read once", repeated)
	}
	fmt.Fprintln(out)
	tl, tc := play.Loss(start, train)
	vl, vc := play.Loss(start, valid)
	fmt.Fprintf(out, "before: training loss %.4f, validation loss %.4f, validation calibration error %.3f (training %.3f)\n",
		tl, vl, vc, tc)
	w, err := play.Tune(start, train, valid, play.TuneConfig{Epochs: c.Int("epochs"), Rate: c.Float64("rate"), L2: c.Float64("l2"),
		Progress: func(epoch int, t, v float64) {
			fmt.Fprintf(c.App.ErrWriter, "epoch %d: training %.4f, validation %.4f\n", epoch, t, v)
		}})
	if err != nil {
		return err
	}
	tl2, tc2 := play.Loss(w, train)
	vl2, vc2 := play.Loss(w, valid)
	fmt.Fprintf(out, "after:  training loss %.4f, validation loss %.4f, validation calibration error %.3f (training %.3f)\n",
		tl2, vl2, vc2, tc2)
	var names []string
	for _, a := range c.Args().Slice() {
		names = append(names, filepath.Base(a))
	}
	source := fmt.Sprintf("gomoku tune: %d games (%s), %d positions, lambda %g, %d epochs, rate %g, l2 %g; validation loss %.4f -> %.4f, calibration %.3f -> %.3f",
		games, strings.Join(names, ", "), len(train), lambda, c.Int("epochs"), c.Float64("rate"), c.Float64("l2"), vl, vl2, vc, vc2)
	data, err := play.MarshalWeights(w, source)
	if err != nil {
		return err
	}
	f, err := createOutput(c.String("out"), c.Args().Slice())
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(out, "weights written to %s\n", c.String("out"))
	if failed > 0 {
		return fmt.Errorf("%d record(s) failed: %w", failed, errRecords)
	}
	return nil
}

// addSelfplayLine reads one selfplay JSON line and adds its game.
func addSelfplayLine(line []byte, add func(engine.Rule, int, []engine.Point, []float64, engine.Color, int) error) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	g, err := train.ParseGameLine(line)
	if err != nil {
		return err
	}
	return add(g.Rule, g.Size, g.Moves, g.Values, g.Winner, g.Opening)
}

// runGA tunes ABParams by the genetic algorithm (play.TuneSearch).
func runGA(c *cli.Context) error {
	rule, err := engine.ParseRule(c.String("rule"))
	if err != nil && c.String("rule") != "" {
		return usageError{err}
	}
	if c.String("rule") == "" {
		rule = engine.Freestyle
	}
	weights, err := loadWeights(c)
	if err != nil {
		return err
	}
	cfg := play.GAConfig{Rule: rule, Population: c.Int("population"), Generations: c.Int("generations"),
		GamesPerEval: c.Int("games-per-eval"), Time: c.Duration("time"), MemoryMiB: 32, Weights: weights,
		Rand: rand.New(rand.NewPCG(c.Uint64("seed"), 7))}
	if cfg.Population < 2 || cfg.Generations < 1 || cfg.GamesPerEval < 2 || cfg.Time <= 0 {
		return usagef("--ga wants --population 2+, --generations 1+, --games-per-eval 2+ and a --time")
	}
	for _, name := range c.Args().Slice() {
		data, err := readSource(name, c.App.Reader)
		if err != nil {
			return err
		}
		opt := positions.DefaultOptions
		opt.Rule = rule
		ps, _ := positions.Parse(name, data, positions.Auto, opt)
		for _, p := range ps {
			if len(p.Moves) == len(p.Black)+len(p.White) {
				cfg.Openings = append(cfg.Openings, p.Moves)
			}
		}
	}
	out := c.App.Writer
	fmt.Fprintf(out, "ga: %v, population %d, %d generations, %d games per set at %v a move; genes %s\n", rule,
		cfg.Population, cfg.Generations, cfg.GamesPerEval, cfg.Time, strings.Join(play.GeneNames(), " "))
	cfg.Progress = func(gen int, best play.ABParams, score float64) {
		fmt.Fprintf(out, "generation %d: best %v, score %.2f against the defaults\n", gen, play.GeneValues(best), score)
	}
	best, score, err := play.TuneSearch(c.Context, cfg)
	if err != nil {
		return err
	}
	data, _ := json.Marshal(best)
	fmt.Fprintf(out, "fittest: %s, score %.2f against the defaults\n", data, score)
	if name := c.String("out"); name != "" {
		f, err := createOutput(name, c.Args().Slice())
		if err != nil {
			return err
		}
		if _, err := f.Write(append(data, '\n')); err != nil {
			f.Abort()
			return err
		}
		return f.Commit()
	}
	return nil
}

// gameKey identifies a game by its rule, board size and moves, for tune's
// check that no game is read twice.
func gameKey(r engine.Rule, size int, moves []engine.Point) string {
	k := make([]byte, 0, 2+2*len(moves))
	k = append(k, byte(r), byte(size))
	for _, m := range moves {
		k = append(k, byte(m), byte(m>>8))
	}
	return string(k)
}
