package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
	"golang.org/x/text/encoding/simplifiedchinese"

	"gomoku/book"
	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/svg"
	"gomoku/solver"
	"gomoku/solver/proof"
	"gomoku/solver/store"
)

func bookCommand(stdin io.Reader) *cli.Command {
	bookFlag := &cli.StringFlag{Name: "book", Aliases: []string{"b"}, EnvVars: []string{"GOMOKU_BOOK"}, Required: true,
		Usage: "the book: a badger database `DIR`"}
	ruleFlag := &cli.StringFlag{Name: "rule", Aliases: []string{"r"}, Value: "renju", Usage: "rule of the library's positions"}
	return &cli.Command{
		Name:  "book",
		Usage: "keep an opening book: build it from games and analyses, query it, import and export RenLib libraries, merge shards",
		Description: "A book node is a position (the least of its 8 symmetric images, with the rule and board size): the games\n" +
			"that reached it by result, the moves played from it with their results, proven wins from `gomoku analyze`,\n" +
			"and library moves and comments from RenLib files.",
		Subcommands: []*cli.Command{
			{
				Name:      "build",
				Usage:     "add game records, `gomoku analyze --format json` output, or certificates of `gomoku prove`, to the book",
				ArgsUsage: "FILES-OR-DIRS...",
				Description: "Every position of every game counts the game and its result (the record's, or the colour of a final\n" +
					"five), and the move played. Analysis records also mark proven wins, once confirmed; a certificate of a whole-board\n" +
					"proof (prove --proof), once checked, marks its position lost for the side to move and the attacker's stones\n" +
					"as winning moves one ply earlier, with the certificate's SHA-256. The book is written in one batch at the\n" +
					"end; an interrupted build writes nothing.",
				Flags: append(inputFlags()[2:], bookFlag,
					&cli.StringFlag{Name: "shard", Usage: shardUsage},
					&cli.IntFlag{Name: "max-ply", Usage: "stop each game after this many moves (0: none)"}, bookMemoryFlag),
				Action: runBookBuild(stdin),
			},
			{
				Name:      "query",
				Usage:     "show the book moves of each position, with their statistics",
				ArgsUsage: "FILE... (- for standard input)",
				Flags:     append(inputFlags(), bookFlag),
				Action:    runBookQuery(stdin),
			},
			{
				Name:      "import",
				Usage:     "add RenLib libraries (.lib) to the book: their moves and comments",
				ArgsUsage: "LIB...",
				Flags:     []cli.Flag{bookFlag, ruleFlag},
				Action:    runBookImport,
			},
			{
				Name:      "export",
				Usage:     "write the book's 15x15 positions of one rule as a RenLib library",
				ArgsUsage: "OUT.lib",
				Flags: []cli.Flag{bookFlag, ruleFlag,
					&cli.IntFlag{Name: "max-depth", Usage: "most moves of a line (0: none)"}},
				Action: runBookExport,
			},
			{
				Name:      "merge",
				Usage:     "add other books (the shards of a build, say) to the book",
				ArgsUsage: "BOOK-DIR...",
				Flags:     []cli.Flag{bookFlag, bookMemoryFlag},
				Action:    runBookMerge,
			},
			{
				Name:  "check",
				Usage: "verify every table's checksums and decode every node; exit 1 when the book is damaged",
				Flags: []cli.Flag{bookFlag},
				Action: func(c *cli.Context) error {
					bk, err := openBookFlag(c, false)
					if err != nil {
						return err
					}
					defer bk.Close()
					rep, err := bk.Check()
					if err != nil {
						return err
					}
					return writeCheck(c, "book", c.String("book"), rep.Files, "nodes", rep.Nodes, rep.Corrupt)
				},
			},
		},
	}
}

// bookMemoryFlag is book build's and merge's --memory: the soft limit of
// the process's memory (Go's runtime/debug.SetMemoryLimit), which the
// garbage collector works to stay under. A build streams its positions to
// the book in parts (book.Writer), so what it holds does not grow with its
// input; the limit keeps the collector from letting badger's compaction
// buffers pile up. 75,000 games: 0.91 GB without it, 0.59 GB with 384;
// 150,000 games: 0.55 GB with 384 (2026-11-29).
var bookMemoryFlag = &cli.IntFlag{Name: "memory", Value: 384, Usage: "soft limit of the process's memory, MiB (Go's GOMEMLIMIT; the environment variable wins)"}

