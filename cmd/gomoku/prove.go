package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/svg"
	"gomoku/solver"
	"gomoku/solver/play"
)

func proveCommand(stdin io.Reader) *cli.Command {
	return &cli.Command{
		Name:      "prove",
		Usage:     "prove that the attacker wins an opening whatever the defender, to move, plays: a whole-board proof with a certificate (or, the attacker to move, by quiet moves so proven)",
		ArgsUsage: "FILE... (- for standard input)",
		Description: "For each position with the defender to move (an opening: by default the side that did not move\n" +
			"last is the defender), searches the position as if the defender passed; if the attacker wins that,\n" +
			"only the defender moves in that proof's relevance zone are searched one by one, the others being\n" +
			"answered by the pass proof itself; if it finds no win, every legal defender move is searched (and,\n" +
			"with --every-move, when it ends unknown). Each of those is first\n" +
			"decided by repairing the pass proof (the checker replays it with the defender's stone and only the\n" +
			"positions where it fails are searched again), else by solve --mode win --pass-threats\n" +
			"(proof-number search over all moves with threats of order 3), else, with --deepen, by a quiet\n" +
			"attacker move whose position is proven whole-board in turn (first the two best moves of an\n" +
			"alpha-beta search, --suggest-nodes, then the pass proof's first move and two others by the\n" +
			"five-cell windows' potential). Each result is written to the --tt\n" +
			"store, and flushed, as soon as it is decided: a run killed at any point\n" +
			"resumes from there (a move left unknown is recorded with its budget, and a rerun with no more\n" +
			"--time or --nodes reports it unknown at once unless --retry), and --shard splits the defender\n" +
			"moves across the tasks of a cluster (merge their stores with tt merge, then run once more over\n" +
			"the merged store to assemble the certificate). Moves that are images of one another under a symmetry of the position are searched\n" +
			"once. A win is reported only after its certificate has passed the independent check (the one\n" +
			"verify runs); --proof writes it. A position with the attacker to move (--attacker naming the side\n" +
			"to move) is proven as such a defender move is: the search over all moves, then, with --deepen, the\n" +
			"quiet moves at the root, each position after one proven whole-board within --deepen-time (--survey,\n" +
			"--retry and --jobs apply); its win is a proof tree, checked, that --proof writes as solve's.",
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "attacker", Aliases: []string{"a"},
				Usage: "side to win (default: the side not to move)"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"l"},
				Usage: "most attacker moves of each search, counted up to the move that makes the win certain (0: 60)"},
			&cli.IntFlag{Name: "threat-limit",
				Usage: "longest VCF a quiet threat may threaten (0: the automatic schedule, as solve)"},
			&cli.DurationFlag{Name: "time", Aliases: []string{"t"}, Usage: "time limit of each search: the pass search and each defender move's, e.g. 30s (0: none)"},
			&cli.Int64Flag{Name: "nodes", Usage: "node limit of each search (0: none)"},
			&cli.IntFlag{Name: "memory", EnvVars: []string{"GOMOKU_MEMORY"}, Value: solver.DefaultMemoryMiB,
				Usage: "in-memory transposition tables, MiB"},
			&cli.BoolFlag{Name: "pass-threats", Value: true,
				Usage: "threats of order 3 inside each search (solve --pass-threats); --pass-threats=false answers every defender move after a quiet attacker move"},
			&cli.StringFlag{Name: "tt", EnvVars: []string{"GOMOKU_TT"},
				Usage: "badger store `DIR` of solved results: every search reads it first and writes its result, flushed at once (none by default)"},
			checkpointFlag(),
			&cli.StringFlag{Name: "proof", Usage: "write each proven opening's certificate to `FILE` (JSON Lines, gzip-compressed when FILE ends in .gz; gomoku verify reads it)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 1,
				Usage: "defender moves searched at once, each with tables of --memory MiB of its own; when fewer are left, their deepenings decide inner moves side by side on the goroutines the others returned"},
			&cli.IntFlag{Name: "deepen", Usage: "levels of deepening for a defender move that the repair and the search leave unknown: a quiet attacker move played (up to two suggested by alpha-beta, see --suggest-nodes, then three of the pass proof's first move and nine others near the stones, the smallest relevance zone of a quick pass search first) and the position after it proven whole-board (its own pass proof and zone, stopping at the first defender move left unknown), each search inside within --time, all of a defender move's within --deepen-time; 0: none"},
			&cli.DurationFlag{Name: "deepen-time", Usage: "with --deepen (only), the wall time a deepened defender move may take, all its quiet moves and levels together (0: 8 times --time); above 16 times --time it is shared out: a quiet move may take half of what is left (at least 8 times --time), and one cut short is tried again after the others with what they leave, starting from what the store kept; the deepenings inside take what their quiet move's share leaves, shared out the same way"},
			&cli.IntFlag{Name: "zone-extensions", Value: 1, Usage: "with --deepen, how many times along a line a position proven at the last level of a deepening still deepens its defender moves left unknown, one level more, when its pass proof's zone holds at most 4 moves (a quiet move that leaves so few replies is nearly a threat of the order below); failures are recorded with the extensions counted as levels; 0: none (1 found I3's h5 in 13 s where one level failed within 2 minutes)"},
			&cli.IntFlag{Name: "survey", Usage: "with --deepen, how many levels of deepening, from the top, decide every defender move of a quiet move's zone instead of stopping at the first left unknown (the farthest from the stones first; a no-win still stops it), storing each win, so that the hardest reply left unknown leaves the others proven and a rerun with --retry goes on with the quiet move that has the fewest replies left; deeper levels stop at the first; 0: none (as proving a quiet move as an opening of its own by hand, docs/solving.md)"},
			&cli.Int64Flag{Name: "suggest-nodes", Value: defaultSuggestNodes, Usage: "with --deepen, --descend or --best-first, the nodes of the alpha-beta search (one thread, the default evaluation, two best moves) that suggests the attacker's quiet moves a deepening tries first; a node limit, not a time, so that a rerun tries the same moves; 0: no suggestions"},
			&cli.BoolFlag{Name: "retry", Usage: "with --tt, search again the defender moves that the store records as searched before, with no less --time (or --nodes), and left unknown, and deepen again with the quiet moves recorded as failed with no more --deepen levels, after the quiet moves not so recorded (without it those moves are reported unknown at once, the failed quiet moves skipped, and a defender move whose deepening ran out of a --deepen-time no shorter, with no more levels, is not deepened again, so that a resumed run, a descent's included, goes on to what was not tried yet)"},
			&cli.BoolFlag{Name: "every-move", Usage: "when the pass search ends unknown, search every legal defender move all the same (without it the opening is then unknown at once: a defender stone only takes a cell from the attacker, so each defender move is about as hard as the pass position)"},
			&cli.BoolFlag{Name: "progress", Usage: "report each search's nodes and time on standard error (with the search and its root's proof and disproof numbers, as solve --progress), and each step of a deepening (the quiet move tried, the inner pass search and zone, each inner defender move)"},
			&cli.IntFlag{Name: "descend", Usage: "with --tt, levels of descent for a defender move still unknown after the deepening (\"down a line, then back up\", docs/solving.md): alpha-beta's quiet move played (--suggest-nodes) and the position after it proven as an opening of its own with these same flags, its replies left unknown descended in turn, up to this many attacker moves deep, then each level proven again from the store; the first defender move not so proven stops the opening; 0: none"},
			&cli.DurationFlag{Name: "best-first", Usage: "with --tt, after the opening's defender moves are decided, prove those left unknown by a best-first search over quiet attacker moves for at most this wall time (proof-number search one level up, Allis's pn²: each reply left unknown opens its quiet moves, their initial proof numbers from the zone of a quick pass search; each quiet move is evaluated by proving the position after it as an opening, every reply within --time, short (--time 1s proved twice the quiet moves of 3s on I3; on D8 --time 500ms with --suggest-nodes 300000 proved 45 where 1s with a million proved 21 in the same 37 minutes, 2026-12-07); the numbers go up the tree and the cheapest open reply at any depth goes next), then the opening again from the store; a rerun rebuilds the tree from the store and goes on (not with --deepen or --descend, nor with the attacker to move); 0: none"},
			&cli.IntFlag{Name: "best-first-expansions", Value: 1, Usage: "with --best-first, how many expansions run at once, each with --jobs goroutines and tables of --memory MiB of its own (the store shared), the next going to the most-proving node with those in flight counted as proven; one evaluation keeps about 1.2 of two cores busy"},
			&cli.IntFlag{Name: "best-first-escalate", Usage: "with --best-first, how many times --time (or --nodes) a reply left unknown gets in one longer search of its own, recorded in the store, before its quiet moves are opened; 0 or 1: none (on D8, 8 proved 3 quiet moves where none proved 15 in the same time, 2026-12-06)"},
			&cli.IntFlag{Name: "best-first-escalate-depth", Usage: "with --best-first-escalate, only the replies with at most this many quiet attacker moves above them get the longer search (near the root, where a reply left unknown opens the largest subtree and such replies are few; on D6 at --time 500ms, 16 at depth 1 won 34 of 59 such replies but proved 48 quiet moves where none proved 54 in the same 55 minutes, 2026-12-07); 0: every reply"},
			&cli.IntFlag{Name: "descend-moves", Value: 1, Usage: "with --descend, how many of alpha-beta's two best quiet moves a descent tries in turn at each defender move left unknown (1 or 2)"},
			&cli.StringFlag{Name: "shard", Usage: "search only the defender moves of shard `k/n` (every k-th of each opening's list, counted from 1); auto: the shard a Kubernetes Indexed Job or a Slurm array runs. The certificate needs every shard's results: merge the stores and run again without --shard"},
		),
		Action: runProve(stdin),
	}
}

