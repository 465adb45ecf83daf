// Package match is a tournament manager for Gomocup/Piskvork brains, as
// c-gomoku-cli and cutechess-cli are for their protocols: it plays two
// engines (any executables that speak the protocol, this program's own
// pbrain among them) against each other from a set of openings, each
// opening twice with colours swapped, judges every game by the project's
// own rules, and reports the score with an Elo difference, its 95%
// interval and, when asked, a sequential probability ratio test.
//
// What is implemented, and where:
//   - match.go: Config, Run and the scheduler (games in parallel, stopping
//     early when the SPRT decides); Result.
//   - eval.go: the evaluation a brain reports before its move (Rapfi's
//     "Eval" MESSAGE lines), kept per move (GameResult.Evals).
//   - game.go: one game: starting the brains (cmd/internal/gomocup's
//     Client), the opening as BOARD, TURN after that, the clocks (a limit
//     per move, or a match clock with an increment, with a tolerance), and
//     adjudication: a five (exactly five where the rule wants it), a renju
//     forbidden move (loses), an illegal or unreadable answer (loses), a
//     timeout or a crash (loses), a full board (a draw).
//   - brain.go: Brain, one engine started on its own and asked for its
//     move in one position after another (BOARD each time), with its
//     reported evaluation: a teacher labelling positions (gomoku label
//     --teacher).
//   - record.go: each game as a Piskvork .psq record and as SGF.
//   - journal.go: the match's settings and a journal of its finished games
//     in the records' directory, from which a stopped or killed match
//     resumes (Config.Resume), and which ReadDir and ReadJournal read back
//     for other uses (gomoku train on a match's games).
//   - stats.go: the score, the Elo difference with its 95% interval
//     (trinomial over games, the normal approximation cutechess-cli uses;
//     pentanomial over the pairs of games from one opening, as fishtest
//     reports them), and the GSPRT of fishtest (log-likelihood ratio of
//     the Elo model; over pairs when the games are paired).
package match

import (
	"context"
	"errors"
	"fmt"
	"gomoku/cmd/internal/gomocup"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gomoku/engine"
)

// EngineSpec is one engine of a match: a brain started as a process.
type EngineSpec struct {
	// Name labels the engine in results and records.
	Name string
	// Argv is the command line: the executable and its arguments.
	Argv []string
	// Dir is the working directory ("": the manager's).
	Dir string
}

// Opening is a start position: moves from the empty board, black first.
type Opening struct {
	Name  string
	Moves []engine.Point
}

// Config is a match.
type Config struct {
	// Engines are the two engines; results are from Engines[0]'s side.
	Engines [2]EngineSpec
	// Rule and Size are the game's (Size 0: 15).
	Rule engine.Rule
	Size int
	// Openings are played in turn, each twice: Engines[0] black in the
	// first game, white in the second.
	Openings []Opening
	// Games is the number of games (0: two per opening).
	Games int
	// TurnTime is the limit per move (INFO timeout_turn); 0 for none,
	// when MatchTime must be set.
	TurnTime time.Duration
	// MatchTime is each side's clock for the game (INFO timeout_match,
	// time_left before each move); 0 for none. Increment is added to a
	// side's clock after each of its moves.
	MatchTime, Increment time.Duration
	// TimeOdds multiplies Engines[0]'s time per move, clock and increment
	// (what it is told by INFO and what it is held to), as engine testers
	// give time odds to measure what time is worth: 2 gives it twice the
	// other's time. 0 or 1: even; at most MaxTimeOdds.
	TimeOdds float64
	// Swap2 opens every game by Gomocup's swap2 (SWAP2BOARD): Engines[0]
	// places the first three stones in the even games, Engines[1] in the
	// odd ones; Openings are not used.
	Swap2 bool
	// Tolerance is how late a move may be before it loses on time.
	Tolerance time.Duration
	// StartTimeout bounds a brain's answer to START (default 10 s).
	StartTimeout time.Duration
	// MemoryMiB and Threads are sent as INFO max_memory and thread_num
	// (0: not sent).
	MemoryMiB, Threads int
	// Concurrency is the number of games played at once (default 1).
	Concurrency int
	// OutDir, when not "", receives each game as NNN.psq and NNN.sgf,
	// with the match's settings (match.json) and a journal of the finished
	// games (games.jsonl) that Resume reads (journal.go).
	OutDir string
	// Resume continues the match recorded in OutDir (stopped by Ctrl-C or
	// killed): its finished games count as played and the rest are
	// played. Its settings must be the same (ErrResume otherwise), except
	// the number of games, which may grow (a match extended) or shrink.
	Resume bool
	// SPRT, when not nil, stops the match once it accepts a hypothesis.
	SPRT *SPRT
	// Log, when not nil, gets a line per finished game.
	Log io.Writer
}