// setMemoryLimit applies bookMemoryFlag, unless GOMEMLIMIT is set.
func setMemoryLimit(c *cli.Context) error {
	mib := c.Int("memory")
	if mib < 64 {
		return usagef("--memory %d: want at least 64 MiB", mib)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(mib) << 20)
	}
	return nil
}

// openBookFlag opens the book --book names: to write (created if
// needed), or to read (it must exist).
func openBookFlag(c *cli.Context, write bool) (*book.Book, error) {
	return book.Open(c.String("book"), store.Options{ReadOnly: !write})
}

// writeBook adds what bd gathered to the book --book names, in one batch,
// unless the command was interrupted (then nothing is written).
func writeBook(c *cli.Context, bd *book.Builder) error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	bk, err := openBookWrite(c)
	if err != nil {
		return err
	}
	if err := writeBookTo(c, bk, bd); err != nil {
		bk.Close()
		return err
	}
	return bk.Close()
}

// openBookWrite opens the book --book names to write, saying so when the
// open rolled back a write a crash had interrupted.
func openBookWrite(c *cli.Context) (*book.Book, error) {
	bk, err := openBookFlag(c, true)
	if err != nil {
		return nil, err
	}
	if bk.RolledBack() {
		fmt.Fprintf(c.App.ErrWriter, "gomoku: book %s: a write that a crash interrupted was rolled back\n", c.String("book"))
	}
	return bk, nil
}

// writeBookTo writes what bd gathered to bk (Book.Write), unless the
// command was interrupted; a repeated contribution is a usage error.
func writeBookTo(c *cli.Context, bk *book.Book, bd *book.Builder) error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if err := bk.Write(bd); err != nil {
		if errors.Is(err, book.ErrRepeated) {
			return usageError{fmt.Errorf("book %s: %w", c.String("book"), err)}
		}
		return err
	}
	return nil
}

// analysisLine is the part of an analyze JSON record that a book uses.
type analysisLine struct {
	Rule   string  `json:"rule"`
	Size   int     `json:"size"`
	Result *string `json:"result"`
	Plies  []struct {
		MovePlayed string   `json:"move_played"`
		ForcedWin  *string  `json:"forced_win"`
		Line       []string `json:"line"`
	} `json:"plies"`
}

// isAnalysis reports whether data is `analyze --format json` output.
func isAnalysis(data []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte("\n"))
	return bytes.HasPrefix(line, []byte("{")) && bytes.Contains(line, []byte(`"plies":[`))
}