// proveRecord is the JSON line written per opening by prove.
type proveRecord struct {
	Source   string `json:"source"`
	Index    int    `json:"index"`
	ID       string `json:"id,omitempty"`
	Rule     string `json:"rule"`
	Size     int    `json:"size"`
	ToMove   string `json:"to_move"`
	Attacker string `json:"attacker"`
	// Result is win (the certificate is checked), no-win (a defender move
	// holds within the limits) or unknown.
	Result string `json:"result"`
	// Over, for a no-win decided before any search, says why
	// (solver.OpeningReport.Over: the defender, to move, makes five; a
	// five on the board; a full board); Pass is then left out.
	Over string `json:"over,omitempty"`
	// Pass is the result after a defender pass; PassProofNodes its
	// proof's size; Zone whether the children are its relevance zone.
	Pass           string `json:"pass,omitempty"`
	PassProofNodes int    `json:"pass_proof_nodes,omitempty"`
	// PassRootNumbers are, when the pass search ended unknown, its root's
	// proof and disproof numbers (solve's root_numbers).
	PassRootNumbers *solver.ProofNumbers `json:"pass_root_numbers,omitempty"`
	// PassResumed is the checkpoint the pass search started from (--tt;
	// written by --checkpoint), if any.
	PassResumed *solver.Checkpoint `json:"pass_resumed,omitempty"`
	Zone        bool               `json:"zone"`
	// Legal is the number of legal defender moves; ToDecide those to be
	// searched one by one (the zone's when Zone, else Legal); Children
	// those searched so far (fewer than ToDecide when the run was
	// interrupted), Won, NoWin, Unknown and Skipped (another shard's) them
	// by outcome, Symmetric those decided as images of others, Repaired
	// those decided by repairing the pass proof.
	Legal     int          `json:"legal"`
	ToDecide  int          `json:"to_decide"`
	Children  int          `json:"children"`
	Won       int          `json:"won"`
	NoWin     int          `json:"no_win"`
	Unknown   int          `json:"unknown"`
	Skipped   int          `json:"skipped"`
	Symmetric int          `json:"symmetric"`
	Repaired  int          `json:"repaired"`
	Moves     []proveChild `json:"moves"`
	Limit     int          `json:"limit"`
	CertNodes int          `json:"certificate_nodes,omitempty"`
	CheckMS   float64      `json:"check_ms,omitempty"`
	Nodes     int64        `json:"nodes"`
	TimeMS    float64      `json:"time_ms"`
	Stopped   string       `json:"stopped,omitempty"`
	// Root is, for a position with the attacker to move, its result (the
	// search, then the deepening at the root; its move empty, its line the
	// win's main line); the opening's pass is then left out and its counts
	// are 0.
	Root *proveChild `json:"root,omitempty"`
}

