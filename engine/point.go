package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Board geometry. Every board, whatever its size, lives in the same padded
// array of Stride×Stride cells: the playing area of Size×Size cells sits at
// offset (Pad, Pad) and is surrounded by a ring of at least Pad wall cells.
// A line walk of up to Pad steps from any on-board cell therefore stays inside
// the array and reads a wall instead of running off the edge, which keeps edge
// checks out of every inner loop (the same idea as Rapfi's BOARD_BOUNDARY).
const (
	// MinSize is the smallest supported board side, in cells.
	MinSize = 5
	// MaxSize is the largest supported board side, in cells.
	MaxSize = 22
	// DefaultSize is the standard renju and gomoku board side, 15.
	DefaultSize = 15
	// Pad is the width of the wall ring around the playing area, in cells.
	// It equals the half-length of a line pattern key (see pattern.go).
	Pad = 5
	// Stride is the side of the padded array: MaxSize + 2*Pad = 32.
	Stride = MaxSize + 2*Pad
	// NumCells is the number of cells of the padded array, 1024.
	NumCells = Stride * Stride
)

// Point is a cell of the padded board array, (y+Pad)*Stride + (x+Pad), where
// x is the 0-based column from the left and y the 0-based row from the bottom.
// Its range is [0, NumCells); the zero value NoPoint lies in the wall and is
// never a playable cell, so it doubles as "no move". Points of boards of
// different sizes share the layout, so a Point means the same (x, y) on every
// board; whether it is on a given board is answered by Board.OnBoard or
// Point.In.
type Point uint16

// NoPoint is the zero Point, "no move". It is a wall cell.
const NoPoint Point = 0

// Direction is one of the four line directions, in the order of the Dirs
// table: horizontal, vertical, diagonal (up-right) and anti-diagonal (up-left).
type Direction uint8

// NumDirs is the number of line directions.
const NumDirs = 4

// Dirs gives, per Direction, the Point offset of one step along the line.
var Dirs = [NumDirs]int{1, Stride, Stride + 1, Stride - 1}

// PointAt returns the Point of column x and row y, both 0-based, x from the
// left and y from the bottom. The caller keeps x and y in [-Pad, MaxSize+Pad);
// use In to test whether the result is on a board of a given size.
func PointAt(x, y int) Point {
	return Point((y+Pad)*Stride + x + Pad)
}

// X returns the 0-based column of p, counted from the left.
func (p Point) X() int { return int(p)%Stride - Pad }

// Y returns the 0-based row of p, counted from the bottom.
func (p Point) Y() int { return int(p)/Stride - Pad }

// In reports whether p lies on a size×size board.
func (p Point) In(size int) bool {
	x, y := p.X(), p.Y()
	return x >= 0 && y >= 0 && x < size && y < size
}

// String returns p in renju notation: the column letter (a for the leftmost
// column) followed by the 1-based row number counted from the bottom, so "a1"
// is the bottom-left corner and "h8" the centre of a 15×15 board. NoPoint and
// wall cells print as "--".
func (p Point) String() string {
	x, y := p.X(), p.Y()
	if x < 0 || y < 0 || x >= MaxSize || y >= MaxSize {
		return "--"
	}
	return string(rune('a'+x)) + strconv.Itoa(y+1)
}

// FormatPoints writes ps in board coordinates (Point.String), separated
// by single spaces; "" for none.
func FormatPoints(ps []Point) string {
	var sb strings.Builder
	for i, p := range ps {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(p.String())
	}
	return sb.String()
}

// Piskvork returns p as the Piskvork protocol writes it, "x,y": 0-based, x
// from the left and y from the top of a size×size board.
func (p Point) Piskvork(size int) string {
	return strconv.Itoa(p.X()) + "," + strconv.Itoa(size-1-p.Y())
}

// Sentinel errors for points and moves.
var (
	// ErrOffBoard reports a point outside the board.
	ErrOffBoard = errors.New("point off the board")
	// ErrBadPoint reports text that is not a point in any accepted notation.
	ErrBadPoint = errors.New("not a point")
	// ErrOccupied reports a move onto a stone.
	ErrOccupied = errors.New("point occupied")
	// ErrBadSize reports a board side outside [MinSize, MaxSize].
	ErrBadSize = errors.New("unsupported board size")
)

// ParsePoint reads one point of a size×size board. It accepts renju notation
// ("h8", "H8": column letter from the left, row from 1 at the bottom) and the
// Piskvork protocol's "x,y" (0-based, y from the top, so "7,7" is h8 on
// 15×15). Surrounding spaces are ignored. The error wraps ErrBadPoint for text
// in neither notation and ErrOffBoard for a point outside the board.
func ParsePoint(s string, size int) (Point, error) {
	s = strings.TrimSpace(s)
	if strings.IndexByte(s, ',') >= 0 {
		return ParsePiskvork(s, size)
	}
	if len(s) < 2 || s[0]|0x20 < 'a' || s[0]|0x20 > 'z' {
		return NoPoint, fmt.Errorf("%q: %w", s, ErrBadPoint)
	}
	row, err := strconv.Atoi(s[1:])
	if err != nil || s[1] < '0' || s[1] > '9' {
		return NoPoint, fmt.Errorf("%q: %w", s, ErrBadPoint)
	}
	x := int(s[0] | 0x20 - 'a')
	if x >= size || row < 1 || row > size {
		return NoPoint, fmt.Errorf("%q on %dx%d: %w", s, size, size, ErrOffBoard)
	}
	return PointAt(x, row-1), nil
}

