package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
	"gomoku/solver/play"
)

func matchCommand() *cli.Command {
	return &cli.Command{
		Name:      "match",
		Usage:     "play two engines against each other from a file of openings, each opening twice with colours swapped",
		ArgsUsage: "OPENINGS (a file of openings in any input format, e.g. Gomocup offset lines)",
		Description: "Each move is chosen as `gomoku best` chooses it, with the engine's own tables, within --time. Prints one\n" +
			"line per game and a score table (a win 1, a draw 1/2). An illegal move or a renju forbidden move loses.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "engines", Value: "mcts,ab", Usage: "the two engines, comma-separated: mcts or ab"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Value: 200 * time.Millisecond, Usage: "time per move"},
			&cli.IntFlag{Name: "games", Aliases: []string{"n"}, Value: 20, Usage: "games to play (openings are used in turn, two games each)"},
			&cli.StringFlag{Name: "rule", Aliases: []string{"r"}, Value: "freestyle", Usage: "rule: freestyle, standard or renju"},
			&cli.IntFlag{Name: "size", Value: engine.DefaultSize, Usage: "board size of openings that do not state one"},
			&cli.IntFlag{Name: "threads", Value: 1, Usage: "MCTS goroutines per engine"},
			&cli.IntFlag{Name: "memory", Value: 128, Usage: "tables per engine, MiB"},
			&cli.BoolFlag{Name: "moves", Usage: "print each game's moves after its result line"},
		},
		Action: runMatch,
	}
}

// matchPlayer is one engine of a match, with its own tables.
type matchPlayer struct {
	name     string
	slv      *solver.Solver
	searcher play.Searcher
	score    float64
	wins     [3]int // by colour: index engine.Black, engine.White
	losses   [3]int
	draws    int
}

func runMatch(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("match wants one file of openings")
	}
	rule, err := engine.ParseRule(c.String("rule"))
	if err != nil {
		return usageError{err}
	}
	names := strings.Split(c.String("engines"), ",")
	if len(names) != 2 {
		return usagef("--engines wants two names, e.g. mcts,ab")
	}
	if c.Duration("time") <= 0 || c.Int("games") < 1 {
		return usagef("--time and --games must be positive")
	}
	if err := checkMemory(c.Int("memory")); err != nil {
		return err
	}
	var players [2]*matchPlayer
	for i, n := range names {
		s, err := newSearcher(strings.TrimSpace(n), c.Int("threads"), c.Int("memory"))
		if err != nil {
			return err
		}
		players[i] = &matchPlayer{name: strings.TrimSpace(n), slv: solver.NewSolver(c.Int("memory")), searcher: s}
	}
	if players[0].name == players[1].name {
		players[1].name += "'"
	}
	name := c.Args().First()
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	opt := positions.DefaultOptions
	opt.Size = c.Int("size")
	openings, errs := positions.Parse(name, data, positions.Auto, opt)
	for _, e := range errs {
		fmt.Fprintf(c.App.ErrWriter, "gomoku: %v (skipped)\n", e)
	}
	if len(openings) == 0 {
		return fmt.Errorf("%s: no openings", name)
	}
	out := c.App.Writer
	lim := solver.Limits{Time: c.Duration("time"), MemoryMiB: c.Int("memory")}
	fmt.Fprintf(out, "match: %s vs %s, %v, %v per move, %d games\n", players[0].name, players[1].name, rule,
		c.Duration("time"), c.Int("games"))
	for g := 0; g < c.Int("games"); g++ {
		op := openings[(g/2)%len(openings)]
		first := players[g%2] // the engine moving first after the opening
		second := players[1-g%2]
		b, err := op.Board(rule)
		if err != nil {
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: %v (skipped)\n", op.Label(), err)
			continue
		}
		toMove := op.ToMove
		byColour := map[engine.Color]*matchPlayer{toMove: first, toMove.Opponent(): second}
		winner, why, plies, err := playGame(c, b, toMove, byColour, lim)
		if err != nil {
			return err
		}
		black, white := byColour[engine.Black], byColour[engine.White]
		result := "draw"
		switch winner {
		case engine.Empty:
			black.draws++
			white.draws++
			black.score += 0.5
			white.score += 0.5
		default:
			w, l := byColour[winner], byColour[winner.Opponent()]
			w.score++
			w.wins[winner]++
			l.losses[winner.Opponent()]++
			result = winner.String() + " (" + w.name + ") wins"
		}
		fmt.Fprintf(out, "game %2d  %s#%d  black %-5s white %-5s  %s by %s after %d moves\n", g+1,
			filepath.Base(op.Source), op.Index,
			black.name, white.name, result, why, plies)
		if c.Bool("moves") {
			var sb strings.Builder
			for i := range b.Stones() {
				m, _ := b.Move(i)
				if i > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(m.String())
			}
			fmt.Fprintf(out, "  moves: %s\n", sb.String())
		}
	}
	fmt.Fprintf(out, "\n| engine | score | wins as black | wins as white | losses as black | losses as white | draws |\n|---|---|---|---|---|---|---|\n")
	for _, p := range players {
		fmt.Fprintf(out, "| %s | %.1f / %d | %d | %d | %d | %d | %d |\n", p.name, p.score, c.Int("games"),
			p.wins[engine.Black], p.wins[engine.White], p.losses[engine.Black], p.losses[engine.White], p.draws)
	}
	return nil
}

// playGame plays from b, c to move, until a five, a full board, or an
// illegal move (which loses). It returns the winner (Empty for a draw), how
// the game ended and the moves played.
func playGame(c *cli.Context, b *engine.Board, toMove engine.Color, byColour map[engine.Color]*matchPlayer,
	lim solver.Limits) (engine.Color, string, int, error) {
	plies := 0
	for s := toMove; ; s = s.Opponent() {
		if err := c.Context.Err(); err != nil {
			return 0, "", plies, err
		}
		if b.Stones() >= b.Size()*b.Size() {
			return engine.Empty, "full board", plies, nil
		}
		p := byColour[s]
		rep, err := play.Best(c.Context, p.slv, b, s, p.searcher, lim, 1, nil)
		m := engine.NoPoint
		if err == nil && len(rep.Moves) > 0 {
			m = rep.Moves[0].Move
		}
		if m == engine.NoPoint || !b.Legal(s, m) {
			m = play.QuickMove(b, s)
		}
		if m == engine.NoPoint || !b.Legal(s, m) {
			return s.Opponent(), "no legal move", plies, nil
		}
		b.Play(m, s)
		plies++
		if b.LastMoveWon() {
			return s, "five", plies, nil
		}
	}
}
