package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"gomoku/analysis"
	"gomoku/cmd/internal/report"
	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
	"gomoku/solver/store"
)

func analyzeCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "analyze",
		Usage:     "analyse game records: at every ply, does the side to move have a forced win, and did the move keep it",
		ArgsUsage: "FILES-OR-DIRS... (directories are read recursively: .psq, .sgf, .txt, .jsonl)",
		Description: "For every game record and every ply, looks for a forced win of the side to move (VCF, then VCT within\n" +
			"--per-position) and reports the ply at which the game was decided, the missed wins (a forced win the move\n" +
			"played lost) and the blunders (a move that let the opponent have a forced win it did not have). Positions\n" +
			"are searched in parallel. With --tt, solved positions are kept in the store, so a rerun (after Ctrl-C, say)\n" +
			"skips them.",
		Flags: append(inputFlags()[2:],
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text, json (JSON Lines, one object per game) or csv (one row per ply)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of CPUs", Usage: "positions searched at once"},
			&cli.DurationFlag{Name: "per-position", Value: 200 * time.Millisecond, Usage: "time limit of each position's search"},
			&cli.Int64Flag{Name: "per-position-nodes", Usage: "node limit of each position's search instead of a time limit (repeatable results)"},
			&cli.IntFlag{Name: "threat-limit", Value: solver.DefaultThreatLimit, Usage: "VCT threat limit"},
			&cli.IntFlag{Name: "memory", EnvVars: []string{"GOMOKU_MEMORY"}, Value: solver.DefaultMemoryMiB, Usage: "tables of all jobs together, MiB"},
			&cli.StringFlag{Name: "tt", EnvVars: []string{"GOMOKU_TT"}, Usage: "badger store `DIR` of solved positions, read before and written after each search"},
			&cli.StringFlag{Name: "shard", Usage: shardUsage},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the analysis to `FILE` (whole when complete) instead of standard output"},
			&cli.BoolFlag{Name: "eval", Value: true, Usage: "value every ply by the best-move search (alpha-beta): value, best move, PV, loss and class of the move played"},
			&cli.DurationFlag{Name: "eval-time", Usage: "time of each ply's best-move search (0: half of --per-position; with --per-position-nodes, that many nodes)"},
			&cli.StringFlag{Name: "weights", Usage: "evaluation weights `FILE` of the best-move search (default: the built-in ones)"},
			&cli.StringFlag{Name: "evaluator", Value: "auto", Usage: evalUsage + " (--eval is the switch that values every ply)"}, netFlag(),
			&cli.StringFlag{Name: "report", Usage: "write an HTML report to `DIR`: a page per game (the board stepped through the moves, the win-rate graph, the mistakes, the engine's moves) and index.html"},
			&cli.StringFlag{Name: "sgf", Usage: "write each game to `DIR` as SGF: every move's value, best move and class in its comment, the engine's line as a variation where it differs from the move played"},
			&cli.BoolFlag{Name: "progress", Value: true, Usage: "show a progress bar on standard error when it is a terminal"},
		),
		Action:      runAnalyze(stdin),
		Subcommands: []*cli.Command{summarizeCommand()},
	}
}

