package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/svg"
)

func showCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "draw each position",
		ArgsUsage: "FILE... (- for standard input)",
		Flags:     inputFlags(),
		Action: func(c *cli.Context) error {
			in, err := parseInput(c, stdin)
			if err != nil {
				return err
			}
			return in.each(c, func(p *positions.Position, r engine.Rule, b *engine.Board) error {
				if in.json {
					return writeJSON(in.out, positionRecord(p, r))
				}
				if in.svg {
					d := svg.Diagram{Board: b, Title: fmt.Sprintf("%s  %s, %s to move", shortLabel(p), r, p.ToMove), LastMove: lastMove(p),
						Numbered: p.Moves != nil}
					return in.writeSVG(p, d)
				}
				fmt.Fprintf(in.out, "%s  %s %dx%d  %s to move, %d black and %d white stones\n", p.Label(), r, p.Size,
					p.Size, p.ToMove, len(p.Black), len(p.White))
				drawBoard(in.out, b, nil)
				fmt.Fprintln(in.out)
				return nil
			})
		},
	}
}

// positionJSON is the JSON line written per position by show, in the shared
// puzzle schema's field names.
type positionJSON struct {
	Source   string   `json:"source"`
	Index    int      `json:"index"`
	ID       string   `json:"id,omitempty"`
	Rule     string   `json:"rule"`
	Size     int      `json:"size"`
	Black    []string `json:"black"`
	White    []string `json:"white"`
	Moves    string   `json:"moves,omitempty"`
	ToMove   string   `json:"to_move"`
	Attacker string   `json:"attacker,omitempty"`
}

func positionRecord(p *positions.Position, r engine.Rule) positionJSON {
	rec := positionJSON{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
		Black: pointStrings(p.Black), White: pointStrings(p.White), ToMove: p.ToMove.String()}
	for _, m := range p.Moves {
		rec.Moves += m.String()
	}
	if p.Attacker != engine.Empty {
		rec.Attacker = p.Attacker.String()
	}
	return rec
}

// lastMove is the record's last move, or NoPoint when its stones were set
// up rather than played in order.
func lastMove(p *positions.Position) engine.Point {
	if len(p.Moves) == 0 || len(p.Moves) != len(p.Black)+len(p.White) {
		return engine.NoPoint
	}
	return p.Moves[len(p.Moves)-1]
}

// shortLabel names a record in a picture's title: its file's base name and
// index, or its own id.
func shortLabel(p *positions.Position) string {
	if p.ID != "" {
		return p.ID
	}
	return filepath.Base(p.Label())
}
