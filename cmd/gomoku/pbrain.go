package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/cmd/internal/gomocup"
	"gomoku/engine"
	"gomoku/solver"
	"gomoku/solver/play"
)

func pbrainCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:  "pbrain",
		Usage: "play over the Gomocup (Piskvork) protocol on standard input and output",
		Description: "Speaks the Gomocup/Piskvork brain protocol: START, RECTSTART (square boards only), RESTART, BEGIN, TURN,\n" +
			"BOARD, TAKEBACK, INFO (timeout_turn, timeout_match, time_left, max_memory, rule, game_type, thread_num),\n" +
			"END and ABOUT, SWAP2BOARD (Gomocup's swap2 opening), and Yixin-Board's YXSHOWFORBID, YXNBEST and YXBOARD.\n" +
			"Each move is chosen as `gomoku best` chooses it (a forced win, a defence, else the search: alpha-beta by\n" +
			"default, MCTS with --engine mcts) within the time the manager allows. END, or the end of the input, stops\n" +
			"a search at once. Managers look for an executable named pbrain-*; see docs/protocol.md for installing it\n" +
			"as pbrain-gomoku.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "engine", Aliases: []string{"e"}, Value: "ab", Usage: "search: ab (alpha-beta) or mcts"},
			&cli.IntFlag{Name: "threads", Value: runtime.NumCPU(), DefaultText: "the number of CPUs", Usage: "search goroutines; with 1, the VCT checks run one search, not two side by side (INFO thread_num overrides)"},
			&cli.DurationFlag{Name: "turn-time", Value: 5 * time.Second, Usage: "time per move until INFO timeout_turn says otherwise"},
			&cli.StringFlag{Name: "weights", Usage: "evaluation weights `FILE` (default: the built-in ones)"},
			evalFlag(), netFlag(),
			searchParamsFlag(),
		}, bookPlayFlags()...),
		Action: func(c *cli.Context) error {
			setup, err := loadSearchSetup(c)
			if err != nil {
				return err
			}
			bp, err := openBookPlayer(c)
			if err != nil {
				return err
			}
			defer bp.Close()
			br := gomocup.NewBrain(c.App.Writer, &brainEngine{name: setup.engine, weights: setup.weights, params: setup.params, book: bp}, gomocup.Options{
				TurnTime: c.Duration("turn-time"),
				About:    fmt.Sprintf(`name="gomoku", version="%s", author="the gomoku authors", country="", www="", email=""`, version),
				Settings: gomocup.Settings{MemoryMiB: solver.DefaultMemoryMiB, Threads: c.Int("threads")},
			})
			return br.Serve(c.Context, stdin)
		},
	}
}

// brainEngine is the protocol's engine: play.Best, as `gomoku best` runs
// it, with a solver and a searcher made at the memory and threads the
// manager allows (half the memory each).
type brainEngine struct {
	name     string
	weights  *play.Weights
	params   *play.ABParams // nil: the defaults
	settings gomocup.Settings
	slv      *solver.Solver
	searcher play.Searcher
	madeMiB  int
	book     *bookPlayer // nil: no book
}

// Configure notes the settings; the tables are rebuilt at the next Think
// when the memory changed, the searcher when either changed.
// The memory is clamped to three quarters of the machine's (INFO
// max_memory 1099511627776 asked for a terabyte).
func (e *brainEngine) Configure(s gomocup.Settings) {
	s.MemoryMiB = clampMemory(s.MemoryMiB)
	s.Threads = max(1, min(s.Threads, maxThreads))
	if s.Threads != e.settings.Threads {
		e.searcher = nil
	}
	e.settings = s
}

// tools returns the solver and searcher, made at the memory the settings
// allow.
func (e *brainEngine) tools() (*solver.Solver, play.Searcher) {
	mib := e.settings.MemoryMiB
	if e.slv == nil || e.madeMiB != mib {
		e.slv, e.searcher, e.madeMiB = solver.NewSolver(max(8, mib/2)), nil, mib
	}
	oneThread(e.slv, e.settings.Threads)
	if e.searcher == nil {
		e.searcher, _ = newSearcher(e.name, e.settings.Threads, mib/2)
		setWeights(e.searcher, e.weights)
		setParams(e.searcher, e.params)
	}
	return e.slv, e.searcher
}

// oneThread makes slv's VCT searches fit the threads allowed (pbrain's
// thread_num, best's --threads): with one, a single search at threat limit solver.MaxAutoThreatLimit
// (Solver.OneSearch) in place of the automatic schedule's two side by side.
// Two searches on one core each run at half speed, and in a match where
// both engines think at once that is all they get: on 12 positions of the
// freestyle games lost to Rapfi (2026-11-27) where Best's threat check had
// missed the opponent's VCT, one core (GOMAXPROCS=1) found the 12 VCTs in
// 308 ms in all with limit 8 alone (3-58 ms each), 490 ms with the
// schedule (7-105 ms each), 382 ms with limit 1 alone.
func oneThread(slv *solver.Solver, threads int) {
	slv.OneSearch, slv.ThreatLimit = false, 0 // the automatic schedule
	if threads <= 1 {
		slv.OneSearch, slv.ThreatLimit = true, solver.MaxAutoThreatLimit
	}
}

// Think answers from the opening book when it has a move for the position
// (bookPlayer), else runs play.Best within req.Time.
func (e *brainEngine) Think(ctx context.Context, req gomocup.Request) (gomocup.Reply, error) {
	if ch, ok, err := e.book.move(req.Board, req.ToMove); err == nil && ok {
		return gomocup.Reply{Moves: []gomocup.Move{{Point: ch.Point, Value: ch.Score, PV: []engine.Point{ch.Point}}},
			Note: bookNote(ch, ch.Point.Piskvork(req.Board.Size()))}, nil
	}
	slv, searcher := e.tools()
	lim := solver.Limits{Time: req.Time, MemoryMiB: e.settings.MemoryMiB / 2}
	var progress solver.ProgressFunc
	if req.Info != nil {
		progress = func(pg solver.Progress) {
			req.Info(gomocup.Info{Depth: pg.Depth, Nodes: pg.Nodes, Elapsed: pg.Elapsed, Value: pg.Value, PV: pg.PV})
		}
	}
	r, err := play.Best(ctx, slv, req.Board, req.ToMove, searcher, lim, req.MultiPV, progress)
	if err != nil {
		return gomocup.Reply{}, err
	}
	var rep gomocup.Reply
	for _, m := range r.Moves {
		rep.Moves = append(rep.Moves, gomocup.Move{Point: m.Move, Value: m.Value, Visits: m.Visits, Depth: m.Depth, PV: m.PV})
	}
	return rep, nil
}

// Evaluate is the static evaluation's win rate for toMove on b (the
// learned weights, no search): swap2's first ranking of its openings.
func (e *brainEngine) Evaluate(b *engine.Board, toMove engine.Color) float64 {
	w := e.weights
	if w == nil {
		w = play.DefaultWeights()
	}
	return w.WinRate(play.NewEval(w, b).Value(toMove))
}

// Quick is play.QuickMove.
func (e *brainEngine) Quick(b *engine.Board, c engine.Color) engine.Point {
	return play.QuickMove(b, c)
}

// maxThreads bounds the search goroutines a manager or a flag may ask for.
const maxThreads = 256
