package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"gomoku/cmd/internal/match"
	"gomoku/cmd/internal/teacher"
	"gomoku/engine"
	"gomoku/nnue"
	"gomoku/nnue/train"
)

func trainCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "train",
		Usage:     "fit the neural evaluation (package nnue) to self-play games and write its weights file",
		ArgsUsage: "GAMES... (selfplay's JSON Lines, or the directory of a match --out; - for standard input)",
		Description: "Search distillation: every position after a game's opening where neither side has a five-point is a\n" +
			"sample, deduplicated under the eight symmetries (freestyle and standard: also shown with the colours\n" +
			"swapped); its value target is --lambda times the game's result plus the rest times the search's value,\n" +
			"its policy target the move played. Every --val-every-th game is held out for validation; training\n" +
			"goes back to the best epoch and multiplies the step size by --decay after an epoch that does not lower\n" +
			"the validation loss by --min-delta, stops after --patience such epochs in a row and keeps the best\n" +
			"epoch. Prints, per epoch, the losses, the policy's top-1 agreement with the move played, the\n" +
			"calibration error of the predicted win rate (bins of 0.1) and the step size. Ctrl-C writes the best\n" +
			"network so far and exits 130. A directory argument is a match's records (gomoku match --out DIR):\n" +
			"its finished games, each move valued by what its mover reported (this program's win rate, or a\n" +
			"score over --teacher-scale), the games lost by a timeout, a crash or a bad answer skipped.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rule", Aliases: []string{"r"}, Required: true, Usage: "rule: freestyle, standard or renju (games of other rules are skipped)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "write the network to `FILE`"},
			&cli.StringFlag{Name: "init", Usage: "start from the network `FILE` of --rule, or under standard of freestyle and the other way round (default: random, from --seed)"},
			&cli.IntFlag{Name: "epochs", Value: train.DefaultConfig().Epochs, Usage: "most passes over the training samples"},
			&cli.IntFlag{Name: "patience", Value: train.DefaultConfig().Patience, Usage: "epochs without a better validation loss before stopping"},
			&cli.Float64Flag{Name: "decay", Value: train.DefaultConfig().Decay, Usage: "after an epoch that does not lower the best validation loss by --min-delta, go back to the best epoch and multiply the step size by this, above 0 and at most 1 (1: neither)"},
			&cli.Float64Flag{Name: "weight-decay", Usage: "decoupled weight decay (AdamW): each step also shrinks the parameters it updates by --lr times this (0: plain Adam)"},
			&cli.Float64Flag{Name: "min-delta", Value: train.DefaultConfig().MinDelta, Usage: "how much an epoch must lower the best validation loss to count as better for --patience and --decay"},
			&cli.IntFlag{Name: "batch", Value: train.DefaultConfig().Batch, Usage: "minibatch size, samples"},
			&cli.Float64Flag{Name: "lr", Value: train.DefaultConfig().LR, Usage: "Adam's step size"},
			&cli.Float64Flag{Name: "lambda", Value: train.DefaultConfig().Lambda, Usage: "weight of the game's result against the search's value in the value target, 0 to 1"},
			&cli.Float64Flag{Name: "policy-weight", Value: train.DefaultConfig().PolicyWeight, Usage: "weight of the policy loss"},
			&cli.IntFlag{Name: "val-every", Value: 10, Usage: "hold out every N-th game for validation (2 or more)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 2, Usage: "goroutines computing gradients"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the initial network and of the sample order"},
			&cli.BoolFlag{Name: "progress", Usage: "show a progress bar per epoch on a terminal"},
			&cli.Float64Flag{Name: "teacher-scale", Value: teacher.DefaultScale, Usage: "for a match directory, an engine's evaluation units per logistic unit: a reported score stands for the win rate 1/(1+exp(-score/SCALE)) (Rapfi's classical evaluation: 250)"},
		},
		Action: runTrain(stdin),
	}
}

