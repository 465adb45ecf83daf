package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"gomoku/engine"
)

// A match's directory (Config.OutDir) holds, beside each game's NNN.psq
// and NNN.sgf, the match's settings (manifestName) and a journal of its
// finished games (JournalName, one JSON line per game, appended and
// synced after the game's records are in place), so that a match stopped
// by Ctrl-C or killed resumes (Config.Resume): the games of the journal
// are counted as played, the rest are played. A line torn by a kill is cut
// off, and the records of a game that never reached the journal are
// removed and the game played again.
const (
	// manifestName is the settings' file name in the records' directory.
	manifestName = "match.json"
	// JournalName is the journal's file name in the records' directory.
	JournalName = "games.jsonl"
)

// ErrResume: Config.Resume was asked of a directory that holds no match
// to resume, or a match played with other settings.
var ErrResume = errors.New("the match cannot be resumed")

// manifest is what a match's results depend on: a resumed match must
// have the same.
type manifest struct {
	Version   int           `json:"version"`
	Engines   [2]EngineSpec `json:"engines"`
	Rule      string        `json:"rule"`
	Size      int           `json:"size"`
	Games     int           `json:"games"`
	TurnTime  time.Duration `json:"turn_ns"`
	MatchTime time.Duration `json:"match_ns"`
	Increment time.Duration `json:"increment_ns"`
	TimeOdds  float64       `json:"time_odds"`
	Tolerance time.Duration `json:"tolerance_ns"`
	Swap2     bool          `json:"swap2"`
	MemoryMiB int           `json:"memory_mib"`
	Threads   int           `json:"threads"`
	Openings  []Opening     `json:"openings"`
}

// manifestOf returns cfg's manifest for a match of n games.
func manifestOf(cfg *Config, n int) manifest {
	return manifest{Version: 1, Engines: cfg.Engines, Rule: cfg.Rule.String(), Size: cfg.Size, Games: n,
		TurnTime: cfg.TurnTime, MatchTime: cfg.MatchTime, Increment: cfg.Increment, TimeOdds: cfg.TimeOdds,
		Tolerance: cfg.Tolerance, Swap2: cfg.Swap2, MemoryMiB: cfg.MemoryMiB, Threads: cfg.Threads,
		Openings: cfg.Openings}
}

// differs names the fields in which m and o differ (their JSON names),
// the number of games aside: game i's opening and colours depend on i
// alone, so a resumed match may play more games, or fewer, than the first
// run meant to.
func (m manifest) differs(o manifest) []string {
	var out []string
	m.Games, o.Games = 0, 0
	a, b := reflect.ValueOf(m), reflect.ValueOf(o)
	for i := range a.NumField() {
		if !reflect.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
			name, _, _ := strings.Cut(a.Type().Field(i).Tag.Get("json"), ",")
			out = append(out, name)
		}
	}
	return out
}

// writeManifest writes the manifest of a match into dir, whole or not at
// all (renameio).
func writeManifest(dir string, m manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	// a temporary file, synced and renamed into place
	return renameio.WriteFile(filepath.Join(dir, manifestName), append(data, '\n'), 0o644)
}

// resumeFrom reads the match in dir for a resumed run of cfg with n games:
// the manifest must equal cfg's, and the journal's games are returned by
// index (a torn last line, left by a kill, is cut off the file). The
// records of games missing from the journal are removed: those games are
// played again. The number of games may differ from the first run's: the
// journal's games beyond n are kept (and left out of this run's results),
// and the manifest takes the new number. Errors: ErrResume (no manifest,
// other settings, an invalid line, a game recorded twice), and the file
// system's.
func resumeFrom(dir string, cfg *Config, n int) (map[int]GameResult, error) {
	old, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	if d := old.differs(manifestOf(cfg, n)); len(d) > 0 {
		return nil, fmt.Errorf("%w: %s was played with other settings (%s)", ErrResume, dir, strings.Join(d, ", "))
	}
	games := map[int]GameResult{}
	name := filepath.Join(dir, JournalName)
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	good := 0 // the bytes of whole lines
	for line := 1; len(data[good:]) > 0; line++ {
		rest := data[good:]
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			break // torn by a kill: cut off below
		}
		var g GameResult
		if err := json.Unmarshal(rest[:end], &g); err != nil {
			return nil, fmt.Errorf("%w: %s:%d: %w", ErrResume, name, line, err)
		}
		if g.Index < 0 {
			return nil, fmt.Errorf("%w: %s:%d: game %d", ErrResume, name, line, g.Index+1)
		}
		if bad := g.invalid(); bad != "" {
			return nil, fmt.Errorf("%w: %s:%d: game %d: %s", ErrResume, name, line, g.Index+1, bad)
		}
		if _, dup := games[g.Index]; dup {
			return nil, fmt.Errorf("%w: %s:%d: game %d recorded twice", ErrResume, name, line, g.Index+1)
		}
		games[g.Index] = g
		good += end + 1
	}
	if good < len(data) {
		if err := os.Truncate(name, int64(good)); err != nil {
			return nil, err
		}
	}
	if old.Games != n {
		if err := writeManifest(dir, manifestOf(cfg, n)); err != nil {
			return nil, err
		}
	}
	// records of games the journal does not hold: written before a kill
	// that came ahead of the journal's line
	for _, ext := range []string{"psq", "sgf"} {
		files, _ := filepath.Glob(filepath.Join(dir, "[0-9][0-9][0-9]*."+ext))
		for _, f := range files {
			var k int
			if _, err := fmt.Sscanf(filepath.Base(f), "%d."+ext, &k); err != nil {
				continue
			}
			if _, ok := games[k-1]; !ok {
				if err := os.Remove(f); err != nil {
					return nil, err
				}
			}
		}
	}
	return games, nil
}

