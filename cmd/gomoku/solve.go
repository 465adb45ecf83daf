package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/svg"
	"gomoku/solver"
	"gomoku/solver/proof"
	"gomoku/solver/store"
)

func solveCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "solve",
		Usage:     "prove or refute a win by continuous fours (VCF) or threats (VCT) for each position",
		ArgsUsage: "FILE... (- for standard input)",
		Description: "For each position, searches for a win of the attacker (by default the side to move) and prints the\n" +
			"winning line, replayed on a fresh board (for VCT, the main line of a proof tree that has passed the\n" +
			"independent proof check), or a disproof with the limits it holds under. A record's own attacker-move\n" +
			"limit and threat limit apply unless --limit and --threat-limit are given.",
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "mode", Aliases: []string{"m"},
				Usage: "search: vcf (continuous fours), vct (continuous threats; VCF first) or win (VCF, VCT, then, when there is no VCT, quiet threats and proof-number search over all moves) (default: the record's task, vcf or vct, else vcf)"},
			&cli.StringFlag{Name: "attacker", Aliases: []string{"a"},
				Usage: "side to win: black or white (default: the record's attacker, else the side to move; with --pass, the side not to move)"},
			&cli.BoolFlag{Name: "pass",
				Usage: "let the attacker move first when the defender is to move (the defender passes); without --attacker or a record's attacker, the attacker is the side not to move"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"l"},
				Usage: "most attacker moves, counted up to the move that makes the win certain (0: the record's, else none: a VCF may be any length, a VCT or a win at most 60 attacker moves)"},
			&cli.IntFlag{Name: "threat-limit",
				Usage: "vct: longest VCF a quiet threat may threaten; limits 1, 2, ... up to it are searched side by side (0: the record's, else 3, and with --time or --nodes limits 2 and 8 at once, a search that proves no win handing its place to 8 with weak proof-number sums, then 5, 4 and 3)"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Usage: "time limit per position, e.g. 10s (0: none; --mode win with neither --time nor --nodes searches until it decides or Ctrl-C, and says so)"},
			&cli.Int64Flag{Name: "nodes", Usage: "node limit per position (0: none)"},
			&cli.IntFlag{Name: "memory", EnvVars: []string{"GOMOKU_MEMORY"}, Value: solver.DefaultMemoryMiB,
				Usage: "in-memory transposition tables, MiB"},
			&cli.BoolFlag{Name: "shortest", Value: true,
				Usage: "vcf: prove the line shortest by searching every shorter limit after a win (--shortest=false: the first line found)"},
			&cli.BoolFlag{Name: "pass-threats",
				Usage: "win, experimental: after a quiet move that threatens no VCF, try whether a defender pass loses to a VCT (a threat of order 3); if so, answer one by one only the moves that can change that VCT, the others by the VCT itself (off: every move answered)"},
			&cli.BoolFlag{Name: "quiet-threats", Value: true,
				Usage: "win: when the VCT proves there is no VCT, try the quiet moves (no four, no threat of a VCF) after which a defender pass would lose to a VCT, the smallest relevance zone first, each proven whole-board as prove proves an opening (its zone's replies searched one by one), before the search over all moves; --quiet-threats=false goes straight to that search"},
			&cli.StringFlag{Name: "tt", EnvVars: []string{"GOMOKU_TT"},
				Usage: "badger store `DIR` of solved results: read before searching, written after (none by default)"},
			checkpointFlag(),
			&cli.StringFlag{Name: "proof", Usage: "write the proof tree of each win to `FILE` (JSON Lines, one proof per line)"},
			&cli.BoolFlag{Name: "progress", Usage: "report the running search's nodes and time on standard error (one line, rewritten, on a terminal), which search it is (vcf, vct and its threat limit, win) and, for the proof-number searches, the root's proof and disproof numbers as of its last return to the root; and the quiet threats' steps (--mode win: the moves probed, each move tried and its round)"},
			&cli.StringFlag{Name: "shard", Usage: shardUsage},
		),
		Action: runSolve(stdin),
	}
}

