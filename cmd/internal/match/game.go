package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gomoku/cmd/internal/gomocup"
	"gomoku/engine"
)

// GameResult is one game: who played which colour, the moves, who won and
// why.
type GameResult struct {
	// Index is the game's number in the match, from 0; Opening names its
	// opening.
	Index   int
	Opening string
	// Black and White are the indexes (0 or 1) of the engines that played
	// those colours.
	Black, White int
	// Winner is the winning colour, engine.Empty for a draw.
	Winner engine.Color
	// Reason says how the game ended: "five", "forbidden move",
	// "illegal move", "timeout", "crash", "full board", "no legal move"
	// (a draw: renju's black has only forbidden cells left), "bad answer".
	Reason string
	// Detail is the loser's offending answer or error, if any.
	Detail string
	// Moves are all the moves, the opening's first; OpeningLen of them
	// are the opening's. Times are the milliseconds each engine move took
	// (0 for the opening's).
	Moves      []engine.Point
	OpeningLen int
	Times      []int64
	// Evals are, per engine move (Evals[k] for Moves[OpeningLen+k]),
	// what the mover reported of the position before it (LastEval of its
	// MESSAGE lines since its previous move); a move the game was lost by
	// has none.
	Evals []Eval
	// TimeLeft is each engine's clock at the end (by engine index), when
	// the match had a clock.
	TimeLeft [2]time.Duration
	// Note holds anything odd about the game (records not written).
	Note string
}

// Score0 returns Engines[0]'s score in the game: 1, 0.5 or 0.
func (g *GameResult) Score0() float64 {
	switch {
	case g.Winner == engine.Empty:
		return 0.5
	case g.Winner == engine.Black && g.Black == 0, g.Winner == engine.White && g.White == 0:
		return 1
	}
	return 0
}

// Line is the game's result line for the log.
func (g *GameResult) Line(cfg *Config) string {
	res := "draw"
	if g.Winner != engine.Empty {
		w := g.Black
		if g.Winner == engine.White {
			w = g.White
		}
		res = fmt.Sprintf("%s (%s) wins", g.Winner, cfg.Engines[w].Name)
	}
	s := fmt.Sprintf("game %3d  %-14s black %-10s white %-10s  %s by %s after %d moves", g.Index+1, g.Opening,
		cfg.Engines[g.Black].Name, cfg.Engines[g.White].Name, res, g.Reason, len(g.Moves))
	if g.Detail != "" {
		s += " (" + g.Detail + ")"
	}
	if cfg.MatchTime > 0 {
		s += fmt.Sprintf("  time left %s %.1fs, %s %.1fs", cfg.Engines[0].Name, g.TimeLeft[0].Seconds(),
			cfg.Engines[1].Name, g.TimeLeft[1].Seconds())
	}
	return s
}

// seat is one engine in one game.
type seat struct {
	idx    int // engine index
	colour engine.Color
	client *gomocup.Client
	told   int // moves the brain has been told of (0: none yet, BOARD next)
	clock  time.Duration
}

// limit is how long seat s may take over its next answer: its time per
// move (Config.times), or what its match clock has left when that is less.
func (s *seat) limit(cfg *Config) time.Duration {
	turn, _, _ := cfg.times(s.idx)
	if cfg.MatchTime > 0 && (turn <= 0 || s.clock < turn) {
		return max(s.clock, 0)
	}
	return turn
}

// charge books an answer (what: "a move", "an answer") that took took
// against seat s: off its match clock, then its increment on, and against
// its time per move, each with Config.Tolerance. It returns why s loses on
// time, or "" when it does not.
func (s *seat) charge(cfg *Config, took time.Duration, what string) string {
	turn, _, inc := cfg.times(s.idx)
	if cfg.MatchTime > 0 {
		s.clock -= took
		if s.clock < -cfg.Tolerance {
			return fmt.Sprintf("the clock ran out (%v over)", -s.clock)
		}
		s.clock += inc
	}
	if turn > 0 && took > turn+cfg.Tolerance {
		return fmt.Sprintf("%v for %s, limit %v", took.Round(time.Millisecond), what, turn)
	}
	return ""
}

