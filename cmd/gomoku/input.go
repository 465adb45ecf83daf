package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
)

// inputFlags are the flags of every command that reads positions and
// writes a result per position: the input flags and --format.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text or json (JSON Lines)"},
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

// games reads the named inputs, directories expanded (expandInputs), and
// calls fn for each game record that sh keeps, with the rule it is played
// under. A game record is a position with its moves in order from an empty
// board; any other position is reported as a bad record. raw, if not nil,
// sees each file's contents first and takes the file over (unparsed) when it
// returns true. Unreadable files, parse errors and fn's errors go to report
// and the rest goes on; games returns the context's error once cancelled.
func (src *source) games(c *cli.Context, sh *shard, report func(error),
	raw func(name string, data []byte) bool, fn func(p *positions.Position, r engine.Rule) error) error {
	for _, name := range expandInputs(c.Args().Slice(), report) {
		if err := c.Context.Err(); err != nil {
			return err
		}
		data, err := readSource(name, src.stdin)
		if err != nil {
			report(err)
			continue
		}
		if raw != nil && raw(name, data) {
			continue
		}
		ps, errs := positions.Parse(name, data, src.format, src.opt)
		for _, e := range errs {
			report(e)
		}
		for _, p := range ps {
			if !sh.keep() {
				continue
			}
			err := errors.New("not a game record: no order of moves from an empty board")
			if len(p.Moves) > 0 && len(p.Moves) == len(p.Black)+len(p.White) {
				err = fn(p, src.ruleOf(p))
			}
			if err != nil {
				report(&positions.ParseError{File: p.Source, Line: max(p.Line, 1), Record: p.Index, Err: err})
			}
		}
	}
	return nil
}

// input is what the input flags of a per-position command say.
type input struct {
	source
	json bool      // --format json
	out  io.Writer // standard output
}

// parseInput reads the input flags; errors are usage errors.
func parseInput(c *cli.Context, stdin io.Reader) (*input, error) {
	in := &input{out: c.App.Writer}
	switch f := c.String("format"); f {
	case "text":
	case "json":
		in.json = true
	default:
		return nil, usagef("--format %q: want text or json", f)
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
	for _, name := range c.Args().Slice() {
		data, err := readSource(name, in.stdin)
		if err != nil {
			report(&positions.Position{Source: name, Index: -1}, err)
			continue
		}
		ps, errs := positions.Parse(name, data, in.format, in.opt)
		// report in input order: each error before the first record after it
		errLine := func(e error) int {
			var pe *positions.ParseError
			if errors.As(e, &pe) {
				return pe.Line
			}
			return 0
		}
		flush := func(upTo int) {
			for len(errs) > 0 && errLine(errs[0]) <= upTo {
				rec := &positions.Position{Source: name, Index: -1}
				var pe *positions.ParseError
				if errors.As(errs[0], &pe) {
					rec.Index, rec.Line = pe.Record, pe.Line
				}
				report(rec, errs[0])
				errs = errs[1:]
			}
		}
		for _, p := range ps {
			flush(p.Line - 1)
			if err := c.Context.Err(); err != nil {
				return err
			}
			r := in.ruleOf(p)
			b, err := p.Board(r)
			if err == nil {
				err = fn(p, r, b)
			}
			if errors.Is(err, context.Canceled) {
				return err
			}
			if err != nil {
				var pe *positions.ParseError
				if !errors.As(err, &pe) {
					err = &positions.ParseError{File: p.Source, Line: p.Line, Record: p.Index, Err: err}
				}
				report(p, err)
			}
		}
		flush(int(^uint(0) >> 1))
	}
	if failed > 0 {
		return fmt.Errorf("%d record(s) or file(s) failed: %w", failed, errRecords)
	}
	return nil
}