// solveRecord is the JSON line written per position by solve.
type solveRecord struct {
	Source   string   `json:"source"`
	Index    int      `json:"index"`
	ID       string   `json:"id,omitempty"`
	Rule     string   `json:"rule"`
	Size     int      `json:"size"`
	ToMove   string   `json:"to_move"`
	Attacker string   `json:"attacker"`
	Mode     string   `json:"mode"`
	Result   string   `json:"result"`
	Line     []string `json:"line"`
	LineEnd  string   `json:"line_end,omitempty"`
	// Shortest says no line with fewer attacker moves exists (VCF).
	Shortest bool `json:"shortest,omitempty"`
	// AttackerMoves counts the attacker moves of the line.
	AttackerMoves int `json:"attacker_moves,omitempty"`
	// SolvedBy is the search that decided: vcf; vct when no VCF won; win
	// (the search over all moves), or quiet-threat when the win's first
	// move is a quiet move proven whole-board (--quiet-threats).
	SolvedBy string `json:"solved_by,omitempty"`
	// ThreatLimit is the VCT threat limit of a win, or the largest one of a
	// no-win.
	ThreatLimit int `json:"threat_limit,omitempty"`
	// Limit is the attacker-move limit searched (0: none).
	Limit int `json:"limit"`
	// Exhaustive says a no-win holds at every length, not only within Limit.
	Exhaustive bool    `json:"exhaustive,omitempty"`
	Stopped    string  `json:"stopped,omitempty"`
	ProofNodes int     `json:"proof_nodes"`
	Nodes      int64   `json:"nodes"`
	TimeMS     float64 `json:"time_ms"`
	// CheckMS is the part of TimeMS spent checking the win's line and proof.
	CheckMS   float64 `json:"check_ms,omitempty"`
	TTHits    int64   `json:"tt_hits"`
	FromStore bool    `json:"from_store,omitempty"`
	Note      string  `json:"note,omitempty"`
	// RootNumbers are, for an unknown result of a proof-number search (a
	// VCT of one threat limit, or --mode win), its root's proof and
	// disproof numbers when it stopped.
	RootNumbers *solver.ProofNumbers `json:"root_numbers,omitempty"`
	// Resumed is the checkpoint a search over all moves started from
	// (--tt), if any: its entries and the nodes searched before it.
	Resumed *solver.Checkpoint `json:"resumed,omitempty"`
}

// checkpointFlag is solve's and prove's --checkpoint.
func checkpointFlag() cli.Flag {
	return &cli.DurationFlag{Name: "checkpoint",
		Usage: "with --tt: the search over all moves (--mode win; prove's pass search and defender moves) writes the most worked part of its table (up to 2^18 entries, about 6 MiB) to the store every `INTERVAL`, e.g. 5m, and when it ends unknown (a limit, Ctrl-C); a later search of the same position and limits resumes from it, whatever this flag says (0: no checkpoints written)"}
}

