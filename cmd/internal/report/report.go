// Package report writes an analysis as HTML pages a coach can step
// through: one self-contained page per game (inline SVG and a little plain
// JavaScript, no network access, no framework) and an index page. A game's
// page shows the players, event and date; the board after any move, its
// stones numbered (a toggle), stepped with buttons or the arrow keys, the
// winning five marked; the win-rate graph over the moves, with a move axis,
// a legend and the mistakes marked (a click jumps to that move); the list
// of mistakes, each a link; at each move the move played beside the
// engine's best move and its principal variation, drawn apart from the
// game's stones; and the forced-win lines. A link to one move is
// page.html#move=N: the position before move N, with its judgement.
// Moves are numbered from 1, black's first, as players and RenLib number
// them.
//
// What is implemented, and where:
//   - report.go: Game, Ply, Write (a page), WriteIndex.
//   - page.go: the page's template, style and script.
package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"

	"gomoku/engine"
	"gomoku/positions/svg"
)

// Ply is one ply of an analysed game: the position before Move.
type Ply struct {
	Move   engine.Point
	ToMove engine.Color
	// Value is the side to move's win rate before the move, -1 if not
	// evaluated; Loss what the move cost it (-1: unknown); Class the
	// move's class ("best", "good", "inaccuracy", "mistake", "blunder").
	Value, Loss float64
	Class       string
	// Best and PV are the engine's move and principal variation.
	Best engine.Point
	PV   []engine.Point
	// ForcedWin is "vcf" or "vct" when the side to move had a forced
	// win, Line its line.
	ForcedWin string
	Line      []engine.Point
	// Note, when not empty, is shown where a forced win's line would be:
	// what was proven of the ply without one (a position already lost, a
	// winning quiet move).
	Note string
}

// Game is an analysed game record.
type Game struct {
	Title  string
	Rule   engine.Rule
	Size   int
	Result string // "black", "white", "draw" or ""
	Plies  []Ply
	// Accuracy and Classes are each side's (index 0 black, 1 white).
	Accuracy [2]float64
	Classes  [2]map[string]int
	// Decided is the ply (0-based: move Decided+1) from which the winner
	// had a forced win to the end, -1 if none.
	Decided int
	// Players are black's and white's names, Event and Date the game's;
	// "" when the record gives none.
	Players     [2]string
	Event, Date string
	// Five are the cells of the five that ended the game, nil if none.
	Five []engine.Point
}

// pageData is what the page's script reads (JSON in the page).
type pageData struct {
	Size  int       `json:"size"`
	Plies []plyData `json:"plies"`
	Five  [][2]int  `json:"five,omitempty"`
}

type plyData struct {
	Move   [2]int   `json:"move"`
	Black  bool     `json:"black"` // the mover is black
	Value  *float64 `json:"value,omitempty"`
	Loss   *float64 `json:"loss,omitempty"`
	Class  string   `json:"class,omitempty"`
	Best   *[2]int  `json:"best,omitempty"`
	PV     [][2]int `json:"pv,omitempty"`
	Win    string   `json:"win,omitempty"`
	Line   [][2]int `json:"line,omitempty"`
	Text   string   `json:"text"`
	BestTx string   `json:"bestText,omitempty"`
	LineTx string   `json:"lineText,omitempty"`
	Note   string   `json:"note,omitempty"`
}

func xy(p engine.Point) [2]int { return [2]int{p.X(), p.Y()} }

func xys(ps []engine.Point) [][2]int {
	out := make([][2]int, 0, len(ps))
	for _, p := range ps {
		out = append(out, xy(p))
	}
	return out
}

// graph is the win-rate graph's geometry, in pixels.
const (
	graphW, graphH = 640, 200
	graphPad       = 24
	graphAxis      = 20 // below the plot: the move axis's labels
)

