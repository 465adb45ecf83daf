package proof

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/positions/datatest"
	"gomoku/solver/internal/cases"
)

// fixture is a proof the solver wrote for one of quintet's quick VCT cases
// (testdata/quintet-proofs.jsonl; quintet's positions are MIT, see
// testdata/LICENSE-quintet). The proofs are claims checked here, not
// answers: a proof that fails Verify fails the test.
type fixture struct {
	ID    string `json:"id"`
	Proof *Tree  `json:"proof"`
}

func fixtures(t testing.TB) []fixture {
	t.Helper()
	f, err := os.Open("testdata/quintet-proofs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fixture
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var x fixture
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			t.Fatalf("%s: %v", x.ID, err)
		}
		out = append(out, x)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("%d fixtures", len(out))
	}
	return out
}

func fixtureNamed(t testing.TB, id string) *Tree {
	t.Helper()
	for _, x := range fixtures(t) {
		if x.ID == id {
			return x.Proof
		}
	}
	t.Fatalf("no fixture %s", id)
	return nil
}

// TestFixtures checks every fixture proof, through JSON and back, and
// under its required depth, and that its main line replays to the end
// MainEnd says.
func TestFixtures(t *testing.T) {
	for _, x := range fixtures(t) {
		p := x.Proof
		n, err := Verify(p)
		if err != nil || n != p.Len() {
			t.Errorf("%s: %d moves, %v", x.ID, n, err)
			continue
		}
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back Tree
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", x.ID, err)
		}
		if !slices.Equal(back.MainLine(), p.MainLine()) || back.Len() != p.Len() {
			t.Errorf("%s: changed through JSON", x.ID)
		}
		back.Limit = back.RequiredDepth()
		if _, err := Verify(&back); err != nil {
			t.Errorf("%s: fails under its required depth %d: %v", x.ID, back.Limit, err)
		}
		if p.MainEnd() == EndNone {
			t.Errorf("%s: no main line end", x.ID)
		}
	}
}

// TestCorruptedProofs damages a proof in every way Verify guards against and
// checks each is rejected with a *Error.
func TestCorruptedProofs(t *testing.T) {
	good := fixtureNamed(t, "quintet/vct_black")
	if _, err := Verify(good); err != nil {
		t.Fatalf("the proof itself fails: %v", err)
	}
	clone := func() *Tree { return cloneTree(t, good) }
	// the first node with several defences: a quiet threat
	quiet := func(pr *Tree) *Node {
		for n := pr.Root; n != nil; n = n.Defences[0].Answer {
			if len(n.Defences) > 1 {
				return n
			}
			if len(n.Defences) == 0 {
				break
			}
		}
		t.Fatal("no quiet threat in the proof")
		return nil
	}
	pt := func(s string) engine.Point { q, _ := engine.ParsePoint(s, 15); return q }
	corruptions := map[string]func(pr *Tree){
		"a defence left out": func(pr *Tree) {
			n := quiet(pr)
			n.Defences = n.Defences[1:]
		},
		"an occupied attacker move": func(pr *Tree) { pr.Root.Move = pr.Black[0] },
		"a non-winning answer": func(pr *Tree) {
			n := quiet(pr)
			n.Defences[0].Answer = &Node{Move: pt("a1")}
		},
		"an illegal defence": func(pr *Tree) {
			n := quiet(pr)
			n.Defences = append(n.Defences, Defence{Move: pr.White[0], Answer: n.Defences[0].Answer})
		},
		"a limit too small": func(pr *Tree) { pr.Limit = 2 },
		"a stone removed":   func(pr *Tree) { pr.Black = pr.Black[1:] },
		"the wrong side":    func(pr *Tree) { pr.Attacker = engine.White },
		"no root":           func(pr *Tree) { pr.Root = nil },
	}
	for name, corrupt := range corruptions {
		c := clone()
		corrupt(c)
		if _, err := Verify(c); err == nil {
			t.Errorf("%s: accepted", name)
		} else {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("%s: %T is not a *Error", name, err)
			}
		}
	}
	var bad Tree
	if err := json.Unmarshal([]byte(`{"format":"something-else","version":1}`), &bad); !errors.Is(err, ErrFormat) {
		t.Errorf("foreign JSON: %v", err)
	}
}

