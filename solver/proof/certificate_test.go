package proof

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gomoku/engine"
)

// certFixtures reads testdata/certificates.jsonl: certificates this
// project's prove wrote (gomoku prove --time 10s --proof FILE) for three
// openings with the defender to move, each with a pass proof and its
// zone: freestyle, black's 2x2 square against three far white stones
// (h8 a1 i8 o15 h9 a15 i9, white to move; the pass proof a VCF); the same
// under renju (a pass proof of 15 moves, 156 zone moves); and renju with
// white attacking, black to move, black's double-three point e5 on the
// board and the position symmetric about the diagonal (c5 h8 d5 i8 e3 h9
// e4 i9 a1 g7).
func certFixtures(t *testing.T) []*Certificate {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "certificates.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var out []*Certificate
	for i := 0; i < len(lines); {
		follow, ok := IsCertificate(lines[i])
		if !ok {
			t.Fatalf("line %d is not a certificate's header", i+1)
		}
		c, err := UnmarshalCertificate(lines[i : i+1+follow])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		out = append(out, c)
		i += 1 + follow
	}
	if len(out) != 3 {
		t.Fatalf("%d certificates, want 3", len(out))
	}
	return out
}

// cloneCert returns a deep copy of c through its file form.
func cloneCert(t *testing.T, c *Certificate) *Certificate {
	t.Helper()
	data, err := c.MarshalLines()
	if err != nil {
		t.Fatal(err)
	}
	d, err := UnmarshalCertificate(bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestCertificateRoundTrip(t *testing.T) {
	for i, c := range certFixtures(t) {
		n, err := VerifyCertificate(context.Background(), c)
		if err != nil {
			t.Fatalf("certificate %d: %v", i, err)
		}
		if n != c.Len() || n == 0 {
			t.Errorf("certificate %d: size %d, Len %d", i, n, c.Len())
		}
		d := cloneCert(t, c)
		a, _ := c.MarshalLines()
		b, _ := d.MarshalLines()
		if !bytes.Equal(a, b) {
			t.Errorf("certificate %d: the file form changes on a round trip", i)
		}
	}
}

// TestCertificateExplicit: a certificate with the pass proof written out
// as an explicit answer under every legal defender move it covered, and
// no pass proof, is accepted; with the pass proof simply removed it is
// not.
func TestCertificateExplicit(t *testing.T) {
	c := certFixtures(t)[0]
	b, err := c.Board()
	if err != nil {
		t.Fatal(err)
	}
	def := c.Attacker.Opponent()
	x := cloneCert(t, c)
	for y := 0; y < c.Size; y++ {
		for xx := 0; xx < c.Size; xx++ {
			m := engine.PointAt(xx, y)
			if b.At(m) != engine.Empty || !b.Legal(def, m) || slices.ContainsFunc(c.Defences, func(d Defence) bool { return d.Move == m }) {
				continue
			}
			x.Defences = append(x.Defences, Defence{Move: m, Answer: c.Pass})
		}
	}
	x.Pass = nil
	if _, err := VerifyCertificate(context.Background(), x); err != nil {
		t.Errorf("explicit certificate: %v", err)
	}
	y := cloneCert(t, c)
	y.Pass = nil
	var pe *Error
	if _, err := VerifyCertificate(context.Background(), y); !errors.As(err, &pe) {
		t.Errorf("no pass proof and the zone only: %v", err)
	}
}

// TestCertificateCorruptions damages every fixture certificate in many
// ways and checks that VerifyCertificate rejects each with a *Error (or
// that the file form is refused): at least 30 in all, every kind at least
// once.
func TestCertificateCorruptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(58, 31))
	type kind struct {
		name  string
		apply func(c *Certificate) bool
	}
	defIndex := func(c *Certificate, m engine.Point) int {
		return slices.IndexFunc(c.Defences, func(d Defence) bool { return d.Move == m })
	}
	// answers lists the attacker nodes under the listed defences
	answers := func(c *Certificate, ok func(*Node) bool) []*Node {
		var out []*Node
		for _, d := range c.Defences {
			for _, n := range nodesOf(d.Answer, nil) {
				if ok(n) {
					out = append(out, n)
				}
			}
		}
		return out
	}
	pick := func(ns []*Node) *Node {
		if len(ns) == 0 {
			return nil
		}
		return ns[rng.IntN(len(ns))]
	}
	stones := func(c *Certificate) []engine.Point { return append(slices.Clone(c.Black), c.White...) }
	kinds := []kind{
		{"the zone move on the pass proof's first move dropped", func(c *Certificate) bool {
			i := defIndex(c, c.Pass.Move)
			if i < 0 {
				return false
			}
			c.Defences = slices.Delete(c.Defences, i, i+1)
			return true
		}},
		{"the pass proof removed", func(c *Certificate) bool { c.Pass = nil; return true }},
		{"the pass proof's first move moved far away", func(c *Certificate) bool {
			c.Pass.Move = emptyFarCert(c)
			return true
		}},
		{"the pass proof's first move on a stone", func(c *Certificate) bool {
			s := stones(c)
			c.Pass.Move = s[rng.IntN(len(s))]
			return true
		}},
		{"a defence listed twice", func(c *Certificate) bool {
			c.Defences = append(c.Defences, c.Defences[rng.IntN(len(c.Defences))])
			return true
		}},
		{"a defence on a stone", func(c *Certificate) bool {
			s := stones(c)
			c.Defences[rng.IntN(len(c.Defences))].Move = s[rng.IntN(len(s))]
			return true
		}},
		{"a defence off the board", func(c *Certificate) bool {
			c.Defences[rng.IntN(len(c.Defences))].Move = engine.PointAt(c.Size, c.Size)
			return true
		}},
		{"a defence on a point forbidden to black", func(c *Certificate) bool {
			b, err := c.Board()
			if err != nil || c.Attacker != engine.White {
				return false
			}
			f := b.ForbiddenPoints()
			if len(f) == 0 {
				return false
			}
			c.Defences = append(c.Defences, Defence{Move: f[0].Point, Answer: c.Defences[0].Answer})
			return true
		}},
		{"an answer cut off", func(c *Certificate) bool {
			c.Defences[rng.IntN(len(c.Defences))].Answer = nil
			return true
		}},
		{"an answer swapped with another defence's", func(c *Certificate) bool {
			// a defence whose answer starts on the other's cell
			for i := range c.Defences {
				for j := range c.Defences {
					if i != j && c.Defences[j].Answer.Move == c.Defences[i].Move {
						c.Defences[i].Answer = c.Defences[j].Answer
						return true
					}
				}
			}
			return false
		}},
		{"an attacker move inside an answer on a stone", func(c *Certificate) bool {
			n := pick(answers(c, func(*Node) bool { return true }))
			s := stones(c)
			n.Move = s[rng.IntN(len(s))]
			return true
		}},
		{"a defence dropped inside an answer's quiet threat", func(c *Certificate) bool {
			n := pick(answers(c, func(n *Node) bool { return len(n.Defences) > 1 && n.Pass == nil }))
			if n == nil {
				return false
			}
			n.Defences = nil
			return true
		}},
		{"the wrong attacker", func(c *Certificate) bool { c.Attacker = c.Attacker.Opponent(); return true }},
		{"a defender stone added on the pass proof's first move", func(c *Certificate) bool {
			if c.Attacker == engine.Black {
				c.White = append(c.White, c.Pass.Move)
			} else {
				c.Black = append(c.Black, c.Pass.Move)
			}
			return true
		}},
		{"the attacker's stones removed", func(c *Certificate) bool {
			if c.Attacker == engine.Black {
				c.Black = c.Black[:0]
			} else {
				c.White = c.White[:0]
			}
			return true
		}},
		{"a limit of one attacker move", func(c *Certificate) bool {
			if c.Pass.Len() < 3 {
				return false
			}
			c.Limit = 1
			return true
		}},
	}
	tally := &rejections{t: t, what: "certificates", perKind: map[string]int{}}
	for fi, fx := range certFixtures(t) {
		for _, k := range kinds {
			for rep := 0; rep < 2; rep++ {
				c := cloneCert(t, fx)
				if !k.apply(c) {
					break
				}
				name := fmt.Sprintf("certificate %d, %s #%d", fi, k.name, rep+1)
				_, err := VerifyCertificate(context.Background(), c)
				tally.record(name, k.name, err)
			}
		}
	}
	var names []string
	for _, k := range kinds {
		names = append(names, k.name)
	}
	tally.check(names)

	// damage to the file form
	data, err := certFixtures(t)[0].MarshalLines()
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for name, ls := range map[string][][]byte{
		"a defence's line dropped": lines[:len(lines)-1],
		"a line added":             append(slices.Clone(lines), lines[len(lines)-1]),
		"the pass line replaced":   append([][]byte{lines[0], lines[2]}, lines[2:]...),
		"the side to move changed": append([][]byte{bytes.Replace(lines[0], []byte(`"to_move":"white"`), []byte(`"to_move":"black"`), 1)}, lines[1:]...),
		"a truncated line":         append([][]byte{lines[0], lines[1][:len(lines[1])/2]}, lines[2:]...),
	} {
		if _, err := UnmarshalCertificate(ls); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
}

// emptyFarCert is emptyFar for a certificate: an empty cell as far as
// possible from every stone and every move.
func emptyFarCert(c *Certificate) engine.Point {
	p := &Tree{Size: c.Size, Black: c.Black, White: c.White, Root: c.Pass}
	for _, d := range c.Defences {
		p.White = append(slices.Clip(p.White), d.Move)
		for _, n := range nodesOf(d.Answer, nil) {
			p.White = append(p.White, n.Move)
		}
	}
	return emptyFar(p)
}

// FuzzUnmarshalCertificate: any input either fails to read or reads as
// a certificate whose file form reads back the same; never a panic.
func FuzzUnmarshalCertificate(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "certificates.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	f.Add(bytes.Join(lines[:15], []byte("\n")))
	f.Add([]byte(`{"format":"gomoku-certificate","version":1,"rule":"freestyle","size":15,"to_move":"white","attacker":"black","pass":false,"defences":1}` + "\n" + `{"defence":"h8","answer":{"move":"h9"}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		ls := bytes.Split(in, []byte("\n"))
		c, err := UnmarshalCertificate(ls)
		if err != nil {
			return
		}
		out, err := c.MarshalLines()
		if err != nil {
			t.Fatal(err)
		}
		d, err := UnmarshalCertificate(bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")))
		if err != nil {
			t.Fatalf("the file form does not read back: %v", err)
		}
		again, _ := d.MarshalLines()
		if !bytes.Equal(out, again) {
			t.Fatal("the file form changes on a second round trip")
		}
		if c.Len() < 200 {
			_, _ = VerifyCertificate(context.Background(), c) // must not panic
		}
	})
}
