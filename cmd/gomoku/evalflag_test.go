package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/urfave/cli/v2"

	"gomoku/engine"
	"gomoku/nnue"
	"gomoku/solver/play"
)

// weightsFor runs loadWeights under a command with best's evaluation flags
// (or, with noEval, tune's: no --eval at all) and the arguments args.
func weightsFor(t *testing.T, noEval bool, args ...string) (*play.Weights, error) {
	t.Helper()
	flags := []cli.Flag{&cli.StringFlag{Name: "weights"}}
	if !noEval {
		flags = append(flags, evalFlag(), netFlag())
	}
	var w *play.Weights
	var err error
	app := &cli.App{Name: "t", Flags: flags, Action: func(c *cli.Context) error {
		w, err = loadWeights(c)
		return nil
	}}
	if runErr := app.RunContext(context.Background(), append([]string{"t"}, args...)); runErr != nil {
		t.Fatal(runErr)
	}
	return w, err
}

// TestEvalAuto checks the evaluation each --eval value selects: auto (the
// default) puts the shipped network only where nnue.Preferred says it
// beat the tables (freestyle, standard with freestyle's network; renju
// with the vector rows, nnue.SIMD),
// nnue puts every shipped network, linear and
// a command without --eval keep the tables; --net with auto replaces its
// rule's network, and with linear is a usage error.
func TestEvalAuto(t *testing.T) {
	if !nnue.Preferred(engine.Freestyle) || nnue.Preferred(engine.Renju) != nnue.SIMD || !nnue.Preferred(engine.Standard) {
		t.Fatalf("Preferred: freestyle %v, renju %v, standard %v; the measurements behind it say freestyle, standard, and renju with the vector rows (%v)",
			nnue.Preferred(engine.Freestyle), nnue.Preferred(engine.Renju), nnue.Preferred(engine.Standard), nnue.SIMD)
	}
	w, err := weightsFor(t, false)
	if err != nil || w == nil {
		t.Fatalf("default: %v, %v", w, err)
	}
	wantRenju := (*nnue.Net)(nil)
	if nnue.SIMD {
		wantRenju = nnue.Default(engine.Renju)
	}
	if w.Nets[engine.Freestyle] != nnue.Default(engine.Freestyle) || w.Nets[engine.Freestyle] == nil ||
		w.Nets[engine.Renju] != wantRenju || w.Nets[engine.Standard] != nnue.Default(engine.Standard) || w.Nets[engine.Standard] == nil {
		t.Errorf("default (auto): nets %v, want the freestyle and standard networks (and renju's with the vector rows: %v)", w.Nets, nnue.SIMD)
	}
	if play.DefaultWeights().Nets[engine.Freestyle] != nil {
		t.Error("auto changed the shared default weights")
	}
	if w, err = weightsFor(t, false, "--eval", "nnue"); err != nil || w.Nets[engine.Renju] != nnue.Default(engine.Renju) ||
		w.Nets[engine.Freestyle] != nnue.Default(engine.Freestyle) {
		t.Errorf("--eval nnue: %v, %v", w, err)
	}
	for _, args := range [][]string{{"--eval", "linear"}, nil} {
		noEval := args == nil
		if w, err = weightsFor(t, noEval, args...); err != nil || w != nil {
			t.Errorf("%v (no --eval flag: %v): %v, %v; want the tables (nil)", args, noEval, w, err)
		}
	}
	net := filepath.Join(t.TempDir(), "rj.nnue")
	writeNet(t, net, nnue.Default(engine.Renju))
	if w, err = weightsFor(t, false, "--net", net); err != nil || w.Nets[engine.Renju] == nil ||
		w.Nets[engine.Renju] == nnue.Default(engine.Renju) || w.Nets[engine.Freestyle] != nnue.Default(engine.Freestyle) {
		t.Errorf("auto --net renju: %v, %v", w, err)
	}
	if _, err = weightsFor(t, false, "--eval", "linear", "--net", net); err == nil {
		t.Error("--eval linear --net: no error")
	}
	if _, err = weightsFor(t, false, "--eval", "neural"); err == nil {
		t.Error("--eval neural: no error")
	}
}

// writeNet writes network n to the file name.
func writeNet(t *testing.T, name string, n *nnue.Net) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
