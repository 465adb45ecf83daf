package main

import (
	"context"
	"fmt"
	"time"

	"github.com/google/shlex"
	"github.com/urfave/cli/v2"

	"gomoku/cmd/internal/match"
	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
)

// defaultRapfi and defaultRapfiArgs are where the shared peers keep Rapfi
// (classical evaluation) and how it is started, relative to the working
// directory (the module root).
const (
	defaultRapfi     = "../shared/peers/rapfi/pbrain-rapfi"
	defaultRapfiArgs = "--config ../shared/peers/rapfi/config.toml"
)

// vsRapfiCommand runs this program's proof search and a Gomocup brain that
// reports mates as Rapfi does on the same positions, one by one, and
// prints both side by side.
func vsRapfiCommand() *cli.Command {
	return &cli.Command{
		Name:      "vs-rapfi",
		Usage:     "solve puzzles with this program and ask Rapfi (or another Gomocup brain that reports mates as it does) for a mate on each, side by side",
		ArgsUsage: "FILE...",
		Description: "For each position whose attacker is to move: this program's search (solve's, --mode, within --time, every\n" +
			"win's proof checked) and the brain's (a fresh process, one thread, INFO timeout_turn --time, the stones\n" +
			"in move order, black first), whose last MESSAGE line with \"Eval +Mn\" is a mate in n plies for the side\n" +
			"to move (Rapfi's format). A brain's mate comes from its alpha-beta with its own pruning of the defences,\n" +
			"not from a checked proof: the table measures where a search guided by an evaluation finds lines, not\n" +
			"what is proven. The summary counts the positions each found a win in alone. Without the brain it says\n" +
			"so and exits 0.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "peer", Value: defaultRapfi, EnvVars: []string{"GOMOKU_RAPFI"}, Usage: "the brain's executable"},
			&cli.StringFlag{Name: "peer-args", Value: defaultRapfiArgs, Usage: "the brain's arguments (shell words)"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Value: 10 * time.Second, Usage: "each program's time per position"},
			&cli.StringFlag{Name: "mode", Aliases: []string{"m"}, Usage: "this program's search: vcf, vct or win (default: the record's task, vcf or vct, else vcf)"},
			&cli.IntFlag{Name: "memory", Value: solver.DefaultMemoryMiB, Usage: "this program's tables, MiB"},
			&cli.StringFlag{Name: "rule", Aliases: []string{"r"}, Usage: "rule of records that state none: freestyle, standard or renju (default: renju)"},
		},
		Action: runVsRapfi,
	}
}

// vsRapfiRow is one position's results.
type vsRapfiRow struct {
	ours     solver.Status
	oursTime time.Duration
	mate     int    // the brain's mate in plies for the side to move (match.Eval.Mate), 0 for none
	eval     string // the brain's last evaluation, as match.ParseEval reads it ("" when it reported none)
	move     string // the brain's move (a1 is bottom-left)
	peerTime time.Duration
}

func runVsRapfi(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("vs-rapfi: name the puzzle files")
	}
	if c.Duration("time") <= 0 || c.Int("memory") < 1 {
		return usagef("--time and --memory must be positive")
	}
	var mode solver.Mode
	if c.IsSet("mode") {
		m, err := solver.ParseMode(c.String("mode"))
		if err != nil {
			return usagef("--mode: %v", err)
		}
		mode = m
	}
	rule := engine.Renju
	if c.IsSet("rule") {
		r, err := engine.ParseRule(c.String("rule"))
		if err != nil {
			return usagef("--rule: %v", err)
		}
		rule = r
	}
	args, err := shlex.Split(c.String("peer-args"))
	if err != nil {
		return usagef("--peer-args: %v", err)
	}
	out := c.App.Writer
	spec := match.EngineSpec{Name: "brain", Argv: append([]string{c.String("peer")}, args...)}
	if present, err := peerPresent(c, "vs-rapfi: Rapfi"); !present || err != nil {
		return err
	}
	opt := positions.DefaultOptions
	opt.Rule = rule
	ps, bad, err := readPositionFiles(c, c.Args().Slice(), opt)
	if err != nil {
		return err
	}
	lim := solver.Limits{Time: c.Duration("time")}
	s := solver.NewSolver(c.Int("memory"))
	fmt.Fprintf(out, "%s, %v a position each\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), lim.Time)
	fmt.Fprintf(out, "%-28s %-8s %10s  %-8s %10s  %-6s %s\n", "position", "gomoku", "ms", "brain", "ms", "move", "eval")
	n, ours, theirs, both, skipped := 0, 0, 0, 0, 0
	for _, p := range ps {
		if c.Context.Err() != nil {
			return c.Context.Err()
		}
		row, err := vsRapfiPosition(c.Context, s, p, recordMode(mode, p), lim, spec)
		if err != nil {
			if c.Context.Err() != nil {
				return c.Context.Err()
			}
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: %v\n", p.Label(), err)
			skipped++
			continue
		}
		n++
		mate := "-"
		switch {
		case row.mate >= match.MateUnknown:
			mate = "M?"
		case row.mate > 0:
			mate = fmt.Sprintf("M%d", row.mate)
		}
		fmt.Fprintf(out, "%-28s %-8s %10.1f  %-8s %10.1f  %-6s %s\n", p.Label(), row.ours, ms(row.oursTime), mate,
			ms(row.peerTime), row.move, row.eval)
		won := row.ours == solver.StatusWin
		switch {
		case won && row.mate > 0:
			both++
		case won:
			ours++
		case row.mate > 0:
			theirs++
		}
	}
	fmt.Fprintf(out, "%d positions within %v: a win found by both in %d, by this program alone in %d, by the brain alone in %d, by neither in %d\n",
		n, lim.Time, both, ours, theirs, n-both-ours-theirs)
	if bad+skipped > 0 {
		return fmt.Errorf("%d record(s) not measured: %w", bad+skipped, errRecords)
	}
	return nil
}

