package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/svg"
	"gomoku/solver"
	"gomoku/solver/play"
)

func bestCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "best",
		Usage:     "report the best moves of the side to move: a forced win, the defences to a threatened one, or MCTS/alpha-beta's choice",
		ArgsUsage: "FILE... (- for standard input)",
		Description: "For each position: if the side to move wins by VCF or VCT, the winning line (kind win). Otherwise, if the\n" +
			"opponent would win by VCF or VCT were it to move, the moves proven to stop it, ranked by the search (kind\n" +
			"defend; kind lost when none is found). Otherwise the best moves by MCTS or alpha-beta, with visits or depth,\n" +
			"value (a win rate from 0 to 1 for the side to move) and principal variation (kind search).",
		Flags: append(append(inputFlags(),
			&cli.StringFlag{Name: "engine", Aliases: []string{"e"}, Value: "ab", Usage: "search when no win is forced: ab (alpha-beta) or mcts"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Value: 5 * time.Second, Usage: "time per position, win checks included (0: none; then --nodes bounds the search)"},
			&cli.Int64Flag{Name: "nodes", Usage: "MCTS playouts or alpha-beta nodes per position (0: none)"},
			&cli.IntFlag{Name: "multipv", Aliases: []string{"k"}, Value: 3, Usage: "number of best moves to report"},
			&cli.IntFlag{Name: "threads", Value: runtime.NumCPU(), DefaultText: "the number of CPUs", Usage: "search goroutines; with 1, the VCT checks run one search, not two side by side (as pbrain under thread_num 1)"},
			&cli.IntFlag{Name: "memory", EnvVars: []string{"GOMOKU_MEMORY"}, Value: solver.DefaultMemoryMiB,
				Usage: "tables and tree, MiB"},
			&cli.StringFlag{Name: "weights", Usage: "evaluation weights `FILE` (default: the built-in ones)"},
			evalFlag(), netFlag(),
			searchParamsFlag(),
		), bookPlayFlags()...),
		Action: runBest(stdin),
	}
}

// bestMove is one move of a best record.
type bestMove struct {
	Move   string  `json:"move"`
	Value  float64 `json:"value"`
	Visits int64   `json:"visits,omitempty"`
	Depth  int     `json:"depth,omitempty"`
	// Proven is "win" only for a win the solver proved and the proof
	// checker passed (kind win).
	Proven string `json:"proven,omitempty"`
	// Tree is "win", "loss" or "draw" when MCTS or alpha-beta solved the
	// move in its own tree. Their trees hold only candidate moves (cells
	// near the stones), so a win or a loss there is the search's belief,
	// not a checked proof; a draw is a board filled with no five.
	Tree string `json:"tree,omitempty"`
	// Defence is, for kind defend, "proven" (the threat is disproved after
	// the move) or "unproven" (its check ran out of budget).
	Defence string   `json:"defence,omitempty"`
	PV      []string `json:"pv"`
}

// bestRecord is the JSON Lines record of `best`, one per position.
type bestRecord struct {
	Source string `json:"source"`
	Index  int    `json:"index"`
	ID     string `json:"id,omitempty"`
	Rule   string `json:"rule"`
	Size   int    `json:"size"`
	ToMove string `json:"to_move"`
	// Kind is win, defend, lost, search, or book (--book: a book move,
	// Note says why).
	Kind string `json:"kind"`
	Note string `json:"note,omitempty"`
	// Line is the winning line (kind win), or the opponent's threatened
	// one (defend, lost).
	Line     []string   `json:"line,omitempty"`
	Threat   []string   `json:"threat,omitempty"`
	Moves    []bestMove `json:"moves"`
	Engine   string     `json:"engine"`
	Playouts int64      `json:"playouts,omitempty"`
	Nodes    int64      `json:"nodes"`
	// Checked and Refutations count the defences checked and found;
	// Unproven counts the moves whose check ran out of time.
	Checked     int     `json:"checked,omitempty"`
	Refutations int     `json:"refutations,omitempty"`
	Unproven    int     `json:"unproven,omitempty"`
	TimeMS      float64 `json:"time_ms"`
	// PlayoutsPerSec is the MCTS rate, playouts per second.
	PlayoutsPerSec float64 `json:"playouts_per_sec,omitempty"`
}

