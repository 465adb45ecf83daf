package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"gomoku/cmd/internal/report"
	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
	"gomoku/solver/play"
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
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "positions searched at once"},
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
			&cli.StringFlag{Name: "report", Usage: "write an HTML report to `DIR`: a page per game (the board stepped through the moves, the win-rate graph, the mistakes, the engine's moves) and index.html"},
			&cli.StringFlag{Name: "sgf", Usage: "write each game to `DIR` as SGF: every move's value, best move and class in its comment, the engine's line as a variation where it differs from the move played"},
			&cli.BoolFlag{Name: "progress", Value: true, Usage: "show a progress bar on standard error when it is a terminal"},
		),
		Action:      runAnalyze(stdin),
		Subcommands: []*cli.Command{summarizeCommand()},
	}
}

// analyzePly is one ply of an analyze record.
type analyzePly struct {
	// Ply is 0-based, Move the move number, from 1 (Ply+1).
	Ply        int      `json:"ply"`
	Move       int      `json:"move"`
	ToMove     string   `json:"to_move"`
	MovePlayed string   `json:"move_played"`
	ForcedWin  *string  `json:"forced_win"`
	Line       []string `json:"line,omitempty"`
	Kept       *bool    `json:"kept"`
	Status     string   `json:"status"`
	Nodes      int64    `json:"nodes"`
	TimeMS     float64  `json:"time_ms"`
	// Value is the side to move's win rate before the move, Best and PV
	// the engine's move and principal variation, PlayedValue the mover's
	// win rate after the move played, Loss their difference (at least 0),
	// Class the move's class: best, good, inaccuracy, mistake, blunder.
	Value       *float64 `json:"value,omitempty"`
	Best        string   `json:"best,omitempty"`
	PV          []string `json:"pv,omitempty"`
	PlayedValue *float64 `json:"played_value,omitempty"`
	Loss        *float64 `json:"loss,omitempty"`
	Class       string   `json:"class,omitempty"`
	// Lost says every legal move here was shown to leave the opponent a
	// forced win (play.Lost): the position was lost before the move, which
	// is not blamed, and the opponent's move before it won.
	Lost bool `json:"lost,omitempty"`
}

// sideJSON is one side's summary of a game's moves.
type sideJSON struct {
	Moves    int            `json:"moves"`
	Classes  map[string]int `json:"classes"`
	MeanLoss float64        `json:"mean_loss"`
	Accuracy float64        `json:"accuracy"`
}

// analyzeRecord is the JSON Lines record of `analyze`, one per game.
type analyzeRecord struct {
	Source string  `json:"source"`
	Index  int     `json:"index"`
	ID     string  `json:"id,omitempty"`
	Rule   string  `json:"rule"`
	Size   int     `json:"size"`
	Result *string `json:"result"`
	// DecidedPly is 0-based (the position before move DecidedPly+1),
	// DecidedMove the same as a move number, from 1; nil when not found.
	DecidedPly  *int         `json:"decided_ply"`
	DecidedMove *int         `json:"decided_move"`
	Plies       []analyzePly `json:"plies"`
	// MissedWins and Blunders are 0-based plies (move number minus 1):
	// the moves that gave up a forced win, and the moves classed blunder
	// (solver.Judge: a proven forced win handed to the opponent, or a
	// large loss of win rate), the one meaning of blunder in every output.
	MissedWins []int   `json:"missed_win_plies"`
	Blunders   []int   `json:"blunder_plies"`
	Unknown    int     `json:"unknown"`
	TimeMS     float64 `json:"time_ms"`
	// Sides summarise the moves of each side (with --eval): "black" and
	// "white".
	Sides map[string]sideJSON `json:"sides,omitempty"`
	// Forbidden is black's move on a forbidden point (renju), which ends
	// the game: Result is then "white" and Plies stop there.
	Forbidden *forbiddenJSON `json:"forbidden,omitempty"`
}

// forbiddenJSON is black's forbidden move in a renju game record.
type forbiddenJSON struct {
	// Ply is the 0-based ply of the move (move number Ply+1).
	Ply  int    `json:"ply"`
	Move string `json:"move"`
	// Kind is double-three, double-four or overline.
	Kind string `json:"kind"`
	// Ignored counts the record's moves after it, not analysed.
	Ignored int `json:"ignored_moves,omitempty"`
}

