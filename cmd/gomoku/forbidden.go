package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/svg"
)

func forbiddenCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "forbidden",
		Usage:     "list black's forbidden points (renju), each with its kind",
		ArgsUsage: "FILE... (- for standard input)",
		Description: "Lists the points where black may not play under renju: overline, double-four and double-three,\n" +
			"the last by the RIF definition (a three counts only if it can become a straight four by a move that\n" +
			"is itself not forbidden, recursively). Other rules have no forbidden points.",
		Flags: inputFlags(),
		Action: func(c *cli.Context) error {
			in, err := parseInput(c, stdin)
			if err != nil {
				return err
			}
			out := in.out
			return in.each(c, func(p *positions.Position, r engine.Rule, b *engine.Board) error {
				fps := b.ForbiddenPoints()
				if in.json {
					rec := forbiddenRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
						Forbidden: make([]forbiddenPoint, 0, len(fps))}
					for _, f := range fps {
						rec.Forbidden = append(rec.Forbidden, forbiddenPoint{f.Point.String(), f.Kind.String()})
					}
					return writeJSON(out, rec)
				}
				if in.svg {
					return in.writeSVG(p, svg.Diagram{Board: b, Forbidden: fps, LastMove: lastMove(p),
						Title:   fmt.Sprintf("%s  %s, forbidden points of black", shortLabel(p), r),
						Caption: fmt.Sprintf("%d forbidden: ×3 double-three, ×4 double-four, ×6 overline", len(fps))})
				}
				fmt.Fprintf(out, "%s  %s %dx%d\n", p.Label(), r, p.Size, p.Size)
				if r != engine.Renju {
					fmt.Fprintf(out, "no forbidden points under %v\n\n", r)
					return nil
				}
				marks := map[engine.Point]string{}
				var list []string
				for _, f := range fps {
					marks[f.Point] = kindMark(f.Kind)
					list = append(list, fmt.Sprintf("%v %v", f.Point, f.Kind))
				}
				if len(list) == 0 {
					fmt.Fprintln(out, "forbidden: none")
				} else {
					fmt.Fprintf(out, "forbidden: %s\n", strings.Join(list, ", "))
				}
				drawBoard(out, b, marks)
				fmt.Fprintln(out)
				return nil
			})
		},
	}
}

// kindMark is the board mark of a forbidden kind: *3, *4 or *6.
func kindMark(k engine.ForbiddenKind) string {
	switch k {
	case engine.DoubleThree:
		return "*3"
	case engine.DoubleFour:
		return "*4"
	}
	return "*6"
}

type forbiddenPoint struct {
	Point string `json:"point"`
	Kind  string `json:"kind"`
}

// forbiddenRecord is the JSON line written per position by forbidden.
type forbiddenRecord struct {
	Source    string           `json:"source"`
	Index     int              `json:"index"`
	ID        string           `json:"id,omitempty"`
	Rule      string           `json:"rule"`
	Size      int              `json:"size"`
	Forbidden []forbiddenPoint `json:"forbidden"`
}
