package analysis

import (
	"math"
	"time"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
)

// Ply is one ply of an analyze record.
type Ply struct {
	// Ply is 0-based, Move the move number, from 1 (Ply+1).
	Ply        int      `json:"ply"`
	Move       int      `json:"move"`
	ToMove     string   `json:"to_move"`
	MovePlayed string   `json:"move_played"`
	ForcedWin  *string  `json:"forced_win"`
	Line       []string `json:"line,omitempty"`
	Kept       *bool    `json:"kept"`
	Status     string   `json:"status"`
	Nodes      int64    `json:"nodes"`
	TimeMS     float64  `json:"time_ms"`
	// Value is the side to move's win rate before the move, Best and PV
	// the engine's move and principal variation, PlayedValue the mover's
	// win rate after the move played, Loss their difference (at least 0),
	// Class the move's class: best, good, inaccuracy, mistake, blunder.
	Value       *float64 `json:"value,omitempty"`
	Best        string   `json:"best,omitempty"`
	PV          []string `json:"pv,omitempty"`
	PlayedValue *float64 `json:"played_value,omitempty"`
	Loss        *float64 `json:"loss,omitempty"`
	Class       string   `json:"class,omitempty"`
	// Lost says every legal move here was shown to leave the opponent a
	// forced win (play.Lost): the position was lost before the move, which
	// is not blamed, and the opponent's move before it won.
	Lost bool `json:"lost,omitempty"`
}

// Side is one side's summary of a game's moves.
type Side struct {
	Moves    int            `json:"moves"`
	Classes  map[string]int `json:"classes"`
	MeanLoss float64        `json:"mean_loss"`
	Accuracy float64        `json:"accuracy"`
}

// Record is the JSON Lines record of `analyze`, one per game.
type Record struct {
	Source string  `json:"source"`
	Index  int     `json:"index"`
	ID     string  `json:"id,omitempty"`
	Rule   string  `json:"rule"`
	Size   int     `json:"size"`
	Result *string `json:"result"`
	// DecidedPly is 0-based (the position before move DecidedPly+1),
	// DecidedMove the same as a move number, from 1; nil when not found.
	DecidedPly  *int  `json:"decided_ply"`
	DecidedMove *int  `json:"decided_move"`
	Plies       []Ply `json:"plies"`
	// MissedWins and Blunders are 0-based plies (move number minus 1):
	// the moves that gave up a forced win, and the moves classed blunder
	// (solver.Judge: a proven forced win handed to the opponent, or a
	// large loss of win rate), the one meaning of blunder in every output.
	MissedWins []int   `json:"missed_win_plies"`
	Blunders   []int   `json:"blunder_plies"`
	Unknown    int     `json:"unknown"`
	TimeMS     float64 `json:"time_ms"`
	// Sides summarise the moves of each side (with --eval): "black" and
	// "white".
	Sides map[string]Side `json:"sides,omitempty"`
	// Forbidden is black's move on a forbidden point (renju), which ends
	// the game: Result is then "white" and Plies stop there.
	Forbidden *ForbiddenMove `json:"forbidden,omitempty"`
}

// ForbiddenMove is black's forbidden move in a renju game record.
type ForbiddenMove struct {
	// Ply is the 0-based ply of the move (move number Ply+1).
	Ply  int    `json:"ply"`
	Move string `json:"move"`
	// Kind is double-three, double-four or overline.
	Kind string `json:"kind"`
	// Ignored counts the record's moves after it, not analysed.
	Ignored int `json:"ignored_moves,omitempty"`
}

// Batch is the last JSON line of `analyze`: the batch summary.
type Batch struct {
	Batch struct {
		Games      int     `json:"games"`
		Plies      int     `json:"plies"`
		Solved     int     `json:"solved"`
		Unknown    int     `json:"unknown"`
		FromStore  int     `json:"from_store"`
		MissedWins int     `json:"missed_wins"`
		Blunders   int     `json:"blunders"`
		Failed     int     `json:"failed_records"`
		TimeMS     float64 `json:"time_ms"`
		// Partial says the run was interrupted (Ctrl-C, SIGTERM): Games
		// were written of the GamesRead read; the others are missing.
		Partial   bool `json:"partial,omitempty"`
		GamesRead int  `json:"games_read,omitempty"`
	} `json:"batch"`
}

// Game is a record being analysed.
type Game struct {
	Pos     *positions.Position
	Rule    engine.Rule
	plies   []solver.PlyResult
	left    int // plies not yet analysed
	start   time.Time
	elapsed time.Duration
	err     error
}

// task is one position to search.
type task struct {
	g   *Game
	ply int
}