// TestVerifyParallel checks the fixture of vct_game_black_l14_1, large
// enough to be split, on every core and on one, intact and with one defence
// left out at each of a dozen quiet threats spread over the tree: both
// checks must agree on the verdict and report the same first flaw.
func TestVerifyParallel(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: the check runs on one goroutine")
	}
	p := fixtureNamed(t, "quintet/vct_game_black_l14_1")
	if n := attackerNodes(p.Root, map[*Node]int{}); n < minParallelProof {
		t.Fatalf("%d attacker moves, fewer than the %d that are split", n, minParallelProof)
	}
	// the quiet threats, in depth-first order
	var quiet []*Node
	var walk func(n *Node)
	walk = func(n *Node) {
		if n == nil {
			return
		}
		if len(n.Defences) > 1 {
			quiet = append(quiet, n)
		}
		for _, d := range n.Defences {
			walk(d.Answer)
		}
	}
	walk(p.Root)
	check := func(name string) {
		size, err := Verify(p)
		prev := runtime.GOMAXPROCS(1)
		size1, err1 := Verify(p)
		runtime.GOMAXPROCS(prev)
		if size != size1 || fmt.Sprint(err) != fmt.Sprint(err1) {
			t.Errorf("%s: %d, %v on every core; %d, %v on one", name, size, err, size1, err1)
		}
		if name != "intact" && err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	check("intact")
	step := max(1, len(quiet)/12)
	for i := 0; i < len(quiet); i += step {
		n := quiet[i]
		saved := n.Defences
		n.Defences = slices.Clone(saved[1:])
		check(fmt.Sprintf("quiet threat %d of %d without %v", i, len(quiet), saved[0].Move))
		n.Defences = saved
	}
}

// TestVerifyLine replays VCF lines on hand-built boards.
func TestVerifyLine(t *testing.T) {
	pt := func(s string) engine.Point { q, _ := engine.ParsePoint(s, 15); return q }
	board := func(rule engine.Rule, black, white string) *engine.Board {
		b, err := engine.NewBoard(15, rule)
		if err != nil {
			t.Fatal(err)
		}
		for c, list := range [2]string{black, white} {
			for _, s := range strings.Fields(list) {
				if err := b.Put(pt(s), engine.Color(c+1)); err != nil {
					t.Fatal(err)
				}
			}
		}
		return b
	}
	line := func(s string) []engine.Point {
		var out []engine.Point
		for _, f := range strings.Fields(s) {
			out = append(out, pt(f))
		}
		return out
	}
	cases := []struct {
		rule         engine.Rule
		black, white string
		att          engine.Color
		line         string
		end          End
		err          string
	}{
		{engine.Freestyle, "h8 i8 j8 k8", "a1 a2 a3", engine.Black, "l8", EndFive, ""},
		{engine.Freestyle, "h8 i8 j8", "a1 a2 a3", engine.Black, "k8", EndDoubleFour, ""},
		{engine.Freestyle, "h8 i8 j8", "g8 a2 a3", engine.Black, "k8 a9 m8", EndNone, "the defender must block at l8"},
		{engine.Freestyle, "h8 i8 j8", "g8 a2 a3", engine.Black, "k8 l8", EndNone, "ends on a defender move"},
		{engine.Freestyle, "h8 i8", "g8 a2 a3", engine.Black, "j8", EndNone, "not a four"},
		{engine.Freestyle, "h8 i8 j8 k8", "a1 a2 a3", engine.Black, "l8 m8", EndNone, "a five, but the line goes on"},
		{engine.Freestyle, "h8 i8 j8", "a1 a2 a3 a4", engine.Black, "k8", EndNone, "the defender's four at a5 is left open"},
		{engine.Freestyle, "h8 i8 j8", "a1 a2 a3 a4 a5", engine.Black, "k8", EndNone, "game is over"},
		{engine.Renju, "e8 f8 g8 h5 h6 h7", "d8 h4 a1", engine.Black, "h8", EndNone, "forbidden"},
		{engine.Freestyle, "h8 i8 j8", "g8 a2 a3", engine.Black, "h8", EndNone, "not an empty point"},
		{engine.Freestyle, "h8 i8 j8", "g8 a2 a3", engine.Empty, "k8", EndNone, "no attacker"},
	}
	for i, c := range cases {
		end, err := VerifyLine(board(c.rule, c.black, c.white), c.att, line(c.line))
		if end != c.end || (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%d: %v, %v; want %v and an error with %q", i, end, err, c.end, c.err)
		}
	}
}