func runSolve(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		in, err := parseInput(c, stdin)
		if err != nil {
			return err
		}
		var mode solver.Mode
		if c.IsSet("mode") {
			if mode, err = solver.ParseMode(c.String("mode")); err != nil {
				return usageError{err}
			}
		}
		attacker, sh, slv, closeStore, err := solverFromFlags(c)
		if err != nil {
			return err
		}
		defer closeStore()
		slv.VCF.Shortest = c.Bool("shortest")
		var proofOut *bufio.Writer
		var proofFile *outputFile
		if path := c.String("proof"); path != "" {
			if proofFile, err = createOutput(path, c.Args().Slice()); err != nil {
				return err
			}
			proofOut = bufio.NewWriter(proofFile)
		}
		out := in.out
		warnedNoLimit := false
		err = in.each(c, func(p *positions.Position, r engine.Rule, b *engine.Board) error {
			if !sh.keep() {
				return nil
			}
			att := attacker
			if att == engine.Empty {
				att = p.Attacker
			}
			if att == engine.Empty {
				att = p.ToMove
				if c.Bool("pass") {
					// the defender is to move and passes: the attacker is
					// the other side (--pass with the side to move as the
					// attacker would change nothing)
					att = p.ToMove.Opponent()
				}
			}
			lim := solver.Limits{Depth: c.Int("limit"), Nodes: c.Int64("nodes"), Time: c.Duration("time"),
				MemoryMiB: c.Int("memory")}
			slv.ThreatLimit = c.Int("threat-limit")
			if p.Puzzle != nil {
				if lim.Depth == 0 && p.Puzzle.Limit < 255 {
					lim.Depth = p.Puzzle.Limit
				}
				if slv.ThreatLimit == 0 {
					slv.ThreatLimit = p.Puzzle.ThreatLimit
				}
			}
			mode := recordMode(mode, p)
			pr := solver.Problem{Board: b, ToMove: p.ToMove, Attacker: att, DefenderPasses: c.Bool("pass")}
			var progress solver.ProgressFunc
			tty := false
			if f, ok := c.App.ErrWriter.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				tty = true
			}
			if c.Bool("progress") {
				progress = func(pg solver.Progress) {
					if tty { // one line, rewritten in place
						fmt.Fprintf(c.App.ErrWriter, "\r\033[K%s: %s", p.Label(), progressText(pg))
						return
					}
					fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", p.Label(), progressText(pg))
				}
				slv.QuietLog = func(line string) {
					if tty {
						fmt.Fprint(c.App.ErrWriter, "\r\033[K")
					}
					fmt.Fprintf(c.App.ErrWriter, "%s: quiet threats: %s\n", p.Label(), line)
				}
			}
			if mode == solver.ModeWin && lim.Time == 0 && lim.Nodes == 0 && !warnedNoLimit {
				warnedNoLimit = true
				fmt.Fprintf(c.App.ErrWriter, "gomoku: --mode win with no --time or --nodes: each search runs until it proves a win or a no-win within %d attacker moves, or Ctrl-C\n", solver.MaxVCTDepth)
			}
			a, err := slv.Solve(c.Context, pr, mode, lim, progress)
			if tty && progress != nil {
				fmt.Fprint(c.App.ErrWriter, "\r\033[K")
			}
			if err != nil {
				if err == solver.ErrDefenderToMove {
					return fmt.Errorf("not a %v puzzle: %v is to move, not the attacker %v (use --pass to let %v pass)",
						mode, p.ToMove, att, p.ToMove)
				}
				return err
			}
			note := ""
			if b.HasFive(att) {
				note = "the attacker already has a five on the board"
			}
			rec := solveRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
				ToMove: p.ToMove.String(), Attacker: att.String(), Mode: mode.String(), Result: a.Status.String(),
				Line: pointStrings(a.Line), LineEnd: a.End.String(), Limit: lim.Depth,
				Stopped: a.Stopped, ProofNodes: a.ProofNodes, Nodes: a.Nodes, TimeMS: ms(a.Elapsed), CheckMS: ms(a.CheckTime), TTHits: a.TTHits,
				FromStore: a.FromStore, Note: note}
			if mode != solver.ModeVCF {
				rec.ThreatLimit = a.ThreatLimit
			}
			rec.RootNumbers = a.Root // set for an unknown result only
			rec.Resumed = a.Resumed
			switch a.Status {
			case solver.StatusWin:
				rec.AttackerMoves, rec.Shortest, rec.SolvedBy = (len(a.Line)+1)/2, a.Shortest, a.Mode.String()
				if a.ByQuietThreat() {
					rec.SolvedBy = "quiet-threat"
				}
				if a.Mode == solver.ModeVCF {
					rec.ThreatLimit = 0
				}
				if rec.ProofNodes == 0 && a.Proof != nil {
					rec.ProofNodes = a.Proof.Len()
				}
				if proofOut != nil && a.Proof != nil {
					data, err := json.Marshal(a.Proof)
					if err != nil {
						return err
					}
					if _, err := proofOut.Write(append(data, '\n')); err != nil {
						return fmt.Errorf("%w: %w", errOutput, err)
					}
				}
			case solver.StatusNoWin:
				rec.Limit, rec.Exhaustive = a.Proven.Depth, a.Proven.Depth == 0
			}
			if in.json {
				return writeJSON(out, rec)
			}
			if in.svg {
				d := svg.Diagram{Board: b, LastMove: lastMove(p), Line: a.Line, LineFirst: att,
					Title: fmt.Sprintf("%s  %s, %s to win by %s", shortLabel(p), r, att, mode)}
				switch a.Status {
				case solver.StatusWin:
					d.Caption = fmt.Sprintf("win by %s in %d moves, ending in %s", a.Mode, rec.AttackerMoves, endPhrase[a.End])
				case solver.StatusNoWin:
					d.Caption = "no win within the limits"
				default:
					d.Caption = "unknown: " + stoppedPhrase(a.Stopped)
				}
				return in.writeSVG(p, d)
			}
			writeSolveText(out, p, b, rec, a)
			return nil
		})
		if proofFile != nil {
			// the proofs so far are kept, also after Ctrl-C or a bad record
			ferr := proofOut.Flush()
			if cerr := proofFile.Commit(); ferr == nil {
				ferr = cerr
			}
			if ferr != nil {
				return ferr
			}
		}
		return err
	}
}