// PlayGame plays game i (its number in records and logs) of cfg, which
// Check has accepted, from op: Engines[0] is black, or white when swapped.
// Run plays its games with it; a caller that schedules its own (a
// teacher's self-play, both engines the same brain) calls it directly.
// Every failure of a brain is a loss for it, recorded in the result, never
// an error of the match; a cancelled ctx ends the game with Reason
// "cancelled".
func PlayGame(ctx context.Context, cfg *Config, i int, op Opening, swapped bool) (g GameResult) {
	g = GameResult{Index: i, Opening: op.Name, Black: 0, White: 1, OpeningLen: len(op.Moves)}
	if swapped {
		g.Black, g.White = 1, 0
	}
	g.Moves = append(g.Moves, op.Moves...)
	g.Times = make([]int64, len(op.Moves))
	b, _ := engine.NewBoard(cfg.Size, cfg.Rule) // checked by Config.check
	for j, m := range op.Moves {
		b.Play(m, engine.Color(1+j%2))
	}
	// the engines by index; under swap2 the colours are known only after
	// the opening (until then Black is the first player, who places the
	// first three stones)
	players := [2]*seat{{idx: 0}, {idx: 1}}
	for _, s := range players {
		_, s.clock, _ = cfg.times(s.idx)
	}
	colourOf := func(idx int) engine.Color {
		if idx == g.Black {
			return engine.Black
		}
		return engine.White
	}
	lose := func(c engine.Color, reason, detail string) GameResult {
		g.Winner, g.Reason, g.Detail = c.Opponent(), reason, detail
		return g
	}
	defer func() {
		for _, s := range players {
			g.TimeLeft[s.idx] = s.clock
			if s.client != nil {
				_ = s.client.Close(2 * time.Second)
			}
		}
	}()
	// start both brains, each with START and the settings
	for _, s := range players {
		if reason, detail := s.start(cfg); reason != "" {
			return lose(colourOf(s.idx), reason, detail)
		}
	}
	if cfg.Swap2 {
		if f := swap2Phase(cfg, players, g.Black, b, &g); f != nil {
			return lose(colourOf(f.idx), f.reason, f.detail)
		}
	}
	seats := [3]*seat{}
	seats[engine.Black], seats[engine.White] = players[g.Black], players[g.White]
	seats[engine.Black].colour, seats[engine.White].colour = engine.Black, engine.White
	toMove := engine.Color(1 + len(g.Moves)%2)
	for {
		if ctx.Err() != nil {
			return lose(toMove, "cancelled", "")
		}
		if len(g.Moves) >= cfg.Size*cfg.Size {
			g.Winner, g.Reason = engine.Empty, "full board"
			return g
		}
		if b.FirstLegal(toMove) == engine.NoPoint {
			// renju: every empty cell is forbidden to black; it passes,
			// and so does white, whose passes end the game in a draw
			g.Winner, g.Reason = engine.Empty, "no legal move"
			return g
		}
		s := seats[toMove]
		if cfg.MatchTime > 0 {
			if err := s.client.Send("INFO time_left %d", max(0, s.clock.Milliseconds())); err != nil {
				return lose(toMove, "crash", err.Error())
			}
		}
		if err := ask(s, g.Moves, cfg.Size); err != nil {
			return lose(toMove, "crash", err.Error())
		}
		limit := s.limit(cfg)
		start := time.Now()
		p, err := s.client.Move(start.Add(limit+cfg.Tolerance), cfg.Size)
		took := time.Since(start)
		switch {
		case errors.Is(err, gomocup.ErrTimeout):
			detail := fmt.Sprintf("no move within %v", limit+cfg.Tolerance)
			if m := s.client.Messages(); len(m) > 0 {
				detail += "; its last message: " + m[len(m)-1]
			}
			return lose(toMove, "timeout", detail)
		case err != nil:
			return lose(toMove, failure(err), err.Error())
		}
		if late := s.charge(cfg, took, "a move"); late != "" {
			return lose(toMove, "timeout", late)
		}
		g.Times = append(g.Times, took.Milliseconds())
		ev := LastEval(s.client.Messages())
		switch {
		case b.At(p) != engine.Empty:
			g.Moves = append(g.Moves, p)
			return lose(toMove, "illegal move", fmt.Sprintf("%v is occupied", p))
		case !b.Legal(toMove, p):
			g.Moves = append(g.Moves, p)
			return lose(toMove, "forbidden move", fmt.Sprintf("%v is %v", p, b.Forbidden(p)))
		}
		b.Play(p, toMove)
		g.Moves = append(g.Moves, p)
		g.Evals = append(g.Evals, ev)
		s.told = len(g.Moves)
		if b.LastMoveWon() {
			g.Winner, g.Reason = toMove, "five"
			return g
		}
		toMove = toMove.Opponent()
	}
}

