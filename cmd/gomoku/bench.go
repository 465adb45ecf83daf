package main

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
	"gomoku/solver/play"
)

// benchSet is the default bench set: quintet's VCF cases.
//
//go:embed benchdata/*.txt
var benchSet embed.FS

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "measure the board kernel, MCTS, alpha-beta and the VCF search on a fixed set of positions",
		ArgsUsage: "[FILE...] (default: the built-in set, quintet's VCF cases)",
		Description: "Reports Play+Undo pairs per second on a 15x15 middle game, MCTS playouts and alpha-beta nodes per\n" +
			"second and time to depth 8 on a middle game (with --eval nnue, the network's too), the nodes per second of\n" +
			"proof-number search over all moves (solve --mode win, prove) on a freestyle position, then solves each position repeatedly\n" +
			"and reports its median time. The signature (the sum of node counts) is the same on every machine\n" +
			"for the same code and set; a change in it means the search changed.",
		Subcommands: []*cli.Command{vsQuintetCommand(), vsRapfiCommand()},
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "min-time", Value: 200 * time.Millisecond, Usage: "least time spent on each position"},
			evalFlag(), netFlag(),
			&cli.IntFlag{Name: "memory", Value: solver.DefaultMemoryMiB, Usage: "transposition table size, MiB"},
		},
		Action: func(c *cli.Context) error {
			if err := setMemory(c); err != nil {
				return err
			}
			out := c.App.Writer
			rate, err := playUndoRate(time.Second)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "kernel: %.2f M Play+Undo pairs/s (renju, 15x15 middle game, one core)\n", rate/1e6)
			if err := searchRates(c, out); err != nil {
				return err
			}
			if err := allMovesRate(c, out); err != nil {
				return err
			}
			var ps []*positions.Position
			badRecords := 0 // measured without them, then an error (exit 1)
			if c.NArg() == 0 {
				names, _ := fs.Glob(benchSet, "benchdata/*.txt")
				for _, n := range names {
					data, err := benchSet.ReadFile(n)
					if err != nil {
						return err
					}
					got, errs := positions.Parse(path.Base(n), data, positions.Auto, positions.DefaultOptions)
					if len(errs) > 0 {
						return errs[0]
					}
					ps = append(ps, got...)
				}
			} else if ps, badRecords, err = readPositionFiles(c, c.Args().Slice(), positions.DefaultOptions); err != nil {
				return err
			}
			vcf := solver.NewVCF(c.Int("memory"))
			var signature, nodes int64
			var total time.Duration
			fmt.Fprintf(out, "%-28s %-7s %8s %12s %6s\n", "position", "result", "nodes", "median", "runs")
			for _, p := range ps {
				b, err := p.Board(p.Rule)
				if err != nil {
					return err
				}
				att := p.Attacker
				if att == engine.Empty {
					att = p.ToMove
				}
				lim := solver.Limits{}
				if p.Puzzle != nil {
					lim.Depth = p.Puzzle.Limit
				}
				pr := solver.Problem{Board: b, ToMove: p.ToMove, Attacker: att}
				var times []time.Duration
				var res solver.Result
				for start := time.Now(); len(times) < 5 || time.Since(start) < c.Duration("min-time"); {
					if res, err = vcf.Search(c.Context, pr, lim, nil); err != nil {
						return fmt.Errorf("%s: %w", p.Label(), err)
					}
					times = append(times, res.Elapsed)
				}
				slices.Sort(times)
				med := times[len(times)/2]
				signature += res.Nodes
				nodes += res.Nodes
				total += med
				fmt.Fprintf(out, "%-28s %-7s %8d %12s %6d\n", p.Label(), res.Status, res.Nodes, med, len(times))
			}
			nps := 0.0
			if total > 0 {
				nps = float64(nodes) / total.Seconds()
			}
			fmt.Fprintf(out, "total: %d positions, %d nodes, %s (medians summed), %.0f nodes/s\n", len(ps), nodes, total, nps)
			fmt.Fprintf(out, "signature: %d\n", signature)
			if badRecords > 0 {
				return fmt.Errorf("%d record(s) not measured: %w", badRecords, errRecords)
			}
			return nil
		},
	}
}

// benchGame is a renju middle game (24 moves of a Rapfi-mintaka game,
// ../shared/data/games/renju/003.psq) for the kernel rate.
const benchGame = "h8h7h9g7i7g9i8g8g10j7h11f9h10h12i6i9i10f10k8j9j8l8k9e10"

// searchMidgame is the first 16 moves of benchGame: black to move, with no
// VCF for either side, so MCTS and alpha-beta search rather than finish.
const searchMidgame = "h8h7h9g7i7g9i8g8g10j7h11f9h10h12i6i9"