// newSearcher makes the searcher an --engine value names.
func newSearcher(name string, threads, mib int) (play.Searcher, error) {
	switch name {
	case "mcts":
		return play.NewMCTS(threads), nil
	case "ab", "alphabeta":
		ab := play.NewAlphaBeta(max(1, mib/4))
		ab.Threads = threads
		return ab, nil
	}
	return nil, usagef("--engine %q: want mcts or ab", name)
}

func runBest(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		in, err := parseInput(c, stdin)
		if err != nil {
			return err
		}
		if c.Int64("nodes") < 0 || c.Duration("time") < 0 || c.Int("memory") < 1 || c.Int("threads") < 1 {
			return usagef("--nodes and --time must not be negative, --memory and --threads at least 1")
		}
		if err := setMemory(c); err != nil {
			return err
		}
		if c.Duration("time") == 0 && c.Int64("nodes") == 0 {
			return usagef("give --time or --nodes")
		}
		engineName := c.String("engine")
		searcher, err := newSearcher(engineName, c.Int("threads"), c.Int("memory"))
		if err == nil {
			var w *play.Weights
			if w, err = loadWeights(c); err == nil {
				setWeights(searcher, w)
			}
			var p *play.ABParams
			if err == nil {
				if p, err = loadSearchParams(c); err == nil {
					setParams(searcher, p)
				}
			}
		}
		if err != nil {
			return err
		}
		slv := solver.NewSolver(c.Int("memory") / 2)
		oneThread(slv, c.Int("threads"))
		lim := solver.Limits{Time: c.Duration("time"), Nodes: c.Int64("nodes"), MemoryMiB: c.Int("memory") / 2}
		bp, err := openBookPlayer(c)
		if err != nil {
			return err
		}
		defer bp.Close()
		return in.each(c, func(p *positions.Position, r engine.Rule, b *engine.Board) error {
			start := time.Now()
			if ch, ok, err := bp.move(b, p.ToMove); err != nil {
				return err
			} else if ok {
				rec := bestRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
					ToMove: p.ToMove.String(), Kind: "book", Engine: "book", Note: bookNote(ch, ch.Point.String()),
					Moves:  []bestMove{{Move: ch.Point.String(), Value: ch.Score, PV: []string{ch.Point.String()}}},
					TimeMS: ms(time.Since(start))}
				if in.json {
					return writeJSON(in.out, rec)
				}
				if in.svg {
					return in.writeSVG(p, svg.Diagram{Board: b, LastMove: lastMove(p), LineFirst: p.ToMove, Line: []engine.Point{ch.Point},
						Title: fmt.Sprintf("%s  %s, %s to move: book", shortLabel(p), r, p.ToMove), Caption: rec.Note})
				}
				writeBestText(in.out, p, b, rec)
				return nil
			}
			rep, err := play.Best(c.Context, slv, b, p.ToMove, searcher, lim, c.Int("multipv"), nil)
			if err != nil {
				return err
			}
			rec := bestRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
				ToMove: p.ToMove.String(), Kind: string(rep.Kind), Engine: engineName, Playouts: rep.Playouts,
				Nodes: rep.Nodes, Checked: rep.Checked, Refutations: rep.Refutations, Unproven: len(rep.Unproven), TimeMS: ms(rep.Elapsed)}
			if rep.Kind == play.KindWin {
				rec.Line = pointStrings(rep.Win.Line)
			} else if rep.Win != nil {
				rec.Threat = pointStrings(rep.Win.Line)
			}
			if rep.Playouts > 0 && rep.SearchTime > 0 {
				rec.PlayoutsPerSec = float64(rep.Playouts) / rep.SearchTime.Seconds()
			}
			for _, m := range rep.Moves {
				bm := bestMove{Move: m.Move.String(), Value: m.Value, Visits: m.Visits, Depth: m.Depth, PV: pointStrings(m.PV)}
				if rep.Kind == play.KindDefend {
					bm.Defence = "proven"
					if slices.Contains(rep.Unproven, m.Move) {
						bm.Defence = "unproven"
					}
				}
				switch {
				case m.Proven == 1 && rep.Kind == play.KindWin:
					bm.Proven = "win"
				case m.Proven == 1:
					bm.Tree = "win"
				case m.Proven == -1:
					bm.Tree = "loss"
				case m.Drawn:
					bm.Tree = "draw"
				}
				rec.Moves = append(rec.Moves, bm)
			}
			if in.json {
				return writeJSON(in.out, rec)
			}
			if in.svg {
				d := svg.Diagram{Board: b, LastMove: lastMove(p), LineFirst: p.ToMove,
					Title: fmt.Sprintf("%s  %s, %s to move: %s", shortLabel(p), r, p.ToMove, rec.Kind)}
				if len(rep.Moves) > 0 {
					d.Line = rep.Moves[0].PV
					d.Caption = fmt.Sprintf("best %s, win rate %.2f; %s", rep.Moves[0].Move, rep.Moves[0].Value, joinNumbered(pointStrings(d.Line)))
				}
				return in.writeSVG(p, d)
			}
			writeBestText(in.out, p, b, rec)
			return nil
		})
	}
}

