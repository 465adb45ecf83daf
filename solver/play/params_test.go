package play

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestParseABParams: the fields given replace the defaults, the rest stay;
// what tune --ga writes reads back the same; malformed files, unknown
// fields, trailing data and values out of range are errors that say where
// or which.
func TestParseABParams(t *testing.T) {
	p, err := ParseABParams([]byte(`{"MaxMoves": 14, "LMRDiv": 180}`))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultABParams()
	want.MaxMoves, want.LMRDiv = 14, 180
	if p != want {
		t.Errorf("got %+v, want %+v", p, want)
	}
	ga := DefaultABParams()
	ga.QFours, ga.VCFDefNodes = 3, 500
	data, _ := json.Marshal(ga)
	if p, err := ParseABParams(data); err != nil || p != ga {
		t.Errorf("tune --ga's output %s read back as %+v, %v", data, p, err)
	}
	for _, c := range []struct {
		in, msg string
		off     int64
	}{
		{"", "empty file", 0},
		{"{\n  \"MaxMoves\": 12,\n  \"Nope\": 1}", "unknown field \"Nope\"", 22},
		{"{\"MaxMoves\": 12,,}", "invalid character", 17},
		{`{"MaxMoves": "12"}`, "cannot unmarshal string", 17},
		{`{"MaxMoves": 12} {}`, "data after the JSON object", 18},
		{`{"MaxMoves": 31}`, "MaxMoves = 31: want 0 to 30", 0},
		{`{"PolicyOrder": -1}`, "PolicyOrder = -1: want 0 to 1000", 0},
		{`{"PolicyMoves": 21}`, "PolicyMoves = 21: want 0 to 20", 0},
		{`{"LMRBase": -1}`, "LMRBase = -1", 0},
		{`{"VCFDefNodes": 2000000}`, "VCFDefNodes = 2000000", 0},
	} {
		_, err := ParseABParams([]byte(c.in))
		var pe *ParamsError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v, want a *ParamsError", c.in, err)
			continue
		}
		if !strings.Contains(pe.Msg, c.msg) || pe.Offset != c.off {
			t.Errorf("%q: %q at %d, want %q at %d", c.in, pe.Msg, pe.Offset, c.msg, c.off)
		}
	}
}

// FuzzParseABParams: any input either fails with a *ParamsError or gives
// parameters within the bounds, which read back the same once written.
func FuzzParseABParams(f *testing.F) {
	f.Add([]byte(`{"MaxMoves": 14, "LMRDiv": 180}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"QFours": 3, "VCFDefNodes": 500} `))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseABParams(data)
		if err != nil {
			var pe *ParamsError
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > int64(len(data)) {
				t.Fatalf("error %#v", err)
			}
			return
		}
		for _, g := range abGenes {
			if v := g.get(&p); v < 0 || v > g.hi {
				t.Fatalf("%s = %v accepted", g.field, v)
			}
		}
		out, _ := json.Marshal(p)
		if q, err := ParseABParams(out); err != nil || q != p {
			t.Fatalf("%s read back as %+v, %v", out, q, err)
		}
	})
}

// FuzzWeights checks the weights file reader on any bytes: no panic, an
// error that wraps ErrWeights, and weights that read back from their own
// encoding unchanged.
func FuzzWeights(f *testing.F) {
	good, err := json.Marshal(DefaultWeights())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"gomoku-eval","version":1,"scale":1,"tables":[]}`))
	f.Add([]byte(`{"format":"gomoku-eval","version":1,"scale":0}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var w Weights
		if err := json.Unmarshal(data, &w); err != nil {
			var se *json.SyntaxError
			if !errors.Is(err, ErrWeights) && !errors.As(err, &se) {
				t.Fatalf("error %v does not wrap ErrWeights", err)
			}
			return
		}
		out, err := json.Marshal(&w)
		if err != nil {
			t.Fatal(err)
		}
		var again Weights
		if err := json.Unmarshal(out, &again); err != nil || again != w {
			t.Fatalf("own encoding does not read back: %v", err)
		}
	})
}