// solverFromFlags reads the flags solve and prove share: --attacker (Empty
// when not given), --limit, --threat-limit, --nodes, --time and --memory
// (checked here), --shard, --pass-threats and --tt. It returns the
// attacker, the shard and a Solver, with the store open when --tt names
// one; done closes it. Errors: usage errors, the store's.
func solverFromFlags(c *cli.Context) (attacker engine.Color, sh *shard, slv *solver.Solver, done func(), err error) {
	done = func() {}
	if s := c.String("attacker"); s != "" {
		if attacker, err = engine.ParseColor(s); err != nil {
			return 0, nil, nil, done, usageError{err}
		}
	}
	if c.Int("limit") < 0 || c.Int64("nodes") < 0 || c.Duration("time") < 0 || c.Int("memory") < 1 ||
		c.Int("threat-limit") < 0 {
		return 0, nil, nil, done, usagef("--limit, --threat-limit, --nodes and --time must not be negative, --memory at least 1")
	}
	if c.Int("threat-limit") > solver.MaxThreatLimit {
		return 0, nil, nil, done, usagef("--threat-limit %d: at most %d", c.Int("threat-limit"), solver.MaxThreatLimit)
	}
	if err := setMemory(c); err != nil {
		return 0, nil, nil, done, err
	}
	if sh, err = parseShard(c.String("shard"), os.Getenv); err != nil {
		return 0, nil, nil, done, err
	}
	slv = solver.NewSolver(c.Int("memory"))
	slv.PassThreats = c.Bool("pass-threats")
	slv.QuietThreats = c.Bool("quiet-threats") // solve's only: prove has --deepen
	if c.Duration("checkpoint") < 0 || c.Duration("checkpoint") > 0 && c.String("tt") == "" {
		return 0, nil, nil, done, usagef("--checkpoint needs --tt and must not be negative")
	}
	slv.CheckpointEvery = c.Duration("checkpoint")
	if dir := c.String("tt"); dir != "" {
		st, err := solver.OpenStore(dir, store.Options{})
		if err != nil {
			return 0, nil, nil, done, err
		}
		slv.Store = st
		done = func() { st.Close() }
	}
	return attacker, sh, slv, done, nil
}

// endPhrase describes how a winning line ends, for people.
var endPhrase = map[proof.End]string{
	proof.EndFive:           "a five",
	proof.EndDoubleFour:     "two five-points (a straight four or a double four)",
	proof.EndForbiddenBlock: "a four whose only block is forbidden to black",
	proof.EndThreat:         "a threat no defence stops",
}

// stoppedPhrase says for people what stopped a search left unknown
// (Result.Stopped): "interrupted" for Ctrl-C, else "stopped by the time
// limit" and the like.
func stoppedPhrase(stopped string) string {
	if stopped == "cancelled" {
		return "interrupted"
	}
	return "stopped by the " + stopped + " limit"
}