// Result is a match's outcome.
type Result struct {
	Games []GameResult
	// Stats is the score of Engines[0] against Engines[1].
	Stats Stats
	// Resumed is how many of Games were read from OutDir's journal
	// (Config.Resume), not played by this run.
	Resumed int
	// Pairs is the same score over the pairs of games played from one
	// opening with colours swapped (both games finished; none under
	// Swap2, whose games share no opening).
	Pairs Pentanomial
	// SPRT is the test's state when one was asked for.
	SPRT *SPRTState
}

// Run plays the match. It returns when all games are played, the SPRT
// decides, or ctx is cancelled (the games under way are then abandoned and
// not counted; the error is ctx's). Errors: an invalid Config.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	n := cfg.Games
	if n == 0 {
		n = 2 * len(cfg.Openings)
	}
	res := &Result{Games: make([]GameResult, 0, n)}
	var mu sync.Mutex
	done := make([]bool, n)
	results := make([]GameResult, n)
	next := 0
	stop := false
	if cfg.SPRT != nil {
		res.SPRT = &SPRTState{SPRT: *cfg.SPRT}
	}
	// count adds finished game i to the score (and the pairs, when its
	// partner is finished too) and reports whether the SPRT decided
	count := func(i int) bool {
		g := &results[i]
		res.Stats.Add(g.Score0())
		paired := !cfg.Swap2 && i^1 < n && done[i^1]
		if paired {
			res.Pairs.Add(results[i&^1].Score0(), results[i|1].Score0())
		}
		if res.SPRT == nil {
			return false
		}
		// paired games test by pairs, as fishtest does; a game whose
		// partner is not finished waits for it
		return cfg.Swap2 && res.SPRT.Update(res.Stats) != SPRTContinue ||
			paired && res.SPRT.UpdatePairs(res.Pairs) != SPRTContinue
	}
	var jr *journal
	if cfg.OutDir != "" {
		if cfg.Resume {
			prior, err := resumeFrom(cfg.OutDir, &cfg, n)
			if err != nil {
				return nil, err
			}
			for i := range n {
				if g, ok := prior[i]; ok {
					results[i], done[i] = g, true
					res.Resumed++
					stop = count(i) || stop
				}
			}
		} else if err := writeManifest(cfg.OutDir, manifestOf(&cfg, n)); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrOutDir, err)
		}
		var err error
		if jr, err = openJournal(cfg.OutDir, !cfg.Resume); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrOutDir, err)
		}
		defer jr.close()
	}
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				for next < n && done[next] {
					next++ // finished before a resume
				}
				if stop || next >= n || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				op := cfg.Openings[(i/2)%len(cfg.Openings)]
				g := PlayGame(ctx, &cfg, i, op, i%2 == 1)
				if ctx.Err() != nil {
					return
				}
				if cfg.OutDir != "" {
					if err := writeRecords(cfg.OutDir, &cfg, &g); err != nil && g.Note == "" {
						g.Note = NoteNotWritten + err.Error()
					}
				}
				mu.Lock()
				if jr != nil && !strings.HasPrefix(g.Note, NoteNotWritten) {
					// after the records: a game in the journal has them
					if err := jr.add(&g); err != nil {
						g.Note = NoteNotWritten + err.Error()
					}
				}
				results[i], done[i] = g, true
				stop = count(i) || stop
				if cfg.Log != nil {
					fmt.Fprintln(cfg.Log, g.Line(&cfg))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i := range n {
		if done[i] {
			res.Games = append(res.Games, results[i])
		}
	}
	return res, ctx.Err()
}