// proveChild is one defender move searched one by one.
type proveChild struct {
	Move       string  `json:"move"`
	Result     string  `json:"result"`
	ProofNodes int     `json:"proof_nodes,omitempty"`
	Symmetric  bool    `json:"symmetric,omitempty"`
	Repaired   bool    `json:"repaired,omitempty"`
	Deepened   bool    `json:"deepened,omitempty"`
	FromStore  bool    `json:"from_store,omitempty"`
	Nodes      int64   `json:"nodes"`
	TimeMS     float64 `json:"time_ms"`
	// RootNumbers are, for a move whose search ended unknown in this run,
	// that search's root proof and disproof numbers (solve's).
	RootNumbers *solver.ProofNumbers `json:"root_numbers,omitempty"`
	// Line is a win's main line (the root of a position with the attacker
	// to move only), Stopped what ran out for an unknown one.
	Line    []string `json:"line,omitempty"`
	Stopped string   `json:"stopped,omitempty"`
}

func runProve(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		in, err := parseInput(c, stdin)
		if err != nil {
			return err
		}
		if c.Int("deepen") < 0 {
			return usagef("--deepen %d: want 0 or more", c.Int("deepen"))
		}
		if c.Duration("deepen-time") < 0 {
			return usagef("--deepen-time %v: want 0 or more", c.Duration("deepen-time"))
		}
		if c.Int("zone-extensions") < 0 || c.IsSet("zone-extensions") && c.Int("zone-extensions") > 0 && c.Int("deepen") == 0 {
			return usagef("--zone-extensions %d: want 0 or more, and only with --deepen (1 or more levels)", c.Int("zone-extensions"))
		}
		if c.Int("survey") < 0 || c.Int("survey") > c.Int("deepen") {
			return usagef("--survey %d: want 0 to --deepen's %d levels", c.Int("survey"), c.Int("deepen"))
		}
		if c.Duration("deepen-time") > 0 && c.Int("deepen") == 0 {
			return usagef("--deepen-time %v: only with --deepen (1 or more levels)", c.Duration("deepen-time"))
		}
		if c.Int("descend") < 0 || c.Int("descend") > 0 && c.String("tt") == "" {
			return usagef("--descend %d: want 0 or more, and a store (--tt) to go back up from", c.Int("descend"))
		}
		if bf := c.Duration("best-first"); bf < 0 || bf > 0 && (c.String("tt") == "" || c.Int("deepen") > 0 || c.Int("descend") > 0) {
			return usagef("--best-first %v: want 0 or more, with a store (--tt) to go back up through, and without --deepen or --descend", bf)
		}
		if e := c.Int("best-first-expansions"); e < 1 {
			return usagef("--best-first-expansions %d: want 1 or more", e)
		}
		if e := c.Int("best-first-escalate"); e < 0 {
			return usagef("--best-first-escalate %d: want 0 or more", e)
		}
		if d := c.Int("best-first-escalate-depth"); d < 0 {
			return usagef("--best-first-escalate-depth %d: want 0 or more", d)
		}
		if m := c.Int("descend-moves"); m < 1 || m > 2 {
			return usagef("--descend-moves %d: want 1 or 2", m)
		}
		if c.Int("jobs") < 1 {
			return usagef("--jobs %d: want 1 or more", c.Int("jobs"))
		}
		if c.Int64("suggest-nodes") < 0 {
			return usagef("--suggest-nodes %d: want 0 or more", c.Int64("suggest-nodes"))
		}
		attacker, sh, slv, closeStore, err := solverFromFlags(c)
		if err != nil {
			return err
		}
		defer closeStore()
		slv.ThreatLimit = c.Int("threat-limit")
		var certOut *bufio.Writer
		var certFile *outputFile
		var zw *gzip.Writer
		if path := c.String("proof"); path != "" {
			if certFile, err = createOutput(path, c.Args().Slice()); err != nil {
				return err
			}
			var w io.Writer = certFile
			if strings.HasSuffix(path, ".gz") {
				zw = gzip.NewWriter(certFile)
				w = zw
			}
			certOut = bufio.NewWriter(w)
		}
		if c.Duration("time") == 0 && c.Int64("nodes") == 0 {
			fmt.Fprintf(c.App.ErrWriter, "gomoku: prove with no --time or --nodes: each search runs until it decides (within %d attacker moves), or Ctrl-C\n", solver.MaxVCTDepth)
		}
		out := in.out
		err = in.each(c, func(p *positions.Position, r engine.Rule, b *engine.Board) error {
			att := attacker
			if att == engine.Empty {
				att = p.ToMove.Opponent()
			}
			lim := solver.Limits{Depth: c.Int("limit"), Nodes: c.Int64("nodes"), Time: c.Duration("time"),
				MemoryMiB: c.Int("memory")}
			pr := solver.Problem{Board: b, ToMove: p.ToMove, Attacker: att}
			opt := solver.OpeningOptions{Jobs: c.Int("jobs"), Deepen: c.Int("deepen"), DeepenTime: c.Duration("deepen-time"), EveryMove: c.Bool("every-move"),
				Retry: c.Bool("retry"), Descend: c.Int("descend"), DescendMoves: c.Int("descend-moves")}
			if opt.Deepen > 0 {
				opt.ZoneExtensions, opt.Survey = c.Int("zone-extensions"), c.Int("survey")
			}
			opt.Escalate, opt.Expansions = c.Int("best-first-escalate"), c.Int("best-first-expansions")
			opt.EscalateDepth = c.Int("best-first-escalate-depth")
			if n := c.Int64("suggest-nodes"); n > 0 && (opt.Deepen > 0 || opt.Descend > 0 || c.Duration("best-first") > 0) {
				opt.Suggest = suggestMoves(n)
			}
			if sh != nil {
				opt.Shard, opt.Shards = sh.k, sh.n
			}
			if !in.json && !in.svg {
				fmt.Fprintf(out, "%s  %v %dx%d  %v to move, attacker %v\n", p.Label(), r, b.Size(), b.Size(), p.ToMove, att)
			}
			if c.Bool("progress") {
				var mu sync.Mutex // the jobs' searches report at once
				opt.SearchProgress = func(pg solver.Progress) {
					mu.Lock()
					defer mu.Unlock()
					fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", p.Label(), progressText(pg))
				}
				opt.Log = func(line string) {
					mu.Lock()
					defer mu.Unlock()
					fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", p.Label(), line)
				}
			}
			opt.Progress = func(ch solver.OpeningChild, decided, total int) {
				if in.json || in.svg {
					return
				}
				fmt.Fprintf(out, "  %3d/%d %-4v %s\n", decided, total, ch.Move, childSummary(ch))
			}
			if att == p.ToMove {
				if c.Duration("best-first") > 0 {
					return usagef("--best-first: %s has the attacker to move; it proves an opening (the defender to move)", p.Label())
				}
				return proveToMove(c, slv, in, certOut, p, r, pr, lim, opt)
			}
			prove := slv.ProveOpening
			switch bf := c.Duration("best-first"); {
			case bf > 0:
				prove = func(ctx context.Context, pr solver.Problem, lim solver.Limits, opt solver.OpeningOptions) (solver.OpeningReport, error) {
					return slv.BestFirstOpening(ctx, pr, lim, opt, bf)
				}
			case opt.Descend > 0:
				prove = slv.DescendOpening
			}
			rep, err := prove(c.Context, pr, lim, opt)
			if err != nil && !errors.Is(err, c.Context.Err()) {
				return err
			}
			rec := proveRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
				ToMove: p.ToMove.String(), Attacker: att.String(), Result: rep.Status.String(),
				Pass: rep.Pass.Status.String(), PassProofNodes: rep.Pass.ProofNodes, Zone: rep.PassZone,
				Legal: rep.Legal, ToDecide: rep.Total, Children: len(rep.Children), Won: rep.Won, NoWin: rep.NoWin,
				Unknown: rep.Unknown, Skipped: rep.Skipped, Limit: lim.Depth, Nodes: rep.Nodes,
				TimeMS: ms(rep.Elapsed), CheckMS: ms(rep.CheckTime), Moves: []proveChild{}}
			rec.PassRootNumbers = rep.Pass.Root // set when the pass search ended unknown only
			rec.PassResumed = rep.Pass.Resumed
			if rep.Over != "" {
				rec.Over, rec.Pass = rep.Over, "" // nothing searched
			}
			if err != nil {
				rec.Stopped = "cancelled"
			}
			for _, ch := range rep.Children {
				pc := proveChild{Move: ch.Move.String(), Result: ch.Status.String(), Symmetric: ch.Symmetric, Repaired: ch.Repaired, Deepened: ch.Deepened,
					FromStore: ch.FromStore, Nodes: ch.Nodes, TimeMS: ms(ch.Elapsed)}
				if ch.Skipped {
					pc.Result = "skipped"
				}
				if ch.Proof != nil {
					pc.ProofNodes = ch.Proof.Len()
				}
				pc.RootNumbers = ch.Root // an unknown search's in this run only (the store keeps none)
				if ch.Symmetric {
					rec.Symmetric++
				}
				if ch.Repaired {
					rec.Repaired++
				}
				rec.Moves = append(rec.Moves, pc)
			}
			if rep.Certificate != nil {
				rec.CertNodes = rep.Certificate.Len()
				if certOut != nil {
					data, merr := rep.Certificate.MarshalLines()
					if merr != nil {
						return merr
					}
					if _, werr := certOut.Write(data); werr != nil {
						return fmt.Errorf("%w: %w", errOutput, werr)
					}
				}
			}
			switch {
			case in.json:
				if werr := writeJSON(out, rec); werr != nil {
					return werr
				}
			case in.svg:
				if werr := in.writeSVG(p, openingDiagram(p, r, b, rec, rep)); werr != nil {
					return werr
				}
			default:
				writeProveText(out, rec, rep)
			}
			return err
		})
		if certFile != nil {
			// the certificates so far are kept, also after Ctrl-C or a bad record
			ferr := certOut.Flush()
			if zw != nil {
				if cerr := zw.Close(); ferr == nil {
					ferr = cerr
				}
			}
			if cerr := certFile.Commit(); ferr == nil {
				ferr = cerr
			}
			if ferr != nil {
				return ferr
			}
		}
		return err
	}
}

