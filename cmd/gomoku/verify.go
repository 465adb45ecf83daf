package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"gomoku/solver/proof"
)

func verifyCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check proof trees written by solve --proof and certificates written by prove --proof",
		ArgsUsage: "PROOF... (- for standard input; a file holds one proof per line, or certificates of several lines; gzip-compressed files are read too)",
		Description: "Re-walks each proof on a fresh board, independently of the search: every attacker move legal,\n" +
			"every five-point and forbidden block real, and under each quiet threat every defender move that\n" +
			"stops the threatened VCF listed and answered. A certificate (an opening, the defender to move):\n" +
			"each listed defender move answered by a valid proof, and every other legal defender move, over\n" +
			"every empty cell, answered by the pass proof replayed with that stone on the board. Prints\n" +
			"\"valid\" with the size, or the first flaw.",
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
				if data, err = gunzipIfGzip(name, data); err != nil {
					return err
				}
				lines := bytes.Split(data, []byte("\n"))
				for i := 0; i < len(lines); i++ {
					line := lines[i]
					if len(bytes.TrimSpace(line)) == 0 {
						continue
					}
					if err := c.Context.Err(); err != nil {
						return err
					}
					kind, first := "proof", i+1
					var size int
					if follow, ok := proof.IsCertificate(line); ok {
						kind = "certificate"
						end := min(len(lines), i+1+follow)
						var cert *proof.Certificate
						cert, err = proof.UnmarshalCertificate(lines[i:end])
						i = end - 1
						if err == nil {
							size, err = proof.VerifyCertificate(c.Context, cert)
						}
						if err != nil && c.Context.Err() != nil {
							return c.Context.Err()
						}
					} else {
						var p proof.Tree
						err = json.Unmarshal(line, &p)
						if err == nil {
							size, err = proof.Verify(&p)
						}
					}
					if err != nil {
						invalid++
					}
					if asJSON {
						rec := map[string]any{"source": name, "line": first, "kind": kind, "valid": err == nil}
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
					what := "" // a proof says "valid" alone, as before certificates
					if kind == "certificate" {
						what = " certificate"
					}
					if err != nil {
						fmt.Fprintf(out, "%s:%d: invalid%s: %v\n", name, first, what, err)
					} else {
						fmt.Fprintf(out, "%s:%d: valid%s: %d moves\n", name, first, what, size)
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

// gunzipIfGzip returns data decompressed when it starts with gzip's magic
// bytes (at most inputLimit bytes out), else data itself. Errors name the
// file.
func gunzipIfGzip(name string, data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	limit := inputLimit()
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("%s: %w (%d MiB here, decompressed)", name, errInputTooLarge, limit>>20)
	}
	return out, nil
}