// start runs seat s's brain (Engines[s.idx]) and takes it through START,
// the settings and ABOUT. It returns why the brain loses ("crash",
// "timeout", "bad answer") and the detail, or "" when it is ready.
func (s *seat) start(cfg *Config) (reason, detail string) {
	spec := cfg.Engines[s.idx]
	cl, err := gomocup.Start(spec.Name, spec.Argv, spec.Dir)
	if err != nil {
		return "crash", "did not start: " + err.Error()
	}
	s.client = cl
	if err := cl.Send("START %d", cfg.Size); err != nil {
		return "crash", err.Error()
	}
	ans, err := cl.Answer(time.Now().Add(cfg.StartTimeout))
	if err != nil {
		return failure(err), "START: " + err.Error()
	}
	if !strings.HasPrefix(strings.ToUpper(ans), "OK") {
		return "bad answer", fmt.Sprintf("START answered %q", ans)
	}
	for _, line := range cfg.settings(s.idx) {
		if err := cl.Send("%s", line); err != nil {
			return "crash", err.Error()
		}
	}
	// ABOUT, which every brain answers, waits until the brain has taken
	// the settings (a transposition table sized by max_memory can take a
	// while to clear), so that its first move's clock is not charged for
	// it; a brain may object to a setting with an ERROR line first (Rapfi:
	// "ERROR Max memory too small"), which is not the answer to ABOUT
	if err := cl.Send("ABOUT"); err != nil {
		return "crash", err.Error()
	}
	for {
		ans, err := cl.Answer(time.Now().Add(cfg.StartTimeout))
		if err != nil {
			return failure(err), "ABOUT: " + err.Error()
		}
		if !strings.HasPrefix(strings.ToUpper(ans), "ERROR") {
			return "", ""
		}
	}
}

// failure names the loss a brain's error means.
func failure(err error) string {
	var bad *gomocup.BadAnswer
	switch {
	case errors.Is(err, gomocup.ErrTimeout):
		return "timeout"
	case errors.As(err, &bad):
		return "bad answer"
	}
	return "crash"
}

// ask requests seat s's move: BEGIN on an empty board it has not seen,
// BOARD with every stone (in move order, as Rapfi wants them) the first
// time it is asked with stones on the board or when it has missed more
// than the last move, TURN with the opponent's last move otherwise.
func ask(s *seat, moves []engine.Point, size int) error {
	switch {
	case len(moves) == 0:
		return s.client.Send("BEGIN")
	case s.told > 0 && s.told == len(moves)-1:
		return s.client.Send("TURN %s", gomocup.FormatPoint(moves[len(moves)-1], size))
	}
	lines := []string{"BOARD"}
	for j, m := range moves {
		field := 2
		if engine.Color(1+j%2) == s.colour {
			field = 1
		}
		lines = append(lines, fmt.Sprintf("%s,%d", gomocup.FormatPoint(m, size), field))
	}
	lines = append(lines, "DONE")
	for _, l := range lines {
		if err := s.client.Send("%s", l); err != nil {
			return err
		}
	}
	return nil
}

// ruleCode is the INFO rule value of the match: 6 for freestyle with
// swap2 (Rapfi's and Gomocup's), else the rule's own.
func ruleCode(cfg *Config) int {
	if cfg.Swap2 && cfg.Rule == engine.Freestyle {
		return 6
	}
	return gomocup.RuleCode(cfg.Rule)
}

// failure of a brain during the swap2 opening: the engine index, and why.
type swap2Failure struct {
	idx            int
	reason, detail string
}

