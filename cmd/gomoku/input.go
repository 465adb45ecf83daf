package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/svg"
)

// inputFlags are the flags of every command that reads positions and
// writes a result per position: the input flags and --format.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text, json (JSON Lines) or svg (a board diagram per position)"},
		&cli.StringFlag{Name: "out", Usage: "with --format svg: write one file per position to `DIR`, named SOURCE-INDEX.svg (default: standard output, one position only)"},
		&cli.StringFlag{Name: "rule", Aliases: []string{"r"}, EnvVars: []string{"GOMOKU_RULE"},
			Usage: "rule: freestyle, standard or renju (default: the file's rule, else renju; freestyle for .psq)"},
		&cli.StringFlag{Name: "input-format", Aliases: []string{"i"}, Value: "auto",
			Usage: "input format: auto, moves, diagram, psq, jsonl, lfz, sgf or renlib"},
		&cli.IntFlag{Name: "size", Value: engine.DefaultSize,
			Usage: "board size of move lists and openings that do not state one (5 to 22)"},
	}
}

// source is what the flags that read positions say: --rule,
// --input-format and --size, and the positional arguments.
type source struct {
	rule    engine.Rule
	ruleSet bool
	format  positions.Format
	opt     positions.Options
	stdin   io.Reader
}

// parseSource reads those flags and checks that some input is named;
// errors are usage errors.
func parseSource(c *cli.Context, stdin io.Reader) (source, error) {
	src := source{opt: positions.DefaultOptions, stdin: stdin}
	if s := c.String("rule"); s != "" {
		r, err := engine.ParseRule(s)
		if err != nil {
			return src, usageError{err}
		}
		src.rule, src.ruleSet = r, true
	}
	f, err := positions.ParseFormat(c.String("input-format"))
	if err != nil {
		return src, usageError{err}
	}
	src.format = f
	if n := c.Int("size"); n < engine.MinSize || n > engine.MaxSize {
		return src, usagef("--size %d: %v (want %d to %d)", n, engine.ErrBadSize, engine.MinSize, engine.MaxSize)
	} else {
		src.opt.Size = n
	}
	if c.NArg() == 0 {
		return src, usagef("no input: name one or more files or directories, or - for standard input")
	}
	return src, checkArgs(c.Args().Slice())
}

// ruleOf is the rule a record is played under: --rule if given, else the
// record's own.
func (src *source) ruleOf(p *positions.Position) engine.Rule {
	if src.ruleSet {
		return src.rule
	}
	return p.Rule
}

// games reads the named inputs, directories expanded (expandInputs, skip
// left out), and calls fn for each game record that sh keeps, with the rule it is played
// under. A game record is a position with its moves in order from an empty
// board; any other position is reported as a bad record. raw, if not nil,
// sees each file's contents first and takes the file over (unparsed) when it
// returns true. Unreadable files, parse errors and fn's errors go to report
// and the rest goes on; games returns the context's error once cancelled.
func (src *source) games(c *cli.Context, sh *shard, skip []string, report func(error),
	raw func(name string, data []byte) bool, fn func(p *positions.Position, r engine.Rule) error) error {
	for _, name := range expandInputs(c.Args().Slice(), skip, report) {
		if err := c.Context.Err(); err != nil {
			return err
		}
		data, err := readSource(name, src.stdin)
		if err != nil {
			if sh.keep() { // one shard reports it, as a record
				report(err)
			}
			continue
		}
		if raw != nil && raw(name, data) {
			continue
		}
		positions.Stream(name, data, src.format, src.opt, func(p *positions.Position, err error) bool {
			// a bad record takes its place in the shards' order, so that
			// one shard reports it, not each
			if !sh.keep() {
				return true
			}
			if err != nil {
				report(err)
				return true
			}
			err = errors.New("not a game record: no order of moves from an empty board")
			if len(p.Moves) > 0 && len(p.Moves) == len(p.Black)+len(p.White) {
				err = fn(p, src.ruleOf(p))
			}
			if err != nil {
				report(&positions.ParseError{File: p.Source, Line: max(p.Line, 1), Record: p.Index, Err: err})
			}
			return true
		})
	}
	return nil
}

// input is what the input flags of a per-position command say.
type input struct {
	source
	json   bool      // --format json
	svg    bool      // --format svg
	outDir string    // --out
	out    io.Writer // standard output
	svgs   int       // diagrams written
	// stems maps each source to the stem of its diagrams' names, and
	// taken the stems given out, so that two sources with one base name
	// (c1/x.txt, c2/x.txt) never write the same file
	stems map[string]string
	taken map[string]bool
}

// parseInput reads the input flags; errors are usage errors.
func parseInput(c *cli.Context, stdin io.Reader) (*input, error) {
	in := &input{out: c.App.Writer}
	switch f := c.String("format"); f {
	case "text":
	case "json":
		in.json = true
	case "svg":
		in.svg, in.outDir = true, c.String("out")
	default:
		return nil, usagef("--format %q: want text, json or svg", f)
	}
	if c.String("out") != "" && !in.svg {
		return nil, usagef("--out is for --format svg")
	}
	src, err := parseSource(c, stdin)
	if err != nil {
		return nil, err
	}
	in.source = src
	return in, nil
}

