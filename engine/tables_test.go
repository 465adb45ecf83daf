package engine

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateTables = flag.Bool("update", false, "rewrite the embedded rule tables (tables/*.bin)")

// TestRuleTables checks each embedded rule table against the one computed
// from the pattern definitions; with -update it writes them.
func TestRuleTables(t *testing.T) {
	for r, name := range map[Rule]string{Freestyle: "freestyle", Standard: "standard", Renju: "renju"} {
		want := buildRuleTable(r)
		if *updateTables {
			if err := os.WriteFile(filepath.Join("tables", name+".bin"), want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got := embeddedRuleTable(r); !bytes.Equal(got, want) {
			t.Errorf("%s: the embedded table differs from the computed one (go test ./engine -run TestRuleTables -update)", name)
		}
	}
}