func runBookBuild(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		sh, err := parseShard(c.String("shard"), os.Getenv)
		if err != nil {
			return err
		}
		src, err := parseSource(c, stdin)
		if err != nil {
			return err
		}
		if c.Int("max-ply") < 0 {
			return usagef("--max-ply %d: want 0 (no limit) or more", c.Int("max-ply"))
		}
		if err := setMemoryLimit(c); err != nil {
			return err
		}
		// the book is opened, and locked, before the input is read: a book
		// another process holds is refused at once
		bk, bd, bw, err := openStream(c)
		if err != nil {
			return err
		}
		defer bk.Close()
		bd.MaxPly = c.Int("max-ply")
		// a part that cannot be written (a full disk) ends the build: it is
		// not a bad record
		var fatal error
		part := bd.Sink
		bd.Sink = func(b *book.Builder) error {
			if err := part(b); err != nil {
				fatal = err
				return err
			}
			return nil
		}
		failed, added := 0, 0
		cl := &claims{}
		report := func(err error) {
			failed++
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", err)
		}
		// analyze's JSON Lines output is read as such, line by line
		analyses := func(name string, data []byte) bool {
			if !isAnalysis(data) {
				return false
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(make([]byte, 1<<20), 64<<20)
			for line := 1; sc.Scan(); line++ {
				if fatal != nil || !bytes.Contains(sc.Bytes(), []byte(`"plies":[`)) || !sh.keep() {
					continue
				}
				if err := addAnalysis(c.Context, bd, cl, sc.Bytes(), src.rule, src.ruleSet); err != nil {
					report(&positions.ParseError{File: name, Line: line, Record: line - 1, Err: err})
					continue
				}
				added++
			}
			return true
		}
		// prove's certificates (gzip or not) are checked, then marked
		certs := func(name string, data []byte) bool {
			data, err := gunzipIfGzip(name, data)
			if err != nil {
				report(err)
				return true
			}
			first, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte("\n"))
			if _, ok := proof.IsCertificate(first); !ok {
				return false
			}
			lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
			for i := 0; i < len(lines); i++ {
				follow, ok := proof.IsCertificate(lines[i])
				if !ok {
					report(&positions.ParseError{File: name, Line: i + 1, Record: i, Err: fmt.Errorf("%w: not a certificate's header", positions.ErrSyntax)})
					continue
				}
				end := min(len(lines), i+1+follow)
				at := i + 1
				chunk := lines[i:end]
				i = end - 1
				if fatal != nil || !sh.keep() {
					continue
				}
				if err := addCertificate(c.Context, bd, chunk, src.rule, src.ruleSet); err != nil {
					if c.Context.Err() != nil {
						return true
					}
					report(&positions.ParseError{File: name, Line: at, Record: at - 1, Err: err})
					continue
				}
				added++
				cl.certified++
			}
			return true
		}
		raw := func(name string, data []byte) bool { return certs(name, data) || analyses(name, data) }
		err = src.games(c, sh, nil, report, raw, func(p *positions.Position, r engine.Rule) error {
			if fatal != nil {
				return nil
			}
			end, err := bd.AddGame(r, p.Size, p.Moves, recordWinner(p, r))
			if err != nil {
				if fatal != nil {
					return nil
				}
				return err
			}
			if end.Forbidden != engine.NotForbidden {
				// the game ended with black's forbidden move, won by white
				// (RIF): the move is not a book move
				fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: black's move %d %v is forbidden (%s): counted as a white win there\n",
					p.Label(), end.Moves+1, p.Moves[end.Moves], end.Forbidden)
			}
			added++
			return nil
		})
		if err == nil {
			err = fatal
		}
		if err != nil {
			if aerr := bw.Abort(); aerr != nil {
				return aerr
			}
			return err
		}
		if err := commitStream(c, bw, bd); err != nil {
			return err
		}
		if err := bk.Close(); err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "book %s: %d records added, %d positions updated\n", c.String("book"), added, bd.Written())
		if cl.certified > 0 {
			fmt.Fprintf(c.App.Writer, "certificates of whole-board proofs: %d checked and marked proven\n", cl.certified)
		}
		if cl.confirmed+cl.rejected > 0 {
			fmt.Fprintf(c.App.Writer, "forced wins claimed by analyses: %d confirmed and marked proven, %d not confirmed and left out\n",
				cl.confirmed, cl.rejected)
		}
		if failed > 0 {
			return fmt.Errorf("%d record(s) or file(s) failed: %w", failed, errRecords)
		}
		return nil
	}
}

// recordWinner is a record's stated result, else the colour of a final five.
func recordWinner(p *positions.Position, r engine.Rule) engine.Color {
	switch p.Result {
	case "black":
		return engine.Black
	case "white":
		return engine.White
	case "draw":
		return engine.Empty
	}
	if b, err := p.Board(r); err == nil && b.LastMoveWon() {
		_, c := b.LastMove()
		return c
	}
	return engine.Empty
}

// claimCheckNodes bounds the search that confirms each VCT an analysis
// record claims, in nodes; a claim it cannot confirm is not stored.
const claimCheckNodes = 200_000

// claims counts what book build made of the forced wins that analysis
// records claim: confirmed (a VCF line replayed by proof.VerifyLine, or a
// VCT found again by the solver, its proof checked) and not confirmed.
type claims struct {
	slv                 *solver.Solver
	confirmed, rejected int
	certified           int // certificates checked and marked
}

