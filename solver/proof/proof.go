package proof

import (
	"encoding/json"
	"errors"
	"fmt"

	"gomoku/engine"
)

// Tree is a checkable proof that the attacker wins a position: a tree whose
// attacker nodes hold one move and, under it, every defence that matters
// with the attacker's answer. Defender moves not listed under a quiet threat
// lose to the threatened VCF of at most ThreatLimit moves, or, under a
// threat of a higher order, to its pass proof (Node.Pass); Verify checks
// that, and everything else, on a fresh board.
type Tree struct {
	Rule           engine.Rule
	Size           int
	Black, White   []engine.Point
	ToMove         engine.Color
	Attacker       engine.Color
	DefenderPasses bool
	// Limit is the most attacker moves the win may take (0: none stated).
	Limit int
	// ThreatLimit is the longest VCF a quiet threat may threaten.
	ThreatLimit int
	// Root is the attacker's first move.
	Root *Node
}

// Node is an attacker move and the defences against it. A move that
// wins at once (a five, two five-points, a forbidden block, or a threat no
// defence stops) has no defences.
//
// Pass, if set, makes the move a threat of a higher order (Thomsen's
// λ-search, 2000, section 3: a move after which a defender pass loses to a
// search of the order below): it is the attacker's win, rooted at the
// attacker's next move, that follows if the defender passes. The listed
// defences are then the moves of the pass proof's relevance zone that must
// be answered one by one, and every other legal defender move is answered
// by Pass itself, replayed with that stone on the board: Verify checks
// each. Pass is set on quiet moves only (not on a four or a winning move).
type Node struct {
	Move     engine.Point
	Defences []Defence
	Pass     *Node
}

// Defence is a defender move and the attacker's answer to it.
type Defence struct {
	Move   engine.Point
	Answer *Node
}

// Len returns the number of moves in the tree, attacker moves and
// defences together.
func (p *Tree) Len() int { return p.Root.Len() }

// Len returns the number of moves in the subtree of n, n's move included;
// 0 for a nil node.
func (n *Node) Len() int {
	if n == nil {
		return 0
	}
	s := 1
	for _, d := range n.Defences {
		s += 1 + d.Answer.Len()
	}
	return s + n.Pass.Len()
}

// RequiredDepth returns the fewest attacker moves the proof needs: the
// attacker-move limit under which Verify accepts it. Along each branch
// it counts the listed moves and, after a quiet threat (a move that is not
// a four and does not win at once), the ThreatLimit moves of the VCF that
// answers the defences left unlisted, or the depth of its pass proof. It replays the tree on the proof's
// board; a proof that does not set up counts 0.
func (p *Tree) RequiredDepth() int {
	b, err := p.scratch()
	if err != nil {
		return 0
	}
	defer engine.Release(b)
	att := p.Attacker
	var req func(n *Node) int
	req = func(n *Node) int {
		b.Play(n.Move, att)
		defer b.Undo()
		best := 0
		fives := b.Count(att, engine.FivePoints)
		if !b.LastMoveWon() && fives == 0 {
			best = max(1, p.ThreatLimit) // a quiet threat
			if n.Pass != nil {
				best = req(n.Pass) // the defences left unlisted replay it
			}
		}
		for _, d := range n.Defences {
			b.Play(d.Move, att.Opponent())
			best = max(best, req(d.Answer))
			b.Undo()
		}
		return best + 1
	}
	return req(p.Root)
}

// MainLine returns the principal variation of the proof: from the root, each
// attacker move and the defence that holds out longest (the largest
// subtree), until the win.
func (p *Tree) MainLine() []engine.Point { return p.Root.MainLine() }

// MainLine is Tree.MainLine of the subtree of n (nil for a nil node).
func (n *Node) MainLine() []engine.Point {
	var line []engine.Point
	for n != nil {
		line = append(line, n.Move)
		var next *Defence
		for i := range n.Defences {
			if d := &n.Defences[i]; next == nil || d.Answer.Len() > next.Answer.Len() {
				next = d
			}
		}
		if next == nil {
			break
		}
		line = append(line, next.Move)
		n = next.Answer
	}
	return line
}

// Board sets up the proof's position. Errors: the engine's, of the size,
// the rule or a stone (off the board, on another).
func (p *Tree) Board() (*engine.Board, error) {
	b, err := engine.NewBoard(p.Size, p.Rule)
	if err != nil {
		return nil, err
	}
	if err := p.setUp(b); err != nil {
		return nil, err
	}
	return b, nil
}