// ms converts a duration to milliseconds with microsecond precision.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeSolveText prints one solve result for people.
func writeSolveText(w io.Writer, p *positions.Position, b *engine.Board, rec solveRecord, a solver.Answer) {
	fmt.Fprintf(w, "%s  %s %dx%d  %s to move, attacker %s, %s\n", p.Label(), rec.Rule, p.Size, p.Size,
		rec.ToMove, rec.Attacker, rec.Mode)
	if rec.Note != "" {
		fmt.Fprintf(w, "note: %s\n", rec.Note)
	}
	cost := fmt.Sprintf("%d nodes, %.3f ms", a.Nodes, rec.TimeMS)
	if a.Resumed != nil {
		fmt.Fprintf(w, "resumed from the store's checkpoint: %d table entries, %d nodes searched before it, root %v then\n",
			a.Resumed.Entries, a.Resumed.Nodes, a.Resumed.Root)
	}
	if a.FromStore {
		cost = fmt.Sprintf("from the store, %.3f ms", rec.TimeMS)
	}
	switch a.Status {
	case solver.StatusWin:
		what := "VCF"
		switch a.Mode {
		case solver.ModeVCT:
			what = fmt.Sprintf("VCT (threat limit %d)", a.ThreatLimit)
		case solver.ModeWin:
			what = fmt.Sprintf("proof-number search over all moves (threat limit %d)", a.ThreatLimit)
			if a.ByQuietThreat() {
				what = fmt.Sprintf("a quiet threat, %v: a defender pass would lose to a VCT, and each reply in that VCT's relevance zone is answered (threat limit %d)",
					a.Line[0], a.ThreatLimit)
			}
		}
		shortest := ""
		if a.Shortest {
			shortest = ", shortest"
		}
		moves := "moves"
		if rec.AttackerMoves == 1 {
			moves = "move"
		}
		fmt.Fprintf(w, "result: win by %s; main line %d attacker %s%s, ending in %s (%s)\n",
			what, rec.AttackerMoves, moves, shortest, endPhrase[a.End], cost)
		if a.Mode != solver.ModeVCF {
			fmt.Fprintf(w, "proof: %d moves, every defence answered, checked move by move on a fresh board\n", rec.ProofNodes)
		} else {
			fmt.Fprintf(w, "line replayed and verified on a fresh board\n")
		}
		fmt.Fprintf(w, "line: %s\n", numbered(a.Line))
		drawBoard(w, b, lineMarks(a.Line))
	case solver.StatusNoWin:
		what := "VCF"
		switch rec.Mode {
		case "vct":
			what = fmt.Sprintf("VCF or VCT (threat limit %d)", a.ThreatLimit)
		case "win":
			what = "win of any kind"
		}
		if rec.Exhaustive {
			fmt.Fprintf(w, "result: no-win: no %s of any length (exhaustive; %s)\n", what, cost)
		} else {
			fmt.Fprintf(w, "result: no-win: no %s within %d attacker moves (%s)\n", what, rec.Limit, cost)
		}
		if rec.Mode == "vct" {
			fmt.Fprintln(w, "note: a win may still start with a quiet move; solve --mode win tries those (--quiet-threats)")
		}
	default:
		if rec.RootNumbers != nil {
			cost += "; root " + rec.RootNumbers.String()
		}
		fmt.Fprintf(w, "result: unknown: %s (%s)\n", stoppedPhrase(a.Stopped), cost)
	}
	fmt.Fprintln(w)
}

// recordMode is the search solve runs on p: the --mode given, else the
// record's own task when it is vcf or vct, else VCF.
func recordMode(given solver.Mode, p *positions.Position) solver.Mode {
	if given != 0 {
		return given
	}
	if p.Puzzle != nil && p.Puzzle.Task == "vct" {
		return solver.ModeVCT
	}
	return solver.ModeVCF
}

// progressText is a proof search's progress report as --progress prints
// it: the nodes and seconds so far, then the search that reports and, for
// a proof-number search, its root's proof and disproof numbers, e.g.
// "2404352 nodes, 3.1 s (win, threat limit 3: root proof number 41,
// disproof number 9)".
func progressText(pg solver.Progress) string {
	s := fmt.Sprintf("%d nodes, %.1f s", pg.Nodes, pg.Elapsed.Seconds())
	switch {
	case pg.Search == "":
	case pg.Search == "vcf":
		s += " (vcf)"
	case pg.Root == nil:
		s += fmt.Sprintf(" (%s, threat limit %d)", pg.Search, pg.ThreatLimit)
	default:
		s += fmt.Sprintf(" (%s, threat limit %d: root %v)", pg.Search, pg.ThreatLimit, pg.Root)
	}
	return s
}
