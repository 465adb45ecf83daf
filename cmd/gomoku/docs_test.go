package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// commandsDoc is the command reference, generated from the program's own
// commands and flags (urfave/cli's ToMarkdown).
func commandsDoc(t *testing.T) string {
	t.Helper()
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	md, err := app.ToMarkdown()
	if err != nil {
		t.Fatal(err)
	}
	return "<!-- Generated from the program's commands: GOMOKU_WRITE_DOCS=1 go test ./cmd/gomoku -run TestCommandsDoc. Do not edit. -->\n\n" + md
}

// TestCommandsDoc fails when docs/commands.md drifts from the program's
// --help (issue 57): run it with GOMOKU_WRITE_DOCS=1 to write the file.
func TestCommandsDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "commands.md")
	want := commandsDoc(t)
	if os.Getenv("GOMOKU_WRITE_DOCS") != "" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte(want)) {
		t.Errorf("%s differs from the commands' help: regenerate it with GOMOKU_WRITE_DOCS=1 go test ./cmd/gomoku -run TestCommandsDoc", path)
	}
}

// TestSubcommandsListed: every command's --help lists its subcommands
// (issue 57: `book --help` and `tt --help` listed none).
func TestSubcommandsListed(t *testing.T) {
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			if len(c.Subcommands) == 0 {
				continue
			}
			args := append(append(append([]string{}, path...), c.Name), "--help")
			code, out, _ := gomoku(t, "", args...)
			if code != exitOK {
				t.Errorf("%v: exit %d", args, code)
			}
			for _, sub := range c.Subcommands {
				if !strings.Contains(out, "   "+sub.Name+" ") {
					t.Errorf("%v does not list %s:\n%s", args, sub.Name, out)
				}
			}
			walk(append(path, c.Name), c.Subcommands)
		}
	}
	walk(nil, app.Commands)
}

// TestMissingRequiredFlag: a required flag left out is a usage error that
// names it (issue 57: `book build FILE` said `no command "FILE"`, and
// `tt stats` exited 1).
func TestMissingRequiredFlag(t *testing.T) {
	for _, args := range [][]string{{"book", "build", "x.sgf"}, {"tt", "stats"}, {"book", "query", "-"}} {
		code, _, errOut := gomoku(t, "", args...)
		flag := map[string]string{"book": "--book", "tt": "--tt"}[args[0]]
		if code != exitUsage || !strings.Contains(errOut, flag+" is missing") {
			t.Errorf("%v: exit %d %s", args, code, errOut)
		}
	}
}