// childSummary describes a defender move's result in a few words.
func childSummary(ch solver.OpeningChild) string {
	switch {
	case ch.Skipped:
		return "skipped (another shard's)"
	case ch.Symmetric:
		return fmt.Sprintf("%v (by symmetry)", ch.Status)
	}
	s := ch.Status.String()
	switch ch.Status {
	case solver.StatusWin:
		s = fmt.Sprintf("win, proof %d moves", ch.Proof.Len())
	case solver.StatusNoWin:
		s = "no win within the limits"
	case solver.StatusUnknown:
		s = "unknown: " + stoppedPhrase(ch.Stopped)
		switch ch.Stopped {
		case solver.StoppedDeepenTime:
			s = "unknown: the deepening ran out of time"
		case solver.StoppedDeepenMoves:
			s = "unknown: every move the deepening tried left a defender move unknown"
		}
		if ch.Attempted {
			s = "unknown: " + ch.Stopped + " ended unknown (--retry searches it again)"
		}
	}
	if ch.FromStore {
		return s + " (from the store)"
	}
	how := ""
	switch {
	case ch.Repaired:
		how = "repaired, "
	case ch.Deepened:
		how = "deepened, "
	}
	numbers := ""
	if ch.Root != nil {
		numbers = "; root " + ch.Root.String()
	}
	return fmt.Sprintf("%s (%s%d nodes, %.1f s%s)", s, how, ch.Nodes, ch.Elapsed.Seconds(), numbers)
}