// Check validates cfg and fills its defaults, as Run does before its first
// game: each brain is started once (START, then END) to see that it
// answers. Errors: an invalid Config, ErrEngine, ErrOutDir.
func (cfg *Config) Check() error {
	for i, e := range cfg.Engines {
		if len(e.Argv) == 0 {
			return fmt.Errorf("engine %d: no command", i+1)
		}
		if e.Name == "" {
			cfg.Engines[i].Name = fmt.Sprintf("engine%d", i+1)
		}
	}
	if cfg.Size == 0 {
		cfg.Size = engine.DefaultSize
	}
	if cfg.Size < engine.MinSize || cfg.Size > engine.MaxSize {
		return fmt.Errorf("board size %d: %w", cfg.Size, engine.ErrBadSize)
	}
	if len(cfg.Openings) == 0 {
		cfg.Openings = []Opening{{Name: "empty"}}
	}
	if cfg.TurnTime <= 0 && cfg.MatchTime <= 0 {
		return errors.New("no time control: give a time per move or a match clock")
	}
	if cfg.TurnTime < 0 || cfg.MatchTime < 0 || cfg.Increment < 0 || cfg.Tolerance < 0 || cfg.Games < 0 {
		return errors.New("times and counts must not be negative")
	}
	if err := CheckTimeOdds(cfg.TimeOdds); err != nil {
		return err
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = 1
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.Concurrency < 0 {
		return errors.New("times and counts must not be negative")
	}
	switch {
	case cfg.Resume && cfg.OutDir == "":
		return fmt.Errorf("%w: no records' directory to resume from", ErrResume)
	case cfg.Resume:
		if st, err := os.Stat(cfg.OutDir); err != nil || !st.IsDir() {
			return fmt.Errorf("%w: %s is not a directory of records", ErrResume, cfg.OutDir)
		}
	case cfg.OutDir != "":
		if err := checkOutDir(cfg.OutDir); err != nil {
			return err
		}
	}
	for _, e := range cfg.Engines {
		if err := probe(e, cfg.Size, cfg.StartTimeout); err != nil {
			return err
		}
	}
	for _, op := range cfg.Openings {
		b, err := engine.NewBoard(cfg.Size, cfg.Rule)
		if err != nil {
			return err
		}
		for i, m := range op.Moves {
			if err := b.Put(m, engine.Color(1+i%2)); err != nil {
				return fmt.Errorf("opening %s: move %d: %w", op.Name, i+1, err)
			}
			if b.LastMoveWon() {
				return fmt.Errorf("opening %s: a five at move %d", op.Name, i+1)
			}
		}
	}
	return nil
}

// MaxTimeOdds bounds Config.TimeOdds.
const MaxTimeOdds = 100

// CheckTimeOdds returns an error unless k is a valid Config.TimeOdds: 0 to
// MaxTimeOdds, not NaN.
func CheckTimeOdds(k float64) error {
	if k < 0 || k > MaxTimeOdds || k != k {
		return fmt.Errorf("time odds %v: want 0 to %v", k, MaxTimeOdds)
	}
	return nil
}

// times returns engine idx's time per move, clock and increment: the
// Config's, multiplied by TimeOdds for Engines[0].
func (cfg *Config) times(idx int) (turn, clock, inc time.Duration) {
	turn, clock, inc = cfg.TurnTime, cfg.MatchTime, cfg.Increment
	if k := cfg.TimeOdds; idx == 0 && k > 0 && k != 1 {
		scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) * k) }
		turn, clock, inc = scale(turn), scale(clock), scale(inc)
	}
	return turn, clock, inc
}

// settings returns the INFO lines engine idx gets after START.
func (cfg *Config) settings(idx int) []string {
	turn, clock, _ := cfg.times(idx)
	infos := []string{
		fmt.Sprintf("INFO timeout_turn %d", turn.Milliseconds()),
		fmt.Sprintf("INFO timeout_match %d", clock.Milliseconds()),
		fmt.Sprintf("INFO rule %d", ruleCode(cfg)),
		"INFO game_type 1",
	}
	if cfg.MatchTime > 0 {
		infos = append(infos, fmt.Sprintf("INFO time_left %d", clock.Milliseconds()))
	}
	if cfg.MemoryMiB > 0 {
		infos = append(infos, fmt.Sprintf("INFO max_memory %d", int64(cfg.MemoryMiB)<<20))
	}
	if cfg.Threads > 0 {
		infos = append(infos, fmt.Sprintf("INFO thread_num %d", cfg.Threads))
	}
	return infos
}

// NoteNotWritten starts the note of a game whose records could not be
// written to Config.OutDir.
const NoteNotWritten = "records not written: "

// ErrEngine: a brain of the match does not start, or does not answer
// START with OK, before the first game (probe). A match with such a brain
// is not played: its games would all be scored as crashes.
var ErrEngine = errors.New("the brain does not start")

// probe starts the brain of e, sends START size and waits up to timeout for
// its OK, then ends it. Errors wrap ErrEngine.
func probe(e EngineSpec, size int, timeout time.Duration) error {
	cl, err := gomocup.Start(e.Name, e.Argv, e.Dir)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrEngine, err)
	}
	defer cl.Close(2 * time.Second)
	if err := cl.Send("START %d", size); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrEngine, e.Name, err)
	}
	ans, err := cl.Answer(time.Now().Add(timeout))
	if err != nil {
		return fmt.Errorf("%w: %s: START %d: %w", ErrEngine, e.Name, size, err)
	}
	if !strings.HasPrefix(strings.ToUpper(ans), "OK") {
		return fmt.Errorf("%w: %s: START %d answered %q", ErrEngine, e.Name, size, ans)
	}
	return nil
}

// ErrOutDir: the --out directory cannot take the match's records: it
// cannot be made or written, or it holds an earlier match's records, which
// the new ones would overwrite.
var ErrOutDir = errors.New("the records' directory cannot be used")

// checkOutDir makes dir if needed and checks, before the first game, that
// a record can be written there and that none is there yet.
func checkOutDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: %w", ErrOutDir, err)
	}
	old, _ := filepath.Glob(filepath.Join(dir, "[0-9][0-9][0-9]*.psq"))
	if sgf, _ := filepath.Glob(filepath.Join(dir, "[0-9][0-9][0-9]*.sgf")); len(sgf) > 0 {
		old = append(old, sgf...)
	}
	if len(old) > 0 {
		return fmt.Errorf("%w: %s holds the records of an earlier match (%s): give a new or empty directory",
			ErrOutDir, dir, filepath.Base(old[0]))
	}
	f, err := os.CreateTemp(dir, ".probe*")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrOutDir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
