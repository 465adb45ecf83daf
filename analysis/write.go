package analysis

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
)

// Writer writes analysed games in one format (text, JSON Lines or CSV),
// keeps the batch totals, and writes each game's SGF and, through OnGame,
// its other outputs. It is for one goroutine (Run's, which writes the games
// in order).
type Writer struct {
	w      io.Writer
	format string
	csv    *csv.Writer
	err    error
	total  Batch
	// OnGame, when set, is called with each game and its record (the HTML
	// report's page); an error is kept in Errs and the rest goes on.
	OnGame func(*Game, Record) error
	// SGFDir, when not "", receives an SGF file per game (WriteSGF),
	// created with Create; sgfs counts them, for the names.
	SGFDir string
	Create func(path string) (File, error)
	sgfs   int
	// Errs are the outputs of single games that could not be written
	// (a report page, an SGF file), each naming its game.
	Errs []error
}

// File is an output file written whole or not at all: Commit keeps it,
// Abort drops it (the command line's own).
type File interface {
	io.Writer
	Commit() error
	Abort()
}

// NewWriter returns a Writer of format "text", "json" or "csv" to w.
func NewWriter(w io.Writer, format string) *Writer {
	a := &Writer{w: w, format: format}
	if format == "csv" {
		a.csv = csv.NewWriter(w)
		a.err = a.csv.Write([]string{"source", "index", "ply", "to_move", "move_played", "forced_win", "kept", "status", "line",
			"value", "best", "pv", "played_value", "loss", "class", "lost"})
	}
	return a
}

// game writes one analysed game.
func (a *Writer) game(g *Game) {
	if a.err != nil {
		return
	}
	rec := RecordOf(g)
	if a.OnGame != nil {
		// an output that cannot be written is reported and the rest goes
		// on: the analysis itself and the other games are not lost
		if err := a.OnGame(g, rec); err != nil {
			a.Errs = append(a.Errs, fmt.Errorf("%s: %w", g.Pos.Label(), err))
		}
	}
	if a.SGFDir != "" {
		if err := a.writeSGF(g, rec); err != nil {
			a.Errs = append(a.Errs, fmt.Errorf("%s: SGF: %w", g.Pos.Label(), err))
		}
	}
	a.total.Add(rec)
	t := &a.total.Batch
	for _, r := range g.plies {
		if r.FromStore {
			t.FromStore++
		}
	}
	switch a.format {
	case "json":
		a.err = writeJSONLine(a.w, rec)
	case "csv":
		for _, p := range rec.Plies {
			win, kept := "", ""
			if p.ForcedWin != nil {
				win = *p.ForcedWin
			}
			if p.Kept != nil {
				kept = strconv.FormatBool(*p.Kept)
			}
			num := func(v *float64) string {
				if v == nil {
					return ""
				}
				return strconv.FormatFloat(*v, 'f', 3, 64)
			}
			a.err = a.csv.Write([]string{rec.Source, strconv.Itoa(rec.Index), strconv.Itoa(p.Ply), p.ToMove, p.MovePlayed,
				win, kept, p.Status, strings.Join(p.Line, " "), num(p.Value), p.Best, strings.Join(p.PV, " "),
				num(p.PlayedValue), num(p.Loss), p.Class, strconv.FormatBool(p.Lost)})
		}
	default:
		WriteText(a.w, g.Pos, rec)
	}
}

