package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"gomoku/solver/proof"
)

func verifyCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check proof trees written by solve --proof",
		ArgsUsage: "PROOF... (- for standard input; a file holds one proof per line)",
		Description: "Re-walks each proof on a fresh board, independently of the search: every attacker move legal,\n" +
			"every five-point and forbidden block real, and under each quiet threat every defender move that\n" +
			"stops the threatened VCF listed and answered. Prints \"valid\" with the tree size, or the first flaw.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text or json (JSON Lines)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("no input: name one or more proof files, or - for standard input")
			}
			asJSON := c.String("format") == "json"
			if f := c.String("format"); f != "text" && f != "json" {
				return usagef("--format %q: want text or json", f)
			}
			out := c.App.Writer
			invalid := 0
			for _, name := range c.Args().Slice() {
				var data []byte
				var err error
				data, err = readSource(name, stdin)
				if err != nil {
					return err
				}
				for i, line := range bytes.Split(data, []byte("\n")) {
					if len(bytes.TrimSpace(line)) == 0 {
						continue
					}
					if err := c.Context.Err(); err != nil {
						return err
					}
					var p proof.Tree
					size, err := 0, json.Unmarshal(line, &p)
					if err == nil {
						size, err = proof.Verify(&p)
					}
					if err != nil {
						invalid++
					}
					if asJSON {
						rec := map[string]any{"source": name, "line": i + 1, "valid": err == nil}
						if err == nil {
							rec["proof_nodes"] = size
						} else {
							rec["error"] = err.Error()
						}
						if werr := writeJSON(out, rec); werr != nil {
							return werr
						}
						continue
					}
					if err != nil {
						fmt.Fprintf(out, "%s:%d: invalid: %v\n", name, i+1, err)
					} else {
						fmt.Fprintf(out, "%s:%d: valid: %d moves\n", name, i+1, size)
					}
				}
			}
			if invalid > 0 {
				return fmt.Errorf("%d invalid proof(s): %w", invalid, errRecords)
			}
			return nil
		},
	}
}