// each reads every file named on the command line and calls fn for each
// good position, with the rule to use and its board. Bad files and records,
// and records fn fails on, are reported on stderr (and, with --format json,
// as an error line on stdout), counted, and skipped. each returns errRecords
// if any failed, or the context's error once cancelled.
func (in *input) each(c *cli.Context, fn func(p *positions.Position, r engine.Rule, b *engine.Board) error) error {
	var bad func(p *positions.Position, err error)
	if in.json {
		bad = func(p *positions.Position, err error) {
			_ = writeJSON(in.out, errorRecord{Source: p.Source, Index: p.Index, Line: p.Line, Error: err.Error()})
		}
	}
	failed := 0
	report := func(p *positions.Position, err error) {
		failed++
		fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", err)
		if bad != nil {
			bad(p, err)
		}
	}
	var empty emptyBoards
	var stop error // a cancellation
	for _, name := range c.Args().Slice() {
		data, err := readSource(name, in.stdin)
		if err != nil {
			report(&positions.Position{Source: name, Index: -1}, err)
			continue
		}
		// records are handled as they are read, never all held at once
		positions.Stream(name, data, in.format, in.opt, func(p *positions.Position, err error) bool {
			if err != nil {
				rec := &positions.Position{Source: name, Index: -1}
				var pe *positions.ParseError
				if errors.As(err, &pe) {
					rec.Index, rec.Line = pe.Record, pe.Line
				}
				report(rec, err)
				return true
			}
			if stop = c.Context.Err(); stop != nil {
				return false
			}
			r := in.ruleOf(p)
			b, err := empty.board(p.Size, r)
			if err == nil {
				err = p.PlaceOn(b)
			}
			if err == nil {
				err = fn(p, r, b)
			}
			if errors.Is(err, context.Canceled) {
				stop = err
				return false
			}
			if err != nil {
				var pe *positions.ParseError
				if !errors.As(err, &pe) {
					err = &positions.ParseError{File: p.Source, Line: p.Line, Record: p.Index, Err: err}
				}
				report(p, err)
			}
			return true
		})
		if stop != nil {
			return stop
		}
	}
	if err := c.Context.Err(); err != nil {
		return err // the last record's search was cut short
	}
	if failed > 0 {
		return fmt.Errorf("%d record(s) or file(s) failed: %w", failed, errRecords)
	}
	return nil
}

// emptyBoards hands out fresh empty boards as clones of an empty one kept
// per size and rule: engine.NewBoard sets up every line window, which was
// most of the time of reading a large batch.
type emptyBoards struct {
	tmpl map[[2]int]*engine.Board
}

// board returns a new empty board of size n under rule r.
func (e *emptyBoards) board(n int, r engine.Rule) (*engine.Board, error) {
	k := [2]int{n, int(r)}
	if t, ok := e.tmpl[k]; ok {
		return t.Clone(), nil
	}
	t, err := engine.NewBoard(n, r)
	if err != nil {
		return nil, err
	}
	if e.tmpl == nil {
		e.tmpl = map[[2]int]*engine.Board{}
	}
	e.tmpl[k] = t
	return t.Clone(), nil
}

// writeSVG writes the diagram of position p: to the --out directory as
// SOURCE-INDEX.svg (positions.OutputStem of the source; SOURCE~2, ~3, ...
// for a later source with the same stem), or to standard output when no directory was given
// and it is the first. Under renju, black's forbidden points are marked
// when d has none set (every diagram of a renju position shows them).
func (in *input) writeSVG(p *positions.Position, d svg.Diagram) error {
	in.svgs++
	if d.Forbidden == nil && d.Board != nil && d.Board.Rule() == engine.Renju {
		d.Forbidden = d.Board.ForbiddenPoints()
	}
	if in.outDir == "" {
		if in.svgs > 1 {
			return usagef("several positions: give --out DIR for their diagrams")
		}
		if err := svg.Write(in.out, d); err != nil {
			return fmt.Errorf("%w: %w", errOutput, err)
		}
		return nil
	}
	if err := os.MkdirAll(in.outDir, 0o755); err != nil {
		return err
	}
	f, err := createOutput(filepath.Join(in.outDir, fmt.Sprintf("%s-%d.svg", in.stem(p.Source), p.Index)), nil)
	if err != nil {
		return err
	}
	if err := svg.Write(f, d); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// stem returns the stem of the diagram names of source (see writeSVG).
func (in *input) stem(source string) string {
	if st, ok := in.stems[source]; ok {
		return st
	}
	base := positions.OutputStem(source)
	st := base
	for k := 2; in.taken[st]; k++ {
		st = fmt.Sprintf("%s~%d", base, k)
	}
	if in.stems == nil {
		in.stems, in.taken = map[string]string{}, map[string]bool{}
	}
	in.stems[source], in.taken[st] = st, true
	return st
}
