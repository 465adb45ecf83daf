// Package svg draws board diagrams as SVG 1.1 documents, from the rules
// engine's types alone (after notnil/chess's image package: pictures are a
// leaf over the board, never code inside it). A diagram shows the board
// with its coordinates in renju notation (columns a.. from the left, rows
// 1.. from the bottom) and its star points, the stones, a line of moves as
// numbered stones (a solution or a principal variation), black's forbidden
// points marked by kind, the last move, and labels on cells (book moves
// with their scores). The output is plain SVG 1.1 (no scripts, no external
// references), which browsers, Inkscape and rsvg-convert render.
//
// What is implemented, and where:
//   - svg.go: Diagram and Write.
package svg

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"gomoku/engine"
)

// Diagram is what one picture shows.
type Diagram struct {
	// Board is the position; its stones are drawn.
	Board *engine.Board
	// Title, when not "", is written above the board.
	Title string
	// Line is a sequence of moves drawn as stones numbered 1, 2, ...,
	// the first of colour LineFirst, then alternating; they are not on
	// Board.
	Line      []engine.Point
	LineFirst engine.Color
	// Forbidden are black's forbidden points, marked ×3 (double-three),
	// ×4 (double-four) or ×6 (overline).
	Forbidden []engine.ForbiddenPoint
	// LastMove, when not NoPoint, is marked with a ring.
	LastMove engine.Point
	// Labels are short texts drawn on empty cells (book moves with their
	// scores, say); Highlight cells get a coloured square behind them.
	Labels    map[engine.Point]string
	Highlight []engine.Point
	// Caption, when not "", is written below the board, wrapped to its
	// width (a long line of moves takes several lines).
	Caption string
	// Numbered draws each stone of Board with its move number, in the
	// order Board's stones were played (a game record's moves; RenLib and
	// Yixin number a game so). Leave it off for a position set up from a
	// diagram, whose order means nothing.
	Numbered bool
	// Cell is the size of a cell in pixels (32 when 0).
	Cell int
}

// Write writes d as an SVG 1.1 document to w. Errors: w's.
func Write(w io.Writer, d Diagram) error {
	bw := bufio.NewWriter(w)
	writeSVG(bw, d)
	return bw.Flush()
}

// String returns d as an SVG document.
func String(d Diagram) string {
	var sb strings.Builder
	writeSVG(&sb, d)
	return sb.String()
}

// esc escapes text for XML.
func esc(s string) string {
	var sb strings.Builder
	_ = xml.EscapeText(&sb, []byte(s))
	return sb.String()
}

// starPoints returns the star points of an n×n board: the centre and, on
// boards of 13 and more, the four points four in from each corner (three
// on smaller boards).
func starPoints(n int) []engine.Point {
	c := n / 2
	pts := []engine.Point{engine.PointAt(c, c)}
	if n >= 9 {
		k := 3 // h8's neighbours d4, l4, d12, l12 on 15x15
		for _, x := range []int{k, n - 1 - k} {
			for _, y := range []int{k, n - 1 - k} {
				pts = append(pts, engine.PointAt(x, y))
			}
		}
	}
	return pts
}

type writer interface {
	io.Writer
	WriteString(string) (int, error)
}