// addCertificate reads one certificate (its lines), checks it with
// proof.VerifyCertificate and marks it in the book (Builder.AddCertificate)
// with the SHA-256 of its lines. A certificate of another rule than the
// book's (when ruleSet) is refused. Errors: the certificate's format, its
// flaw, the book's.
func addCertificate(ctx context.Context, bd *book.Builder, lines [][]byte, rule engine.Rule, ruleSet bool) error {
	cert, err := proof.UnmarshalCertificate(lines)
	if err != nil {
		return err
	}
	if ruleSet && cert.Rule != rule {
		return fmt.Errorf("a certificate under %s, refused for a %s book", cert.Rule, rule)
	}
	if _, err := proof.VerifyCertificate(ctx, cert); err != nil {
		return fmt.Errorf("the certificate fails its check: %w", err)
	}
	data, err := cert.MarshalLines()
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	return bd.AddCertificate(cert.Rule, cert.Size, cert.Black, cert.White, hex.EncodeToString(sum[:]))
}

// check returns the first move of c's forced win on b when the claim (by
// "vcf" or "vct", with its line) is confirmed, else NoPoint. b is not
// changed. Errors: the solver's (a cancelled context).
func (cl *claims) check(ctx context.Context, b *engine.Board, c engine.Color, by string, line []engine.Point) (engine.Point, string, error) {
	if by == "vcf" && len(line) > 0 {
		if _, err := proof.VerifyLine(b, c, line); err == nil {
			return line[0], "vcf", nil
		}
	}
	if by != "vcf" && by != "vct" {
		return engine.NoPoint, "", nil
	}
	if cl.slv == nil {
		cl.slv = solver.NewSolver(64)
	}
	a, err := cl.slv.Solve(ctx, solver.Problem{Board: b, ToMove: c, Attacker: c}, solver.ModeVCT,
		solver.Limits{Nodes: claimCheckNodes}, nil)
	if err != nil || a.Status != solver.StatusWin || len(a.Line) == 0 {
		if errors.Is(err, solver.ErrGameOver) {
			err = nil
		}
		return engine.NoPoint, "", err
	}
	return a.Line[0], a.Mode.String(), nil
}

// addAnalysis adds one analyze record: the game, and the forced wins it
// claims once each is confirmed (claims.check); a claim not confirmed is
// counted and left out. A record of another rule than the book's (rule,
// when ruleSet) is refused: its wins need not hold under the book's rule.
// Black's move on a forbidden point (renju) ends the game there, won by
// white (RIF).
func addAnalysis(ctx context.Context, bd *book.Builder, cl *claims, line []byte, rule engine.Rule, ruleSet bool) error {
	var a analysisLine
	if err := json.Unmarshal(line, &a); err != nil {
		return fmt.Errorf("%w: %v", positions.ErrSyntax, err)
	}
	if a.Rule == "" {
		return fmt.Errorf("%w: the analysis states no rule", positions.ErrSyntax)
	}
	r, err := engine.ParseRule(a.Rule)
	if err != nil {
		return err
	}
	if ruleSet && r != rule {
		return fmt.Errorf("an analysis under %s, refused for a %s book (its wins need not hold under %s)", r, rule, rule)
	}
	moves := make([]engine.Point, len(a.Plies))
	for i, p := range a.Plies {
		q, err := engine.ParsePoint(p.MovePlayed, a.Size)
		if err != nil {
			return fmt.Errorf("ply %d: %w", i, err)
		}
		moves[i] = q
	}
	winner := engine.Empty
	if a.Result != nil {
		if c, err := engine.ParseColor(*a.Result); err == nil {
			winner = c
		}
	}
	// black's forbidden move ends a renju game there (AddGame's Ending)
	end, err := bd.AddGame(r, a.Size, moves, winner)
	if err != nil {
		return err
	}
	moves = moves[:end.Moves]
	var b *engine.Board
	for i, p := range a.Plies[:len(moves)] {
		if p.ForcedWin == nil {
			continue
		}
		if b == nil {
			if b, err = engine.NewBoard(a.Size, r); err != nil {
				return err
			}
			for j, m := range moves[:i] {
				b.Play(m, engine.Color(1+j%2))
			}
		} else {
			for j := b.Stones(); j < i; j++ {
				b.Play(moves[j], engine.Color(1+j%2))
			}
		}
		var claimed []engine.Point
		for _, s := range p.Line {
			q, err := engine.ParsePoint(s, a.Size)
			if err != nil {
				claimed = nil
				break
			}
			claimed = append(claimed, q)
		}
		first, by, err := cl.check(ctx, b, engine.Color(1+i%2), *p.ForcedWin, claimed)
		if err != nil {
			return err
		}
		if first == engine.NoPoint {
			cl.rejected++
			continue
		}
		cl.confirmed++
		if err := bd.AddProven(r, a.Size, moves[:i], by, first); err != nil {
			return err
		}
	}
	return nil
}