// defaultSuggestNodes is --suggest-nodes's default: about one to three
// seconds of alpha-beta on one core (0.35 to 0.9 M nodes a second with the
// network or the tables).
const defaultSuggestNodes = 1_000_000

// suggestMoves is prove's OpeningOptions.Suggest: the attacker's two best
// moves by alpha-beta (solver/play) on the default evaluation (--eval
// auto), one thread, within nodes nodes, so that the same position always
// gets the same moves. A search that fails (the game is over, no move)
// suggests nothing. Each call has its own table (16 MiB): deepenings of
// several jobs may ask at once.
func suggestMoves(nodes int64) func(context.Context, *engine.Board, engine.Color) []engine.Point {
	w := withNetworks(nil, true)
	return func(ctx context.Context, b *engine.Board, att engine.Color) []engine.Point {
		ab := play.NewAlphaBeta(16)
		ab.Weights = w
		rep, err := ab.Search(ctx, b, att, solver.Limits{Nodes: nodes}, 2, nil, nil)
		if err != nil {
			return nil
		}
		var out []engine.Point
		for _, m := range rep.Moves {
			out = append(out, m.Move)
		}
		return out
	}
}

// writeUndecided writes, after an opening's result line, the defender
// moves not won: those left unknown and those that held within the limits
// (rec.Moves's results unknown and no-win), one line each kind, in the
// order searched; nothing when there are none. A resumed proof's next
// run, and the person reading it, start from these moves.
func writeUndecided(w io.Writer, rec proveRecord) {
	for _, kind := range []string{solver.StatusUnknown.String(), solver.StatusNoWin.String()} {
		var moves []string
		for _, m := range rec.Moves {
			if m.Result == kind {
				moves = append(moves, m.Move)
			}
		}
		if len(moves) > 0 {
			fmt.Fprintf(w, "%s (%d): %s\n", kind, len(moves), strings.Join(moves, " "))
		}
	}
}