func writeSVG(w writer, d Diagram) {
	n := 15
	if d.Board != nil {
		n = d.Board.Size()
	}
	cell := d.Cell
	if cell <= 0 {
		cell = 32
	}
	margin := cell // room for the coordinates
	width := 2*margin + (n-1)*cell
	font := cell * 40 / 100
	// title and caption are wrapped to the picture's width, so that no
	// line is cut off at its edges
	titleSize := font * 12 / 10
	titleLines := wrap(d.Title, width-cell/2, titleSize)
	captionLines := wrap(d.Caption, width-cell/2, font)
	lineGap := cell * 3 / 5
	top := margin // plus the title
	if len(titleLines) > 0 {
		top += cell*3/4 + (len(titleLines)-1)*lineGap
	}
	bottom := margin
	if len(captionLines) > 0 {
		bottom += cell*3/4 + (len(captionLines)-1)*lineGap
	}
	height := top + bottom + (n-1)*cell
	// cx, cy: the centre of point p in pixels
	cx := func(x int) int { return margin + x*cell }
	cy := func(y int) int { return top + (n-1-y)*cell }
	r := cell * 45 / 100

	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif">`+"\n",
		width, height, width, height)
	if d.Title != "" {
		fmt.Fprintf(w, "<title>%s</title>\n", esc(d.Title))
	}
	fmt.Fprintf(w, `<rect x="0" y="0" width="%d" height="%d" fill="#e8c37e"/>`+"\n", width, height)
	for i, l := range titleLines {
		fmt.Fprintf(w, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="#222">%s</text>`+"\n",
			width/2, cell*3/4+i*lineGap, titleSize, esc(l))
	}
	// grid and coordinates
	w.WriteString(`<g stroke="#5b4522" stroke-width="1">` + "\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", cx(i), cy(0), cx(i), cy(n-1))
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", cx(0), cy(i), cx(n-1), cy(i))
	}
	w.WriteString("</g>\n")
	fmt.Fprintf(w, `<g font-size="%d" fill="#3a2a10" text-anchor="middle">`+"\n", font)
	for i := 0; i < n; i++ {
		col := string(rune('a' + i))
		fmt.Fprintf(w, `<text x="%d" y="%d">%s</text>`+"\n", cx(i), cy(0)+cell*3/4, col)
		fmt.Fprintf(w, `<text x="%d" y="%d">%s</text>`+"\n", cx(i), cy(n-1)-cell/2, col)
		fmt.Fprintf(w, `<text x="%d" y="%d">%d</text>`+"\n", cx(0)-cell*3/5, cy(i)+font/3, i+1)
		fmt.Fprintf(w, `<text x="%d" y="%d">%d</text>`+"\n", cx(n-1)+cell*3/5, cy(i)+font/3, i+1)
	}
	w.WriteString("</g>\n")
	for _, p := range starPoints(n) {
		fmt.Fprintf(w, `<circle cx="%d" cy="%d" r="%d" fill="#5b4522"/>`+"\n", cx(p.X()), cy(p.Y()), max(2, cell/10))
	}
	for _, p := range d.Highlight {
		if p.In(n) {
			fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="#8fd18f" fill-opacity="0.6"/>`+"\n",
				cx(p.X())-cell/2, cy(p.Y())-cell/2, cell, cell)
		}
	}
	stone := func(p engine.Point, c engine.Color, label string, id string) {
		fill, stroke, ink := "#111", "#000", "#fff"
		if c == engine.White {
			fill, stroke, ink = "#fafafa", "#333", "#111"
		}
		attr := ""
		if id != "" {
			attr = fmt.Sprintf(` class="%s"`, id)
		}
		fmt.Fprintf(w, `<circle%s cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="1.2"/>`+"\n",
			attr, cx(p.X()), cy(p.Y()), r, fill, stroke)
		if label != "" {
			size := font
			if len(label) >= 3 {
				size = font * 8 / 10
			}
			fmt.Fprintf(w, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="%s">%s</text>`+"\n",
				cx(p.X()), cy(p.Y())+size/3, size, ink, esc(label))
		}
	}
	if d.Board != nil {
		number := map[engine.Point]string{}
		if d.Numbered {
			ps, _ := d.Board.History()
			for i, p := range ps {
				number[p] = fmt.Sprint(i + 1)
			}
		}
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				p := engine.PointAt(x, y)
				if c := d.Board.At(p); c == engine.Black || c == engine.White {
					stone(p, c, number[p], "stone")
				}
			}
		}
	}
	for i, p := range d.Line {
		c := d.LineFirst
		if c != engine.White {
			c = engine.Black
		}
		if i%2 == 1 {
			c = c.Opponent()
		}
		if p.In(n) {
			stone(p, c, fmt.Sprint(i+1), "line")
		}
	}
	if p := d.LastMove; p != engine.NoPoint && p.In(n) {
		rr := r * 45 / 100
		if d.Numbered {
			rr = r + 2 // around the stone, not over its number
		}
		fmt.Fprintf(w, `<circle cx="%d" cy="%d" r="%d" fill="none" stroke="#d22" stroke-width="2.5"/>`+"\n",
			cx(p.X()), cy(p.Y()), rr)
	}
	for _, f := range d.Forbidden {
		p := f.Point
		if !p.In(n) {
			continue
		}
		k := map[engine.ForbiddenKind]string{engine.DoubleThree: "3", engine.DoubleFour: "4", engine.OverlineMove: "6"}[f.Kind]
		x, y, s := cx(p.X()), cy(p.Y()), cell/4
		fmt.Fprintf(w, `<g class="forbidden" stroke="#c00" stroke-width="2"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`+"\n",
			x-s, y-s, x+s, y+s, x-s, y+s, x+s, y-s)
		// the kind's digit sits on the side of the cross toward the
		// board's middle, never over the row labels at the edges
		tx, anchor := x+s, "start"
		if p.X() >= n/2 {
			tx, anchor = x-s, "end"
		}
		fmt.Fprintf(w, `<text x="%d" y="%d" font-size="%d" fill="#c00" text-anchor="%s">%s</text>`+"\n", tx, y-s/2, font*7/10, anchor, k)
	}
	keys := make([]engine.Point, 0, len(d.Labels))
	for p := range d.Labels {
		keys = append(keys, p)
	}
	slices.Sort(keys) // a map's order is random; the file's is not
	for _, p := range keys {
		l := d.Labels[p]
		if !p.In(n) {
			continue
		}
		fmt.Fprintf(w, `<text class="label" x="%d" y="%d" font-size="%d" text-anchor="middle" fill="#0a3d8f" font-weight="bold">%s</text>`+"\n",
			cx(p.X()), cy(p.Y())+font/3, font*85/100, esc(l))
	}
	for i, l := range captionLines {
		fmt.Fprintf(w, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="#222">%s</text>`+"\n",
			width/2, height-cell/4-(len(captionLines)-1-i)*lineGap, font, esc(l))
	}
	w.WriteString("</svg>\n")
}

// wrap breaks s at spaces into lines of at most width pixels at font size
// size, by a generous estimate of the glyphs' width (0.62 of the size,
// DejaVu Sans's widest common glyphs); a word longer than a line is cut.
func wrap(s string, width, size int) []string {
	if s == "" {
		return nil
	}
	perLine := max(8, width*100/(size*62))
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for len([]rune(word)) > perLine {
			r := []rune(word)
			if line != "" {
				lines, line = append(lines, line), ""
			}
			lines, word = append(lines, string(r[:perLine])), string(r[perLine:])
		}
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= perLine:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
