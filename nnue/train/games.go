package train

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"gomoku/engine"
)

// GameLine is the JSON form of one line of `gomoku selfplay`'s output.
type GameLine struct {
	Rule    string    `json:"rule"`
	Size    int       `json:"size"`
	Moves   []string  `json:"moves"`
	Values  []float64 `json:"values"`
	Result  string    `json:"result"`
	Opening int       `json:"opening"`
}

// ErrBadGame is wrapped by the errors about a game line's content.
var ErrBadGame = errors.New("bad self-play game")

// ParseGameLine reads one JSON line of `gomoku selfplay`: {"rule", "size",
// "moves" (renju notation), "values" (the mover's win rate before each
// move, 0..1), "result" (black, white or draw), "opening"}. The moves are
// replayed on an empty board of the game's size and rule, black first: a
// move off the board or onto a stone, or a move after a five, is an error,
// so that NewDataset never meets a game that does not replay. Errors:
// JSON's (with its byte offset), or ones wrapping ErrBadGame.
func ParseGameLine(line []byte) (Game, error) {
	var g GameLine
	if err := json.Unmarshal(line, &g); err != nil {
		return Game{}, err
	}
	r, err := engine.ParseRule(g.Rule)
	if err != nil {
		return Game{}, fmt.Errorf("%w: %v", ErrBadGame, err)
	}
	if g.Size < engine.MinSize || g.Size > engine.MaxSize {
		return Game{}, fmt.Errorf("%w: size %d", ErrBadGame, g.Size)
	}
	out := Game{Rule: r, Size: g.Size, Values: g.Values, Opening: g.Opening}
	for i, s := range g.Moves {
		p, err := engine.ParsePoint(s, g.Size)
		if err != nil {
			return Game{}, fmt.Errorf("%w: move %d: %v", ErrBadGame, i+1, err)
		}
		out.Moves = append(out.Moves, p)
	}
	b, err := engine.NewBoard(g.Size, r)
	if err != nil {
		return Game{}, fmt.Errorf("%w: %v", ErrBadGame, err)
	}
	for i, p := range out.Moves {
		if b.LastMoveWon() {
			return Game{}, fmt.Errorf("%w: move %d (%v) comes after a five", ErrBadGame, i+1, p)
		}
		if err := b.Put(p, engine.Color(1+i%2)); err != nil {
			return Game{}, fmt.Errorf("%w: move %d: %v", ErrBadGame, i+1, err)
		}
	}
	for i, v := range g.Values {
		if !(v >= 0 && v <= 1) {
			return Game{}, fmt.Errorf("%w: value %d is %v, not in 0..1", ErrBadGame, i+1, v)
		}
	}
	if g.Opening < 0 || g.Opening > len(g.Moves) {
		return Game{}, fmt.Errorf("%w: opening %d of %d moves", ErrBadGame, g.Opening, len(g.Moves))
	}
	switch g.Result {
	case "draw":
	default:
		if out.Winner, err = engine.ParseColor(g.Result); err != nil {
			return Game{}, fmt.Errorf("%w: result %q", ErrBadGame, g.Result)
		}
	}
	return out, nil
}

// ReadGames reads the game lines of data (named name in errors); a bad
// line is reported as "name:line:column: ..." and skipped.
func ReadGames(name string, data []byte) (games []Game, errs []error) {
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		g, err := ParseGameLine(line)
		if err != nil {
			col := 1
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &se):
				col = int(se.Offset)
			case errors.As(err, &te):
				col = int(te.Offset)
			}
			errs = append(errs, fmt.Errorf("%s:%d:%d: %w", name, i+1, col, err))
			continue
		}
		games = append(games, g)
	}
	return games, errs
}
