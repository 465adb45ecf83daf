package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
)

// defaultQuintet is where the shared peers keep quintet's solver, relative
// to the working directory (the module root).
const defaultQuintet = "../shared/peers/quintet/quintet-solve"

// vsQuintetCommand runs quintet's solver and this program on the same case
// files, each as a fresh process, and prints both times side by side.
func vsQuintetCommand() *cli.Command {
	return &cli.Command{
		Name:      "vs-quintet",
		Usage:     "time quintet's solver and this program side by side on quintet's case files",
		ArgsUsage: "CASE-FILE-OR-DIR...",
		Description: "For each quintet case file (mode, attacker, limit, threat_limit, board), runs quintet's examples/solve\n" +
			"(its printed Elapsed, the search alone) and `gomoku solve --format json` (its time_ms, the search and\n" +
			"the proof check), each a fresh process --runs times, and prints the least time of each, their ratio,\n" +
			"this program's time without the check of its proof (its check_ms) and that ratio, and both verdicts,\n" +
			"then the geometric means of the ratios over the cases both decided. A run that reaches --timeout is\n" +
			"\"unknown\" (quintet's process is killed; this program searches with --time set to it), so that puzzle\n" +
			"books with hard cases can be run (--threat-limit and --limit then set what the records do not state):\n" +
			"the summary counts the cases each decided alone. Verdicts differ only when both decided. Without the\n" +
			"peer it says so and exits 0.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "peer", Value: defaultQuintet, EnvVars: []string{"GOMOKU_QUINTET"}, Usage: "quintet's solve executable"},
			&cli.IntFlag{Name: "runs", Value: 3, Usage: "runs of each program per case; the least time counts"},
			&cli.IntFlag{Name: "memory", Value: 256, Usage: "this program's tables, MiB (solve --memory)"},
			&cli.DurationFlag{Name: "timeout", Value: 5 * time.Minute, Usage: "longest run of either program on one case"},
			&cli.StringFlag{Name: "case", Usage: "only the cases whose name matches this regular expression (Go syntax), e.g. 'l03|vcf_'"},
			&cli.IntFlag{Name: "threat-limit", Usage: "both programs' VCT threat limit where a record states none (0: 2, as ../shared/data/quintet.jsonl records for such cases)"},
			&cli.IntFlag{Name: "limit", Usage: "most attacker moves where a record states none (0: quintet's 255, this program's none)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("vs-quintet: name quintet's case files (../shared/data/raw/quintet)")
			}
			if c.Int("runs") < 1 || c.Int("memory") < 1 || c.Duration("timeout") <= 0 {
				return usagef("--runs, --memory and --timeout must be positive")
			}
			if c.Int("threat-limit") < 0 || c.Int("limit") < 0 || c.Int("limit") > 255 {
				return usagef("--threat-limit and --limit: want 0 or more (--limit at most 255)")
			}
			only, err := regexp.Compile(c.String("case"))
			if err != nil {
				return usagef("--case: %v", err)
			}
			out := c.App.Writer
			peer := c.String("peer")
			if present, err := peerPresent(c, "vs-quintet: quintet's solver"); !present || err != nil {
				return err
			}
			tmp, err := os.MkdirTemp("", "gomoku-vs-quintet-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			cases, err := quintetCases(c.Args().Slice(), tmp)
			if err != nil {
				return err
			}
			n := len(cases)
			if cases = slices.DeleteFunc(cases, func(qc quintetCase) bool { return !only.MatchString(qc.name) }); len(cases) == 0 {
				return usagef("--case %q matches none of the %d cases", c.String("case"), n)
			}
			fmt.Fprintf(out, "%s, least of %d runs, each a fresh process\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), c.Int("runs"))
			fmt.Fprintf(out, "%-32s %-8s %12s %12s %8s %12s %8s  %s\n", "case", "mode", "quintet ms", "gomoku ms", "ratio",
				"search ms", "ratio", "verdicts")
			var logSum, logSearch float64
			n, worse, worseSearch, differ, onlyOurs, onlyTheirs, neither := 0, 0, 0, 0, 0, 0, 0
			set := quintetSettings{runs: c.Int("runs"), mib: c.Int("memory"), timeout: c.Duration("timeout"),
				threat: c.Int("threat-limit"), limit: c.Int("limit")}
			for _, qc := range cases {
				row, err := vsQuintetCase(c.Context, peer, qc, set)
				if err != nil {
					if c.Context.Err() != nil {
						return c.Context.Err()
					}
					fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: %v\n", qc.name, err)
					continue
				}
				ratio := row.ours / row.theirs
				mark := ""
				switch ours, theirs := row.ourVerdict != "unknown", row.theirVerdict != "unknown"; {
				case !ours && !theirs:
					neither++
				case !theirs:
					onlyOurs++
				case !ours:
					onlyTheirs++
				case row.ourVerdict != row.theirVerdict:
					mark = "  DIFFER"
					differ++
				}
				search := row.search / row.theirs
				fmt.Fprintf(out, "%-32s %-8s %12.3f %12.3f %8.2f %12.3f %8.2f  %s/%s%s\n", row.name, row.mode, row.theirs,
					row.ours, ratio, row.search, search, row.theirVerdict, row.ourVerdict, mark)
				if row.ourVerdict == "unknown" || row.theirVerdict == "unknown" {
					continue // a time that reached the timeout is no measurement
				}
				if ratio > 1 {
					worse++
				}
				if search > 1 {
					worseSearch++
				}
				logSum += math.Log(ratio)
				logSearch += math.Log(search)
				n++
			}
			if n > 0 {
				fmt.Fprintf(out, "%d cases: geometric mean of the ratios %.2f, %d above 1.0; without the proof check %.2f, %d above 1.0; %d verdicts differ\n",
					n, math.Exp(logSum/float64(n)), worse, math.Exp(logSearch/float64(n)), worseSearch, differ)
			}
			if onlyOurs+onlyTheirs+neither > 0 {
				fmt.Fprintf(out, "within %v: %d decided by this program alone, %d by quintet alone, %d by neither\n",
					c.Duration("timeout"), onlyOurs, onlyTheirs, neither)
			}
			if differ > 0 {
				return fmt.Errorf("%d verdicts differ from quintet's", differ)
			}
			return nil
		},
	}
}

// quintetCase is one problem of the side-by-side run: its name, a file
// that holds it alone, and the record.
type quintetCase struct {
	name, file string
	p          *positions.Position
}

// quintetCases reads the cases: quintet's case files (directories: their
// .txt files) and JSON Lines files of such records (../shared/data's
// quintet.jsonl), each record written to a file of its own under tmp.
func quintetCases(args []string, tmp string) ([]quintetCase, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		got, err := filepath.Glob(filepath.Join(a, "*.txt"))
		if err != nil {
			return nil, err
		}
		files = append(files, got...)
	}
	var out []quintetCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if !strings.HasSuffix(f, ".jsonl") {
			ps, errs := positions.Parse(f, data, positions.Auto, positions.DefaultOptions)
			if len(errs) > 0 {
				return nil, errs[0]
			}
			if len(ps) != 1 {
				return nil, fmt.Errorf("%s: %d records, want one case", f, len(ps))
			}
			out = append(out, quintetCase{name: strings.TrimSuffix(filepath.Base(f), ".txt"), file: f, p: ps[0]})
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			ps, errs := positions.Parse(f, []byte(line), positions.JSONL, positions.DefaultOptions)
			if len(errs) > 0 {
				return nil, errs[0]
			}
			one := filepath.Join(tmp, fmt.Sprintf("case-%d-%d.jsonl", len(out), i))
			if err := os.WriteFile(one, []byte(line+"\n"), 0o644); err != nil {
				return nil, err
			}
			name := ps[0].ID
			if name == "" {
				name = fmt.Sprintf("%s#%d", filepath.Base(f), i)
			}
			out = append(out, quintetCase{name: strings.TrimPrefix(name, "quintet/"), file: one, p: ps[0]})
		}
	}
	return out, nil
}