// passOnly reports whether the pass search ended unknown and nothing else
// was searched (OpeningOptions.EveryMove off), the run not interrupted.
func (rec proveRecord) passOnly() bool {
	return rec.Pass == solver.StatusUnknown.String() && rec.Children == 0 && rec.Stopped == ""
}

// writeProveText writes an opening's summary for people, then the
// defender moves not won (writeUndecided).
func writeProveText(w io.Writer, rec proveRecord, rep solver.OpeningReport) {
	pass := "pass: " + rec.Pass
	if c := rec.PassResumed; c != nil {
		fmt.Fprintf(w, "the pass search resumed from the store's checkpoint: %d table entries, %d nodes searched before it, root %v then\n",
			c.Entries, c.Nodes, c.Root)
	}
	if rep.Pass.Status == solver.StatusWin {
		pass = fmt.Sprintf("pass: win, proof %d moves", rep.Pass.ProofNodes)
	}
	passOnly := rec.passOnly()
	if rep.Over != "" {
		fmt.Fprintf(w, "result: no-win: %s (nothing searched)\n", rep.Over)
		return
	}
	switch {
	case rec.Zone:
		fmt.Fprintf(w, "%s; %d of %d legal defender moves in its zone, the others answered by it\n", pass, rec.ToDecide, rec.Legal)
	case passOnly:
		fmt.Fprintf(w, "%s; the %d legal defender moves not searched (each about as hard as the pass position: raise --time or --nodes, or --every-move)\n", pass, rec.Legal)
	case rec.Stopped == "" || rec.Children > 0:
		fmt.Fprintf(w, "%s; all %d legal defender moves to search\n", pass, rec.Legal)
	default:
		fmt.Fprintf(w, "%s\n", pass)
	}
	switch {
	case rec.Stopped != "":
		fmt.Fprintf(w, "result: interrupted: %d of %d defender moves searched, %d won, %d no-win, %d unknown so far (%d nodes, %.1f s)\n",
			rec.Children, rec.ToDecide, rec.Won, rec.NoWin, rec.Unknown, rec.Nodes, rec.TimeMS/1000)
	case passOnly:
		numbers := ""
		if n := rec.PassRootNumbers; n != nil {
			numbers = "; root " + n.String()
		}
		fmt.Fprintf(w, "result: unknown: the search after a defender pass %s (%d nodes, %.1f s%s)\n",
			stoppedPhrase(rep.Pass.Stopped), rec.Nodes, rec.TimeMS/1000, numbers)
	case rep.Status == solver.StatusWin:
		fmt.Fprintf(w, "result: win, certificate of %d moves, checked in %.1f s (%d searched, %d of them repaired, %d by symmetry; %d nodes, %.1f s)\n",
			rec.CertNodes, rec.CheckMS/1000, rec.Children-rec.Symmetric, rec.Repaired, rec.Symmetric, rec.Nodes, rec.TimeMS/1000)
	default:
		fmt.Fprintf(w, "result: %s: %d of %d defender moves won, %d no-win within the limits, %d unknown, %d left to other shards (%d nodes, %.1f s)\n",
			rec.Result, rec.Won, rec.Children, rec.NoWin, rec.Unknown, rec.Skipped, rec.Nodes, rec.TimeMS/1000)
	}
	writeUndecided(w, rec)
}