func runAnalyze(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		format := c.String("format")
		if format != "text" && format != "json" && format != "csv" {
			return usagef("--format %q: want text, json or csv", format)
		}
		if c.Int("jobs") < 1 || c.Duration("per-position") < 0 || c.Int64("per-position-nodes") < 0 || c.Int("memory") < 1 {
			return usagef("--jobs and --memory must be at least 1, the limits not negative")
		}
		if err := setMemory(c); err != nil {
			return err
		}
		if per := c.Int("memory") / c.Int("jobs"); per < minJobMiB {
			return usagef("--jobs %d with --memory %d MiB: each job needs at least %d MiB of tables "+
				"(--memory is the jobs' total); give fewer jobs or more memory", c.Int("jobs"), c.Int("memory"), minJobMiB)
		}
		if t := c.Int("threat-limit"); t < 0 || t > solver.MaxThreatLimit {
			return usagef("--threat-limit %d: want 0 to %d", t, solver.MaxThreatLimit)
		}
		sh, err := parseShard(c.String("shard"), os.Getenv)
		if err != nil {
			return err
		}
		src, err := parseSource(c, stdin)
		if err != nil {
			return err
		}
		// read every record
		failed := 0
		report := func(err error) {
			failed++
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", err)
		}
		var games []*analysis.Game
		var skip []string // a rerun never reads its own earlier output
		if o := c.String("output"); o != "" {
			skip = append(skip, o)
		}
		err = src.games(c, sh, skip, report, nil, func(p *positions.Position, r engine.Rule) error {
			g, err := analysis.NewGame(p, r)
			if err != nil {
				return err
			}
			games = append(games, g)
			return nil
		})
		if err != nil {
			return err
		}
		var results *solver.Store
		if dir := c.String("tt"); dir != "" {
			if results, err = solver.OpenStore(dir, store.Options{}); err != nil {
				return err
			}
			defer results.Close()
		}
		lim := solver.Limits{Time: c.Duration("per-position")}
		if n := c.Int64("per-position-nodes"); n > 0 {
			lim = solver.Limits{Nodes: n}
		}
		var ev *analysis.EvalSetting
		if c.Bool("eval") {
			ev = &analysis.EvalSetting{Limits: solver.Limits{Time: c.Duration("eval-time")}}
			switch {
			case lim.Nodes > 0:
				ev.Limits = solver.Limits{Nodes: lim.Nodes}
			case ev.Limits.Time <= 0:
				ev.Limits.Time = max(lim.Time/2, time.Millisecond)
			}
			if ev.Weights, err = loadWeights(c); err != nil {
				return err
			}
		}
		total := 0
		for _, g := range games {
			total += g.Plies()
		}
		var bar *progressbar.ProgressBar
		if f, ok := c.App.ErrWriter.(*os.File); ok && c.Bool("progress") && term.IsTerminal(int(f.Fd())) {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("analysing"),
				progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("positions"),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
		var w io.Writer = c.App.Writer
		var outFile *outputFile
		if name := c.String("output"); name != "" {
			if outFile, err = createOutput(name, c.Args().Slice()); err != nil {
				return err
			}
			w = outFile
		}
		out := analysis.NewWriter(w, format)
		var pages *reportPages
		if dir := c.String("report"); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			pages = &reportPages{dir: dir}
			out.OnGame = pages.page
		}
		if dir := c.String("sgf"); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			out.SGFDir = dir
			out.Create = func(path string) (analysis.File, error) { return createOutput(path, nil) }
		}
		start := time.Now()
		var tick func()
		if bar != nil {
			tick = func() { _ = bar.Add(1) }
		}
		done := analysis.Run(c.Context, games, c.Int("jobs"), c.Int("memory"), c.Int("threat-limit"), results, lim, ev, tick, out)
		if bar != nil {
			_ = bar.Finish()
		}
		out.Finish(failed, time.Since(start), c.Context.Err() != nil, len(games))
		ferr := out.Flush()
		if ferr == nil && pages != nil {
			ferr = pages.writeIndex()
		}
		if outFile != nil {
			// the games analysed are kept, after Ctrl-C too
			if cerr := outFile.Commit(); ferr == nil {
				ferr = cerr
			}
		}
		if ferr != nil {
			return ferr
		}
		if c.Context.Err() != nil {
			return c.Context.Err()
		}
		for _, g := range games {
			if g.Err() != nil {
				report(fmt.Errorf("%s: %w", g.Pos.Label(), g.Err()))
			}
		}
		for _, err := range out.Errs {
			report(err)
		}
		if done < len(games) && c.Context.Err() == nil {
			return fmt.Errorf("%d of %d games not analysed", len(games)-done, len(games))
		}
		if failed > 0 {
			return fmt.Errorf("%d record(s) or file(s) failed: %w", failed, errRecords)
		}
		return nil
	}
}

// writePage writes game g's report page and notes it for the index.
// reportPages writes analyze --report: a page per game (report.Write) and
// the index, in dir.
type reportPages struct {
	dir   string
	index []report.IndexEntry
}