// ParsePiskvork reads a point in the Piskvork (Gomocup) protocol's "x,y"
// only: 0-based, x from the left, y from the top, so "7,7" is h8 on 15×15.
// Surrounding spaces are ignored. The error wraps ErrBadPoint for anything
// else (renju notation included) and ErrOffBoard for a point outside the
// board. The protocol's brain and manager read moves with it.
func ParsePiskvork(s string, size int) (Point, error) {
	s = strings.TrimSpace(s)
	xs, ys, ok := strings.Cut(s, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if !ok || err1 != nil || err2 != nil {
		return NoPoint, fmt.Errorf("%q: %w", s, ErrBadPoint)
	}
	if x < 0 || y < 0 || x >= size || y >= size {
		return NoPoint, fmt.Errorf("%q on %dx%d: %w", s, size, size, ErrOffBoard)
	}
	return PointAt(x, size-1-y), nil
}

// ScanPoint reads a point in renju notation from the start of s: one column
// letter (either case) and one or two row digits. It returns the point and the
// number of bytes read, or (NoPoint, 0) when s does not start with a point.
// Two row digits are taken only when they form a row of a size×size board, so
// "h8i9" and "a1b15" split as expected. The point may be off the board (for
// instance "z9"); callers check Point.In.
func ScanPoint(s string, size int) (Point, int) {
	if len(s) < 2 {
		return NoPoint, 0
	}
	c := s[0] | 0x20
	if c < 'a' || c > 'z' || s[1] < '0' || s[1] > '9' {
		return NoPoint, 0
	}
	x := int(c - 'a')
	row, n := int(s[1]-'0'), 2
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
		if two := row*10 + int(s[2]-'0'); two <= size || row == 0 {
			row, n = two, 3
		}
	}
	if row < 1 || x >= MaxSize || row > MaxSize {
		return PointAt(MaxSize+Pad-1, MaxSize+Pad-1), n // off every board
	}
	return PointAt(x, row-1), n
}

// Color is the content of a cell: Empty, Black, White, or Wall for the padding
// ring. Black and White are also the two sides; Black moves first.
type Color uint8

// Cell contents. The values are the 2-bit codes used in line pattern keys.
const (
	Empty Color = 0
	Black Color = 1
	White Color = 2
	Wall  Color = 3
)

// Opponent returns the other side: White for Black and Black for White.
// It is meaningful for Black and White only.
func (c Color) Opponent() Color { return c ^ 3 }

// String returns "black", "white", "empty" or "wall".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	case Empty:
		return "empty"
	}
	return "wall"
}

// ParseColor reads "black"/"b"/"x" or "white"/"w"/"o", in either case.
// The error wraps ErrBadColor.
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "black", "b", "x":
		return Black, nil
	case "white", "w", "o":
		return White, nil
	}
	return Empty, fmt.Errorf("%q: %w", s, ErrBadColor)
}

// ErrBadColor reports text that names no side.
var ErrBadColor = errors.New("not a colour (want black or white)")

// Rule is the set of winning and forbidden-move rules a game is played under.
type Rule uint8

// The rules.
const (
	// Freestyle: five or more in a row wins, for both sides.
	Freestyle Rule = iota
	// Standard: exactly five wins, for both sides; an overline does not win
	// but is not forbidden.
	Standard
	// Renju: black wins only with exactly five and may not make an overline,
	// a double-four or a double-three (RIF rules, with the recursive
	// definition of a three); a five is never forbidden. White wins with
	// five or more.
	Renju
	// NumRules is the number of rules.
	NumRules
)

// String returns "freestyle", "standard" or "renju".
func (r Rule) String() string {
	switch r {
	case Freestyle:
		return "freestyle"
	case Standard:
		return "standard"
	case Renju:
		return "renju"
	}
	return "rule(" + strconv.Itoa(int(r)) + ")"
}

// ErrBadRule reports text that names no rule.
var ErrBadRule = errors.New("unknown rule (want freestyle, standard or renju)")

// ParseRule reads a rule name, in either case: "freestyle" (also "gomoku",
// "free"), "standard" (also "exact") or "renju". The error wraps ErrBadRule.
func ParseRule(s string) (Rule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "freestyle", "free", "gomoku":
		return Freestyle, nil
	case "standard", "exact", "standard-gomoku":
		return Standard, nil
	case "renju":
		return Renju, nil
	}
	return Freestyle, fmt.Errorf("%q: %w", s, ErrBadRule)
}

// exact reports whether c wins only with exactly five under r.
func (r Rule) exact(c Color) bool {
	return r == Standard || (r == Renju && c == Black)
}
