package play

import (
	"context"
	"math/rand/v2"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// SelfPlayConfig is one self-play game's setting.
type SelfPlayConfig struct {
	Rule engine.Rule
	Size int
	// Opening is played first (black first); then RandomPlies random
	// moves within two cells of a stone.
	Opening     []engine.Point
	RandomPlies int
	// Time and Nodes bound each move's search (Best, with its win and
	// defence checks): at least one.
	Time  time.Duration
	Nodes int64
	// Explore is how many of the first moves after the random ones are
	// picked at random among the search's three best, when their win rate
	// is within ExploreMargin of the best's.
	Explore       int
	ExploreMargin float64
	// Rand draws the random moves.
	Rand *rand.Rand
}

// GameRecord is a finished self-play game: the moves, the result, and per
// move the mover's win rate as the search saw it before moving (its value
// of the move played; 1 or 0 for a proven win or loss).
type GameRecord struct {
	Rule   engine.Rule
	Size   int
	Moves  []engine.Point
	Values []float64
	// Winner is the colour that made five, Empty for a draw (a full board).
	Winner engine.Color
	// Opening is the number of moves of the opening and the random plies.
	Opening int
}

// Player is one side of a game: a solver for the win and defence checks
// and a searcher, as Best uses them.
type Player struct {
	Solver   *solver.Solver
	Searcher Searcher
}

// SelfPlay plays one game with slv and searcher on both sides. Errors:
// ctx's; a bad opening (ErrGameOver, engine errors).
func SelfPlay(ctx context.Context, cfg SelfPlayConfig, slv *solver.Solver, searcher Searcher) (GameRecord, error) {
	p := Player{Solver: slv, Searcher: searcher}
	return PlayGame(ctx, cfg, [2]Player{p, p})
}

// StartPosition returns the moves a self-play game of cfg starts from:
// cfg.Opening, then cfg.RandomPlies random moves (fewer if no move is
// left), each within two cells of a stone, drawn with cfg.Rand as
// PlayGame draws them. Errors: cfg.Opening is not a legal sequence
// (engine.ErrBadSize and Board.Put's errors), or the opening or a random
// move makes five (solver.ErrGameOver: no game is left to play).
func StartPosition(cfg SelfPlayConfig) ([]engine.Point, error) {
	size := cfg.Size
	if size == 0 {
		size = engine.DefaultSize
	}
	b, err := engine.NewBoard(size, cfg.Rule)
	if err != nil {
		return nil, err
	}
	moves, err := startOn(b, cfg)
	if err == nil && b.LastMoveWon() {
		return nil, solver.ErrGameOver
	}
	return moves, err
}

// startOn plays StartPosition's moves on b (empty) and returns them; a
// random move that makes five ends them (PlayGame records that game).
func startOn(b *engine.Board, cfg SelfPlayConfig) ([]engine.Point, error) {
	var moves []engine.Point
	for _, m := range cfg.Opening {
		if err := b.Put(m, engine.Color(1+b.Stones()%2)); err != nil {
			return nil, err
		}
		moves = append(moves, m)
		if b.LastMoveWon() {
			return nil, solver.ErrGameOver
		}
	}
	seen := make([]bool, engine.NumCells)
	for range cfg.RandomPlies {
		c := engine.Color(1 + b.Stones()%2)
		cands := candidates(b, c, nil, seen)
		if len(cands) == 0 {
			break
		}
		// near the stones: at most two away
		m := cands[cfg.Rand.IntN(len(cands))]
		b.Play(m, c)
		moves = append(moves, m)
		if b.LastMoveWon() {
			break
		}
	}
	return moves, nil
}

// PlayGame plays one game, players[0] black and players[1] white, from
// cfg's opening and random plies. Errors as SelfPlay's.
func PlayGame(ctx context.Context, cfg SelfPlayConfig, players [2]Player) (GameRecord, error) {
	size := cfg.Size
	if size == 0 {
		size = engine.DefaultSize
	}
	b, err := engine.NewBoard(size, cfg.Rule)
	if err != nil {
		return GameRecord{}, err
	}
	rec := GameRecord{Rule: cfg.Rule, Size: size}
	play := func(p engine.Point, v float64) {
		b.Play(p, engine.Color(1+b.Stones()%2))
		rec.Moves = append(rec.Moves, p)
		rec.Values = append(rec.Values, v)
	}
	if rec.Moves, err = startOn(b, cfg); err != nil {
		return GameRecord{}, err
	}
	rec.Opening = len(rec.Moves)
	rec.Values = make([]float64, rec.Opening)
	for i := range rec.Values {
		rec.Values[i] = 0.5
	}
	lim := solver.Limits{Time: cfg.Time, Nodes: cfg.Nodes}
	for !b.LastMoveWon() && b.Stones() < size*size {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		c := engine.Color(1 + b.Stones()%2)
		k := 1
		if len(rec.Moves)-rec.Opening < cfg.Explore {
			k = 3
		}
		pl := players[c-1]
		rep, err := Best(ctx, pl.Solver, b, c, pl.Searcher, lim, k, nil)
		m, v := engine.NoPoint, 0.5
		if err == nil && len(rep.Moves) > 0 {
			m, v = rep.Moves[0].Move, rep.Moves[0].Value
			if k > 1 && rep.Kind == KindSearch {
				var close []MoveStat
				for _, ms := range rep.Moves {
					if ms.Value >= v-cfg.ExploreMargin {
						close = append(close, ms)
					}
				}
				pick := close[cfg.Rand.IntN(len(close))]
				m, v = pick.Move, pick.Value
			}
		}
		if m == engine.NoPoint || !b.Legal(c, m) {
			m = QuickMove(b, c)
		}
		if m == engine.NoPoint {
			break
		}
		play(m, v)
	}
	if b.LastMoveWon() {
		_, rec.Winner = b.LastMove()
	}
	return rec, nil
}