// RecordOf turns an analysed game into its JSON form (one line of
// `analyze --format json`): the game's result and decided ply, and each
// ply's verdict, value and class as Run left them in g.
func RecordOf(g *Game) Record {
	p := g.Pos
	b, _ := p.Board(g.Rule)
	lastFive := b != nil && b.LastMoveWon()
	result := p.Result
	if result == "" && lastFive {
		_, c := b.LastMove()
		result = c.String()
	}
	var forbidden *ForbiddenMove
	if n := len(g.plies); n > 0 && g.plies[n-1].Forbidden != engine.NotForbidden {
		// black's forbidden move ends the game, won by white (RIF), whatever
		// the record says of the moves after it
		lastFive, result = false, "white"
		forbidden = &ForbiddenMove{Ply: n - 1, Move: g.plies[n-1].Move.String(), Kind: g.plies[n-1].Forbidden.String(),
			Ignored: len(p.Moves) - n}
	}
	winner := engine.Empty
	switch result {
	case "black":
		winner = engine.Black
	case "white":
		winner = engine.White
	}
	sum := solver.Summarize(g.plies, winner, lastFive)
	rec := Record{Source: p.Source, Index: p.Index, ID: p.ID, Rule: g.Rule.String(), Size: p.Size,
		MissedWins: append([]int{}, sum.MissedWins...), Blunders: []int{}, TimeMS: millis(g.elapsed), Forbidden: forbidden}
	if result != "" {
		rec.Result = &result
	}
	if sum.Decided >= 0 {
		d, m := sum.Decided, sum.Decided+1
		rec.DecidedPly, rec.DecidedMove = &d, &m
	}
	judged, sides := solver.Judge(g.plies, sum, lastFive)
	evaluated := false
	for i, r := range g.plies {
		if judged[i].Class == solver.ClassBlunder {
			rec.Blunders = append(rec.Blunders, i)
		}
		ap := Ply{Ply: i, Move: i + 1, ToMove: r.ToMove.String(), MovePlayed: r.Move.String(), Kept: sum.Kept[i], Status: "solved",
			Nodes: r.Nodes, TimeMS: millis(r.Elapsed), Class: judged[i].Class, Lost: r.Lost}
		if j := judged[i]; j.Value >= 0 {
			evaluated = true
			ap.Value = ptr(round3(j.Value))
			if j.PlayedValue >= 0 {
				ap.PlayedValue, ap.Loss = ptr(round3(j.PlayedValue)), ptr(round3(j.Loss))
			}
			if r.Best != engine.NoPoint {
				ap.Best = r.Best.String()
			}
			ap.PV = positions.PointNames(r.PV)
		}
		if r.Win != 0 {
			w := r.Win.String()
			ap.ForcedWin, ap.Line = &w, positions.PointNames(r.Line)
		}
		if !r.Solved {
			ap.Status = "unknown"
			rec.Unknown++
		}
		rec.Plies = append(rec.Plies, ap)
	}
	if evaluated {
		rec.Sides = map[string]Side{}
		for i, name := range []string{"black", "white"} {
			st := sides[i]
			rec.Sides[name] = Side{Moves: st.Moves, Classes: st.Classes, MeanLoss: round3(st.MeanLoss),
				Accuracy: math.Round(10*st.Accuracy) / 10}
		}
	}
	return rec
}

func ptr[T any](v T) *T { return &v }

// round3 rounds a win rate to three decimals for the output.
func round3(v float64) float64 { return math.Round(1000*v) / 1000 }

// The words for the plies that the lost-position check proves: the
// position where every move loses, and the quiet move that won it.
const (
	NoteLost        = "every move loses to a forced win"
	NoteWinningMove = "every answer loses"
)

// LostNote is what the lost-position check proved of ply i: NoteLost on a
// lost ply, NoteWinningMove on the quiet move before one (no VCF or VCT
// found there), else "".
func LostNote(plies []Ply, i int) string {
	switch {
	case plies[i].Lost:
		return NoteLost
	case plies[i].ForcedWin == nil && i+1 < len(plies) && plies[i+1].Lost:
		return NoteWinningMove
	}
	return ""
}

// NewGame returns game record p, played under rule r, ready to be
// analysed: every move, or, when black plays on a forbidden point under
// renju (positions.Position.ForbiddenMove), the moves up to and including
// that one, which ends the game (RIF). Errors: ForbiddenMove's (an illegal
// move).
func NewGame(p *positions.Position, r engine.Rule) (*Game, error) {
	k, kind, err := p.ForbiddenMove(r)
	if err != nil {
		return nil, err
	}
	n := len(p.Moves)
	if k >= 0 {
		n = k + 1 // the game ends with black's forbidden move (RIF)
	}
	g := &Game{Pos: p, Rule: r, plies: make([]solver.PlyResult, n), left: n}
	if k >= 0 {
		g.plies[k].Forbidden = kind
	}
	return g, nil
}

// Plies returns the number of positions the game has to analyse.
func (g *Game) Plies() int { return len(g.plies) }

// Err returns what stopped the game's analysis, or nil.
func (g *Game) Err() error { return g.err }

// millis turns a duration into milliseconds with three decimals.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Add counts one game's record in the batch totals: the game, its
// positions (solved and unknown), its missed wins and blunders.
func (b *Batch) Add(rec Record) {
	t := &b.Batch
	t.Games++
	t.Plies += len(rec.Plies)
	t.Unknown += rec.Unknown
	t.Solved += len(rec.Plies) - rec.Unknown
	t.MissedWins += len(rec.MissedWins)
	t.Blunders += len(rec.Blunders)
}