// queryMove is one move of a book query, in JSON.
type queryMove struct {
	Move      string  `json:"move"`
	Games     int     `json:"games"`
	BlackWins int     `json:"black_wins"`
	WhiteWins int     `json:"white_wins"`
	Draws     int     `json:"draws"`
	Score     float64 `json:"score"`
	Proven    bool    `json:"proven,omitempty"`
	Library   bool    `json:"library,omitempty"`
}

// queryRecord is the JSON Lines record of `book query`, one per position.
type queryRecord struct {
	Source    string `json:"source"`
	Index     int    `json:"index"`
	ToMove    string `json:"to_move"`
	Found     bool   `json:"found"`
	Games     int    `json:"games"`
	BlackWins int    `json:"black_wins"`
	WhiteWins int    `json:"white_wins"`
	Draws     int    `json:"draws"`
	Proven    string `json:"proven,omitempty"`
	ProvenBy  string `json:"proven_by,omitempty"`
	// Certificate is the SHA-256 of the certificate of a whole-board proof.
	Certificate string      `json:"certificate,omitempty"`
	Comment     string      `json:"comment,omitempty"`
	Moves       []queryMove `json:"moves"`
}

func runBookQuery(stdin io.Reader) cli.ActionFunc {
	return func(c *cli.Context) error {
		in, err := parseInput(c, stdin)
		if err != nil {
			return err
		}
		bk, err := openBookFlag(c, false)
		if err != nil {
			return err
		}
		defer bk.Close()
		return in.each(c, func(p *positions.Position, r engine.Rule, b *engine.Board) error {
			k, sym := book.KeyOf(b)
			n, err := bk.Get(k)
			if err != nil {
				return err
			}
			rec := queryRecord{Source: p.Source, Index: p.Index, ToMove: p.ToMove.String(), Found: n != nil, Moves: []queryMove{}}
			if n != nil {
				rec.Games, rec.BlackWins, rec.WhiteWins, rec.Draws = n.Games(), n.Black, n.White, n.Draws
				rec.Comment, rec.ProvenBy, rec.Certificate = displayText(n.Comment), n.ProvenBy, n.Cert
				if n.Proven != engine.Empty {
					rec.Proven = n.Proven.String()
				}
				for _, m := range n.MovesFor(b, sym) {
					qm := queryMove{Move: m.Point.String(), Games: m.Games(), BlackWins: m.Black, WhiteWins: m.White,
						Draws: m.Draws, Proven: m.Proven, Library: m.Library}
					if g := m.Games(); g > 0 {
						wins := m.Black
						if p.ToMove == engine.White {
							wins = m.White
						}
						qm.Score = (float64(wins) + 0.5*float64(m.Draws)) / float64(g)
					}
					rec.Moves = append(rec.Moves, qm)
				}
			}
			if in.json {
				return writeJSON(in.out, rec)
			}
			if in.svg {
				d := svg.Diagram{Board: b, LastMove: lastMove(p), Labels: map[engine.Point]string{},
					Title: fmt.Sprintf("%s  book, %s to move: %d games", shortLabel(p), p.ToMove, rec.Games)}
				for i, m := range rec.Moves {
					q, err := engine.ParsePoint(m.Move, b.Size())
					if err != nil || i >= 12 {
						continue
					}
					label := fmt.Sprintf("%.0f", 100*m.Score)
					if m.Games == 0 {
						label = "L" // a library move
					}
					if m.Proven {
						label = "W"
						d.Highlight = append(d.Highlight, q)
					}
					d.Labels[q] = label
				}
				d.Caption = "numbers: the score in % for the side to move; W a proven win; L a library move"
				return in.writeSVG(p, d)
			}
			writeQueryText(in.out, p, b, rec)
			return nil
		})
	}
}

