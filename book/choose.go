package book

import "gomoku/engine"

// ChoiceOptions say which book moves may be played (Choose).
type ChoiceOptions struct {
	// MinScore is the least score (wins plus half the draws, over the
	// games, for the side to move) of a move chosen by its games, 0 to 1.
	MinScore float64
	// MinGames is the least number of games for a move to be chosen by
	// its score (at least 1).
	MinGames int
	// Library allows a move that only an imported library lists (no
	// games) when no move qualifies by its games.
	Library bool
}

// DefaultChoice is the choice of `pbrain --book` and `best --book`: a
// score of at least 0.45 over at least 2 games, else a library move.
var DefaultChoice = ChoiceOptions{MinScore: 0.45, MinGames: 2, Library: true}

// Choice is a book move chosen for a position: the move in the position's
// orientation, why it was chosen ("proven", "games" or "library"), and its
// score (for "games"; 1 for "proven"; 0.5 for "library", which has none).
type Choice struct {
	BookMove
	Why   string
	Score float64
}

// Choose picks n's move for toMove on b (sym as KeyOf gives it): a move
// that starts a proven win first; else the best-scoring move among those
// with at least opt.MinGames games and a score of at least opt.MinScore
// (ties: more games, then the order of MovesFor); else, with opt.Library,
// the first library move. Moves that are not legal on b (occupied, or
// forbidden to black under renju) are never chosen. ok is false when no
// move qualifies, or when the node is a proven win for the opponent.
func (n *Node) Choose(b *engine.Board, sym int, toMove engine.Color, opt ChoiceOptions) (Choice, bool) {
	if n == nil || n.Proven == toMove.Opponent() {
		return Choice{}, false
	}
	moves := n.MovesFor(b, sym)
	legal := func(m BookMove) bool { return b.At(m.Point) == engine.Empty && b.Legal(toMove, m.Point) }
	for _, m := range moves {
		if m.Proven && legal(m) {
			return Choice{BookMove: m, Why: "proven", Score: 1}, true
		}
	}
	best, found := Choice{}, false
	for _, m := range moves {
		g := m.Games()
		if g < max(1, opt.MinGames) || !legal(m) {
			continue
		}
		wins := m.Black
		if toMove == engine.White {
			wins = m.White
		}
		score := (float64(wins) + 0.5*float64(m.Draws)) / float64(g)
		if score < opt.MinScore {
			continue
		}
		if !found || score > best.Score || score == best.Score && g > best.Games() {
			best, found = Choice{BookMove: m, Why: "games", Score: score}, true
		}
	}
	if found || !opt.Library {
		return best, found
	}
	for _, m := range moves {
		if m.Library && legal(m) {
			return Choice{BookMove: m, Why: "library", Score: 0.5}, true
		}
	}
	return Choice{}, false
}
