package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"gomoku/book"
	"gomoku/engine"
	"gomoku/solver"
	"gomoku/solver/store"
)

// bookPlayFlags are the flags of play from an opening book (best, pbrain).
func bookPlayFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "book", Usage: "play a book move from the opening book `DIR` while the position is in it"},
		&cli.Float64Flag{Name: "book-min-score", Value: book.DefaultChoice.MinScore,
			Usage: "least score (0 to 1, for the side to move) of a book move chosen by its games"},
		&cli.IntFlag{Name: "book-min-games", Value: book.DefaultChoice.MinGames, Usage: "least games of a book move chosen by its score"},
		&cli.BoolFlag{Name: "book-library", Value: book.DefaultChoice.Library,
			Usage: "play a move only an imported library (RenLib) lists when no move qualifies by its games"},
	}
}

// bookPlayer answers positions from an opening book (book.Node.Choose),
// except where either side has a VCF: a book move is never played past a
// forced win, the side to move's or the opponent's.
type bookPlayer struct {
	bk    *book.Book
	opt   book.ChoiceOptions
	probe *solver.VCFProbe
}

// bookVCFNodes bounds each of bookPlayer's two VCF checks (a few ms).
const bookVCFNodes = 20000

// openBookPlayer opens --book read-only; nil without the flag.
func openBookPlayer(c *cli.Context) (*bookPlayer, error) {
	dir := c.String("book")
	if dir == "" {
		return nil, nil
	}
	if s := c.Float64("book-min-score"); s < 0 || s > 1 || c.Int("book-min-games") < 1 {
		return nil, usagef("--book-min-score must be 0 to 1 and --book-min-games at least 1")
	}
	bk, err := book.Open(dir, store.Options{ReadOnly: true, MustExist: true})
	if err != nil {
		return nil, fmt.Errorf("--book %s: %w", dir, err)
	}
	return &bookPlayer{bk: bk, probe: solver.NewVCFProbe(4), opt: book.ChoiceOptions{MinScore: c.Float64("book-min-score"),
		MinGames: c.Int("book-min-games"), Library: c.Bool("book-library")}}, nil
}

// Close closes the book.
func (bp *bookPlayer) Close() error {
	if bp == nil {
		return nil
	}
	return bp.bk.Close()
}

// move returns the book's choice for toMove on b, ok false when the
// position is not in the book, no move qualifies, or a side has a VCF.
func (bp *bookPlayer) move(b *engine.Board, toMove engine.Color) (book.Choice, bool, error) {
	if bp == nil {
		return book.Choice{}, false, nil
	}
	k, sym := book.KeyOf(b)
	n, err := bp.bk.Get(k)
	if err != nil || n == nil {
		return book.Choice{}, false, err
	}
	ch, ok := n.Choose(b, sym, toMove, bp.opt)
	if !ok {
		return ch, false, nil
	}
	if _, win := bp.probe.Win(b, toMove, bookVCFNodes); win {
		return ch, false, nil
	}
	if _, threat := bp.probe.Win(b, toMove.Opponent(), bookVCFNodes); threat {
		return ch, false, nil
	}
	return ch, true, nil
}

// bookNote describes a book move, written point, for MESSAGE lines and
// reports.
func bookNote(ch book.Choice, point string) string {
	switch ch.Why {
	case "proven":
		return fmt.Sprintf("book move %s: a proven win", point)
	case "games":
		return fmt.Sprintf("book move %s: score %.2f in %d games", point, ch.Score, ch.Games())
	}
	return fmt.Sprintf("book move %s: a library move", point)
}
