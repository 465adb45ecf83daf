// Command gomoku solves and analyses gomoku and renju positions: it proves
// wins by continuous fours (VCF) or threats (VCT) with checkable lines and
// proof trees, keeps solved results in a badger store, finds best moves by
// MCTS or alpha-beta when no win is proven, plays over the Gomocup
// (Piskvork) protocol, lists renju forbidden points, and draws positions,
// reading move lists, board diagrams, Gomocup .psq records, the shared JSONL
// puzzle schema and lfz084 puzzle files.
//
// Each command has its own file: solve.go, verify.go, best.go, pbrain.go,
// match.go, show.go, forbidden.go, tt.go, bench.go; input.go reads
// positions, render.go draws boards and
// writes JSON Lines. Exit codes: 0 done, 1 error (including any bad record
// in a batch), 2 usage, 130 interrupted.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is the program's version, printed by --version.
const version = "0.1.0"

// Exit codes, documented in --help, the README and docs/reliability.md.
const (
	exitOK          = 0   // done (a solve that finds no win is done too)
	exitError       = 1   // an error: unreadable input, a bad record, an invalid proof, an internal error
	exitUsage       = 2   // bad flags, arguments or command
	exitInterrupted = 130 // Ctrl-C: stopped early, the store flushed and closed
)

const exitCodesHelp = `EXIT CODES:
   0    done (a search that finds no win is done too)
   1    error: unreadable file, a bad record (the others are still processed), invalid proof, internal error
   2    usage: bad flag, argument or command
   130  interrupted (Ctrl-C): results so far are written, the store flushed and closed`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, brainArgs(os.Args), os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// brainArgs turns a bare run of an executable named pbrain-* (as Gomocup
