package svg

import (
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gomoku/engine"
)

// TestCaptionWrapped: a caption longer than the board is wrapped into
// lines that each fit the picture's width, by the same estimate of glyph
// width (issue 57: best --format svg cut its caption off at both edges).
func TestCaptionWrapped(t *testing.T) {
	b, _ := engine.NewBoard(15, engine.Renju)
	caption := "best j8, win rate 0.81; " + strings.Repeat("12.k10 ", 30)
	out := String(Diagram{Board: b, Caption: caption, Title: "a title"})
	if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	width := atoi(regexp.MustCompile(`width="(\d+)"`).FindStringSubmatch(out)[1])
	lines := regexp.MustCompile(`<text x="\d+" y="\d+" font-size="(\d+)" text-anchor="middle" fill="#222">([^<]*)</text>`).FindAllStringSubmatch(out, -1)
	if len(lines) < 3 {
		t.Fatalf("%d lines of title and caption, want the caption wrapped", len(lines))
	}
	for _, l := range lines {
		if w := len(l[2]) * atoi(l[1]) * 62 / 100; w > width {
			t.Errorf("a line of %d px in a picture of %d: %q", w, width, l[2])
		}
	}
}

// TestNumberedStones: a game record's stones carry their move numbers.
func TestNumberedStones(t *testing.T) {
	b, _ := engine.NewBoard(15, engine.Renju)
	for i, s := range []string{"h8", "i9", "j10"} {
		p, _ := engine.ParsePoint(s, 15)
		b.Play(p, engine.Color(1+i%2))
	}
	out := String(Diagram{Board: b, Numbered: true})
	for _, n := range []string{">1</text>", ">2</text>", ">3</text>"} {
		if strings.Count(out, n) < 2 { // the row label and the stone
			t.Errorf("no stone numbered %s", n)
		}
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }
