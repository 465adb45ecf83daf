package main

import (
	"context"
	"testing"

	"gomoku/book"
	"gomoku/engine"
)

// FuzzAddAnalysis checks book build's reader of analyze records on any
// line: no panic, and a record that is taken adds only games that replay.
func FuzzAddAnalysis(f *testing.F) {
	f.Add([]byte(claimedAnalysis))
	f.Add([]byte(`{"rule":"renju","size":15,"plies":[{"move_played":"h8"},{"move_played":"h8"}]}`))
	f.Add([]byte(`{"rule":"renju","size":15,"result":"black","plies":[{"move_played":"h8","forced_win":"vct","line":["z99"]}]}`))
	f.Add([]byte(`{"rule":"chess","size":15,"plies":[]}`))
	f.Add([]byte(`{"size":4,"plies":[{"move_played":"a1"}]}`))
	f.Add([]byte(`{"plies":[`))
	f.Fuzz(func(t *testing.T, line []byte) {
		bd := book.NewBuilder()
		cl := &claims{}
		for _, ruleSet := range []bool{false, true} {
			_ = addAnalysis(context.Background(), bd, cl, line, engine.Renju, ruleSet)
		}
	})
}