// FuzzUnmarshal feeds the proof reader arbitrary bytes: it must never
// panic, and a proof it accepts must write back to JSON that reads the
// same.
func FuzzUnmarshal(f *testing.F) {
	for _, x := range fixtures(f)[:4] {
		data, err := json.Marshal(x.Proof)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format":"gomoku-proof","version":1,"rule":"renju","size":15,"root":{"move":"h8"}}`))
	f.Add([]byte(`{"format":"gomoku-proof","version":1,"size":99}`))
	f.Add([]byte(`{"format":"gomoku-proof","version":1,"rule":"renju","size":15,"root":{"move":"z99","defences":[{"move":"h8"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Tree
		if err := json.Unmarshal(data, &p); err != nil {
			return
		}
		out, err := json.Marshal(&p)
		if err != nil {
			t.Fatal(err)
		}
		var q Tree
		if err := json.Unmarshal(out, &q); err != nil {
			t.Fatalf("written proof does not read back: %v", err)
		}
		if q.Len() != p.Len() || !slices.Equal(q.MainLine(), p.MainLine()) {
			t.Fatal("changed on a round trip")
		}
	})
}

// localCounts tallies TestLocalLine's findings.
type localCounts struct{ lines, declined, passed, replayed int }

// checkLocal finds the attacker's VCF of at most k moves on v's board as
// unansweredDefence does, prepares localLine's shortcut for it, and replays
// the line after every legal defender move the shortcut would pass.
func checkLocal(t *testing.T, v *proofChecker, k int, label string, n *localCounts) {
	t.Helper()
	b := v.b
	v.line = v.line[:0]
	if !v.vcf(k, true) {
		return
	}
	n.lines++
	line := slices.Clone(v.line)
	if !v.localLine(line) {
		n.declined++
		return
	}
	for c := engine.Point(0); c < engine.NumCells; c++ {
		if !b.OnBoard(c) || b.At(c) != engine.Empty || !b.Legal(v.def, c) {
			continue
		}
		if v.near[c] == v.nearGen || b.Threat(v.def, c) >= engine.ThreatFour {
			n.replayed++
			continue
		}
		n.passed++
		b.Play(c, v.def)
		if !v.replay(line) {
			t.Errorf("%s (%v): after %v the line %v no longer wins, but the shortcut passed it", label, b.Rule(), c, line)
		}
		b.Undo()
	}
}

// TestLocalLine checks unansweredDefence's shortcut (localLine) against a
// replay: at every quiet attacker move of the fixture proofs, under the
// proof's own rule and under freestyle and standard on the same stones, and
// (with ../shared/data) at every attacker turn of the known lines of the
// renju VCF books, the attacker's VCF line is found as the check finds it,
// and every legal defender move the shortcut would pass without a replay is
// played and the line replayed, which must win. It also wants the shortcut
// to apply (cells passed, and lines it declines), so it cannot pass by
// doing nothing.
func TestLocalLine(t *testing.T) {
	var n localCounts
	for _, x := range fixtures(t) {
		for _, rule := range []engine.Rule{x.Proof.Rule, engine.Freestyle, engine.Standard} {
			p := *x.Proof
			p.Rule = rule
			b, err := p.scratch()
			if err != nil {
				t.Fatal(err)
			}
			v := &proofChecker{b: b, att: p.Attacker, def: p.Attacker.Opponent(), threat: max(1, p.ThreatLimit),
				hint: make([]uint32, engine.NumCells)}
			var walk func(nd *Node)
			walk = func(nd *Node) {
				if nd == nil || b.At(nd.Move) != engine.Empty || !b.Legal(v.att, nd.Move) {
					return
				}
				b.Play(nd.Move, v.att)
				defer b.Undo()
				if !b.FiveThrough(nd.Move) && b.Count(v.att, engine.FivePoints) == 0 && b.Count(v.def, engine.FivePoints) == 0 {
					checkLocal(t, v, v.threat, x.ID, &n)
				}
				for _, d := range nd.Defences {
					if b.At(d.Move) == engine.Empty && b.Legal(v.def, d.Move) {
						b.Play(d.Move, v.def)
						walk(d.Answer)
						b.Undo()
					}
				}
			}
			walk(p.Root)
			engine.Release(b)
		}
	}
	books := 0
	if datatest.HasShared(t) {
		for _, name := range []string{"lfz-black-vcf.jsonl", "lfz-white-vcf.jsonl", "mintaka-vcf.jsonl"} {
			for _, pos := range cases.Load(t, filepath.Join(datatest.Shared(t), name)) {
				line := pos.Puzzle.Line
				if pos.Puzzle.Expect != "win" || len(line) == 0 || len(line) > 2*maxBookLine {
					continue
				}
				b, err := pos.Board(pos.Rule)
				if err != nil {
					t.Fatalf("%s: %v", pos.Label(), err)
				}
				att := pos.Attacker
				v := &proofChecker{b: b, att: att, def: att.Opponent(), hint: make([]uint32, engine.NumCells)}
				books++
				for i := 0; i < len(line); i += 2 {
					checkLocal(t, v, (len(line)-i+1)/2, pos.Label(), &n)
					if i+1 >= len(line) || !b.Legal(att, line[i]) || !b.Legal(att.Opponent(), line[i+1]) {
						break
					}
					b.Play(line[i], att)
					b.Play(line[i+1], att.Opponent())
				}
			}
		}
	}
	t.Logf("%d lines (%d declined), %d cells passed, %d replayed; %d book puzzles", n.lines, n.declined, n.passed,
		n.replayed, books)
	if n.passed == 0 || n.declined == 0 || n.replayed == 0 {
		t.Errorf("the shortcut was not exercised: %+v", n)
	}
}

// maxBookLine bounds the known lines TestLocalLine follows, in attacker
// moves: the check's plain VCF search grows fast with the length.
const maxBookLine = 12

// TestVerifyOn checks each fixture from a board of its position as Verify
// does from its stones (the same size, or the same flaw once a defence is
// taken out, on the parallel path too), leaves that board as it was, and
// refuses a board that is not the proof's position.
func TestVerifyOn(t *testing.T) {
	ctx := context.Background()
	for _, x := range fixtures(t) {
		p := x.Proof
		b, err := p.Board()
		if err != nil {
			t.Fatal(err)
		}
		hash, stones := b.Hash(), b.Stones()
		n, err := Verify(p)
		n1, err1 := VerifyOn(ctx, p, b)
		if n != n1 || err != nil || err1 != nil {
			t.Errorf("%s: Verify %d, %v; VerifyOn %d, %v", x.ID, n, err, n1, err1)
		}
		if b.Hash() != hash || b.Stones() != stones {
			t.Errorf("%s: VerifyOn changed the board", x.ID)
		}
		if q := p.Root.Defences; len(q) > 0 && q[0].Answer != nil && len(q[0].Answer.Defences) > 1 {
			saved := q[0].Answer.Defences
			q[0].Answer.Defences = saved[1:]
			_, err := Verify(p)
			_, err1 := VerifyOn(ctx, p, b)
			if err == nil || fmt.Sprint(err) != fmt.Sprint(err1) {
				t.Errorf("%s without %v: Verify %v, VerifyOn %v", x.ID, saved[0].Move, err, err1)
			}
			q[0].Answer.Defences = saved
		}
	}
	p := fixtureNamed(t, "quintet/vct_game_black_l14_1")
	good, err := p.Board()
	if err != nil {
		t.Fatal(err)
	}
	extra := good.Clone()
	for q := engine.Point(0); int(q) < engine.NumCells; q++ {
		if extra.OnBoard(q) && extra.At(q) == engine.Empty {
			extra.Play(q, engine.White)
			break
		}
	}
	other, err := engine.NewBoard(p.Size, p.Rule)
	if err != nil {
		t.Fatal(err)
	}
	// the same number of stones, one white where the proof has black
	for _, s := range p.Black[1:] {
		other.Play(s, engine.Black)
	}
	other.Play(p.Black[0], engine.White)
	for _, s := range p.White {
		other.Play(s, engine.White)
	}
	freestyle, err := engine.NewBoard(p.Size, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	twice := *p
	twice.Black = append(slices.Clone(p.Black[:len(p.Black)-1]), p.Black[0])
	for name, c := range map[string]struct {
		p *Tree
		b *engine.Board
	}{
		"a stone more": {p, extra}, "a stone of the other colour": {p, other},
		"another rule": {p, freestyle}, "a stone listed twice": {&twice, good},
	} {
		var pe *Error
		if _, err := VerifyOn(ctx, c.p, c.b); !errors.As(err, &pe) || !strings.Contains(pe.Msg, "position") {
			t.Errorf("%s: %v, want a *Error on the position", name, err)
		}
	}
}