// quintetThreatLimit is the threat limit given to both programs when a case
// states none: the one ../shared/data/quintet.jsonl records for such cases.
const quintetThreatLimit = 2

// quintetRow is one case measured by both programs: the least times in ms
// and the verdicts (win or no-win).
type quintetRow struct {
	name, mode string
	// theirs and ours are the least times of the runs in ms; search is
	// ours less the check of its proof, in the same run
	theirs, ours, search     float64
	theirVerdict, ourVerdict string
}

// selfCommand returns the command that runs this program with args in a
// fresh process (tests replace it: their executable is the test binary).
var selfCommand = func(ctx context.Context, args ...string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return exec.CommandContext(ctx, self, args...), nil
}

var quintetElapsed = regexp.MustCompile(`(?m)^Elapsed: (\S+)`)

// quintetSettings are vs-quintet's flags for each case: runs per program,
// this program's tables (MiB), the longest run, and the threat limit and
// attacker-move limit of records that state none (0: the defaults).
type quintetSettings struct {
	runs, mib     int
	timeout       time.Duration
	threat, limit int
}

// vsQuintetCase measures one case file. A run of either program that
// reaches set.timeout is "unknown" at that time.
func vsQuintetCase(ctx context.Context, peer string, qc quintetCase, set quintetSettings) (quintetRow, error) {
	p := qc.p
	if p.Puzzle == nil || p.Size != 15 || p.Rule != engine.Renju && p.Rule != 0 {
		return quintetRow{}, errors.New("not a quintet case (a 15x15 renju puzzle with mode and limit)")
	}
	b, err := p.Board(engine.Renju)
	if err != nil {
		return quintetRow{}, err
	}
	mode := "vcf"
	if p.Puzzle.Task == "vct" {
		mode = "vct_dfpns"
	}
	att := p.Attacker
	if att == engine.Empty {
		att = p.ToMove
	}
	who := "o"
	if att == engine.White {
		who = "x"
	}
	var rows []string
	for y := b.Size() - 1; y >= 0; y-- {
		var row strings.Builder
		for x := 0; x < b.Size(); x++ {
			switch b.At(engine.PointAt(x, y)) {
			case engine.Black:
				row.WriteByte('o')
			case engine.White:
				row.WriteByte('x')
			default:
				row.WriteByte('.')
			}
		}
		rows = append(rows, row.String())
	}
	limit := cmp.Or(p.Puzzle.Limit, set.limit)
	if limit <= 0 || limit > 255 {
		limit = 255
	}
	threat := cmp.Or(p.Puzzle.ThreatLimit, set.threat, quintetThreatLimit)
	r := quintetRow{name: qc.name, mode: p.Puzzle.Task, theirs: math.Inf(1), ours: math.Inf(1), search: math.Inf(1)}
	timeoutMS := float64(set.timeout) / 1e6
	for range set.runs {
		rctx, cancel := context.WithTimeout(ctx, set.timeout)
		cmd := exec.CommandContext(rctx, peer, mode, strconv.Itoa(limit), strconv.Itoa(threat), who,
			strings.Join(rows, "\n"))
		outp, err := cmd.Output()
		timedOut := rctx.Err() == context.DeadlineExceeded
		cancel()
		switch {
		case ctx.Err() != nil:
			return r, ctx.Err()
		case timedOut:
			r.theirs, r.theirVerdict = min(r.theirs, timeoutMS), cmp.Or(r.theirVerdict, "unknown")
		case err != nil:
			return r, fmt.Errorf("%s: %w", peer, err)
		default:
			m := quintetElapsed.FindSubmatch(outp)
			if m == nil {
				return r, fmt.Errorf("%s printed no Elapsed line", peer)
			}
			d, err := time.ParseDuration(string(m[1]))
			if err != nil {
				return r, fmt.Errorf("%s: Elapsed %q: %w", peer, m[1], err)
			}
			r.theirs = min(r.theirs, float64(d)/1e6)
			r.theirVerdict = "no-win" // a decided run's verdict stands over an unknown one's
			if bytes.Contains(outp, []byte("\nMoves: ")) {
				r.theirVerdict = "win"
			}
		}

		// this program stops itself at the timeout (--time) and says
		// unknown; the context's grace covers the start and the check
		rctx, cancel = context.WithTimeout(ctx, set.timeout+time.Minute)
		args := []string{"solve", "--format", "json", "--rule", "renju", "--memory", strconv.Itoa(set.mib),
			"--threat-limit", strconv.Itoa(threat), "--time", set.timeout.String()}
		if p.Puzzle.Limit <= 0 && set.limit > 0 {
			args = append(args, "--limit", strconv.Itoa(set.limit))
		}
		cmd, err = selfCommand(rctx, append(args, qc.file)...)
		if err != nil {
			cancel()
			return r, err
		}
		cmd.Stderr = io.Discard
		outp, err = cmd.Output()
		cancel()
		if err != nil {
			return r, fmt.Errorf("gomoku solve: %w", err)
		}
		var rec struct {
			Result  string  `json:"result"`
			TimeMS  float64 `json:"time_ms"`
			CheckMS float64 `json:"check_ms"`
		}
		if err := json.Unmarshal(outp, &rec); err != nil {
			return r, fmt.Errorf("gomoku solve: %w", err)
		}
		if rec.TimeMS < r.ours {
			r.ours, r.search = rec.TimeMS, rec.TimeMS-rec.CheckMS
		}
		if rec.Result == "win" || rec.Result == "no-win" {
			r.ourVerdict = rec.Result // a decided run's verdict stands over an unknown one's
		} else {
			r.ourVerdict = cmp.Or(r.ourVerdict, "unknown")
		}
	}
	return r, nil
}