// writeBestText prints one best-move report for people.
func writeBestText(w io.Writer, p *positions.Position, b *engine.Board, rec bestRecord) {
	fmt.Fprintf(w, "%s  %s %dx%d  %s to move\n", p.Label(), rec.Rule, rec.Size, rec.Size, rec.ToMove)
	switch play.Kind(rec.Kind) {
	case play.KindWin:
		fmt.Fprintf(w, "win: %s (replayed on a fresh board)\n", joinNumbered(rec.Line))
	case "book":
		fmt.Fprintf(w, "%s\n", rec.Note)
	case play.KindDefend:
		fmt.Fprintf(w, "defend: the opponent threatens %s; of %d moves checked, %d are proven to stop it, %d more were not refuted in time\n",
			joinNumbered(rec.Threat), rec.Checked, rec.Refutations, rec.Unproven)
	case play.KindLost:
		if rec.Checked == 0 {
			fmt.Fprintf(w, "lost: the opponent threatens %s and no move can stop it; best tries:\n", joinNumbered(rec.Threat))
		} else {
			fmt.Fprintf(w, "lost: the opponent threatens %s and all %d moves checked lose to it; best tries:\n",
				joinNumbered(rec.Threat), rec.Checked)
		}
	}
	if play.Kind(rec.Kind) != play.KindWin && rec.Kind != "book" {
		for i, m := range rec.Moves {
			cost := fmt.Sprintf("%d visits", m.Visits)
			if m.Depth > 0 {
				cost = fmt.Sprintf("depth %d", m.Depth)
			}
			if m.Proven != "" {
				cost += ", proven " + m.Proven
			}
			if m.Tree != "" {
				cost += ", " + m.Tree + " in the search's tree (unchecked)"
			}
			if m.Tree == "draw" {
				cost = strings.TrimSuffix(cost, " (unchecked)") + " (the board fills)"
			}
			if m.Defence != "" {
				cost += ", defence " + m.Defence
			}
			fmt.Fprintf(w, "%2d. %-4s value %.3f  %s  pv %s\n", i+1, m.Move, m.Value, cost, joinNumbered(m.PV))
		}
	}
	marks := map[engine.Point]string{}
	for i, m := range rec.Moves {
		if pt, err := engine.ParsePoint(m.Move, rec.Size); err == nil && i < 9 {
			marks[pt] = fmt.Sprintf("%d", i+1)
		}
	}
	if play.Kind(rec.Kind) == play.KindWin {
		marks = map[engine.Point]string{}
		for i, s := range rec.Line {
			if pt, err := engine.ParsePoint(s, rec.Size); err == nil {
				marks[pt] = fmt.Sprintf("%d", i+1)
			}
		}
	}
	drawBoard(w, b, marks)
	rate := ""
	if rec.PlayoutsPerSec > 0 {
		rate = fmt.Sprintf(", %.0f playouts/s", rec.PlayoutsPerSec)
	}
	fmt.Fprintf(w, "%s: %d playouts, %d nodes, %.0f ms%s\n\n", rec.Engine, rec.Playouts, rec.Nodes, rec.TimeMS, rate)
}

// joinNumbered numbers a line of points in notation: "1.h8 2.i9 ..."
// (positions.NumberedLine).
func joinNumbered(line []string) string { return positions.NumberedLine(line) }