// journal appends finished games to a match directory's journal.
type journal struct {
	f *os.File
	w *bufio.Writer
}

// openJournal opens dir's journal for appending; fresh empties it first
// (a new match: a journal left there holds no game whose records remain,
// since checkOutDir found none).
func openJournal(dir string, fresh bool) (*journal, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if fresh {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(filepath.Join(dir, JournalName), flags, 0o644)
	if err != nil {
		return nil, err
	}
	return &journal{f: f, w: bufio.NewWriter(f)}, nil
}

// add appends game g as a line and syncs it to the disk.
func (j *journal) add(g *GameResult) error {
	data, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if _, err := j.w.Write(append(data, '\n')); err != nil {
		return err
	}
	if err := j.w.Flush(); err != nil {
		return err
	}
	return j.f.Sync()
}

// close closes the journal.
func (j *journal) close() error { return j.f.Close() }

// ErrJournal is wrapped by ReadJournal's errors about a line's content.
var ErrJournal = errors.New("bad match journal line")

// ReadJournal reads the games of a match journal (JournalName, one
// GameResult a line; name is used in errors). A bad line is reported as
// "name:line:column: ..." wrapping ErrJournal, and skipped: invalid JSON
// (the column is JSON's offset), engines other than 0 and 1, a winner that
// is not a colour, a move off the playing area of the largest board
// (engine.MaxSize), or an opening longer than the game. Whether the moves
// replay on the match's board is not checked here (the trainer replays
// them). A last line without its newline (torn by a kill) is read if it is
// whole.
func ReadJournal(name string, data []byte) (games []GameResult, errs []error) {
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var g GameResult
		if err := json.Unmarshal(line, &g); err != nil {
			col := 1
			var se *json.SyntaxError
			if errors.As(err, &se) {
				col = int(se.Offset)
			}
			errs = append(errs, fmt.Errorf("%s:%d:%d: %w: %v", name, i+1, col, ErrJournal, err))
			continue
		}
		if bad := g.invalid(); bad != "" {
			errs = append(errs, fmt.Errorf("%s:%d:1: %w: %s", name, i+1, ErrJournal, bad))
			continue
		}
		games = append(games, g)
	}
	return games, errs
}

// readManifest reads the settings of the match directory dir. Errors wrap
// ErrResume: dir holds no settings (not a match's directory), or they do
// not parse; or are the file system's.
func readManifest(dir string) (manifest, error) {
	name := filepath.Join(dir, manifestName)
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return manifest{}, fmt.Errorf("%w: %s holds no %s (not the directory of a match)", ErrResume, dir, manifestName)
	}
	if err != nil {
		return manifest{}, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return manifest{}, fmt.Errorf("%w: %s: %w", ErrResume, name, err)
	}
	return m, nil
}

// invalid says what is wrong with a game read from a journal, or "": its
// engines are not 0 and 1, its winner is not a colour (or Empty), its
// opening is longer than its moves, or a move is off the playing area of
// the largest board (engine.MaxSize).
func (g *GameResult) invalid() string {
	switch {
	case g.Black < 0 || g.Black > 1 || g.White != 1-g.Black:
		return fmt.Sprintf("engines %d and %d", g.Black, g.White)
	case g.Winner > engine.White:
		return fmt.Sprintf("winner %d", g.Winner)
	case g.OpeningLen < 0 || g.OpeningLen > len(g.Moves):
		return fmt.Sprintf("opening of %d moves in a game of %d", g.OpeningLen, len(g.Moves))
	}
	for k, m := range g.Moves {
		if int(m) >= engine.NumCells || !m.In(engine.MaxSize) {
			return fmt.Sprintf("move %d is off the board", k+1)
		}
	}
	return ""
}

// ReadDir reads the match directory dir (Config.OutDir): the rule and
// board size from its settings (manifestName), the finished games from
// its journal (ReadJournal; its line errors in errs). err is set when the
// settings cannot be read (readManifest: wrapping ErrResume when dir is
// not a match's directory or they do not parse), name no rule, or the
// journal cannot be read.
func ReadDir(dir string) (rule engine.Rule, size int, games []GameResult, errs []error, err error) {
	m, err := readManifest(dir)
	if err != nil {
		return 0, 0, nil, nil, err
	}
	if rule, err = engine.ParseRule(m.Rule); err != nil {
		return 0, 0, nil, nil, fmt.Errorf("%s: %w", filepath.Join(dir, manifestName), err)
	}
	name := filepath.Join(dir, JournalName)
	data, err := os.ReadFile(name)
	if err != nil {
		return 0, 0, nil, nil, err
	}
	games, errs = ReadJournal(name, data)
	return rule, m.Size, games, errs, nil
}
