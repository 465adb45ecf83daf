package book

import (
	"testing"

	"gomoku/engine"
)

// TestChoose: a proven win comes first; else the best score over enough
// games, at or above the least score; else a library move, when allowed;
// never an occupied point, nor anything when the opponent is proven to win.
func TestChoose(t *testing.T) {
	b, _ := engine.NewBoard(15, engine.Freestyle)
	for i, p := range line(t, "h8 i8") {
		b.Play(p, engine.Color(1+i%2))
	}
	_, sym := KeyOf(b)
	pt := func(s string) engine.Point { return line(t, s)[0] }
	// canonical points: the node's moves are stored in the key's
	// orientation; map ours into it
	canon := func(s string) engine.Point { return engine.Transform(pt(s), sym, 15) }
	node := func(moves map[string]Move) *Node {
		n := &Node{Moves: map[engine.Point]*Move{}}
		for s, m := range moves {
			m := m
			n.Moves[canon(s)] = &m
		}
		return n
	}
	opt := ChoiceOptions{MinScore: 0.45, MinGames: 2, Library: true}
	for _, tc := range []struct {
		name  string
		n     *Node
		opt   ChoiceOptions
		want  string // "" for none
		why   string
		score float64
	}{
		{"proven first", node(map[string]Move{"g7": {Results: Results{Black: 9}}, "j9": {Proven: true}}), opt, "j9", "proven", 1},
		{"best score", node(map[string]Move{"g7": {Results: Results{Black: 3, White: 1}}, "j9": {Results: Results{Black: 5, White: 5}},
			"g9": {Results: Results{Black: 1}}}), opt, "g7", "games", 0.75},
		{"below the least score", node(map[string]Move{"g7": {Results: Results{Black: 1, White: 3}}}),
			ChoiceOptions{MinScore: 0.45, MinGames: 2}, "", "", 0},
		{"library when none qualifies", node(map[string]Move{"g7": {Results: Results{White: 4}}, "j9": {Library: true}}), opt, "j9", "library", 0.5},
		{"occupied never", node(map[string]Move{"i8": {Proven: true}, "h9": {Library: true}}), opt, "h9", "library", 0.5},
		{"opponent proven", func() *Node {
			n := node(map[string]Move{"g7": {Results: Results{Black: 9}}})
			n.Proven = engine.White
			return n
		}(), opt, "", "", 0},
	} {
		ch, ok := tc.n.Choose(b, sym, engine.Black, tc.opt)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: chose %v, want none", tc.name, ch.Point)
		case tc.want != "" && (!ok || ch.Point != pt(tc.want) || ch.Why != tc.why || ch.Score != tc.score):
			t.Errorf("%s: %v %v %q %.2f, want %s %q %.2f", tc.name, ok, ch.Point, ch.Why, ch.Score, tc.want, tc.why, tc.score)
		}
	}
}
