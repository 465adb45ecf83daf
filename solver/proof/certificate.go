package proof

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"gomoku/engine"
)

// Certificate is a whole-board proof that the attacker wins a position in
// which the defender is to move (an opening, say): every legal defender
// move is answered by an attacker win. The moves listed in Defences are
// answered one by one, each by its own proof; every other legal defender
// move is answered by Pass, the attacker's win had the defender passed,
// replayed with that stone on the board: the relevance-zone argument of
// Thomsen's λ-search (ICGA Journal 23(4), 2000, section 3) and of
// λ-df-pn (Yoshizoe, Kishimoto and Müller, IJCAI 2007, section 3). The
// zone is the set of listed moves; VerifyCertificate does not trust it, it
// walks Pass under every move left out. With Pass nil every legal
// defender move must be listed.
//
// An attacker node's subtree (Node) has the meaning it has in a Tree, with
// the certificate's Limit and ThreatLimit.
type Certificate struct {
	Rule         engine.Rule
	Size         int
	Black, White []engine.Point
	// Attacker is the side that wins; its opponent is to move.
	Attacker engine.Color
	// Limit is the most attacker moves any branch may take (0: none).
	Limit int
	// ThreatLimit is the longest VCF a quiet threat may threaten.
	ThreatLimit int
	// Pass is the attacker's win after a defender pass, rooted at the
	// attacker's first move; nil: none.
	Pass *Node
	// Defences are the defender moves answered one by one, in the order
	// the certificate lists them.
	Defences []Defence
}

// Len returns the number of moves in the certificate: the listed defences
// and their answers, and the pass proof.
func (c *Certificate) Len() int {
	s := c.Pass.Len()
	for _, d := range c.Defences {
		s += 1 + d.Answer.Len()
	}
	return s
}

// Board sets up the certificate's position. Errors: the engine's, of the
// size, the rule or a stone.
func (c *Certificate) Board() (*engine.Board, error) {
	t := c.header()
	return t.Board()
}

// header is the certificate's position as a Tree without a root.
func (c *Certificate) header() *Tree {
	return &Tree{Rule: c.Rule, Size: c.Size, Black: c.Black, White: c.White, ToMove: c.Attacker.Opponent(),
		Attacker: c.Attacker, DefenderPasses: true, Limit: c.Limit, ThreatLimit: c.ThreatLimit}
}

// Defence returns the proof of the listed defence m as a Tree of the
// position after m (the attacker to move), or nil when m is not listed.
func (c *Certificate) Defence(m engine.Point) *Tree {
	for _, d := range c.Defences {
		if d.Move == m {
			t := c.header()
			t.ToMove, t.DefenderPasses, t.Root = c.Attacker, false, d.Answer
			if c.Attacker == engine.Black {
				t.White = append(slices.Clip(t.White), m)
			} else {
				t.Black = append(slices.Clip(t.Black), m)
			}
			return t
		}
	}
	return nil
}

