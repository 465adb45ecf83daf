package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gomoku/engine"
	"gomoku/positions"
)

// drawBoard writes b as text: rows from the top, column letters above and
// below, row numbers at both sides, X for black, O for white, . for empty.
// marks overrides cells (move numbers, forbidden kinds), up to 3 characters.
func drawBoard(w io.Writer, b *engine.Board, marks map[engine.Point]string) {
	n := b.Size()
	letters := "   "
	for x := 0; x < n; x++ {
		letters += fmt.Sprintf("%3s", string(rune('a'+x)))
	}
	fmt.Fprintln(w, letters)
	for y := n - 1; y >= 0; y-- {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%3d", y+1)
		for x := 0; x < n; x++ {
			p := engine.PointAt(x, y)
			cell := "."
			switch b.At(p) {
			case engine.Black:
				cell = "X"
			case engine.White:
				cell = "O"
			}
			if m, ok := marks[p]; ok {
				cell = m
			}
			fmt.Fprintf(&sb, "%3s", cell)
		}
		fmt.Fprintf(&sb, "%4d", y+1)
		fmt.Fprintln(w, sb.String())
	}
	fmt.Fprintln(w, letters)
}

// lineMarks numbers the moves of a line for drawBoard.
func lineMarks(line []engine.Point) map[engine.Point]string {
	m := make(map[engine.Point]string, len(line))
	for i, p := range line {
		m[p] = strconv.Itoa(i + 1)
	}
	return m
}

// pointStrings writes points in renju notation; never nil, so JSON shows []
// (positions.PointNames).
func pointStrings(ps []engine.Point) []string { return positions.PointNames(ps) }

// numbered writes a line as "1.j12 2.k13 ...".
func numbered(line []engine.Point) string {
	parts := make([]string, len(line))
	for i, p := range line {
		parts[i] = fmt.Sprintf("%d.%v", i+1, p)
	}
	return strings.Join(parts, " ")
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// errorRecord is the JSON line written for a record that could not be read
// or processed.
type errorRecord struct {
	Source string `json:"source"`
	Index  int    `json:"index"`
	Line   int    `json:"line,omitempty"`
	Error  string `json:"error"`
}
