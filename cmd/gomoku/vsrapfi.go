package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/shlex"
	"github.com/urfave/cli/v2"

	"gomoku/cmd/internal/gomocup"
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

// rapfiEval matches the evaluation in Rapfi's MESSAGE lines ("MESSAGE
// Depth 25-29 | Eval +M31 | Time 7883ms | I11 H11 ..."): a mate in n plies
// for the side to move (+Mn), against it (-Mn), or a score.
var rapfiEval = regexp.MustCompile(`\bEval ([+-]?M\d+|[+-]?\d+)\b`)

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
	mate     int    // the brain's mate in plies for the side to move, 0 for none
	eval     string // the brain's last evaluation ("" when it printed none)
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
	peer := c.String("peer")
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
		row, err := vsRapfiPosition(c.Context, s, p, recordMode(mode, p), lim, append([]string{peer}, args...))
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
		if row.mate > 0 {
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

// vsRapfiPosition runs both programs on p, the brain killed when ctx
// ends. Errors: a position whose attacker is not to move, the board's,
// the search's, and the brain's (it would not start, crashed, answered no
// point, or did not answer within twice the time and ten seconds more).
func vsRapfiPosition(ctx context.Context, s *solver.Solver, p *positions.Position, mode solver.Mode, lim solver.Limits, argv []string) (vsRapfiRow, error) {
	var row vsRapfiRow
	if p.Attacker != engine.Empty && p.Attacker != p.ToMove {
		return row, fmt.Errorf("the attacker %v is not to move", p.Attacker)
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
	cl, err := gomocup.Start("brain", argv, "")
	if err != nil {
		return row, err
	}
	defer cl.Close(time.Second)
	// Ctrl-C ends the brain at once (its answer is not awaited)
	defer context.AfterFunc(ctx, cl.Kill)()
	start := time.Now()
	deadline := start.Add(2*lim.Time + 10*time.Second)
	if err := cl.Send("START %d", p.Size); err != nil {
		return row, err
	}
	if ok, err := cl.Answer(deadline); err != nil {
		return row, err
	} else if !strings.HasPrefix(strings.ToUpper(ok), "OK") {
		return row, fmt.Errorf("START %d: the brain answered %q", p.Size, ok)
	}
	lines := []string{
		fmt.Sprintf("INFO rule %d", gomocup.RuleCode(p.Rule)),
		"INFO thread_num 1",
		fmt.Sprintf("INFO timeout_turn %d", lim.Time.Milliseconds()),
		"INFO timeout_match 2147483647",
		"INFO time_left 2147483647",
		"BOARD",
	}
	for _, st := range boardOrder(p) {
		field := 2
		if st.c == p.ToMove {
			field = 1
		}
		lines = append(lines, fmt.Sprintf("%s,%d", gomocup.FormatPoint(st.p, p.Size), field))
	}
	lines = append(lines, "DONE")
	start = time.Now()
	for _, l := range lines {
		if err := cl.Send("%s", l); err != nil {
			return row, err
		}
	}
	answer, err := cl.Answer(deadline)
	row.peerTime = time.Since(start)
	if err != nil {
		return row, err
	}
	mv, err := gomocup.ParsePoint(answer, p.Size)
	if err != nil {
		return row, fmt.Errorf("the brain answered %q: %w", answer, err)
	}
	row.move = mv.String()
	row.eval, row.mate = lastEval(cl.Messages())
	return row, nil
}

// stone is a stone of a position in the order the brain is told it.
type stone struct {
	p engine.Point
	c engine.Color
}

// boardOrder lists p's stones as a brain's BOARD wants them (Rapfi takes
// the first for black): the record's move order when it gives one, else
// black's and white's stones alternately, black first, then the rest of
// the side with more.
func boardOrder(p *positions.Position) []stone {
	var out []stone
	if p.Moves != nil {
		for i, m := range p.Moves {
			out = append(out, stone{m, engine.Color(1 + i%2)})
		}
		return out
	}
	for i := 0; i < max(len(p.Black), len(p.White)); i++ {
		if i < len(p.Black) {
			out = append(out, stone{p.Black[i], engine.Black})
		}
		if i < len(p.White) {
			out = append(out, stone{p.White[i], engine.White})
		}
	}
	return out
}

// lastEval returns the last evaluation of messages (rapfiEval) and, when
// it is a mate for the side to move (+Mn or Mn), n; "" and 0 when no line
// holds one.
func lastEval(messages []string) (string, int) {
	for i := len(messages) - 1; i >= 0; i-- {
		m := rapfiEval.FindStringSubmatch(messages[i])
		if m == nil {
			continue
		}
		ev := m[1]
		if mate, ok := strings.CutPrefix(strings.TrimPrefix(ev, "+"), "M"); ok {
			if n, err := strconv.Atoi(mate); err == nil {
				return ev, n
			}
		}
		return ev, 0
	}
	return "", 0
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