// Write writes g's page to w. Errors: w's.
func Write(w io.Writer, g Game) error {
	n := g.Size
	if n == 0 {
		n = engine.DefaultSize
	}
	data := pageData{Size: n, Five: xys(g.Five)}
	for i, p := range g.Plies {
		d := plyData{Move: xy(p.Move), Black: p.ToMove == engine.Black, Class: p.Class, Win: p.ForcedWin,
			Text: fmt.Sprintf("%d. %s %s", i+1, p.ToMove, p.Move), Note: p.Note}
		if p.Value >= 0 {
			v := p.Value
			d.Value = &v
		}
		if p.Loss >= 0 {
			l := p.Loss
			d.Loss = &l
		}
		if p.Best != engine.NoPoint {
			b := xy(p.Best)
			d.Best = &b
			d.PV = xys(p.PV)
			d.BestTx = engine.FormatPoints(p.PV)
		}
		if len(p.Line) > 0 {
			d.Line, d.LineTx = xys(p.Line), engine.FormatPoints(p.Line)
		}
		data.Plies = append(data.Plies, d)
	}
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	empty, _ := engine.NewBoard(n, g.Rule)
	board := svg.String(svg.Diagram{Board: empty, Cell: 30})
	board = board[strings.Index(board, "<svg"):] // inline: no XML declaration
	board = strings.Replace(board, "<svg ", `<svg id="board" `, 1)
	// the stones layer the script fills, before the closing tag
	board = strings.Replace(board, "</svg>", `<g id="stones"></g><g id="marks"></g></svg>`, 1)
	var mistakes []mistake
	for i, p := range g.Plies {
		if classRank[p.Class] == 0 {
			continue
		}
		m := mistake{Move: i + 1, Text: fmt.Sprintf("%d. %s %s: %s", i+1, p.ToMove, p.Move, p.Class), Class: p.Class}
		if p.Loss >= 0 {
			m.Text += fmt.Sprintf(", win rate lost %.2f", p.Loss)
		}
		if p.Best != engine.NoPoint && p.Best != p.Move {
			m.Text += fmt.Sprintf("; better %s", p.Best)
		}
		mistakes = append(mistakes, m)
	}
	decided := ""
	if g.Decided >= 0 {
		decided = fmt.Sprintf(", decided at move %d", g.Decided+1)
	}
	return pageTemplate.Execute(w, struct {
		Title    string
		Game     Game
		Decided  string
		Board    template.HTML
		Graph    template.HTML
		Data     template.JS
		Classes  [2]string
		Accuracy [2]string
		Mistakes []mistake
	}{
		Title:    g.Title,
		Game:     g,
		Decided:  decided,
		Board:    template.HTML(board),
		Graph:    template.HTML(graphSVG(g)),
		Data:     template.JS(js),
		Classes:  [2]string{classLine(g.Classes[0]), classLine(g.Classes[1])},
		Accuracy: [2]string{accuracy(g.Accuracy[0]), accuracy(g.Accuracy[1])},
		Mistakes: mistakes,
	})
}

// mistake is one line of a page's list of mistakes: the move number (1 for
// black's first), its text and class.
type mistake struct {
	Move        int
	Text, Class string
}

// classRank orders the classes listed as mistakes, worst highest; others
// are 0.
var classRank = map[string]int{"inaccuracy": 1, "mistake": 2, "blunder": 3, "forbidden": 4}

func accuracy(a float64) string {
	if a <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", a)
}

// classLine counts the classes of one side: "2 blunders, 1 mistake".
func classLine(m map[string]int) string {
	var parts []string
	for _, c := range []string{"forbidden", "blunder", "mistake", "inaccuracy"} {
		if n := m[c]; n > 0 {
			word := c
			switch {
			case n > 1 && c == "inaccuracy":
				word = "inaccuracies"
			case n > 1:
				word += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, word))
		}
	}
	if len(parts) == 0 {
		return "no inaccuracy"
	}
	return strings.Join(parts, ", ")
}

// classColour is the marker colour of a class on the graph.
var classColour = map[string]string{"inaccuracy": "#e6b800", "mistake": "#e67e00", "blunder": "#d11", "forbidden": "#7a1fa2"}