// openingDiagram draws an opening's proof as it stands (prove --format
// svg): the position, the defender moves won highlighted, those left
// unknown labelled "?", those that held within the limits "×" and other
// shards' "s"; cells not labelled nor highlighted are answered by the
// pass proof (or, when its search ended unknown, not reached). The
// caption gives the result line's figures.
func openingDiagram(p *positions.Position, r engine.Rule, b *engine.Board, rec proveRecord, rep solver.OpeningReport) svg.Diagram {
	d := svg.Diagram{Board: b, LastMove: lastMove(p), Labels: map[engine.Point]string{},
		Title: fmt.Sprintf("%s  %s, %s to move, %s attacking", shortLabel(p), r, rec.ToMove, rec.Attacker)}
	for _, ch := range rep.Children {
		switch {
		case ch.Skipped:
			d.Labels[ch.Move] = "s"
		case ch.Status == solver.StatusWin:
			d.Highlight = append(d.Highlight, ch.Move)
		case ch.Status == solver.StatusNoWin:
			d.Labels[ch.Move] = "×"
		default:
			d.Labels[ch.Move] = "?"
		}
	}
	pass := "the pass search: " + rec.Pass
	if rep.Pass.Status == solver.StatusWin {
		pass = fmt.Sprintf("pass proof %d moves", rep.Pass.ProofNodes)
		if rec.Zone {
			pass += fmt.Sprintf(", its zone %d of %d defender moves", rec.ToDecide, rec.Legal)
		}
	}
	switch {
	case rep.Status == solver.StatusWin:
		d.Caption = fmt.Sprintf("win: certificate of %d moves, checked; %s; all %d won (green)", rec.CertNodes, pass, rec.ToDecide)
	case rec.passOnly():
		d.Caption = fmt.Sprintf("unknown: the search after a defender pass %s; no defender move searched", stoppedPhrase(rep.Pass.Stopped))
	case rec.Stopped != "":
		d.Caption = fmt.Sprintf("interrupted: %s; %d of %d searched, %d won (green), %d unknown (?), %d no-win (×)",
			pass, rec.Children, rec.ToDecide, rec.Won, rec.Unknown, rec.NoWin)
	default:
		d.Caption = fmt.Sprintf("%s: %s; %d of %d won (green), %d unknown (?), %d no-win within the limits (×)",
			rec.Result, pass, rec.Won, rec.ToDecide, rec.Unknown, rec.NoWin)
		if rec.Skipped > 0 {
			d.Caption += fmt.Sprintf(", %d other shards' (s)", rec.Skipped)
		}
	}
	return d
}