// VerifyCertificate checks a certificate on a fresh board, independently of
// the searches: the defender to move and without a five-point, the board
// not full (a full board is a draw); each listed defence a legal, distinct
// move whose answer is a valid proof (Verify's walk); with Pass, every
// other legal defender move, over every empty cell, leaves Pass a valid
// proof with that stone on the board; without it, every legal move listed.
// It returns the certificate's size (Len) or the first flaw as a *Error
// whose Path starts with the defender's move; ctx's error if ctx ends
// first. The defences are checked side by side on GOMAXPROCS goroutines,
// each with its own board; the flaw reported is still the first in order
// (the listed defences, then the cells in row order).
func VerifyCertificate(ctx context.Context, c *Certificate) (int, error) {
	if c == nil {
		return 0, &Error{Msg: "empty certificate"}
	}
	if c.Attacker != engine.Black && c.Attacker != engine.White {
		return 0, &Error{Msg: "no attacker"}
	}
	h := c.header()
	b, err := h.scratch()
	if err != nil {
		return 0, &Error{Msg: "position: " + err.Error()}
	}
	defer engine.Release(b)
	att, def := c.Attacker, c.Attacker.Opponent()
	switch {
	case b.HasFive(att) || b.HasFive(def):
		return 0, &Error{Msg: "the game is over: a five is on the board"}
	case b.Count(def, engine.FivePoints) > 0:
		return 0, &Error{Msg: fmt.Sprintf("the defender can make five at %v", b.FirstPoint(def, engine.FivePoints))}
	}
	limit := c.Limit
	if limit <= 0 {
		limit = engine.MaxSize * engine.MaxSize
	}
	v := &proofChecker{ctx: ctx, b: b, att: att, def: def, threat: max(1, c.ThreatLimit)}
	listed := make(map[engine.Point]bool, len(c.Defences))
	for _, d := range c.Defences {
		m := d.Move
		if !b.OnBoard(m) || b.At(m) != engine.Empty || !b.Legal(def, m) {
			return 0, &Error{Path: []engine.Point{m}, Msg: fmt.Sprintf("defence %v is not a legal move", m)}
		}
		if listed[m] {
			return 0, &Error{Path: []engine.Point{m}, Msg: fmt.Sprintf("defence %v is listed twice", m)}
		}
		listed[m] = true
		v.tasks = append(v.tasks, proofTask{path: []engine.Point{m}, node: d.Answer, d: limit, defFirst: 1})
	}
	legal := 0
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			m := engine.PointAt(x, y)
			if b.At(m) != engine.Empty || !b.Legal(def, m) {
				continue
			}
			legal++
			if listed[m] {
				continue
			}
			if c.Pass == nil {
				return 0, &Error{Path: []engine.Point{m}, Msg: fmt.Sprintf("defence %v is not answered (no pass proof)", m)}
			}
			v.tasks = append(v.tasks, proofTask{path: []engine.Point{m}, node: c.Pass, d: limit, defFirst: 1,
				passStones: []engine.Point{m}, wrap: func(err error) error {
					var pe *Error
					if errors.As(err, &pe) {
						return &Error{Path: pe.Path, Msg: fmt.Sprintf("the pass proof does not answer defence %v: %s", m, pe.Msg)}
					}
					return err
				}})
		}
	}
	if legal == 0 {
		return 0, &Error{Msg: "the defender has no legal move (a full board is a draw)"}
	}
	// the defences side by side, each task on a worker's own board
	if err := checkTasks(ctx, v, runtime.GOMAXPROCS(0)); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return c.Len(), nil
}

// PassAnswers checks whether pass, the attacker's win on b after a
// defender pass (b with the defender to move, unchanged on return), also
// answers the defender's move m: replayed by the checker with m's stone on
// the board, as VerifyCertificate replays it (a defence pass lists at m is
// skipped), within limit attacker moves (0: none) and with threat as the
// threat limit. nil: it does; otherwise the first flaw (a *Error) or
// ctx's error. m must be a legal, empty point.
func PassAnswers(ctx context.Context, b *engine.Board, attacker engine.Color, limit, threat int, pass *Node, m engine.Point) error {
	def := attacker.Opponent()
	if !b.OnBoard(m) || b.At(m) != engine.Empty || !b.Legal(def, m) {
		return &Error{Path: []engine.Point{m}, Msg: fmt.Sprintf("defence %v is not a legal move", m)}
	}
	if limit <= 0 {
		limit = engine.MaxSize * engine.MaxSize
	}
	wb := engine.Scratch(b)
	defer engine.Release(wb)
	v := &proofChecker{ctx: ctx, b: wb, att: attacker, def: def, threat: max(1, threat)}
	wb.Play(m, def)
	v.passStones = []engine.Point{m}
	return v.attacker(pass, limit, []engine.Point{m})
}

// certFormat names the certificate's file form; certVersion is its
// version.
const (
	certFormat  = "gomoku-certificate"
	certVersion = 1
)

// certHeader is a certificate's first line.
type certHeader struct {
	positionJSON
	Limit       int  `json:"limit"`
	ThreatLimit int  `json:"threat_limit"`
	Pass        bool `json:"pass"`
	Defences    int  `json:"defences"`
	Nodes       int  `json:"nodes"`
}

// certLine is a certificate's line after the header: the pass proof
// ({"pass": node}) or one listed defence ({"defence", "answer"}).
type certLine struct {
	Pass    *nodeJSON `json:"pass,omitempty"`
	Defence string    `json:"defence,omitempty"`
	Answer  *nodeJSON `json:"answer,omitempty"`
}