// vsRapfiPosition runs both programs on p, the brain (spec, started
// afresh as match.StartBrain starts a teacher, one thread, lim.Time a
// move) killed when ctx ends. Errors: a position whose attacker is not to
// move, or whose stones have no move order that reaches it (moveOrder),
// the board's, the search's, and the brain's (match.Brain.Move's).
func vsRapfiPosition(ctx context.Context, s *solver.Solver, p *positions.Position, mode solver.Mode, lim solver.Limits,
	spec match.EngineSpec) (vsRapfiRow, error) {
	var row vsRapfiRow
	if p.Attacker != engine.Empty && p.Attacker != p.ToMove {
		return row, fmt.Errorf("the attacker %v is not to move", p.Attacker)
	}
	moves, err := moveOrder(p)
	if err != nil {
		return row, err
	}
	b, err := p.Board(p.Rule)
	if err != nil {
		return row, err
	}
	a, err := s.Solve(ctx, solver.Problem{Board: b, ToMove: p.ToMove, Attacker: p.ToMove}, mode, lim, nil)
	if err != nil {
		return row, err
	}
	row.ours, row.oursTime = a.Status, a.Elapsed
	cfg := match.Config{Engines: [2]match.EngineSpec{spec, spec}, Rule: p.Rule, Size: p.Size, TurnTime: lim.Time,
		Tolerance: lim.Time + 10*time.Second, Threads: 1}
	if err := cfg.Check(); err != nil {
		return row, err
	}
	br, err := match.StartBrain(&cfg, 0)
	if err != nil {
		return row, err
	}
	defer br.Close()
	defer context.AfterFunc(ctx, br.Kill)() // Ctrl-C: the answer is not awaited
	start := time.Now()
	mv, ev, err := br.Move(ctx, moves)
	row.peerTime = time.Since(start)
	if err != nil {
		return row, err
	}
	row.move = mv.String()
	switch {
	case ev.Mate >= match.MateUnknown:
		row.mate, row.eval = ev.Mate, "+M*"
	case ev.Mate > 0:
		row.mate, row.eval = ev.Mate, fmt.Sprintf("+M%d", ev.Mate)
	case ev.Mate <= -match.MateUnknown:
		row.eval = "-M*"
	case ev.Mate < 0:
		row.eval = fmt.Sprintf("-M%d", -ev.Mate)
	case ev.Known && !ev.IsRate:
		row.eval = fmt.Sprint(ev.Score)
	case ev.Known:
		row.eval = fmt.Sprintf("ev %.3f", ev.Rate)
	}
	return row, nil
}

// moveOrder returns p's stones as moves from the empty board, black first
// and alternating, as a brain is told a position (match.Brain.Move): the
// record's own order when it gives one, else black's and white's stones
// taken in turn. Errors: stones no alternation reaches (black must have
// as many as white or one more), or one whose count gives the move to the
// other side than p.ToMove.
func moveOrder(p *positions.Position) ([]engine.Point, error) {
	moves := p.Moves
	if moves == nil {
		nb, nw := len(p.Black), len(p.White)
		if nb != nw && nb != nw+1 {
			return nil, fmt.Errorf("%d black and %d white stones: no move order reaches them", nb, nw)
		}
		for i := range nb {
			moves = append(moves, p.Black[i])
			if i < nw {
				moves = append(moves, p.White[i])
			}
		}
	}
	if engine.Color(1+len(moves)%2) != p.ToMove {
		return nil, fmt.Errorf("%d stones give the move to %v, not %v", len(moves), engine.Color(1+len(moves)%2), p.ToMove)
	}
	return moves, nil
}