// page writes game g's report page and notes it for the index.
func (a *reportPages) page(g *analysis.Game, rec analysis.Record) error {
	pt := func(s string) engine.Point {
		p, err := engine.ParsePoint(s, rec.Size)
		if err != nil {
			return engine.NoPoint
		}
		return p
	}
	pts := func(ss []string) []engine.Point {
		var out []engine.Point
		for _, s := range ss {
			out = append(out, pt(s))
		}
		return out
	}
	rg := report.Game{Title: shortLabel(g.Pos), Rule: g.Rule, Size: rec.Size, Decided: -1, Players: g.Pos.Players,
		Event: g.Pos.Event, Date: g.Pos.Date}
	if b, err := g.Pos.Board(g.Rule); err == nil && b.LastMoveWon() && rec.Forbidden == nil {
		last, _ := b.LastMove()
		rg.Five = b.FiveLine(last)
	}
	if rec.Result != nil {
		rg.Result = *rec.Result
	}
	if rec.DecidedPly != nil {
		rg.Decided = *rec.DecidedPly
	}
	for i, side := range []string{"black", "white"} {
		if st, ok := rec.Sides[side]; ok {
			rg.Accuracy[i], rg.Classes[i] = st.Accuracy, st.Classes
		}
	}
	for i, pl := range rec.Plies {
		c, _ := engine.ParseColor(pl.ToMove)
		rp := report.Ply{Move: pt(pl.MovePlayed), ToMove: c, Value: -1, Loss: -1, Class: pl.Class, Best: engine.NoPoint,
			PV: pts(pl.PV), Line: pts(pl.Line)}
		rp.Note = analysis.LostNote(rec.Plies, i)
		if pl.Value != nil {
			rp.Value = *pl.Value
		}
		if pl.Loss != nil {
			rp.Loss = *pl.Loss
		}
		if pl.Best != "" {
			rp.Best = pt(pl.Best)
		}
		if pl.ForcedWin != nil {
			rp.ForcedWin = *pl.ForcedWin
		}
		rg.Plies = append(rg.Plies, rp)
	}
	file := fmt.Sprintf("%03d-%s-%d.html", len(a.index)+1, positions.OutputStem(g.Pos.Source), g.Pos.Index)
	f, err := createOutput(filepath.Join(a.dir, file), nil)
	if err != nil {
		return err
	}
	if err := report.Write(f, rg); err != nil {
		f.Abort()
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	e := report.IndexEntry{File: file, Title: shortLabel(g.Pos), Result: rg.Result, Moves: len(rec.Plies), Accuracy: rg.Accuracy}
	if pl := g.Pos.Players; pl[0] != "" || pl[1] != "" {
		e.Players = pl[0] + " – " + pl[1]
	}
	for _, i := range rec.Blunders { // the record's blunders, as the text and JSON count them
		if rec.Plies[i].ToMove == "white" {
			e.Blunders[1]++
		} else {
			e.Blunders[0]++
		}
	}
	a.index = append(a.index, e)
	return nil
}

// writeIndex writes the report's index page.
func (a *reportPages) writeIndex() error {
	f, err := createOutput(filepath.Join(a.dir, "index.html"), nil)
	if err != nil {
		return err
	}
	if err := report.WriteIndex(f, fmt.Sprintf("gomoku analyze: %d games", len(a.index)), a.index); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// inputExts are the extensions read from directories.
var inputExts = map[string]bool{".psq": true, ".sgf": true, ".txt": true, ".jsonl": true}

// expandInputs turns the named inputs into files: a directory becomes the
// regular files under it with an input extension (.psq, .sgf, .txt,
// .jsonl, .lib), walked in lexical order. A file named twice, directly or
// through a directory (or a link), is kept once; files in skip (the
// command's own outputs, which a rerun would otherwise read as input) are
// left out. Walk errors go to report.
func expandInputs(names, skip []string, report func(error)) []string {
	var out []string
	// canonical paths: absolute, links resolved
	canon := func(path string) string {
		if r, err := filepath.EvalSymlinks(path); err == nil {
			path = r
		}
		if a, err := filepath.Abs(path); err == nil {
			path = a
		}
		return path
	}
	seen := map[string]bool{}
	for _, s := range skip {
		seen[canon(s)] = true
	}
	add := func(path string) {
		if path != "-" {
			c := canon(path)
			if seen[c] {
				return
			}
			seen[c] = true
		}
		out = append(out, path)
	}
	for _, n := range names {
		st, err := os.Stat(n)
		if n == "-" || err != nil || !st.IsDir() {
			add(n)
			continue
		}
		err = filepath.WalkDir(n, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				report(err)
				return nil
			}
			// regular files only: a FIFO or a device inside a directory
			// would block or never end
			if d.Type().IsRegular() && inputExts[strings.ToLower(filepath.Ext(path))] {
				add(path)
			}
			return nil
		})
		if err != nil {
			report(err)
		}
	}
	return out
}