// MarshalLines writes the certificate in its file form, JSON Lines: a
// header {"format": "gomoku-certificate", "version": 1, "rule", "size",
// "black", "white", "to_move" (the defender), "attacker", "limit",
// "threat_limit", "pass" (whether a pass proof follows), "defences" (how
// many lines of defences follow), "nodes" (Len)}, then {"pass": node} if
// any, then one {"defence": point, "answer": node} per listed defence;
// nodes as in the proof form ({"move", "defences", "pass"}). Each line
// ends with a newline. A certificate of a large proof stays one line per
// defence, so it streams.
func (c *Certificate) MarshalLines() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	h := certHeader{positionJSON: positionJSON{Format: certFormat, Version: certVersion, Rule: c.Rule.String(), Size: c.Size,
		Black: pointStrings(c.Black), White: pointStrings(c.White), ToMove: c.Attacker.Opponent().String(),
		Attacker: c.Attacker.String()}, Limit: c.Limit, ThreatLimit: c.ThreatLimit, Pass: c.Pass != nil,
		Defences: len(c.Defences), Nodes: c.Len()}
	if err := enc.Encode(h); err != nil {
		return nil, err
	}
	if c.Pass != nil {
		if err := enc.Encode(certLine{Pass: nodeToJSON(c.Pass)}); err != nil {
			return nil, err
		}
	}
	for _, d := range c.Defences {
		if err := enc.Encode(certLine{Defence: d.Move.String(), Answer: nodeToJSON(d.Answer)}); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// IsCertificate reports whether line is a certificate's header (its
// "format" is "gomoku-certificate"), and if so how many lines follow it.
// A line that is not JSON is not a header.
func IsCertificate(line []byte) (follow int, ok bool) {
	var h certHeader
	if json.Unmarshal(line, &h) != nil || h.Format != certFormat {
		return 0, false
	}
	follow = max(0, h.Defences)
	if h.Pass {
		follow++
	}
	return follow, true
}

// UnmarshalCertificate reads a certificate from its lines (the header and
// the lines IsCertificate counts). Errors wrap ErrFormat (with the line,
// 1-based within the certificate), engine.ErrBadPoint, engine.ErrOffBoard,
// engine.ErrBadRule or engine.ErrBadColor.
func UnmarshalCertificate(lines [][]byte) (*Certificate, error) {
	if len(lines) == 0 {
		return nil, fmt.Errorf("%w: no header", ErrFormat)
	}
	var h certHeader
	if err := json.Unmarshal(lines[0], &h); err != nil {
		return nil, fmt.Errorf("%w: line 1: %v", ErrFormat, err)
	}
	if h.Format != certFormat || h.Version != certVersion {
		return nil, fmt.Errorf("%w: format %q version %d", ErrFormat, h.Format, h.Version)
	}
	if h.Size < engine.MinSize || h.Size > engine.MaxSize {
		return nil, fmt.Errorf("%w: size %d: %w", ErrFormat, h.Size, engine.ErrBadSize)
	}
	want := 1 + max(0, h.Defences)
	if h.Pass {
		want++
	}
	if h.Defences < 0 || len(lines) != want {
		return nil, fmt.Errorf("%w: the header announces %d lines, %d given", ErrFormat, want, len(lines))
	}
	c := &Certificate{Size: h.Size, Limit: h.Limit, ThreatLimit: h.ThreatLimit}
	var err error
	if c.Rule, err = engine.ParseRule(h.Rule); err != nil {
		return nil, err
	}
	if c.Attacker, err = engine.ParseColor(h.Attacker); err != nil {
		return nil, err
	}
	toMove, err := engine.ParseColor(h.ToMove)
	if err != nil {
		return nil, err
	}
	if toMove != c.Attacker.Opponent() {
		return nil, fmt.Errorf("%w: %v to move, but the certificate is of the defender to move", ErrFormat, toMove)
	}
	if c.Black, err = parsePoints(h.Black, h.Size); err != nil {
		return nil, err
	}
	if c.White, err = parsePoints(h.White, h.Size); err != nil {
		return nil, err
	}
	rest := lines[1:]
	for i, line := range rest {
		var l certLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, i+2, err)
		}
		if h.Pass && i == 0 {
			if l.Pass == nil || l.Defence != "" {
				return nil, fmt.Errorf("%w: line 2: want the pass proof", ErrFormat)
			}
			if c.Pass, err = nodeFromJSON(l.Pass, h.Size, 0); err != nil {
				return nil, fmt.Errorf("line 2: %w", err)
			}
			continue
		}
		if l.Pass != nil || l.Defence == "" || l.Answer == nil {
			return nil, fmt.Errorf("%w: line %d: want a defence and its answer", ErrFormat, i+2)
		}
		m, err := engine.ParsePoint(l.Defence, h.Size)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+2, err)
		}
		a, err := nodeFromJSON(l.Answer, h.Size, 0)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+2, err)
		}
		c.Defences = append(c.Defences, Defence{Move: m, Answer: a})
	}
	return c, nil
}