// writeQueryText prints one book query for people.
func writeQueryText(w io.Writer, p *positions.Position, b *engine.Board, rec queryRecord) {
	fmt.Fprintf(w, "%s  %s to move\n", p.Label(), rec.ToMove)
	if !rec.Found {
		fmt.Fprintf(w, "not in the book\n\n")
		return
	}
	fmt.Fprintf(w, "%d games: black %d, white %d, draws %d", rec.Games, rec.BlackWins, rec.WhiteWins, rec.Draws)
	if rec.Proven != "" {
		fmt.Fprintf(w, "; proven win for %s (%s)", rec.Proven, rec.ProvenBy)
		if rec.Certificate != "" {
			fmt.Fprintf(w, " sha256:%s", rec.Certificate)
		}
	}
	fmt.Fprintln(w)
	if rec.Comment != "" {
		title, rest := positions.Title(displayText(rec.Comment))
		fmt.Fprintf(w, "comment: %s\n", strings.TrimSpace(title+"\n"+rest))
	}
	marks := map[engine.Point]string{}
	for i, m := range rec.Moves {
		flags := ""
		if m.Proven {
			flags += " proven-win"
		}
		if m.Library {
			flags += " library"
		}
		games := "games"
		if m.Games == 1 {
			games = "game"
		}
		fmt.Fprintf(w, "%3d. %-4s %4d %-5s  score %.2f for %s%s\n", i+1, m.Move, m.Games, games, m.Score, rec.ToMove, flags)
		if pt, err := engine.ParsePoint(m.Move, b.Size()); err == nil && i < 9 {
			marks[pt] = fmt.Sprint(i + 1)
		}
	}
	drawBoard(w, b, marks)
	fmt.Fprintln(w)
}

func runBookImport(c *cli.Context) error {
	rule, err := engine.ParseRule(c.String("rule"))
	if err != nil {
		return usageError{err}
	}
	if c.NArg() == 0 {
		return usagef("name one or more RenLib files")
	}
	bd := book.NewBuilder()
	libNodes := 0
	for _, name := range c.Args().Slice() {
		data, err := readSource(name, c.App.Reader)
		if err != nil {
			return err
		}
		lib, err := positions.ParseRenLib(name, data)
		if err != nil {
			return err
		}
		if err := bd.ImportTree(libTree(lib.Root), rule, 15); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		libNodes += lib.Nodes()
	}
	if err := writeBook(c, bd); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "book %s: %d library nodes imported, %d positions updated\n", c.String("book"), libNodes,
		len(bd.Nodes()))
	return nil
}

func runBookExport(c *cli.Context) error {
	rule, err := engine.ParseRule(c.String("rule"))
	if err != nil {
		return usageError{err}
	}
	if c.NArg() != 1 {
		return usagef("name the .lib file to write")
	}
	bk, err := openBookFlag(c, false)
	if err != nil {
		return err
	}
	defer bk.Close()
	if c.Int("max-depth") < 0 {
		return usagef("--max-depth %d: want 0 (no limit) or more", c.Int("max-depth"))
	}
	tree, err := bk.ExportTree(rule, 15, c.Int("max-depth"))
	if err != nil {
		return err
	}
	if tree == nil || len(tree.Children) == 0 && !tree.HasComment {
		// an empty library is no answer: say what the book holds instead
		held := map[string]int{}
		if err := bk.Each(func(k book.Key, _ *book.Node) error {
			held[fmt.Sprintf("%v %dx%d", k.Rule, k.Size, k.Size)]++
			return nil
		}); err != nil {
			return err
		}
		var kinds []string
		for k, n := range held {
			kinds = append(kinds, fmt.Sprintf("%s (%d positions)", k, n))
		}
		slices.Sort(kinds)
		what := "no positions"
		if len(kinds) > 0 {
			what = strings.Join(kinds, ", ")
		}
		return usagef("the book %s holds no %v 15x15 positions to export (it holds %s): give --rule", c.String("book"), rule, what)
	}
	lib := treeLibrary(tree)
	name := c.Args().First()
	if name == "-" { // the library on standard output, the count on standard error
		if _, err := c.App.Writer.Write(lib.Bytes()); err != nil {
			return fmt.Errorf("%w: %w", errOutput, err)
		}
		fmt.Fprintf(c.App.ErrWriter, "-: %d nodes\n", lib.Nodes())
		return nil
	}
	out, err := createOutput(name, nil)
	if err != nil {
		return err
	}
	if _, err := out.Write(lib.Bytes()); err != nil {
		out.Abort()
		return err
	}
	if err := out.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "%s: %d nodes\n", name, lib.Nodes())
	return nil
}

