package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
)

func solveCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "solve",
		Usage:     "prove or refute a win by continuous fours (VCF) for each position",
		ArgsUsage: "FILE... (- for standard input)",
		Description: "For each position, searches for a VCF of the attacker (by default the side to move) and prints\n" +
			"the winning line, replayed on a fresh board, or a disproof with the limit it holds under.\n" +
			"A record's own attacker-move limit applies unless --limit is given.",
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "mode", Aliases: []string{"m"}, Value: "vcf", Usage: "search: vcf"},
			&cli.StringFlag{Name: "attacker", Aliases: []string{"a"},
				Usage: "side to win: black or white (default: the record's attacker, else the side to move)"},
			&cli.BoolFlag{Name: "pass",
				Usage: "let the attacker move first when the defender is to move (the defender passes)"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"l"},
				Usage: "most attacker moves, counted up to the move that makes the win certain (0: the record's, else none)"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Usage: "time limit per position, e.g. 10s (0: none)"},
			&cli.Int64Flag{Name: "nodes", Usage: "node limit per position (0: none)"},
			&cli.IntFlag{Name: "memory", EnvVars: []string{"GOMOKU_MEMORY"}, Value: solver.DefaultMemoryMiB,
				Usage: "transposition table size, MiB"},
			&cli.BoolFlag{Name: "shortest", Value: true,
				Usage: "prove the line shortest by searching every shorter limit after a win (--shortest=false: the first line found)"},
		),
		Action: runSolve(stdin),
	}
}

// solveRecord is the JSON line written per position by solve.
type solveRecord struct {
	Source   string   `json:"source"`
	Index    int      `json:"index"`
	ID       string   `json:"id,omitempty"`
	Rule     string   `json:"rule"`
	Size     int      `json:"size"`
	ToMove   string   `json:"to_move"`
	Attacker string   `json:"attacker"`
	Mode     string   `json:"mode"`
	Result   string   `json:"result"`
	Line     []string `json:"line"`
	LineEnd  string   `json:"line_end,omitempty"`
	// Shortest says no line with fewer attacker moves exists.
	Shortest bool `json:"shortest,omitempty"`
	// AttackerMoves counts the attacker moves of the line.
	AttackerMoves int `json:"attacker_moves,omitempty"`
	// Limit is the attacker-move limit searched (0: none).
	Limit int `json:"limit"`
	// Exhaustive says a no-win holds at every length, not only within Limit.
	Exhaustive bool    `json:"exhaustive,omitempty"`
	Stopped    string  `json:"stopped,omitempty"`
	Nodes      int64   `json:"nodes"`
	TimeMS     float64 `json:"time_ms"`
	TTHits     int64   `json:"tt_hits"`
	Note       string  `json:"note,omitempty"`
}

func runSolve(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		in, err := parseInput(c, stdin)
		if err != nil {
			return err
		}
		if m := strings.ToLower(c.String("mode")); m != "vcf" {
			return usagef("--mode %q: only vcf is implemented", m)
		}
		var attacker engine.Color
		if s := c.String("attacker"); s != "" {
			if attacker, err = engine.ParseColor(s); err != nil {
				return usageError{err}
			}
		}
		if c.Int("limit") < 0 || c.Int64("nodes") < 0 || c.Duration("time") < 0 || c.Int("memory") < 1 {
			return usagef("--limit, --nodes and --time must not be negative, --memory at least 1")
		}
		vcf := solver.NewVCF(c.Int("memory"))
		vcf.Shortest = c.Bool("shortest")
		out := in.out
		return in.each(c, func(p *positions.Position, r engine.Rule, b *engine.Board) error {
			att := attacker
			if att == engine.Empty {
				att = p.Attacker
			}
			if att == engine.Empty {
				att = p.ToMove
			}
			lim := solver.Limits{Depth: c.Int("limit"), Nodes: c.Int64("nodes"), Time: c.Duration("time"),
				MemoryMiB: c.Int("memory")}
			if lim.Depth == 0 && p.Puzzle != nil {
				lim.Depth = p.Puzzle.Limit
			}
			pr := solver.Problem{Board: b, ToMove: p.ToMove, Attacker: att, DefenderPasses: c.Bool("pass")}
			res, err := vcf.Search(c.Context, pr, lim, nil)
			if err != nil {
				if err == solver.ErrDefenderToMove {
					return fmt.Errorf("not a VCF puzzle: %v is to move, not the attacker %v (use --pass to let %v pass)",
						p.ToMove, att, p.ToMove)
				}
				return err
			}
			note := ""
			if b.HasFive(att) {
				note = "the attacker already has a five on the board"
			}
			rec := solveRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
				ToMove: p.ToMove.String(), Attacker: att.String(), Mode: "vcf", Result: res.Status.String(),
				Line: pointStrings(res.Line), LineEnd: res.End.String(), Limit: lim.Depth,
				Stopped: res.Stopped, Nodes: res.Nodes, TimeMS: ms(res.Elapsed), TTHits: res.TTHits, Note: note}
			if res.Status == solver.StatusWin {
				rec.AttackerMoves, rec.Shortest = (len(res.Line)+1)/2, res.Shortest
			}
			if res.Status == solver.StatusNoWin {
				rec.Limit, rec.Exhaustive = res.Proven.Depth, res.Proven.Depth == 0
			}
			if in.json {
				return writeJSON(out, rec)
			}
			writeSolveText(out, p, b, rec, res)
			return nil
		})
	}
}

// endPhrase describes how a winning line ends, for people.
var endPhrase = map[solver.LineEnd]string{
	solver.EndFive:           "a five",
	solver.EndDoubleFour:     "two five-points (a straight four or a double four)",
	solver.EndForbiddenBlock: "a four whose only block is forbidden to black",
}

// ms converts a duration to milliseconds with microsecond precision.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeSolveText prints one solve result for people.
func writeSolveText(w io.Writer, p *positions.Position, b *engine.Board, rec solveRecord, res solver.Result) {
	fmt.Fprintf(w, "%s  %s %dx%d  %s to move, attacker %s, VCF\n", p.Label(), rec.Rule, p.Size, p.Size,
		rec.ToMove, rec.Attacker)
	if rec.Note != "" {
		fmt.Fprintf(w, "note: %s\n", rec.Note)
	}
	cost := fmt.Sprintf("%d nodes, %.3f ms", res.Nodes, rec.TimeMS)
	switch res.Status {
	case solver.StatusWin:
		shortest := ""
		if res.Shortest {
			shortest = ", shortest"
		}
		moves := "moves"
		if rec.AttackerMoves == 1 {
			moves = "move"
		}
		fmt.Fprintf(w, "result: win in %d attacker %s%s, ending in %s (%s; line replayed and verified)\n",
			rec.AttackerMoves, moves, shortest, endPhrase[res.End], cost)
		fmt.Fprintf(w, "line: %s\n", numbered(res.Line))
		drawBoard(w, b, lineMarks(res.Line))
	case solver.StatusNoWin:
		if rec.Exhaustive {
			fmt.Fprintf(w, "result: no-win: no VCF of any length (exhaustive; %s)\n", cost)
		} else {
			fmt.Fprintf(w, "result: no-win: no VCF within %d attacker moves (%s)\n", rec.Limit, cost)
		}
	default:
		fmt.Fprintf(w, "result: unknown: stopped by the %s limit (%s)\n", res.Stopped, cost)
	}
	fmt.Fprintln(w)
}