// scratch is Board on a pooled board (engine.ScratchEmpty), to be given back
// with engine.Release; nil on an error.
func (p *Tree) scratch() (*engine.Board, error) {
	b, err := engine.ScratchEmpty(p.Size, p.Rule)
	if err != nil {
		return nil, err
	}
	if err := p.setUp(b); err != nil {
		engine.Release(b)
		return nil, err
	}
	return b, nil
}

// scratchFrom is scratch on a copy of b (engine.Scratch), which must hold
// exactly the proof's stones: the same size and rule, each listed stone on
// the board in its colour, no stone listed twice and no other stone. nil b:
// scratch.
func (p *Tree) scratchFrom(b *engine.Board) (*engine.Board, error) {
	if b == nil {
		return p.scratch()
	}
	if b.Size() != p.Size || b.Rule() != p.Rule {
		return nil, fmt.Errorf("the board is %dx%d %v, the proof's %dx%d %v", b.Size(), b.Size(), b.Rule(),
			p.Size, p.Size, p.Rule)
	}
	if n := len(p.Black) + len(p.White); b.Stones() != n {
		return nil, fmt.Errorf("the board holds %d stones, the proof %d", b.Stones(), n)
	}
	var seen [engine.NumCells]bool
	for c, stones := range [2][]engine.Point{p.Black, p.White} {
		for _, s := range stones {
			if !b.OnBoard(s) || b.At(s) != engine.Color(c+1) || seen[s] {
				return nil, fmt.Errorf("%v: the board differs from the proof's position", s)
			}
			seen[s] = true
		}
	}
	return engine.Scratch(b), nil
}