// swap2Phase runs Gomocup's swap2 opening between the first player p1 (an
// engine index) and the other, by SWAP2BOARD: p1 places three stones
// (black, white, black); the other takes black (SWAP), takes white and
// plays the fourth, or places the fourth and fifth, after which p1 takes
// black (SWAP) or takes white and plays the sixth. Every stone must be a
// legal move in turn and none may make a five. It leaves g.Black and
// g.White the engines' colours and g.Moves the stones (all counted as the
// opening), b played to them; each answer is timed as a move is, against
// the answering engine's limit and clock. A failure names the engine that
// loses.
func swap2Phase(cfg *Config, players [2]*seat, p1 int, b *engine.Board, g *GameResult) *swap2Failure {
	p2 := 1 - p1
	fail := func(idx int, reason, detail string) *swap2Failure {
		return &swap2Failure{idx: idx, reason: reason, detail: "swap2: " + detail}
	}
	ask := func(idx int) ([]engine.Point, bool, *swap2Failure) {
		s := players[idx]
		// the stones as BOARD lists them, x,y,field in move order (black
		// first), field 1 for the colour to move and 2 for the other: Rapfi
		// reads SWAP2BOARD as it reads BOARD (the field tells it which side
		// it is), and a brain that reads x,y alone skips the field
		lines := []string{"SWAP2BOARD"}
		for i, m := range g.Moves {
			field := 2
			if i%2 == len(g.Moves)%2 {
				field = 1
			}
			lines = append(lines, fmt.Sprintf("%s,%d", gomocup.FormatPoint(m, cfg.Size), field))
		}
		lines = append(lines, "DONE")
		if cfg.MatchTime > 0 {
			lines = append([]string{fmt.Sprintf("INFO time_left %d", max(0, s.clock.Milliseconds()))}, lines...)
		}
		for _, l := range lines {
			if err := s.client.Send("%s", l); err != nil {
				return nil, false, fail(idx, "crash", err.Error())
			}
		}
		start := time.Now()
		pts, swap, err := s.client.Moves(start.Add(s.limit(cfg)+cfg.Tolerance), cfg.Size)
		took := time.Since(start)
		if err != nil {
			return nil, false, fail(idx, failure(err), err.Error())
		}
		if late := s.charge(cfg, took, "an answer"); late != "" {
			return nil, false, fail(idx, "timeout", late)
		}
		return pts, swap, nil
	}
	place := func(idx int, pts []engine.Point) *swap2Failure {
		for _, p := range pts {
			c := engine.Color(1 + len(g.Moves)%2)
			switch {
			case b.At(p) != engine.Empty:
				return fail(idx, "illegal move", fmt.Sprintf("%v is occupied", p))
			case !b.Legal(c, p):
				return fail(idx, "forbidden move", fmt.Sprintf("%v is %v", p, b.Forbidden(p)))
			}
			b.Play(p, c)
			g.Moves = append(g.Moves, p)
			g.Times = append(g.Times, 0)
			if b.LastMoveWon() {
				return fail(idx, "illegal move", fmt.Sprintf("%v makes a five in the opening", p))
			}
		}
		g.OpeningLen = len(g.Moves)
		return nil
	}
	g.Opening = "swap2"
	// the first three stones
	pts, swap, f := ask(p1)
	if f != nil {
		return f
	}
	if swap || len(pts) != 3 {
		return fail(p1, "bad answer", fmt.Sprintf("%d stones for the first three", len(pts)))
	}
	if f := place(p1, pts); f != nil {
		return f
	}
	// the second player's choice
	pts, swap, f = ask(p2)
	switch {
	case f != nil:
		return f
	case swap:
		g.Black, g.White = p2, p1
		return nil
	case len(pts) == 1:
		g.Black, g.White = p1, p2
		return place(p2, pts)
	case len(pts) != 2:
		return fail(p2, "bad answer", fmt.Sprintf("%d stones answered to three", len(pts)))
	}
	if f := place(p2, pts); f != nil {
		return f
	}
	// the first player's choice of colour
	pts, swap, f = ask(p1)
	switch {
	case f != nil:
		return f
	case swap:
		g.Black, g.White = p1, p2
		return nil
	case len(pts) != 1:
		return fail(p1, "bad answer", fmt.Sprintf("%d stones answered to five", len(pts)))
	}
	g.Black, g.White = p2, p1
	return place(p1, pts)
}
