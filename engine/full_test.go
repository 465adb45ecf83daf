package engine

import "testing"

// drawnRows is a 5x5 freestyle position with no five for either side and
// one empty cell, e5 (top row first).
var drawnRows = []string{
	"xoxo.",
	"xoxox",
	"oxoxo",
	"oxoxo",
	"xoxox",
}

// drawnBoard returns drawnRows on a board of rule r.
func drawnBoard(t *testing.T, r Rule) *Board {
	t.Helper()
	b, err := NewBoard(5, r)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range drawnRows {
		y := 4 - i
		for x, ch := range row {
			c := map[rune]Color{'x': Black, 'o': White}[ch]
			if c != Empty {
				if err := b.Put(PointAt(x, y), c); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return b
}

func TestFull(t *testing.T) {
	b := drawnBoard(t, Freestyle)
	if b.Full() {
		t.Fatal("Full with e5 empty")
	}
	b.Play(PointAt(4, 4), Black)
	if !b.Full() {
		t.Fatal("not Full with every cell taken")
	}
	if b.LastMoveWon() {
		t.Fatal("the last cell made a five: the fixture is not a draw")
	}
	b.Undo()
	if b.Full() {
		t.Fatal("Full after Undo")
	}
}

// TestFiveLine: the cells of the five through a stone, end to end; none
// for a stone in no five, and none for black's overline under renju.
func TestFiveLine(t *testing.T) {
	for _, tc := range []struct {
		rule  Rule
		cells []int // x on row 7
		want  int
	}{
		{Freestyle, []int{2, 3, 4, 5, 6}, 5},
		{Freestyle, []int{2, 3, 4, 5, 6, 7}, 6},
		{Renju, []int{2, 3, 4, 5, 6, 7}, 0},
		{Renju, []int{2, 3, 4, 5}, 0},
	} {
		b, _ := NewBoard(15, tc.rule)
		for _, x := range tc.cells {
			b.Play(PointAt(x, 7), Black)
		}
		line := b.FiveLine(PointAt(4, 7))
		if len(line) != tc.want {
			t.Errorf("%v %v: %v", tc.rule, tc.cells, line)
		}
		for i, p := range line {
			if p != PointAt(tc.cells[0]+i, 7) {
				t.Errorf("%v: cell %d is %v", tc.cells, i, p)
			}
		}
	}
}