// setUp puts the proof's stones on the empty board b.
func (p *Tree) setUp(b *engine.Board) error {
	for c, stones := range [2][]engine.Point{p.Black, p.White} {
		for _, s := range stones {
			if err := b.Put(s, engine.Color(c+1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// MainEnd replays the main line (MainLine) on the proof's board and says
// how it ends: EndFive, EndDoubleFour, EndForbiddenBlock, or EndThreat when
// the last move leaves no five-point (a threat no defence stops). It
// returns EndNone when the position does not set up (Board's error).
func (p *Tree) MainEnd() End {
	b, err := p.scratch()
	if err != nil {
		return EndNone
	}
	defer engine.Release(b)
	return LineEnd(b, p.Attacker, p.MainLine())
}

// LineEnd plays line on b (attacker first, moves alternating; b as the
// proof's position stands, the moves legal), says how it ends as MainEnd
// does, and takes the moves back. A search that still holds its board at
// the root reads its proof's end here without setting up a second board.
func LineEnd(b *engine.Board, attacker engine.Color, line []engine.Point) End {
	for i, m := range line {
		c := attacker
		if i%2 == 1 {
			c = c.Opponent()
		}
		b.Play(m, c)
	}
	defer func() {
		for range line {
			b.Undo()
		}
	}()
	def := attacker.Opponent()
	switch fives := b.Points(attacker, engine.FivePoints, nil); {
	case b.LastMoveWon():
		return EndFive
	case len(fives) >= 2:
		return EndDoubleFour
	case len(fives) == 1 && def == engine.Black && b.Rule() == engine.Renju && b.Forbidden(fives[0]) != engine.NotForbidden:
		return EndForbiddenBlock
	}
	return EndThreat
}

// positionJSON is the head of a proof's and a certificate's file form: the
// format, and the position with its attacker; points in renju notation.
type positionJSON struct {
	Format   string   `json:"format"`
	Version  int      `json:"version"`
	Rule     string   `json:"rule"`
	Size     int      `json:"size"`
	Black    []string `json:"black"`
	White    []string `json:"white"`
	ToMove   string   `json:"to_move"`
	Attacker string   `json:"attacker"`
}

// proofJSON is the file form of a proof.
type proofJSON struct {
	positionJSON
	DefenderPasses bool      `json:"defender_passes,omitempty"`
	Limit          int       `json:"limit"`
	ThreatLimit    int       `json:"threat_limit"`
	Nodes          int       `json:"nodes"`
	Root           *nodeJSON `json:"root"`
}

type nodeJSON struct {
	Move     string        `json:"move"`
	Defences []defenceJSON `json:"defences,omitempty"`
	Pass     *nodeJSON     `json:"pass,omitempty"`
}

type defenceJSON struct {
	Move   string    `json:"move"`
	Answer *nodeJSON `json:"answer"`
}

// formatName names the file format; formatVersion is its version.
const (
	formatName    = "gomoku-proof"
	formatVersion = 1
)

// MarshalJSON writes the proof in its file form: {"format":
// "gomoku-proof", "version": 1, "rule", "size", "black", "white", "to_move",
// "attacker", "limit", "threat_limit", "nodes", "root": {"move", "defences":
// [{"move", "answer": {...}}], "pass": {...}}}; "pass" (Node.Pass) only on
// a threat of a higher order.
func (p *Tree) MarshalJSON() ([]byte, error) {
	pj := proofJSON{positionJSON: positionJSON{Format: formatName, Version: formatVersion, Rule: p.Rule.String(), Size: p.Size,
		Black: pointStrings(p.Black), White: pointStrings(p.White), ToMove: p.ToMove.String(),
		Attacker: p.Attacker.String()}, DefenderPasses: p.DefenderPasses, Limit: p.Limit,
		ThreatLimit: p.ThreatLimit, Nodes: p.Len(), Root: nodeToJSON(p.Root)}
	return json.Marshal(pj)
}

// nodeToJSON is the file form of the subtree of n (nil for nil).
func nodeToJSON(n *Node) *nodeJSON {
	if n == nil {
		return nil
	}
	j := &nodeJSON{Move: n.Move.String()}
	for _, d := range n.Defences {
		j.Defences = append(j.Defences, defenceJSON{Move: d.Move.String(), Answer: nodeToJSON(d.Answer)})
	}
	j.Pass = nodeToJSON(n.Pass)
	return j
}

// nodeFromJSON reads the subtree j of a proof on a board of the size,
// depth levels below the root. Errors wrap ErrFormat (a defence without an
// answer, a tree deeper than the board has cells) or the point's parse
// error.
func nodeFromJSON(j *nodeJSON, size, depth int) (*Node, error) {
	if j == nil {
		return nil, fmt.Errorf("%w: a defence without an answer", ErrFormat)
	}
	if depth > engine.MaxSize*engine.MaxSize {
		return nil, fmt.Errorf("%w: tree deeper than the board", ErrFormat)
	}
	m, err := engine.ParsePoint(j.Move, size)
	if err != nil {
		return nil, err
	}
	n := &Node{Move: m}
	for _, d := range j.Defences {
		dm, err := engine.ParsePoint(d.Move, size)
		if err != nil {
			return nil, err
		}
		a, err := nodeFromJSON(d.Answer, size, depth+1)
		if err != nil {
			return nil, err
		}
		n.Defences = append(n.Defences, Defence{Move: dm, Answer: a})
	}
	if j.Pass != nil {
		if n.Pass, err = nodeFromJSON(j.Pass, size, depth+1); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// parsePoints parses points in renju notation on a board of the size.
func parsePoints(ss []string, size int) ([]engine.Point, error) {
	var out []engine.Point
	for _, s := range ss {
		pt, err := engine.ParsePoint(s, size)
		if err != nil {
			return nil, err
		}
		out = append(out, pt)
	}
	return out, nil
}

func pointStrings(ps []engine.Point) []string {
	out := make([]string, 0, len(ps))
	for _, q := range ps {
		out = append(out, q.String())
	}
	return out
}

// ErrFormat reports a proof file that is not a proof this program
// reads.
var ErrFormat = errors.New("not a gomoku proof")

// UnmarshalJSON reads the file form written by MarshalJSON. Errors wrap
// ErrFormat, engine.ErrBadPoint, engine.ErrOffBoard, engine.ErrBadRule
// or engine.ErrBadColor.
func (p *Tree) UnmarshalJSON(data []byte) error {
	var pj proofJSON
	if err := json.Unmarshal(data, &pj); err != nil {
		return fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if pj.Format != formatName || pj.Version != formatVersion {
		return fmt.Errorf("%w: format %q version %d", ErrFormat, pj.Format, pj.Version)
	}
	if pj.Size < engine.MinSize || pj.Size > engine.MaxSize {
		return fmt.Errorf("%w: size %d: %w", ErrFormat, pj.Size, engine.ErrBadSize)
	}
	if pj.Root == nil {
		return fmt.Errorf("%w: no root", ErrFormat)
	}
	q := Tree{Size: pj.Size, DefenderPasses: pj.DefenderPasses, Limit: pj.Limit, ThreatLimit: pj.ThreatLimit}
	var err error
	if q.Rule, err = engine.ParseRule(pj.Rule); err != nil {
		return err
	}
	if q.ToMove, err = engine.ParseColor(pj.ToMove); err != nil {
		return err
	}
	if q.Attacker, err = engine.ParseColor(pj.Attacker); err != nil {
		return err
	}
	if q.Black, err = parsePoints(pj.Black, pj.Size); err != nil {
		return err
	}
	if q.White, err = parsePoints(pj.White, pj.Size); err != nil {
		return err
	}
	if q.Root, err = nodeFromJSON(pj.Root, pj.Size, 0); err != nil {
		return err
	}
	*p = q
	return nil
}
