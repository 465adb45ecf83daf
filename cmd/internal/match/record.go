package match

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gomoku/engine"
)

// writeRecords writes game g into dir as NNN.psq (Piskvork's record:
// "Piskvorky NxN, 11:11, 0", then "x,y,ms" per move, 1-based with y from
// the top, then the engines' names and the winning side's number, 1 for
// the first mover's brain, 2 for the other, 0 for a draw) and NNN.sgf
// (GM[4], with RU, PB, PW, RE and a comment saying how the game ended).
func writeRecords(dir string, cfg *Config, g *GameResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, fmt.Sprintf("%03d", g.Index+1))
	var psq strings.Builder
	fmt.Fprintf(&psq, "Piskvorky %dx%d, 11:11, 0\n", cfg.Size, cfg.Size)
	for i, m := range g.Moves {
		t := int64(0)
		if i < len(g.Times) {
			t = g.Times[i]
		}
		fmt.Fprintf(&psq, "%d,%d,%d\n", m.X()+1, cfg.Size-m.Y(), t)
	}
	fmt.Fprintf(&psq, "%s\n%s\n", cfg.Engines[g.Black].Name, cfg.Engines[g.White].Name)
	switch g.Winner {
	case engine.Black:
		psq.WriteString("1\n")
	case engine.White:
		psq.WriteString("2\n")
	default:
		psq.WriteString("0\n")
	}
	if err := writeNew(base+".psq", psq.String()); err != nil {
		return err
	}
	var sgf strings.Builder
	rule := map[engine.Rule]string{engine.Freestyle: "freestyle", engine.Standard: "standard", engine.Renju: "renju"}[cfg.Rule]
	re := "0"
	switch g.Winner {
	case engine.Black:
		re = "B+" + reasonWord(g.Reason)
	case engine.White:
		re = "W+" + reasonWord(g.Reason)
	}
	fmt.Fprintf(&sgf, "(;GM[4]FF[4]SZ[%d]RU[%s]PB[%s]PW[%s]RE[%s]GN[game %d, %s]C[%s]", cfg.Size, rule,
		sgfText(cfg.Engines[g.Black].Name), sgfText(cfg.Engines[g.White].Name), re, g.Index+1, sgfText(g.Opening),
		sgfText(strings.TrimSpace(g.Reason+" "+g.Detail)))
	for i, m := range g.Moves {
		c := "B"
		if i%2 == 1 {
			c = "W"
		}
		fmt.Fprintf(&sgf, ";%s[%c%c]", c, 'a'+m.X(), 'a'+(cfg.Size-1-m.Y()))
	}
	sgf.WriteString(")\n")
	return writeNew(base+".sgf", sgf.String())
}

// writeNew writes a record to a file that must not exist yet: a record is
// never written over another (checkOutDir refuses a directory that holds
// an earlier match's).
func writeNew(name, data string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// reasonWord is SGF's word for how a game was won: R for a five (and the
// rest), T for time, F for a forfeit (an illegal or forbidden move, a
// crash).
func reasonWord(reason string) string {
	switch reason {
	case "timeout":
		return "T"
	case "five":
		return "R"
	}
	return "F"
}

// sgfText escapes a property value.
func sgfText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(s)
}