// searchRates prints MCTS playouts/s (one goroutine) and alpha-beta nodes/s
// on searchMidgame, a second each.
func searchRates(c *cli.Context, out io.Writer) error {
	b, toMove, err := benchBoard(searchMidgame, engine.Renju)
	if err != nil {
		return err
	}
	rep, err := play.NewMCTS(1).Search(c.Context, b, toMove, solver.Limits{Time: time.Second}, 1, nil, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "mcts: %.0f playouts/s (renju, 15x15 middle game, one goroutine)\n",
		float64(rep.Playouts)/rep.Elapsed.Seconds())
	w, err := loadWeights(c)
	if err != nil {
		return err
	}
	evals := []struct {
		name string
		w    *play.Weights
	}{{"linear", nil}}
	if w != nil && w.Nets[engine.Renju] != nil {
		evals = append(evals, struct {
			name string
			w    *play.Weights
		}{"nnue", w})
	}
	for _, ev := range evals {
		ab := play.NewAlphaBeta(16)
		ab.Weights = ev.w
		rep, err := ab.Search(c.Context, b, toMove, solver.Limits{Time: time.Second}, 1, nil, nil)
		if err != nil {
			return err
		}
		ab = play.NewAlphaBeta(16)
		ab.Weights = ev.w
		start := time.Now()
		if _, err := ab.Search(c.Context, b, toMove, solver.Limits{Depth: 8}, 1, nil, nil); err != nil {
			return err
		}
		fmt.Fprintf(out, "alpha-beta (%s): %.0f nodes/s, depth %d in 1 s (same position); depth 8 in %d ms\n",
			ev.name, float64(rep.Nodes)/rep.Elapsed.Seconds(), rep.Moves[0].Depth, time.Since(start).Milliseconds())
	}
	return nil
}

// allMovesGame is a freestyle position from D6's proof (h8 h9 i8, white i7,
// black j10, white j8, black k9, white k11; black to move) that the proof-
// number search over all moves does not decide within allMovesNodes.
const allMovesGame = "h8h9i8i7j10j8k9k11"

// allMovesNodes is allMovesRate's node budget: about a second on this
// project's machine (2026-12-05).
const allMovesNodes = 200_000

// allMovesRate prints the nodes per second of proof-number search over all
// moves (solve --mode win's last stage, prove's search of each reply) on
// allMovesGame, allMovesNodes nodes, one goroutine; the same nodes on every
// machine.
func allMovesRate(c *cli.Context, out io.Writer) error {
	b, toMove, err := benchBoard(allMovesGame, engine.Freestyle)
	if err != nil {
		return err
	}
	v := solver.NewVCT(c.Int("memory"))
	v.AllMoves = true
	res, err := v.Search(c.Context, solver.Problem{Board: b, ToMove: toMove, Attacker: toMove}, solver.Limits{Nodes: allMovesNodes}, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "search over all moves: %.0f nodes/s (freestyle, a position of D6's proof, %d nodes, %v, one goroutine)\n",
		float64(res.Nodes)/res.Elapsed.Seconds(), res.Nodes, res.Status)
	return nil
}

// benchBoard sets up a built-in move list (black first) under rule r and
// returns the board and the side to move. Errors: the parser's and
// Board's (neither happens with the built-in lists).
func benchBoard(moves string, r engine.Rule) (*engine.Board, engine.Color, error) {
	p, errs := positions.Parse("bench", []byte(moves), positions.MoveList, positions.DefaultOptions)
	if len(errs) > 0 {
		return nil, engine.Empty, errs[0]
	}
	b, err := p[0].Board(r)
	if err != nil {
		return nil, engine.Empty, err
	}
	return b, p[0].ToMove, nil
}

// playUndoRate plays and takes back a stone on every empty cell of the bench
// game in turn for about d and returns pairs per second.
func playUndoRate(d time.Duration) (float64, error) {
	b, _, err := benchBoard(benchGame, engine.Renju)
	if err != nil {
		return 0, err
	}
	var empty []engine.Point
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			if q := engine.PointAt(x, y); b.At(q) == engine.Empty {
				empty = append(empty, q)
			}
		}
	}
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		for _, q := range empty {
			b.Play(q, engine.Black)
			b.Undo()
		}
		n += len(empty)
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// peerPresent reports whether the peer program of --peer exists. When it
// does not, a --peer given is a usage error (what was asked for is not
// there: no measurement), and the default one's absence is said on the
// command's output ("what is not at PATH (--peer); nothing measured"), no
// error: a benchmark of the shared peers runs where they are.
func peerPresent(c *cli.Context, what string) (bool, error) {
	peer := c.String("peer")
	if _, err := os.Stat(peer); err != nil {
		if c.IsSet("peer") {
			return false, usagef("--peer %s: %v", peer, err)
		}
		fmt.Fprintf(c.App.Writer, "%s is not at %s (--peer); nothing measured\n", what, peer)
		return false, nil
	}
	return true, nil
}

// readPositionFiles reads and parses the named files (at most inputLimit
// bytes each) with options opt, in order. A bad record is reported on the
// command's error output and counted in bad, the others kept; a file that
// cannot be read is an error.
func readPositionFiles(c *cli.Context, names []string, opt positions.Options) (ps []*positions.Position, bad int, err error) {
	for _, n := range names {
		data, err := readSource(n, nil)
		if err != nil {
			return nil, bad, err
		}
		got, errs := positions.Parse(n, data, positions.Auto, opt)
		for _, e := range errs {
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", e)
		}
		bad += len(errs)
		ps = append(ps, got...)
	}
	return ps, bad, nil
}
