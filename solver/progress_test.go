package solver

import (
	"context"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver/internal/cases"
)

// TestProgressReports runs the VCF search, the VCT and the search over all
// moves with a report at every poll and checks what each report says: the
// search that sent it, the VCT's threat limit, and for the two
// proof-number searches the root's numbers, open (between 1 and
// ProofInfinity-1) while the search runs.
func TestProgressReports(t *testing.T) {
	defer func(old time.Duration) { reportEvery = old }(reportEvery)
	reportEvery = 0
	// D6 with white's block at i7: black to move, no VCF, and neither a VCT
	// (threat limit 8) nor a whole-board answer within the nodes
	b := pos(t, engine.Freestyle, "h8 i8", "h9 i7")
	pr := Problem{Board: b, ToMove: engine.Black, Attacker: engine.Black}
	lim := Limits{Nodes: 30_000}
	for _, c := range []struct {
		name   string
		search func(ProgressFunc) error
		want   string
	}{
		{"vcf", func(p ProgressFunc) error {
			// quintet's longest VCF (73 attacker moves), proven shortest:
			// about 2,100 nodes in all, two polls
			for _, q := range cases.Quintet(t, "vcf") {
				if strings.Contains(q.Label(), "vcf_long") {
					v := NewVCF(4)
					v.Shortest = true
					_, err := v.Search(context.Background(), problem(t, q), Limits{}, p)
					return err
				}
			}
			t.Fatal("no vcf_long among quintet's VCF cases")
			return nil
		}, "vcf"},
		{"vct", func(p ProgressFunc) error {
			// quintet's vct_fukumi (MIT): a win at threat limit 3 within 7
			// attacker moves, about 55,000 nodes
			v := NewVCT(16)
			v.ThreatLimit = 3
			fk := pos(t, engine.Renju, "e9 f10 g8 g10 h8 h10 h11 h12 i11 j9", "d8 f8 f9 g9 g11 h9 i9 i10 i13 j10")
			res, err := v.Search(context.Background(), Problem{Board: fk, ToMove: engine.Black, Attacker: engine.Black},
				Limits{Depth: 7}, p)
			if err == nil && res.Status != StatusWin {
				t.Errorf("vct_fukumi: %v at threat limit 3, want a win", res.Status)
			}
			return err
		}, "vct"},
		{"win", func(p ProgressFunc) error {
			v := NewVCT(16)
			v.ThreatLimit, v.AllMoves = 3, true
			_, err := v.Search(context.Background(), pr, lim, p)
			return err
		}, "win"},
	} {
		var reps []Progress
		if err := c.search(func(p Progress) { reps = append(reps, p) }); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(reps) == 0 {
			t.Errorf("%s: no report", c.name)
			continue
		}
		numbers := 0
		for _, p := range reps {
			if p.Search != c.want {
				t.Errorf("%s: report says search %q", c.name, p.Search)
				break
			}
			if c.want == "vcf" {
				if p.Root != nil || p.ThreatLimit != 0 {
					t.Errorf("vcf: report %+v has a proof-number search's fields", p)
				}
				continue
			}
			if p.ThreatLimit != 3 {
				t.Errorf("%s: threat limit %d in a report, want 3", c.name, p.ThreatLimit)
			}
			if n := p.Root; n != nil {
				numbers++
				if n.PN == 0 || n.DN == 0 || n.PN >= ProofInfinity || n.DN >= ProofInfinity {
					t.Errorf("%s: root numbers %d, %d while the search runs", c.name, n.PN, n.DN)
				}
			}
		}
		if c.want != "vcf" && numbers == 0 {
			t.Errorf("%s: %d reports, none with the root's numbers", c.name, len(reps))
		}
		t.Logf("%s: %d reports, the last %+v", c.name, len(reps), reps[len(reps)-1])
	}
}

// TestRootNumbers checks that the numbers a progress report gives are the
// root's: df-pn's root, called with a proof-number threshold, comes back
// once its proof number reaches it, and the numbers kept for the reports
// are then the ones it returns.
func TestRootNumbers(t *testing.T) {
	b := pos(t, engine.Freestyle, "h8 i8", "h9 i7")
	v := NewVCT(16)
	v.ThreatLimit, v.AllMoves = 3, true
	r := v.newRun(b, engine.Black, NewBudget(context.Background(), Limits{}, nil))
	for _, th := range []uint32{2, 5, 12} {
		pn, dn := r.mid(true, maxVCTDepth, th, pnInf)
		if !r.rootSeen || r.root != (ProofNumbers{pn, dn}) {
			t.Errorf("threshold %d: the root returned %d, %d; the reports would say %d, %d (seen %v)",
				th, pn, dn, r.root.PN, r.root.DN, r.rootSeen)
		}
		if pn < th || pn >= pnInf || dn == 0 {
			t.Errorf("threshold %d: the root returned %d, %d", th, pn, dn)
		}
	}
}