func runTrain(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		rule, err := engine.ParseRule(c.String("rule"))
		if err != nil {
			return usageError{err}
		}
		if c.NArg() == 0 {
			return usagef("no input: name one or more files of selfplay games")
		}
		cfg := train.DefaultConfig()
		cfg.Epochs, cfg.Patience, cfg.Batch = c.Int("epochs"), c.Int("patience"), c.Int("batch")
		cfg.LR, cfg.Lambda, cfg.PolicyWeight = c.Float64("lr"), c.Float64("lambda"), c.Float64("policy-weight")
		cfg.Workers, cfg.Seed, cfg.Decay = c.Int("jobs"), c.Uint64("seed"), c.Float64("decay")
		cfg.MinDelta, cfg.WeightDecay = c.Float64("min-delta"), c.Float64("weight-decay")
		if cfg.Epochs < 1 || cfg.Patience < 1 || cfg.Batch < 1 || cfg.Workers < 1 || !(cfg.LR > 0) || !(cfg.Decay > 0 && cfg.Decay <= 1) || !(cfg.MinDelta >= 0) || !(cfg.WeightDecay >= 0) ||
			!(cfg.Lambda >= 0 && cfg.Lambda <= 1) || !(cfg.PolicyWeight >= 0) || c.Int("val-every") < 2 {
			return usagef("--epochs, --patience, --batch, --jobs at least 1, --lr above 0, --decay above 0 and at most 1, --min-delta and --weight-decay not negative, --lambda in 0..1, --policy-weight not negative, --val-every at least 2")
		}
		net := nnue.New(rule, cfg.Seed)
		if name := c.String("init"); name != "" {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			net, err = nnue.Read(f)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if net.Rule != rule && !(fiveOrMore(net.Rule) && fiveOrMore(rule)) {
				return usagef("--init %s is a %v network, not %v", name, net.Rule, rule)
			}
			net.Rule = rule
		}
		out := c.App.Writer
		var games []train.Game
		var all [][]byte
		failed := 0
		for _, name := range c.Args().Slice() {
			var data []byte
			if st, err := os.Stat(name); err == nil && st.IsDir() {
				var errs []error
				if data, errs, err = matchLines(name, c.Float64("teacher-scale")); err != nil {
					return err
				}
				for _, e := range errs {
					fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", e)
					if errors.Is(e, match.ErrJournal) {
						failed++ // a bad line; a game lost by a timeout or a crash is only skipped
					}
				}
			} else if data, err = readSource(name, stdin); err != nil {
				return err
			}
			all = append(all, data)
			g, errs := train.ReadGames(name, data)
			for _, e := range errs {
				fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", e)
			}
			failed += len(errs)
			games = append(games, g...)
		}
		ds, err := train.NewDataset(rule, games, c.Int("val-every"), train.HashBytes(all...))
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %d games (%d black wins, %d white), %d training and %d validation samples, %d duplicate positions skipped\n",
			rule, ds.Games(), ds.BlackWins, ds.WhiteWins, ds.NumTrain(), ds.NumVal(), ds.Duplicates)
		f, err := createOutput(c.String("out"), c.Args().Slice())
		if err != nil {
			return err
		}
		var bar *progressbar.ProgressBar
		if ef, ok := c.App.ErrWriter.(*os.File); ok && c.Bool("progress") && term.IsTerminal(int(ef.Fd())) {
			bar = progressbar.NewOptions(ds.NumTrain(), progressbar.OptionSetWriter(ef), progressbar.OptionShowCount(),
				progressbar.OptionShowIts(), progressbar.OptionSetItsString("samples"),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
			cfg.Progress = func(epoch, done, total int) {
				if done == min(cfg.Batch, total) {
					bar.Reset()
					bar.Describe(fmt.Sprintf("epoch %d", epoch))
				}
				bar.Set(done)
			}
		}
		fmt.Fprintf(out, "%5s %10s %10s %11s %7s %11s %9s %8s\n", "epoch", "train loss", "value loss", "policy loss", "top-1", "calibration", "step", "time")
		rep, trainErr := train.Train(c.Context, net, ds, cfg, func(m train.Metrics) {
			if bar != nil {
				bar.Clear()
			}
			fmt.Fprintf(out, "%5d %10.4f %10.4f %11.4f %7.3f %11.4f %9.2g %7.1fs\n", m.Epoch, m.TrainLoss, m.ValueLoss,
				m.PolicyLoss, m.PolicyTop1, m.Calibration, m.LR, m.Elapsed.Seconds())
		})
		if trainErr != nil && !errors.Is(trainErr, c.Context.Err()) {
			f.Abort()
			return trainErr
		}
		if len(rep.Epochs) == 0 {
			f.Abort()
			return trainErr
		}
		if _, err := net.WriteTo(f); err != nil {
			f.Abort()
			return err
		}
		if err := f.Commit(); err != nil {
			return err
		}
		best := rep.Epochs[rep.Best]
		fmt.Fprintf(out, "kept epoch %d (validation loss %.4f, policy top-1 %.3f, calibration %.4f); written to %s\n",
			best.Epoch, best.Loss, best.PolicyTop1, best.Calibration, c.String("out"))
		if trainErr != nil {
			return trainErr
		}
		if failed > 0 {
			return fmt.Errorf("%d line(s) failed: %w", failed, errRecords)
		}
		return nil
	}
}

// matchLines returns the finished games of the match directory dir
// (match --out) as selfplay's training lines (teacher.Line, each mover's
// reports as the values, scale the units of a reported score), and the
// games skipped: bad journal lines, and games not ended on the board.
// Errors: those of match.ReadDir.
func matchLines(dir string, scale float64) ([]byte, []error, error) {
	if !(scale > 0) {
		return nil, nil, usagef("--teacher-scale must be above 0")
	}
	rule, size, games, errs, err := match.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var out []byte
	for i := range games {
		line, err := teacher.Line(&games[i], rule, size, scale)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", dir, err))
			continue
		}
		b, err := json.Marshal(line)
		if err != nil {
			return nil, nil, err
		}
		out = append(append(out, b...), '\n')
	}
	return out, errs, nil
}

// fiveOrMore reports whether r is freestyle or standard, whose networks
// read the same inputs in the same colours (the board's threat classes,
// one of the inputs, follow the rule), so that train --init may start one
// from the other.
func fiveOrMore(r engine.Rule) bool { return r == engine.Freestyle || r == engine.Standard }