// managers start brains) into `gomoku pbrain`; other arguments pass as they
// are.
func brainArgs(args []string) []string {
	name := args[0][strings.LastIndexAny(args[0], `/\`)+1:]
	if len(args) == 1 && strings.HasPrefix(strings.ToLower(name), "pbrain") {
		return []string{args[0], "pbrain"}
	}
	return args
}

// usageError marks an error as a usage problem (exit code 2).
type usageError struct{ err error }

// Error returns the underlying message.
func (e usageError) Error() string { return e.err.Error() }

// Unwrap returns the underlying error.
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// errRecords reports that some records of a batch failed; each failure has
// already been reported.
var errRecords = errors.New("some records failed")

// run is the whole program with its environment passed in, for tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var notFound string
	out := &checkedWriter{w: stdout}
	app := newApp(stdin, out, stderr)
	app.CommandNotFound = func(c *cli.Context, name string) { notFound = name }
	var stopProfile func() error
	app.Before = func(c *cli.Context) error {
		var err error
		stopProfile, err = startCPUProfile(c.String("cpuprofile"))
		return err
	}
	err := app.RunContext(ctx, args)
	if stopProfile != nil {
		if perr := stopProfile(); perr != nil && err == nil {
			err = perr
		}
	}
	if werr := out.Err(); werr != nil && !errors.Is(err, errOutput) {
		err = fmt.Errorf("%w: %w", errOutput, werr)
	}
	switch {
	case notFound != "":
		fmt.Fprintf(stderr, "gomoku: no command %q; see gomoku --help\n", notFound)
		return exitUsage
	case err == nil:
		// the command did all its work: a Ctrl-C that came after the last
		// write (book build's, say) changes nothing, and a retry would
		// do the work twice
		return exitOK
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "gomoku: interrupted")
		return exitInterrupted
	case errors.Is(err, errOutput):
		fmt.Fprintf(stderr, "gomoku: %v\n", err)
		return exitError
	case errors.Is(err, errRecords):
		return exitError
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "gomoku: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "gomoku: %v\n", err)
	return exitError
}

// newApp builds the command-line application.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	onUsage := func(c *cli.Context, err error, _ bool) error {
		return usageError{fmt.Errorf("%w (see gomoku %s --help)", err, c.Command.Name)}
	}
	cmds := []*cli.Command{solveCommand(stdin), proveCommand(stdin), verifyCommand(stdin), showCommand(stdin), forbiddenCommand(stdin),
		ttCommand(), benchCommand(), bestCommand(stdin), pbrainCommand(stdin), matchCommand(), analyzeCommand(stdin), bookCommand(stdin),
		selfplayCommand(), labelCommand(stdin), tuneCommand(stdin), trainCommand(stdin)}
	for _, c := range cmds {
		c.OnUsageError = onUsage
		c.CustomHelpTemplate = cli.CommandHelpTemplate + "\n" + exitCodesHelp + "\n"
		if len(c.Subcommands) > 0 {
			// a command with subcommands lists them in its help
			c.CustomHelpTemplate = cli.SubcommandHelpTemplate + "\n" + exitCodesHelp + "\n"
		}
		requireFlags(c, c.Name)
		for _, sub := range c.Subcommands {
			sub.OnUsageError = onUsage
			requireFlags(sub, c.Name+" "+sub.Name)
		}
	}
	return &cli.App{
		Name:    "gomoku",
		Usage:   "solve and analyse gomoku and renju positions",
		Version: version,
		Description: "Proves wins by continuous fours (VCF) or threats (VCT) with checkable proofs, lists renju forbidden\n" +
			"points, reports best moves (alpha-beta or MCTS), analyses game records, keeps opening books and plays over\n" +
			"the Gomocup protocol. It reads move lists, board diagrams, Gomocup .psq records, JSONL puzzle files, lfz084\n" +
			"puzzle files, SGF game records and RenLib libraries. Points are written in renju notation (a1 bottom-left,\n" +
			"h8 the centre of 15x15) or as Piskvork x,y. Reference: docs/commands.md; the rest: docs/.",
		Commands: cmds,
		Flags: []cli.Flag{&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the whole command to `FILE` " +
			"(go tool pprof reads it; given before the command: gomoku --cpuprofile FILE prove ...), to see where a long search spends its time"}},
		Reader:                stdin,
		Writer:                stdout,
		ErrWriter:             stderr,
		OnUsageError:          onUsage,
		ExitErrHandler:        func(*cli.Context, error) {}, // run maps errors to exit codes
		CustomAppHelpTemplate: cli.AppHelpTemplate + "\n" + exitCodesHelp + "\n",
		HideHelpCommand:       true,
	}
}

// startCPUProfile starts Go's CPU profiler (runtime/pprof) writing to the
// file name, unless name is empty, and returns the function that stops it
// and closes the file (nil for an empty name). Errors: the file's creation,
// and pprof's (a profile already running in this process) as a usage
// error.
func startCPUProfile(name string) (func() error, error) {
	if name == "" {
		return nil, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(name)
		return nil, usagef("--cpuprofile %s: %v", name, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}

// requireFlags checks cmd's required flags itself, before its action, as a
// usage error that names the flag (exit 2): urfave/cli's own check prints
// the help of a command named by the first argument instead ("no command
// FILE" for `book build FILE` without --book) and exits 1. The flags stay
// marked required in the help.
func requireFlags(cmd *cli.Command, path string) {
	var names []string
	var usages []string
	for _, f := range cmd.Flags {
		// a flag shared by several commands is seen once marked Required
		// and then with its usage marked
		if sf, ok := f.(*cli.StringFlag); ok && (sf.Required || strings.HasSuffix(sf.Usage, " (required)")) {
			if sf.Required {
				sf.Required = false
				sf.Usage += " (required)"
			}
			names, usages = append(names, sf.Name), append(usages, sf.Usage)
		}
	}
	if len(names) == 0 {
		return
	}
	before := cmd.Before
	cmd.Before = func(c *cli.Context) error {
		for i, n := range names {
			if !c.IsSet(n) || c.String(n) == "" {
				return usagef("--%s is missing: %s (see gomoku %s --help)", n, strings.ReplaceAll(usages[i], "`", ""), path)
			}
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}