// Finish writes the batch summary: a last JSON line, or text; for CSV
// nothing (the rows are the data).
func (a *Writer) Finish(failed int, d time.Duration, partial bool, read int) {
	a.total.Batch.Failed, a.total.Batch.TimeMS = failed, millis(d)
	if partial {
		a.total.Batch.Partial, a.total.Batch.GamesRead = true, read
	}
	if a.err != nil {
		return
	}
	t := a.total.Batch
	switch a.format {
	case "json":
		a.err = writeJSONLine(a.w, a.total)
	case "text":
		_, a.err = fmt.Fprintf(a.w, "batch: %d games, %d positions (%d solved, %d unknown, %d from the store), %d missed wins, %d blunders, %d bad records, %.1f s\n",
			t.Games, t.Plies, t.Solved, t.Unknown, t.FromStore, t.MissedWins, t.Blunders, t.Failed, d.Seconds())
		if partial {
			_, a.err = fmt.Fprintf(a.w, "PARTIAL: interrupted after %d of %d games; the others are not in this output\n", t.Games, read)
		}
	}
}

// Flush flushes the CSV writer and returns the first error of any write.
func (a *Writer) Flush() error {
	if a.csv != nil {
		a.csv.Flush()
		if a.err == nil {
			a.err = a.csv.Error()
		}
	}
	return a.err
}

// WriteText prints one game's analysis for people: the verdicts,
// then every ply with a forced win or a blunder.
func WriteText(w io.Writer, p *positions.Position, rec Record) {
	result, decided := "unknown", "not found"
	if rec.Result != nil {
		result = *rec.Result
	}
	if rec.DecidedMove != nil {
		decided = fmt.Sprintf("move %d", *rec.DecidedMove)
	}
	fmt.Fprintf(w, "%s  %s %dx%d  %d moves, result %s, decided: %s\n", p.Label(), rec.Rule, rec.Size, rec.Size,
		len(rec.Plies), result, decided)
	if p.Players[0] != "" || p.Players[1] != "" || p.Event != "" || p.Date != "" {
		var parts []string
		if p.Players[0] != "" || p.Players[1] != "" {
			parts = append(parts, fmt.Sprintf("black %s, white %s", p.Players[0], p.Players[1]))
		}
		for _, v := range []string{p.Event, p.Date} {
			if v != "" {
				parts = append(parts, v)
			}
		}
		fmt.Fprintln(w, strings.Join(parts, "; "))
	}
	if f := rec.Forbidden; f != nil {
		fmt.Fprintf(w, "black's move %d %s is forbidden (%s): under RIF black loses there", f.Ply+1, f.Move, f.Kind)
		if f.Ignored > 0 {
			fmt.Fprintf(w, "; the record's %d later moves are not analysed", f.Ignored)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "missed wins: %s; blunders: %s; %d positions unknown (%.0f ms)\n", moveList(rec.MissedWins),
		moveList(rec.Blunders), rec.Unknown, rec.TimeMS)
	if rec.Sides != nil {
		for _, side := range []string{"black", "white"} {
			st := rec.Sides[side]
			fmt.Fprintf(w, "%s: accuracy %.1f (mean loss %.3f), %s\n", side, st.Accuracy, st.MeanLoss, classCounts(st.Classes))
		}
		var worst []Ply
		for _, pl := range rec.Plies {
			if classRank[pl.Class] > 0 {
				worst = append(worst, pl)
			}
		}
		slices.SortStableFunc(worst, func(a, b Ply) int {
			la, lb := 0.0, 0.0
			if a.Loss != nil {
				la = *a.Loss
			}
			if b.Loss != nil {
				lb = *b.Loss
			}
			switch {
			case classRank[a.Class] != classRank[b.Class]:
				return classRank[b.Class] - classRank[a.Class]
			case la > lb:
				return -1
			case la < lb:
				return 1
			}
			return a.Ply - b.Ply
		})
		for i, pl := range worst[:min(3, len(worst))] {
			loss := "?"
			if pl.Loss != nil {
				loss = fmt.Sprintf("%.2f", *pl.Loss)
			}
			better := ""
			if pl.Best != "" && pl.Best != pl.MovePlayed {
				better = fmt.Sprintf("; better %s (%s)", pl.Best, strings.Join(pl.PV[:min(5, len(pl.PV))], " "))
			}
			fmt.Fprintf(w, "  %d. move %d, %s %s: %s, win rate lost %s%s\n", i+1, pl.Move, pl.ToMove, pl.MovePlayed,
				pl.Class, loss, better)
		}
	}
	blunder := map[int]bool{}
	for _, b := range rec.Blunders {
		blunder[b] = true
	}
	for i, pl := range rec.Plies {
		note := LostNote(rec.Plies, i)
		if pl.ForcedWin == nil && !blunder[pl.Ply] && note == "" {
			continue
		}
		s := fmt.Sprintf("  move %3d %-5s %-4s", pl.Move, pl.ToMove, pl.MovePlayed)
		switch note {
		case NoteWinningMove:
			s += "  WINNING MOVE: " + note
		case NoteLost:
			s += "  LOST: " + note
		}
		if pl.ForcedWin != nil {
			kept := keptText(pl)
			if kept == "missed" {
				kept = "MISSED"
			}
			s += fmt.Sprintf("  %s win %s, %s", strings.ToUpper(*pl.ForcedWin), positions.NumberedLine(pl.Line), kept)
		}
		switch {
		case pl.Class == solver.ClassForbidden:
			s += "  FORBIDDEN: black loses at once"
		case blunder[pl.Ply] && i+1 < len(rec.Plies) && (rec.Plies[i+1].ForcedWin != nil || rec.Plies[i+1].Lost):
			s += "  BLUNDER: the opponent wins next"
		case blunder[pl.Ply] && pl.Loss != nil:
			s += fmt.Sprintf("  BLUNDER: win rate lost %.2f", *pl.Loss)
		case blunder[pl.Ply]:
			s += "  BLUNDER"
		}
		fmt.Fprintln(w, s)
	}
	fmt.Fprintln(w)
}

// classRank orders the classes of mistakes, worst highest.
var classRank = map[string]int{solver.ClassInaccuracy: 1, solver.ClassMistake: 2, solver.ClassBlunder: 3, solver.ClassForbidden: 4}

// classCounts prints the counts of the bad classes: "1 blunder, 2
// mistakes", or "no mistakes".
func classCounts(m map[string]int) string {
	var parts []string
	for _, c := range []string{solver.ClassForbidden, solver.ClassBlunder, solver.ClassMistake, solver.ClassInaccuracy} {
		if n := m[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, plural(c, n)))
		}
	}
	if len(parts) == 0 {
		return "no inaccuracies"
	}
	return strings.Join(parts, ", ")
}