func runBookMerge(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("name the books to merge in")
	}
	if err := setMemoryLimit(c); err != nil {
		return err
	}
	for _, dir := range c.Args().Slice() {
		if sameFile(dir, c.String("book")) {
			return usagef("%s is the book merged into: a book cannot be merged into itself", dir)
		}
	}
	bk, bd, bw, err := openStream(c)
	if err != nil {
		return err
	}
	defer bk.Close()
	for _, dir := range c.Args().Slice() {
		src, err := book.Open(dir, store.Options{ReadOnly: true})
		if err == nil {
			err = bd.Merge(src)
			src.Close()
		}
		if err != nil {
			if aerr := bw.Abort(); aerr != nil {
				return aerr
			}
			if errors.Is(err, book.ErrRepeated) {
				return usageError{fmt.Errorf("%s: %w: merging it would count them twice", dir, err)}
			}
			return fmt.Errorf("%s: %w", dir, err)
		}
	}
	if err := commitStream(c, bw, bd); err != nil {
		return err
	}
	if err := bk.Close(); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "book %s: %d positions merged from %d books\n", c.String("book"), bd.Written(), c.NArg())
	return nil
}

// openStream opens the book --book names to write (openBookWrite) and a
// streamed write into it (streamInto); the caller closes the book.
func openStream(c *cli.Context) (*book.Book, *book.Builder, *book.Writer, error) {
	bk, err := openBookWrite(c)
	if err != nil {
		return nil, nil, nil, err
	}
	bd, bw, err := streamInto(bk)
	if err != nil {
		bk.Close()
		return nil, nil, nil, err
	}
	return bk, bd, bw, nil
}

// streamInto returns a builder whose nodes go to bk in parts of
// book.DefaultFlushAt (book.Writer), so that a build or a merge of any
// size holds a bounded number of nodes and still lands whole or not at all.
func streamInto(bk *book.Book) (*book.Builder, *book.Writer, error) {
	bw, err := bk.NewWriter()
	if err != nil {
		return nil, nil, err
	}
	bd := book.NewBuilder()
	bd.Sink, bd.FlushAt, bd.Known = bw.Part, book.DefaultFlushAt, bw.Known()
	return bd, bw, nil
}

// commitStream ends a streamed write: committed, or rolled back when the
// command was interrupted; a repeated contribution is a usage error.
func commitStream(c *cli.Context, bw *book.Writer, bd *book.Builder) error {
	if err := c.Context.Err(); err != nil {
		if aerr := bw.Abort(); aerr != nil {
			return aerr
		}
		return err
	}
	if err := bw.Commit(bd); err != nil {
		if errors.Is(err, book.ErrRepeated) {
			return usageError{fmt.Errorf("book %s: %w", c.String("book"), err)}
		}
		return err
	}
	return nil
}

// displayText turns a library comment into UTF-8 for output: as it is when
// it is valid UTF-8, else decoded as GB18030 (RenLib libraries from China
// are in GBK, which GB18030 contains), else with invalid bytes replaced.
func displayText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	if out, err := simplifiedchinese.GB18030.NewDecoder().String(s); err == nil && utf8.ValidString(out) {
		return out
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// libTree converts a RenLib tree to the book's move tree.
func libTree(n *positions.LibNode) *book.TreeNode {
	if n == nil {
		return nil
	}
	t := &book.TreeNode{Move: n.Move, Comment: n.Comment, HasComment: n.HasComment}
	for _, c := range n.Children {
		t.Children = append(t.Children, libTree(c))
	}
	return t
}

// treeLibrary converts the book's move tree (rooted at the empty board) to
// a RenLib library: the root's one child becomes the library's root when the
// empty board has no comment, as RenLib files have it.
func treeLibrary(t *book.TreeNode) *positions.Library {
	var conv func(t *book.TreeNode) *positions.LibNode
	conv = func(t *book.TreeNode) *positions.LibNode {
		n := &positions.LibNode{Move: t.Move, Comment: t.Comment, HasComment: t.HasComment}
		for _, c := range t.Children {
			n.Children = append(n.Children, conv(c))
		}
		return n
	}
	root := conv(t)
	if len(root.Children) == 1 && !root.HasComment {
		root = root.Children[0]
	}
	return &positions.Library{Root: root}
}
