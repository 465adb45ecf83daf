package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

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
			Usage: "input format: auto, moves, diagram, psq, jsonl or lfz"},
		&cli.IntFlag{Name: "size", Value: engine.DefaultSize,
			Usage: "board size of move lists and openings that do not state one (5 to 22)"},
	}
}

// input is what the input flags say.
type input struct {
	rule    engine.Rule
	ruleSet bool
	format  positions.Format
	opt     positions.Options
	stdin   io.Reader
	json    bool      // --format json
	out     io.Writer // standard output
}

// parseInput reads the input flags; errors are usage errors.
func parseInput(c *cli.Context, stdin io.Reader) (*input, error) {
	in := &input{opt: positions.DefaultOptions, stdin: stdin, out: c.App.Writer}
	switch f := c.String("format"); f {
	case "text":
	case "json":
		in.json = true
	default:
		return nil, usagef("--format %q: want text or json", f)
	}
	if s := c.String("rule"); s != "" {
		r, err := engine.ParseRule(s)
		if err != nil {
			return nil, usageError{err}
		}
		in.rule, in.ruleSet = r, true
	}
	f, err := positions.ParseFormat(c.String("input-format"))
	if err != nil {
		return nil, usageError{err}
	}
	in.format = f
	if n := c.Int("size"); n < engine.MinSize || n > engine.MaxSize {
		return nil, usagef("--size %d: %v (want %d to %d)", n, engine.ErrBadSize, engine.MinSize, engine.MaxSize)
	} else {
		in.opt.Size = n
	}
	if c.NArg() == 0 {
		return nil, usagef("no input: name one or more files, or - for standard input")
	}
	return in, nil
}

// readSource reads a named input: the file, or standard input for "-".
func readSource(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
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
			r := p.Rule
			if in.ruleSet {
				r = in.rule
			}
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