// proveToMove proves p (pr: the attacker to move) with
// slv's ProveToMove and writes its result: a proveRecord whose Root
// holds it (--format json), a diagram of the proof's main line (--format
// svg, as solve draws one), or a line for people; a win's proof tree goes
// to certOut (--proof), one JSON line as solve --proof writes it. Errors:
// the search's and the output's (Ctrl-C is none: the record says
// cancelled).
func proveToMove(c *cli.Context, slv *solver.Solver, in *input, certOut *bufio.Writer, p *positions.Position, r engine.Rule,
	pr solver.Problem, lim solver.Limits, opt solver.OpeningOptions) error {
	out := in.out
	prove := slv.ProveToMove
	if opt.Descend > 0 {
		prove = slv.DescendToMove
	}
	ch, err := prove(c.Context, pr, lim, opt)
	if err != nil && !errors.Is(err, c.Context.Err()) {
		return err
	}
	root := proveChild{Result: ch.Status.String(), Deepened: ch.Deepened, FromStore: ch.FromStore,
		Nodes: ch.Nodes, TimeMS: ms(ch.Elapsed), RootNumbers: ch.Root}
	if ch.Status == solver.StatusUnknown {
		root.Stopped = ch.Stopped
	}
	rec := proveRecord{Source: p.Source, Index: p.Index, ID: p.ID, Rule: r.String(), Size: p.Size,
		ToMove: p.ToMove.String(), Attacker: pr.Attacker.String(), Result: ch.Status.String(),
		Limit: lim.Depth, Nodes: ch.Nodes, TimeMS: ms(ch.Elapsed), CheckMS: ms(ch.CheckTime), Moves: []proveChild{}, Root: &root}
	if ch.Proof != nil {
		root.ProofNodes, rec.CertNodes = ch.Proof.Len(), ch.Proof.Len()
		root.Line = pointStrings(ch.Line)
		if certOut != nil {
			data, merr := json.Marshal(ch.Proof)
			if merr != nil {
				return merr
			}
			if _, werr := certOut.Write(append(data, '\n')); werr != nil {
				return fmt.Errorf("%w: %w", errOutput, werr)
			}
		}
	}
	if err != nil {
		rec.Stopped = "cancelled"
	}
	if in.json {
		if werr := writeJSON(out, rec); werr != nil {
			return werr
		}
		return err
	}
	if in.svg {
		d := svg.Diagram{Board: pr.Board, LastMove: lastMove(p), Line: ch.Line, LineFirst: pr.Attacker,
			Title: fmt.Sprintf("%s  %s, %s to move and win", shortLabel(p), r, pr.Attacker)}
		switch ch.Status {
		case solver.StatusWin:
			d.Caption = fmt.Sprintf("win, proven whole-board: proof %d moves, checked; its main line", root.ProofNodes)
		default:
			d.Caption = "result: " + childSummary(ch)
		}
		if werr := in.writeSVG(p, d); werr != nil {
			return werr
		}
		return err
	}
	if ch.Status == solver.StatusWin {
		how := "by the search over all moves"
		switch {
		case ch.FromStore:
			how = "from the store"
		case ch.Deepened:
			how = fmt.Sprintf("by deepening: the quiet move %v, each reply in its pass proof's zone answered", ch.Line[0])
		}
		fmt.Fprintf(out, "result: win %s; proof %d moves, checked move by move on a fresh board (%d nodes, %.1f s)\n",
			how, root.ProofNodes, ch.Nodes, ch.Elapsed.Seconds())
		fmt.Fprintf(out, "line: %s\n", numbered(ch.Line))
		return err
	}
	fmt.Fprintf(out, "result: %s\n", childSummary(ch))
	return err
}