// graphSVG draws black's win rate over the moves: a polyline from the
// values (the side to move's, turned to black's), a marker per mistake
// and a clickable column per move (data-ply: the 0-based ply, the
// position before the move, which a click shows), a grid line at 0.5, the
// move axis and the legend of the markers.
func graphSVG(g Game) string {
	var sb strings.Builder
	n := len(g.Plies)
	x := func(i int) float64 {
		if n <= 1 {
			return graphPad
		}
		return graphPad + float64(i)*float64(graphW-2*graphPad)/float64(n-1)
	}
	plotH := graphH - graphAxis
	y := func(v float64) float64 { return graphPad + (1-v)*float64(plotH-2*graphPad) }
	fmt.Fprintf(&sb, `<svg id="graph" xmlns="http://www.w3.org/2000/svg" version="1.1" width="%d" height="%d" viewBox="0 0 %d %d">`,
		graphW, graphH, graphW, graphH)
	fmt.Fprintf(&sb, `<rect x="0" y="0" width="%d" height="%d" fill="#fbfaf7" stroke="#ccc"/>`, graphW, plotH)
	// the move axis: a tick and a label every 10 moves (every 5 in a short
	// game), the first move at the left
	step := 10
	if n <= 30 {
		step = 5
	}
	fmt.Fprintf(&sb, `<g id="axis" font-size="10" fill="#555" text-anchor="middle">`)
	for m := step; m <= n; m += step {
		fmt.Fprintf(&sb, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999"/><text x="%.1f" y="%d">%d</text>`,
			x(m-1), plotH, x(m-1), plotH+4, x(m-1), plotH+14, m)
	}
	fmt.Fprintf(&sb, `<text x="%d" y="%d" text-anchor="end">move</text></g>`, graphW-4, graphH-2)
	// the legend: the markers' classes, in the plot's top right corner
	lx := float64(graphW - graphPad - 300)
	fmt.Fprintf(&sb, `<g id="legend" font-size="10" fill="#444">`)
	for i, c := range []string{"inaccuracy", "mistake", "blunder", "forbidden"} {
		fmt.Fprintf(&sb, `<circle cx="%.1f" cy="10" r="4" fill="%s"/><text x="%.1f" y="13">%s</text>`,
			lx+float64(i)*75, classColour[c], lx+float64(i)*75+7, c)
	}
	fmt.Fprintf(&sb, `</g>`)
	fmt.Fprintf(&sb, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#bbb" stroke-dasharray="4 3"/>`, graphPad, y(0.5), graphW-graphPad, y(0.5))
	fmt.Fprintf(&sb, `<text x="4" y="%.1f" font-size="10" fill="#666">B</text><text x="4" y="%.1f" font-size="10" fill="#666">W</text>`, y(1)+4, y(0)+4)
	fmt.Fprintf(&sb, `<text x="4" y="%.1f" font-size="9" fill="#666">.5</text>`, y(0.5)+3)
	var pts []string
	for i, p := range g.Plies {
		if p.Value < 0 {
			continue
		}
		v := p.Value
		if p.ToMove == engine.White {
			v = 1 - v
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
	}
	if len(pts) > 0 {
		fmt.Fprintf(&sb, `<polyline points="%s" fill="none" stroke="#246" stroke-width="2"/>`, strings.Join(pts, " "))
	}
	// a clickable column per ply, then the mistakes' markers on top
	for i := range g.Plies {
		fmt.Fprintf(&sb, `<rect class="plyhit" data-ply="%d" x="%.1f" y="0" width="%.1f" height="%d" fill="transparent"/>`,
			i, x(i)-float64(graphW-2*graphPad)/float64(max(1, n-1))/2, float64(graphW-2*graphPad)/float64(max(1, n-1)), plotH)
	}
	for i, p := range g.Plies {
		col, ok := classColour[p.Class]
		if !ok || p.Value < 0 {
			continue
		}
		v := p.Value
		if p.ToMove == engine.White {
			v = 1 - v
		}
		fmt.Fprintf(&sb, `<circle class="mistake %s" data-ply="%d" cx="%.1f" cy="%.1f" r="5" fill="%s" stroke="#fff"><title>move %d, %s %s: %s</title></circle>`,
			p.Class, i, x(i), y(v), col, i+1, p.ToMove, p.Move, p.Class)
	}
	fmt.Fprintf(&sb, `<line id="cursor" x1="%d" y1="0" x2="%d" y2="%d" stroke="#d22" stroke-width="1"/>`, graphPad, graphPad, plotH)
	sb.WriteString("</svg>")
	return sb.String()
}

// IndexEntry is one game of the index page.
type IndexEntry struct {
	File     string // the game's page, relative to the index
	Title    string
	Players  string // "black – white", or ""
	Result   string
	Moves    int
	Accuracy [2]float64
	// Blunders counts each side's moves classed blunder, as the game's
	// page, the text and the JSON count them.
	Blunders [2]int
}

// WriteIndex writes the index page of a batch. Errors: w's.
func WriteIndex(w io.Writer, title string, games []IndexEntry) error {
	return indexTemplate.Execute(w, struct {
		Title string
		Games []IndexEntry
	}{title, games})
}