// batchRecord is the last JSON line of `analyze`: the batch summary.
type batchRecord struct {
	Batch struct {
		Games      int     `json:"games"`
		Plies      int     `json:"plies"`
		Solved     int     `json:"solved"`
		Unknown    int     `json:"unknown"`
		FromStore  int     `json:"from_store"`
		MissedWins int     `json:"missed_wins"`
		Blunders   int     `json:"blunders"`
		Failed     int     `json:"failed_records"`
		TimeMS     float64 `json:"time_ms"`
		// Partial says the run was interrupted (Ctrl-C, SIGTERM): Games
		// were written of the GamesRead read; the others are missing.
		Partial   bool `json:"partial,omitempty"`
		GamesRead int  `json:"games_read,omitempty"`
	} `json:"batch"`
}

// analyzeGame is a record being analysed.
type analyzeGame struct {
	p       *positions.Position
	rule    engine.Rule
	plies   []solver.PlyResult
	left    int // plies not yet analysed
	start   time.Time
	elapsed time.Duration
	err     error
}

// analyzeTask is one position to search.
type analyzeTask struct {
	g   *analyzeGame
	ply int
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
		var games []*analyzeGame
		var skip []string // a rerun never reads its own earlier output
		if o := c.String("output"); o != "" {
			skip = append(skip, o)
		}
		err = src.games(c, sh, skip, report, nil, func(p *positions.Position, r engine.Rule) error {
			k, kind, err := p.ForbiddenMove(r)
			if err != nil {
				return err
			}
			n := len(p.Moves)
			if k >= 0 {
				n = k + 1 // the game ends with black's forbidden move (RIF)
			}
			g := &analyzeGame{p: p, rule: r, plies: make([]solver.PlyResult, n), left: n}
			if k >= 0 {
				g.plies[k].Forbidden = kind
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
		var ev *evalSetting
		if c.Bool("eval") {
			ev = &evalSetting{lim: solver.Limits{Time: c.Duration("eval-time")}}
			switch {
			case lim.Nodes > 0:
				ev.lim = solver.Limits{Nodes: lim.Nodes}
			case ev.lim.Time <= 0:
				ev.lim.Time = max(lim.Time/2, time.Millisecond)
			}
			if ev.weights, err = loadWeights(c); err != nil {
				return err
			}
		}
		total := 0
		for _, g := range games {
			total += len(g.plies)
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
		out := newAnalyzeWriter(w, format)
		if dir := c.String("report"); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			out.reportDir = dir
		}
		if dir := c.String("sgf"); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			out.sgfDir = dir
		}
		start := time.Now()
		done := analyzeAll(c.Context, games, c.Int("jobs"), c.Int("memory"), c.Int("threat-limit"), results, lim, ev, bar, out)
		if bar != nil {
			_ = bar.Finish()
		}
		out.batch(failed, time.Since(start), c.Context.Err() != nil, len(games))
		ferr := out.flush()
		if ferr == nil && out.reportDir != "" {
			ferr = out.writeIndex()
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
			if g.err != nil {
				report(fmt.Errorf("%s: %w", g.p.Label(), g.err))
			}
		}
		for _, err := range out.pageErrs {
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

// pageStem is the part of a report page's file name taken from its
// source: the base name without its extension, "stdin" for standard input,
// with bytes outside [A-Za-z0-9._-] made "_" and at most 60 bytes kept (a
// long or odd input name must not make the page unwritable).
func pageStem(source string) string {
	base := strings.TrimSuffix(filepath.Base(source), filepath.Ext(source))
	if base == "-" || base == "" || base == "." {
		return "stdin"
	}
	b := []byte(base)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 60 {
		b = b[:60]
	}
	return string(b)
}

// writePage writes game g's report page and notes it for the index.
func (a *analyzeWriter) writePage(g *analyzeGame, rec analyzeRecord) error {
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
	rg := report.Game{Title: shortLabel(g.p), Rule: g.rule, Size: rec.Size, Decided: -1, Players: g.p.Players,
		Event: g.p.Event, Date: g.p.Date}
	if b, err := g.p.Board(g.rule); err == nil && b.LastMoveWon() && rec.Forbidden == nil {
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
		rp.Note = lostNote(rec.Plies, i)
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
	file := fmt.Sprintf("%03d-%s-%d.html", len(a.index)+1, pageStem(g.p.Source), g.p.Index)
	f, err := createOutput(filepath.Join(a.reportDir, file), nil)
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
	e := report.IndexEntry{File: file, Title: shortLabel(g.p), Result: rg.Result, Moves: len(rec.Plies), Accuracy: rg.Accuracy}
	if pl := g.p.Players; pl[0] != "" || pl[1] != "" {
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
func (a *analyzeWriter) writeIndex() error {
	f, err := createOutput(filepath.Join(a.reportDir, "index.html"), nil)
	if err != nil {
		return err
	}
	if err := report.WriteIndex(f, fmt.Sprintf("gomoku analyze: %d games", len(a.index)), a.index); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// evalSetting is analyze's best-move search of every ply.
type evalSetting struct {
	lim     solver.Limits // of each ply's search
	weights *play.Weights
}

// evaluatePly values the position b, c to move, for the analysis: a forced
// win is worth 1 with its line as the PV; otherwise the store's kept
// evaluation, or the alpha-beta search's within the setting's limit (kept
// in the store). The search starts afresh (Clear), so that under a node
// limit it repeats exactly.
func evaluatePly(ctx context.Context, ab *play.AlphaBeta, st *solver.Store, ev *evalSetting, b *engine.Board,
	c engine.Color, r *solver.PlyResult) error {
	if r.Win != 0 {
		r.Value, r.PV = 1, r.Line
		if len(r.Line) > 0 {
			r.Best = r.Line[0]
		}
		return nil
	}
	if b.LastMoveWon() {
		return nil
	}
	if st != nil {
		e, ok, err := st.Evaluation(b, c)
		if err != nil {
			return err
		}
		if ok {
			r.Value, r.PV, r.EvalFromStore = e.Value, e.PV, true
			if len(e.PV) > 0 {
				r.Best = e.PV[0]
			}
			return nil
		}
	}
	ab.Clear()
	rep, err := ab.Search(ctx, b, c, ev.lim, 1, nil, nil)
	if errors.Is(err, play.ErrNoMoves) {
		return nil
	}
	if err != nil || len(rep.Moves) == 0 || ctx.Err() != nil {
		return err
	}
	m := rep.Moves[0]
	r.Value, r.Best, r.PV = m.Value, m.Move, m.PV
	if st != nil {
		return st.PutEvaluation(b, c, solver.Evaluation{Value: m.Value, PV: m.PV})
	}
	return nil
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

// analyzeAll searches every ply of every game with jobs workers, each with
// its own Solver (memory shared out) and the common store, and writes each
// game as soon as it and all the games before it are done. It returns the
// number of games written; on cancellation the games not complete are not.
func analyzeAll(ctx context.Context, games []*analyzeGame, jobs, mib, threat int, store *solver.Store,
	lim solver.Limits, ev *evalSetting, bar *progressbar.ProgressBar, out *analyzeWriter) int {
	tasks := make(chan analyzeTask)
	var mu sync.Mutex
	next := 0 // the next game to write
	written := 0
	complete := func() {
		for next < len(games) && games[next].left == 0 {
			g := games[next]
			if g.err == nil {
				out.game(g)
				written++
			}
			next++
		}
	}
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slv := solver.NewSolver(max(8, mib/jobs))
			slv.Store, slv.ThreatLimit = store, threat
			// with a job per core, one VCT search per position gets the
			// core instead of the threat limits taking turns on it; under a
			// node limit, one search makes the results repeat exactly (which
			// of the side-by-side searches wins first is a matter of timing)
			slv.OneSearch = lim.Nodes > 0 || jobs >= runtime.GOMAXPROCS(0) && lim.Time > 0
			var ab *play.AlphaBeta
			if ev != nil {
				ab = play.NewAlphaBeta(max(4, mib/jobs/4))
				ab.Weights = ev.weights
			}
			var b *engine.Board
			for t := range tasks {
				g := t.g
				if ctx.Err() != nil {
					continue
				}
				if b == nil || b.Size() != g.p.Size || b.Rule() != g.rule {
					var err error
					if b, err = engine.NewBoard(g.p.Size, g.rule); err != nil {
						mu.Lock()
						g.err, g.left = err, 0
						mu.Unlock()
						continue
					}
				}
				b.Reset()
				for i, q := range g.p.Moves[:t.ply] {
					b.Play(q, engine.Color(1+i%2))
				}
				c := engine.Color(1 + t.ply%2)
				r, err := slv.AnalyzePly(ctx, b, c, lim)
				r.Ply, r.Move, r.Forbidden = t.ply, g.p.Moves[t.ply], g.plies[t.ply].Forbidden
				if err == nil && ab != nil {
					err = evaluatePly(ctx, ab, store, ev, b, c, &r)
				}
				mu.Lock()
				last := false
				if ctx.Err() == nil {
					if err != nil && g.err == nil {
						g.err = err
					}
					g.plies[t.ply] = r
					// the last ply's worker checks the game's flagged
					// positions before the game counts as done
					last = g.left == 1
					if !last {
						g.left--
					}
				}
				mu.Unlock()
				if last {
					// every other ply is in: g is this worker's alone now
					if err := lostChecks(ctx, slv, g, lim); err != nil && g.err == nil {
						g.err = err
					}
					mu.Lock()
					if ctx.Err() == nil {
						g.left = 0
						g.elapsed = time.Since(g.start)
						complete()
					}
					mu.Unlock()
				}
				if bar != nil {
					_ = bar.Add(1)
				}
			}
		}()
	}
	for _, g := range games {
		g.start = time.Now()
		for ply := range g.plies {
			select {
			case tasks <- analyzeTask{g, ply}:
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(tasks)
	wg.Wait()
	return written
}

// The words for the plies that the lost-position check proves: the
// position where every move loses, and the quiet move that won it.
const (
	noteLost        = "every move loses to a forced win"
	noteWinningMove = "every answer loses"
)

// lostNote is what the lost-position check proved of ply i: noteLost on a
// lost ply, noteWinningMove on the quiet move before one (no VCF or VCT
// found there), else "".
func lostNote(plies []analyzePly, i int) string {
	switch {
	case plies[i].Lost:
		return noteLost
	case plies[i].ForcedWin == nil && i+1 < len(plies) && plies[i+1].Lost:
		return noteWinningMove
	}
	return ""
}

// lostFactor is lostChecks's budget per position checked, in multiples of
// the per-position limit: each check plays every legal move and solves
// the opponent's VCT after it.
const lostFactor = 4

// lostChecks sets PlyResult.Lost on the plies of g that solver.Summarize
// flags as blunders (before any check: the move let the opponent have a
// VCF or VCT at the next ply that it did not have at its turn before,
// solved), a side with a forced win of its own left out. Each such
// position is checked with play.Lost, within
// lostFactor times lim. A position where every move loses was lost before
// the move, which then is no blunder (Summarize moves the blame to the
// side's move before). The checks bypass the store, so that their answers
// under a node limit do not depend on what it holds (a win stored by a
// larger search would answer a check that its own budget could not).
func lostChecks(ctx context.Context, slv *solver.Solver, g *analyzeGame, lim solver.Limits) error {
	st := slv.Store
	slv.Store = nil
	defer func() { slv.Store = st }()
	var b *engine.Board
	// the blunders do not depend on the winner or the last move
	for _, i := range solver.Summarize(g.plies, engine.Empty, false).Blunders {
		if ctx.Err() != nil {
			break
		}
		if g.plies[i].Win != 0 {
			continue // a missed win too: a side with a VCF or VCT is not lost
		}
		if b == nil {
			var err error
			if b, err = engine.NewBoard(g.p.Size, g.rule); err != nil {
				return err
			}
		}
		b.Reset()
		for k, q := range g.p.Moves[:i] {
			b.Play(q, engine.Color(1+k%2))
		}
		budget := solver.Limits{Time: lostFactor * lim.Time, Nodes: lostFactor * lim.Nodes}
		if budget.Nodes > 0 {
			budget.Time = 0 // a node limit makes the checks repeat exactly
		}
		lost, err := play.Lost(ctx, slv, b, g.plies[i].ToMove, budget)
		if err != nil {
			return fmt.Errorf("ply %d: %w", i, err)
		}
		g.plies[i].Lost = lost
	}
	return nil
}

// analyzeWriter writes analyze results in one format and keeps the batch
// totals.
type analyzeWriter struct {
	w      io.Writer
	format string
	csv    *csv.Writer
	err    error
	total  batchRecord
	// reportDir, when not "", receives a page per game (report); pageErrs
	// are the pages that could not be written.
	reportDir string
	pageErrs  []error
	// sgfDir, when not "", receives an SGF file per game (writeSGF);
	// sgfs counts them, for the names.
	sgfDir string
	sgfs   int
	index  []report.IndexEntry
}

func newAnalyzeWriter(w io.Writer, format string) *analyzeWriter {
	a := &analyzeWriter{w: w, format: format}
	if format == "csv" {
		a.csv = csv.NewWriter(w)
		a.err = a.csv.Write([]string{"source", "index", "ply", "to_move", "move_played", "forced_win", "kept", "status", "line",
			"value", "best", "pv", "played_value", "loss", "class", "lost"})
	}
	return a
}

// record turns an analysed game into its JSON form.
func analysisRecord(g *analyzeGame) analyzeRecord {
	p := g.p
	b, _ := p.Board(g.rule)
	lastFive := b != nil && b.LastMoveWon()
	result := p.Result
	if result == "" && lastFive {
		_, c := b.LastMove()
		result = c.String()
	}
	var forbidden *forbiddenJSON
	if n := len(g.plies); n > 0 && g.plies[n-1].Forbidden != engine.NotForbidden {
		// black's forbidden move ends the game, won by white (RIF), whatever
		// the record says of the moves after it
		lastFive, result = false, "white"
		forbidden = &forbiddenJSON{Ply: n - 1, Move: g.plies[n-1].Move.String(), Kind: g.plies[n-1].Forbidden.String(),
			Ignored: len(p.Moves) - n}
	}
	winner := engine.Empty
	switch result {
	case "black":
		winner = engine.Black
	case "white":
		winner = engine.White
	}
	sum := solver.Summarize(g.plies, winner, lastFive)
	rec := analyzeRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: g.rule.String(), Size: p.Size,
		MissedWins: append([]int{}, sum.MissedWins...), Blunders: []int{}, TimeMS: ms(g.elapsed), Forbidden: forbidden}
	if result != "" {
		rec.Result = &result
	}
	if sum.Decided >= 0 {
		d, m := sum.Decided, sum.Decided+1
		rec.DecidedPly, rec.DecidedMove = &d, &m
	}
	judged, sides := solver.Judge(g.plies, sum, lastFive)
	evaluated := false
	for i, r := range g.plies {
		if judged[i].Class == solver.ClassBlunder {
			rec.Blunders = append(rec.Blunders, i)
		}
		ap := analyzePly{Ply: i, Move: i + 1, ToMove: r.ToMove.String(), MovePlayed: r.Move.String(), Kept: sum.Kept[i], Status: "solved",
			Nodes: r.Nodes, TimeMS: ms(r.Elapsed), Class: judged[i].Class, Lost: r.Lost}
		if j := judged[i]; j.Value >= 0 {
			evaluated = true
			ap.Value = ptr(round3(j.Value))
			if j.PlayedValue >= 0 {
				ap.PlayedValue, ap.Loss = ptr(round3(j.PlayedValue)), ptr(round3(j.Loss))
			}
			if r.Best != engine.NoPoint {
				ap.Best = r.Best.String()
			}
			ap.PV = pointStrings(r.PV)
		}
		if r.Win != 0 {
			w := r.Win.String()
			ap.ForcedWin, ap.Line = &w, pointStrings(r.Line)
		}
		if !r.Solved {
			ap.Status = "unknown"
			rec.Unknown++
		}
		rec.Plies = append(rec.Plies, ap)
	}
	if evaluated {
		rec.Sides = map[string]sideJSON{}
		for i, name := range []string{"black", "white"} {
			st := sides[i]
			rec.Sides[name] = sideJSON{Moves: st.Moves, Classes: st.Classes, MeanLoss: round3(st.MeanLoss),
				Accuracy: math.Round(10*st.Accuracy) / 10}
		}
	}
	return rec
}

func ptr[T any](v T) *T { return &v }

// round3 rounds a win rate to three decimals for the output.
func round3(v float64) float64 { return math.Round(1000*v) / 1000 }

// game writes one analysed game.
func (a *analyzeWriter) game(g *analyzeGame) {
	if a.err != nil {
		return
	}
	rec := analysisRecord(g)
	if a.reportDir != "" {
		// a page that cannot be written is reported and the rest goes on:
		// the analysis itself and the other pages are not lost
		if err := a.writePage(g, rec); err != nil {
			a.pageErrs = append(a.pageErrs, fmt.Errorf("%s: report page: %w", g.p.Label(), err))
		}
	}
	if a.sgfDir != "" {
		if err := a.writeSGF(g, rec); err != nil {
			a.pageErrs = append(a.pageErrs, fmt.Errorf("%s: SGF: %w", g.p.Label(), err))
		}
	}
	t := &a.total.Batch
	t.Games++
	t.Plies += len(rec.Plies)
	t.Unknown += rec.Unknown
	t.Solved += len(rec.Plies) - rec.Unknown
	t.MissedWins += len(rec.MissedWins)
	t.Blunders += len(rec.Blunders)
	for _, r := range g.plies {
		if r.FromStore {
			t.FromStore++
		}
	}
	switch a.format {
	case "json":
		a.err = writeJSON(a.w, rec)
	case "csv":
		for _, p := range rec.Plies {
			win, kept := "", ""
			if p.ForcedWin != nil {
				win = *p.ForcedWin
			}
			if p.Kept != nil {
				kept = strconv.FormatBool(*p.Kept)
			}
			num := func(v *float64) string {
				if v == nil {
					return ""
				}
				return strconv.FormatFloat(*v, 'f', 3, 64)
			}
			a.err = a.csv.Write([]string{rec.Source, strconv.Itoa(rec.Index), strconv.Itoa(p.Ply), p.ToMove, p.MovePlayed,
				win, kept, p.Status, strings.Join(p.Line, " "), num(p.Value), p.Best, strings.Join(p.PV, " "),
				num(p.PlayedValue), num(p.Loss), p.Class, strconv.FormatBool(p.Lost)})
		}
	default:
		writeAnalysisText(a.w, g.p, rec)
	}
}

// batch writes the batch summary: a last JSON line, or text; for CSV
// nothing (the rows are the data).
func (a *analyzeWriter) batch(failed int, d time.Duration, partial bool, read int) {
	a.total.Batch.Failed, a.total.Batch.TimeMS = failed, ms(d)
	if partial {
		a.total.Batch.Partial, a.total.Batch.GamesRead = true, read
	}
	if a.err != nil {
		return
	}
	t := a.total.Batch
	switch a.format {
	case "json":
		a.err = writeJSON(a.w, a.total)
	case "text":
		_, a.err = fmt.Fprintf(a.w, "batch: %d games, %d positions (%d solved, %d unknown, %d from the store), %d missed wins, %d blunders, %d bad records, %.1f s\n",
			t.Games, t.Plies, t.Solved, t.Unknown, t.FromStore, t.MissedWins, t.Blunders, t.Failed, d.Seconds())
		if partial {
			_, a.err = fmt.Fprintf(a.w, "PARTIAL: interrupted after %d of %d games; the others are not in this output\n", t.Games, read)
		}
	}
}

func (a *analyzeWriter) flush() error {
	if a.csv != nil {
		a.csv.Flush()
		if a.err == nil {
			a.err = a.csv.Error()
		}
	}
	return a.err
}

// writeAnalysisText prints one game's analysis for people: the verdicts,
// then every ply with a forced win or a blunder.
func writeAnalysisText(w io.Writer, p *positions.Position, rec analyzeRecord) {
	result, decided := "unknown", "not found"
	if rec.Result != nil {
		result = *rec.Result
	}
	if rec.DecidedMove != nil {
		decided = fmt.Sprintf("move %d", *rec.DecidedMove)
	}
	fmt.Fprintf(w, "%s  %s %dx%d  %d moves, result %s, decided: %s\n", p.Label(), rec.Rule, rec.Size, rec.Size,
		len(rec.Plies), result, decided)
	if p.Players[0] != "" || p.Players[1] != "" || p.Event != "" || p.Date != "" {
		var parts []string
		if p.Players[0] != "" || p.Players[1] != "" {
			parts = append(parts, fmt.Sprintf("black %s, white %s", p.Players[0], p.Players[1]))
		}
		for _, v := range []string{p.Event, p.Date} {
			if v != "" {
				parts = append(parts, v)
			}
		}
		fmt.Fprintln(w, strings.Join(parts, "; "))
	}
	if f := rec.Forbidden; f != nil {
		fmt.Fprintf(w, "black's move %d %s is forbidden (%s): under RIF black loses there", f.Ply+1, f.Move, f.Kind)
		if f.Ignored > 0 {
			fmt.Fprintf(w, "; the record's %d later moves are not analysed", f.Ignored)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "missed wins: %s; blunders: %s; %d positions unknown (%.0f ms)\n", moveList(rec.MissedWins),
		moveList(rec.Blunders), rec.Unknown, rec.TimeMS)
	if rec.Sides != nil {
		for _, side := range []string{"black", "white"} {
			st := rec.Sides[side]
			fmt.Fprintf(w, "%s: accuracy %.1f (mean loss %.3f), %s\n", side, st.Accuracy, st.MeanLoss, classCounts(st.Classes))
		}
		var worst []analyzePly
		for _, pl := range rec.Plies {
			if classRank[pl.Class] > 0 {
				worst = append(worst, pl)
			}
		}
		slices.SortStableFunc(worst, func(a, b analyzePly) int {
			la, lb := 0.0, 0.0
			if a.Loss != nil {
				la = *a.Loss
			}
			if b.Loss != nil {
				lb = *b.Loss
			}
			switch {
			case classRank[a.Class] != classRank[b.Class]:
				return classRank[b.Class] - classRank[a.Class]
			case la > lb:
				return -1
			case la < lb:
				return 1
			}
			return a.Ply - b.Ply
		})
		for i, pl := range worst[:min(3, len(worst))] {
			loss := "?"
			if pl.Loss != nil {
				loss = fmt.Sprintf("%.2f", *pl.Loss)
			}
			better := ""
			if pl.Best != "" && pl.Best != pl.MovePlayed {
				better = fmt.Sprintf("; better %s (%s)", pl.Best, strings.Join(pl.PV[:min(5, len(pl.PV))], " "))
			}
			fmt.Fprintf(w, "  %d. move %d, %s %s: %s, win rate lost %s%s\n", i+1, pl.Move, pl.ToMove, pl.MovePlayed,
				pl.Class, loss, better)
		}
	}
	blunder := map[int]bool{}
	for _, b := range rec.Blunders {
		blunder[b] = true
	}
	for i, pl := range rec.Plies {
		note := lostNote(rec.Plies, i)
		if pl.ForcedWin == nil && !blunder[pl.Ply] && note == "" {
			continue
		}
		s := fmt.Sprintf("  move %3d %-5s %-4s", pl.Move, pl.ToMove, pl.MovePlayed)
		switch note {
		case noteWinningMove:
			s += "  WINNING MOVE: " + note
		case noteLost:
			s += "  LOST: " + note
		}
		if pl.ForcedWin != nil {
			kept := "kept: unknown"
			if pl.Kept != nil && *pl.Kept {
				kept = "kept"
			} else if pl.Kept != nil {
				kept = "MISSED"
			}
			s += fmt.Sprintf("  %s win %s, %s", strings.ToUpper(*pl.ForcedWin), joinNumbered(pl.Line), kept)
		}
		switch {
		case pl.Class == solver.ClassForbidden:
			s += "  FORBIDDEN: black loses at once"
		case blunder[pl.Ply] && i+1 < len(rec.Plies) && (rec.Plies[i+1].ForcedWin != nil || rec.Plies[i+1].Lost):
			s += "  BLUNDER: the opponent wins next"
		case blunder[pl.Ply] && pl.Loss != nil:
			s += fmt.Sprintf("  BLUNDER: win rate lost %.2f", *pl.Loss)
		case blunder[pl.Ply]:
			s += "  BLUNDER"
		}
		fmt.Fprintln(w, s)
	}
	fmt.Fprintln(w)
}

// classRank orders the classes of mistakes, worst highest.
var classRank = map[string]int{solver.ClassInaccuracy: 1, solver.ClassMistake: 2, solver.ClassBlunder: 3, solver.ClassForbidden: 4}

// classCounts prints the counts of the bad classes: "1 blunder, 2
// mistakes", or "no mistakes".
func classCounts(m map[string]int) string {
	var parts []string
	for _, c := range []string{solver.ClassForbidden, solver.ClassBlunder, solver.ClassMistake, solver.ClassInaccuracy} {
		if n := m[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, plural(c, n)))
		}
	}
	if len(parts) == 0 {
		return "no inaccuracies"
	}
	return strings.Join(parts, ", ")
}

// plural is a class's name for n moves: "1 blunder", "2 inaccuracies".
func plural(class string, n int) string {
	switch {
	case n == 1:
		return class
	case class == solver.ClassInaccuracy:
		return "inaccuracies"
	}
	return class + "s"
}

// moveList prints 0-based plies as move numbers ("move 8", "moves 8,
// 10"), or "none".
func moveList(ps []int) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p + 1)
	}
	if len(ps) == 1 {
		return "move " + s[0]
	}
	return "moves " + strings.Join(s, ", ")
}

// writeSGF writes game g's analysis as SGF (GM[4]) to the --sgf directory,
// NNN-SOURCE-INDEX.sgf: the record's properties (size, rule, players,
// event, date, result), the summary in the root's comment, every move with
// a comment (its number, value, class, the engine's best move and line,
// a forced win and whether it was kept), and the engine's principal
// variation as a variation beside the move played where they differ.
func (a *analyzeWriter) writeSGF(g *analyzeGame, rec analyzeRecord) error {
	p, size := g.p, rec.Size
	pt := func(s string) (engine.Point, bool) {
		q, err := engine.ParsePoint(s, size)
		return q, err == nil
	}
	colour := func(c string) string {
		if c == "white" {
			return "W"
		}
		return "B"
	}
	root := (&positions.SGFNode{}).Add("GM", "4").Add("FF", "4").Add("CA", "UTF-8").
		Add("SZ", strconv.Itoa(size)).Add("RU", rec.Rule).Add("AP", "gomoku analyze")
	if p.Players[0] != "" {
		root.Add("PB", p.Players[0])
	}
	if p.Players[1] != "" {
		root.Add("PW", p.Players[1])
	}
	if p.Event != "" {
		root.Add("EV", p.Event)
	}
	if p.Date != "" {
		root.Add("DT", p.Date)
	}
	if rec.Result != nil {
		root.Add("RE", map[string]string{"black": "B+", "white": "W+", "draw": "0"}[*rec.Result])
	}
	var sum strings.Builder
	writeAnalysisText(&sum, p, rec)
	root.Add("C", strings.TrimSpace(sum.String()))
	n := root
	for i, pl := range rec.Plies {
		q, ok := pt(pl.MovePlayed)
		if !ok {
			return fmt.Errorf("move %d: %q", i+1, pl.MovePlayed)
		}
		node := (&positions.SGFNode{}).Add(colour(pl.ToMove), positions.SGFPoint(q, size)).Add("C", sgfComment(pl, rec, i))
		n.Children = append(n.Children, node)
		// the engine's line beside the move played, where it differs
		if pl.Best != "" && pl.Best != pl.MovePlayed && len(pl.PV) > 0 {
			var first, last *positions.SGFNode
			c := pl.ToMove
			for j, m := range pl.PV {
				mq, ok := pt(m)
				if !ok {
					break
				}
				v := (&positions.SGFNode{}).Add(colour(c), positions.SGFPoint(mq, size))
				if j == 0 {
					v.Add("C", fmt.Sprintf("the engine's move %d instead: %s", i+1, strings.Join(pl.PV, " ")))
					first = v
				} else {
					last.Children = append(last.Children, v)
				}
				last = v
				c = map[string]string{"black": "white", "white": "black"}[c]
			}
			if first != nil {
				n.Children = append(n.Children, first)
			}
		}
		n = node
	}
	a.sgfs++
	f, err := createOutput(filepath.Join(a.sgfDir, fmt.Sprintf("%03d-%s-%d.sgf", a.sgfs, pageStem(p.Source), p.Index)), nil)
	if err != nil {
		return err
	}
	if err := positions.WriteSGF(f, root); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// sgfComment is a move's comment in the SGF of an analysis: "move 8
// (white k5): blunder, win rate 0.55 before, 0.19 after; the engine: g9
// (g9 h7 h9); forced win VCT ..., kept".
func sgfComment(pl analyzePly, rec analyzeRecord, i int) string {
	parts := []string{fmt.Sprintf("move %d (%s %s)", pl.Move, pl.ToMove, pl.MovePlayed)}
	if pl.Class != "" {
		parts[0] += ": " + pl.Class
	}
	if pl.Value != nil {
		v := fmt.Sprintf("%s's win rate %.2f before", pl.ToMove, *pl.Value)
		if pl.PlayedValue != nil {
			v += fmt.Sprintf(", %.2f after", *pl.PlayedValue)
		}
		parts = append(parts, v)
	}
	if pl.Best != "" {
		parts = append(parts, fmt.Sprintf("the engine: %s (%s)", pl.Best, strings.Join(pl.PV, " ")))
	}
	if pl.ForcedWin != nil {
		kept := "kept: unknown"
		if pl.Kept != nil && *pl.Kept {
			kept = "kept"
		} else if pl.Kept != nil {
			kept = "missed"
		}
		parts = append(parts, fmt.Sprintf("forced win %s %s, %s", strings.ToUpper(*pl.ForcedWin), strings.Join(pl.Line, " "), kept))
	}
	if note := lostNote(rec.Plies, i); note != "" {
		parts = append(parts, note)
	}
	return strings.Join(parts, "; ")
}