// plural is a class's name for n moves: "1 blunder", "2 inaccuracies".
func plural(class string, n int) string {
	switch {
	case n == 1:
		return class
	case class == solver.ClassInaccuracy:
		return "inaccuracies"
	}
	return class + "s"
}

// moveList prints 0-based plies as move numbers ("move 8", "moves 8,
// 10"), or "none".
func moveList(ps []int) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p + 1)
	}
	if len(ps) == 1 {
		return "move " + s[0]
	}
	return "moves " + strings.Join(s, ", ")
}

// writeSGF writes game g's analysis as SGF (GM[4]) to SGFDir,
// NNN-SOURCE-INDEX.sgf: the record's properties (size, rule, players,
// event, date, result), the summary in the root's comment, every move with
// a comment (its number, value, class, the engine's best move and line,
// a forced win and whether it was kept), and the engine's principal
// variation as a variation beside the move played where they differ.
func (a *Writer) writeSGF(g *Game, rec Record) error {
	p, size := g.Pos, rec.Size
	pt := func(s string) (engine.Point, bool) {
		q, err := engine.ParsePoint(s, size)
		return q, err == nil
	}
	colour := func(c string) string {
		if c == "white" {
			return "W"
		}
		return "B"
	}
	root := (&positions.SGFNode{}).Add("GM", "4").Add("FF", "4").Add("CA", "UTF-8").
		Add("SZ", strconv.Itoa(size)).Add("RU", rec.Rule).Add("AP", "gomoku analyze")
	if p.Players[0] != "" {
		root.Add("PB", p.Players[0])
	}
	if p.Players[1] != "" {
		root.Add("PW", p.Players[1])
	}
	if p.Event != "" {
		root.Add("EV", p.Event)
	}
	if p.Date != "" {
		root.Add("DT", p.Date)
	}
	if rec.Result != nil {
		root.Add("RE", map[string]string{"black": "B+", "white": "W+", "draw": "0"}[*rec.Result])
	}
	var sum strings.Builder
	WriteText(&sum, p, rec)
	root.Add("C", strings.TrimSpace(sum.String()))
	n := root
	for i, pl := range rec.Plies {
		q, ok := pt(pl.MovePlayed)
		if !ok {
			return fmt.Errorf("move %d: %q", i+1, pl.MovePlayed)
		}
		node := (&positions.SGFNode{}).Add(colour(pl.ToMove), positions.SGFPoint(q, size)).Add("C", sgfComment(pl, rec, i))
		n.Children = append(n.Children, node)
		// the engine's line beside the move played, where it differs
		if pl.Best != "" && pl.Best != pl.MovePlayed && len(pl.PV) > 0 {
			var first, last *positions.SGFNode
			c := pl.ToMove
			for j, m := range pl.PV {
				mq, ok := pt(m)
				if !ok {
					break
				}
				v := (&positions.SGFNode{}).Add(colour(c), positions.SGFPoint(mq, size))
				if j == 0 {
					v.Add("C", fmt.Sprintf("the engine's move %d instead: %s", i+1, strings.Join(pl.PV, " ")))
					first = v
				} else {
					last.Children = append(last.Children, v)
				}
				last = v
				c = map[string]string{"black": "white", "white": "black"}[c]
			}
			if first != nil {
				n.Children = append(n.Children, first)
			}
		}
		n = node
	}
	a.sgfs++
	f, err := a.Create(filepath.Join(a.SGFDir, fmt.Sprintf("%03d-%s-%d.sgf", a.sgfs, positions.OutputStem(p.Source), p.Index)))
	if err != nil {
		return err
	}
	if err := positions.WriteSGF(f, root); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// sgfComment is a move's comment in the SGF of an analysis: "move 8
// (white k5): blunder, win rate 0.55 before, 0.19 after; the engine: g9
// (g9 h7 h9); forced win VCT ..., kept".
func sgfComment(pl Ply, rec Record, i int) string {
	parts := []string{fmt.Sprintf("move %d (%s %s)", pl.Move, pl.ToMove, pl.MovePlayed)}
	if pl.Class != "" {
		parts[0] += ": " + pl.Class
	}
	if pl.Value != nil {
		v := fmt.Sprintf("%s's win rate %.2f before", pl.ToMove, *pl.Value)
		if pl.PlayedValue != nil {
			v += fmt.Sprintf(", %.2f after", *pl.PlayedValue)
		}
		parts = append(parts, v)
	}
	if pl.Best != "" {
		parts = append(parts, fmt.Sprintf("the engine: %s (%s)", pl.Best, strings.Join(pl.PV, " ")))
	}
	if pl.ForcedWin != nil {
		parts = append(parts, fmt.Sprintf("forced win %s %s, %s", strings.ToUpper(*pl.ForcedWin), strings.Join(pl.Line, " "), keptText(pl)))
	}
	if note := LostNote(rec.Plies, i); note != "" {
		parts = append(parts, note)
	}
	return strings.Join(parts, "; ")
}

// Total returns the batch totals so far.
func (a *Writer) Total() Batch { return a.total }

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// keptText says whether a ply's forced win was kept: "kept", "missed" or
// "kept: unknown" (the later search was cut off).
func keptText(pl Ply) string {
	switch {
	case pl.Kept == nil:
		return "kept: unknown"
	case *pl.Kept:
		return "kept"
	}
	return "missed"
}
