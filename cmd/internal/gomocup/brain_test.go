package gomocup

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"gomoku/engine"
)

// fakeEngine answers with the first legal cells in reading order (Piskvork
// 0,0 first, the top-left corner), after
// delay, and records what it was asked and told.
type fakeEngine struct {
	mu       sync.Mutex
	delay    time.Duration
	asked    []Request
	settings []Settings
}

func (f *fakeEngine) Think(ctx context.Context, req Request) (Reply, error) {
	f.mu.Lock()
	f.asked = append(f.asked, req)
	delay := f.delay
	f.mu.Unlock()
	select {
	case <-time.After(delay):
	case <-ctx.Done():
		if delay > 0 {
			time.Sleep(delay) // a search that ignores cancellation for a while
		}
	}
	var moves []Move
	n := req.Board.Size()
	for row := 0; row < n && len(moves) < req.MultiPV; row++ {
		for x := 0; x < n && len(moves) < req.MultiPV; x++ {
			if p := engine.PointAt(x, n-1-row); req.Board.Legal(req.ToMove, p) {
				moves = append(moves, Move{Point: p, Value: 0.5, PV: []engine.Point{p}})
			}
		}
	}
	return Reply{Moves: moves}, nil
}

// Quick plays the last legal cell in reading order, so that a test can
// tell its answer from Think's.
func (f *fakeEngine) Quick(b *engine.Board, c engine.Color) engine.Point {
	n := b.Size()
	for row := n - 1; row >= 0; row-- {
		for x := n - 1; x >= 0; x-- {
			if p := engine.PointAt(x, n-1-row); b.Legal(c, p) {
				return p
			}
		}
	}
	return engine.NoPoint
}

func (f *fakeEngine) Configure(s Settings) {
	f.mu.Lock()
	f.settings = append(f.settings, s)
	f.mu.Unlock()
}

// session runs a Brain over pipes.
type session struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newSession(t *testing.T, eng Engine, turn time.Duration) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 64), done: make(chan error, 1)}
	br := NewBrain(outW, eng, Options{TurnTime: turn, About: `name="fake"`, Settings: Settings{MemoryMiB: 64, Threads: 1}})
	go func() {
		s.done <- br.Serve(context.Background(), inR)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return s
}

// send sends lines that get no answer.
func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatal(err)
		}
	}
}

// ask sends lines and returns the next answer and how long it took.
func (s *session) ask(lines ...string) (string, time.Duration) {
	s.t.Helper()
	start := time.Now()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatal(err)
		}
	}
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the brain closed its output")
		}
		return l, time.Since(start)
	case <-time.After(5 * time.Second):
		s.t.Fatalf("no answer to %q", lines)
	}
	return "", 0
}

func TestBrainCommands(t *testing.T) {
	f := &fakeEngine{}
	s := newSession(t, f, time.Second)
	steps := []struct {
		send []string
		want string
	}{
		{[]string{"BEGIN"}, "ERROR no game"},
		{[]string{"START 15"}, "OK"},
		{[]string{"ABOUT"}, `name="fake"`},
		{[]string{"BEGIN"}, "0,0"}, // the fake's first legal cell
		{[]string{"TURN 1,0"}, "2,0"},
		{[]string{"TAKEBACK 2,0"}, "OK"},
		{[]string{"TAKEBACK 9,9"}, "ERROR TAKEBACK 9,9"},
		{[]string{"TURN 1,0"}, "ERROR TURN 1,0"}, // occupied
		{[]string{"TURN 99,0"}, "ERROR TURN 99,0"},
		{[]string{"RESTART"}, "OK"},
		{[]string{"BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE"}, "0,0"},
		{[]string{"BOARD", "7,7,2", "7,7,1", "DONE"}, "ERROR BOARD line"},
		{nil, "0,0"}, // the board without the repeated line
		{[]string{"YXBOARD", "7,7,1", "DONE", "YXNBEST 2"}, "MESSAGE NBEST 1 0,0"},
		{nil, "MESSAGE NBEST 2 1,0"},
		{nil, "0,0"},
		{[]string{"FROB"}, "UNKNOWN"},
		{[]string{"START 99"}, "ERROR unsupported board size"},
		{[]string{"RECTSTART 15,20"}, "ERROR rectangular"},
		{[]string{"RECTSTART 20,20"}, "OK"},
		{[]string{"INFO rule 4", "YXSHOWFORBID"}, "FORBID ."},
		{[]string{"START 15", "BOARD", "6,7,1", "8,7,1", "7,6,1", "7,8,1", "0,0,2", "0,2,2", "0,4,2", "0,6,2", "DONE"}, "OK"},
		{nil, "1,0"},
		{[]string{"YXSHOWFORBID"}, "FORBID 0707."},
	}
	for i, st := range steps {
		var got string
		if st.send == nil {
			select {
			case got = <-s.lines:
			case <-time.After(5 * time.Second):
				t.Fatalf("%d: no line", i)
			}
		} else {
			got, _ = s.ask(st.send...)
		}
		if !strings.HasPrefix(got, st.want) {
			t.Errorf("%d: %q: got %q, want %q...", i, st.send, got, st.want)
		}
	}
	// INFO max_memory and thread_num reach the engine
	s.send("INFO max_memory 268435456", "INFO thread_num 3")
	s.ask("ABOUT")
	f.mu.Lock()
	last := f.settings[len(f.settings)-1]
	f.mu.Unlock()
	if last.MemoryMiB != 192 || last.Threads != 3 {
		t.Errorf("settings %+v, want 192 MiB (three quarters) and 3 threads", last)
	}
	if _, err := io.WriteString(s.in, "END\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("no exit after END")
	}
}

// TestBrainNeverLate gives the engine a search that outlives the turn and
// ignores cancellation for a while (900 ms on 300 ms turns): the brain must
// answer within timeout_turn with the engine's quick move, on the next turn
// too while that search still runs (it used to wait for it, and answered
// late), and ask the engine again only once it has ended.
func TestBrainNeverLate(t *testing.T) {
	f := &fakeEngine{delay: 900 * time.Millisecond}
	s := newSession(t, f, time.Second)
	s.ask("START 15")
	s.send("INFO timeout_turn 300")
	got, took := s.ask("BEGIN")
	if took > 300*time.Millisecond+ManagerTolerance {
		t.Errorf("answered after %v, limit 300ms and the tolerance %v", took, ManagerTolerance)
	}
	if got != "14,14" {
		t.Errorf("answer %q, want the quick move 14,14", got)
	}
	f.mu.Lock()
	f.delay = 0
	f.mu.Unlock()
	got, took = s.ask("TURN 7,7")
	if took > 300*time.Millisecond+ManagerTolerance || got == "0,0" {
		t.Errorf("answer %q after %v while the late search runs, want a quick move within 300ms", got, took)
	}
	time.Sleep(500 * time.Millisecond) // the late search ends
	got, _ = s.ask("TURN 7,8")
	if got != "0,0" {
		t.Errorf("answer %q after the late search, want 0,0", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.asked) != 2 || f.asked[0].Time >= 300*time.Millisecond || f.asked[0].ToMove != engine.Black {
		t.Errorf("requests %+v", f.asked)
	}
}

// TestBrainHostileLines: a line over MaxLine is answered with ERROR and the
// brain goes on (it used to stop answering); END inside an unfinished
// BOARD ends the session (issue 37, items 8 and 23).
func TestBrainHostileLines(t *testing.T) {
	s := newSession(t, &fakeEngine{}, time.Second)
	s.ask("START 15")
	got, _ := s.ask(strings.Repeat("x", MaxLine+10))
	if !strings.HasPrefix(got, "ERROR a line longer") {
		t.Errorf("a long line: %q", got)
	}
	if got, _ := s.ask("ABOUT"); got != `name="fake"` {
		t.Errorf("after the long line: %q", got)
	}
	s.send("BOARD", "7,7,1")
	s.send("END")
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("END inside BOARD did not end the session")
	}
}

// TestReadLine checks line ends, a last line without one, and the limit.
func TestReadLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("a\r\nbb\n"+strings.Repeat("c", 100)+"\nlast"), 16)
	for _, want := range []struct {
		line string
		err  error
	}{{"a", nil}, {"bb", nil}, {"", errLongLine}, {"last", io.EOF}} {
		line, err := readLine(r, 50)
		if line != want.line || !errors.Is(err, want.err) && err != want.err {
			t.Errorf("got %q, %v; want %q, %v", line, err, want.line, want.err)
		}
	}
}

// FuzzBrain feeds the protocol loop arbitrary command lines: it must never
// panic, answer every BEGIN, TURN or finished BOARD with a legal move or
// an ERROR, and end at END.
func FuzzBrain(f *testing.F) {
	for _, seed := range []string{
		"START 15\nBEGIN\nTURN 7,8\n",
		"START 15\nINFO rule 4\nBOARD\n7,7,1\n8,8,2\nDONE\nYXSHOWFORBID\n",
		"START 20\nYXBOARD\n1,1,1\nDONE\nYXNBEST 3\n",
		"RECTSTART 15,15\nTAKEBACK 3,3\nINFO max_memory 1099511627776\nINFO thread_num 99999\nTURN -1,-1\n",
		"START 15\nBOARD\n7,7,1\nEND\n", "ABOUT\nRESTART\nSTART x\nBEGIN\nBEGIN\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out strings.Builder
		br := NewBrain(&out, &fakeEngine{}, Options{TurnTime: 50 * time.Millisecond, Settings: Settings{MemoryMiB: 16, Threads: 1}})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := br.Serve(ctx, strings.NewReader(string(data)+"\nEND\n")); err != nil {
			t.Fatalf("Serve: %v", err)
		}
	})
}

// valueEngine is fakeEngine with the win rate of its moves set by the test
// (value, for the side to move), and a static evaluation that prefers
// openings with the third stone nearest the corner a1.
type valueEngine struct {
	fakeEngine
	value float64
}

func (v *valueEngine) Think(ctx context.Context, req Request) (Reply, error) {
	rep, err := v.fakeEngine.Think(ctx, req)
	for i := range rep.Moves {
		rep.Moves[i].Value = v.value
	}
	return rep, err
}

func (v *valueEngine) Evaluate(b *engine.Board, toMove engine.Color) float64 { return 0.5 }

// TestBrainSwap2 covers every SWAP2BOARD case, checking each answer as a
// manager would (a fake manager: the stones parse, lie on empty points and
// are legal in turn): three stones for an empty board; with three stones,
// SWAP when white's win rate is low, one white move when it is high, two
// stones (white, then black) when it is balanced; with five stones, SWAP
// or one white move; and the errors for a wrong count or a bad line. After
// a SWAP the brain plays black: a TURN gets a legal black move.
func TestBrainSwap2(t *testing.T) {
	open3 := []string{"7,7", "8,7", "9,9"}
	open5 := append(append([]string{}, open3...), "8,8", "8,6")
	for _, tc := range []struct {
		stones []string
		value  float64 // the engine's win rate for the side to move (white)
		want   string  // "swap" or the number of stones answered
	}{
		{nil, 0.5, "3"},
		{open3, 0.3, "swap"},
		{open3, 0.7, "1"},
		{open3, 0.5, "2"},
		{open5, 0.4, "swap"},
		{open5, 0.6, "1"},
	} {
		eng := &valueEngine{value: tc.value}
		s := newSession(t, eng, 400*time.Millisecond)
		if got, _ := s.ask("START 15"); got != "OK" {
			t.Fatalf("START: %q", got)
		}
		s.send("INFO rule 6")
		lines := append(append([]string{"SWAP2BOARD"}, tc.stones...), "DONE")
		ans, took := s.ask(lines...)
		if took > 400*time.Millisecond+ManagerTolerance {
			t.Errorf("%v: answered in %v, turn 400 ms and the tolerance %v", tc.stones, took, ManagerTolerance)
		}
		// the fake manager's check
		b, _ := engine.NewBoard(15, engine.Freestyle)
		for i, st := range tc.stones {
			p, _ := ParsePoint(st, 15)
			b.Play(p, engine.Color(1+i%2))
		}
		got := "swap"
		if ans != "SWAP" {
			f := strings.Fields(ans)
			got = fmt.Sprint(len(f))
			for _, st := range f {
				p, err := ParsePoint(st, 15)
				c := engine.Color(1 + b.Stones()%2)
				if err != nil || b.At(p) != engine.Empty || !b.Legal(c, p) {
					t.Fatalf("%v: answer %q: %s is not a legal move (%v)", tc.stones, ans, st, err)
				}
				b.Play(p, c)
				if b.LastMoveWon() {
					t.Fatalf("%v: answer %q makes a five", tc.stones, ans)
				}
			}
		}
		if got != tc.want {
			t.Errorf("%v at value %.1f: answered %q, want %s", tc.stones, tc.value, ans, tc.want)
		}
		if ans == "SWAP" {
			// the brain took black; the opponent (white) plays
			p, _ := ParsePoint("0,14", 15)
			b.Play(p, engine.White)
			reply, _ := s.ask("TURN 0,14")
			q, err := ParsePoint(reply, 15)
			if err != nil || b.At(q) != engine.Empty || !b.Legal(engine.Black, q) {
				t.Errorf("%v: after SWAP and TURN 0,14 the brain answered %q", tc.stones, reply)
			}
		}
		s.send("END")
	}
	eng := &valueEngine{value: 0.5}
	s := newSession(t, eng, 400*time.Millisecond)
	s.ask("START 15")
	if got, _ := s.ask("SWAP2BOARD", "7,7", "8,7", "DONE"); !strings.HasPrefix(got, "ERROR SWAP2BOARD wants 0, 3 or 5 stones") {
		t.Errorf("two stones: %q", got)
	}
	if got, _ := s.ask("SWAP2BOARD", "7,7", "7,7"); !strings.HasPrefix(got, "ERROR SWAP2BOARD line") {
		t.Errorf("a repeated stone: %q", got)
	}
	// the block goes on without the repeated line: three stones, an answer
	if got, _ := s.ask("8,8", "9,9", "DONE"); got == "" || strings.HasPrefix(got, "ERROR") {
		t.Errorf("the rest of the block: %q", got)
	}
}

// blockingEngine thinks until its context ends, however long the turn.
type blockingEngine struct{ fakeEngine }

func (e *blockingEngine) Think(ctx context.Context, req Request) (Reply, error) {
	<-ctx.Done()
	return Reply{}, ctx.Err()
}

// TestStopWhileThinking: END, or the end of the input, while the brain
// thinks on a 30 s turn ends Serve at once; and with time_left 0 on a
// match clock the brain answers at once. Before, the brain searched to
// the end of its turn in both cases (28 s seen after END) and thought
// 120 ms with no time left (issue 56, item 17).
func TestStopWhileThinking(t *testing.T) {
	for _, end := range []string{"END", "EOF"} {
		pr, pw := io.Pipe()
		var out strings.Builder
		br := NewBrain(&out, &blockingEngine{}, Options{})
		done := make(chan error, 1)
		go func() { done <- br.Serve(context.Background(), pr) }()
		fmt.Fprint(pw, "START 15\nINFO timeout_turn 30000\nBEGIN\n")
		time.Sleep(100 * time.Millisecond) // the brain is thinking now
		sent := time.Now()
		if end == "END" {
			fmt.Fprint(pw, "END\n")
		} else {
			pw.Close()
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: Serve: %v", end, err)
			}
			t.Logf("%s: Serve returned %v after it", end, time.Since(sent))
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the brain still thinks 10 s after it, on a 30 s turn", end)
		}
		pw.Close()
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	lines := make(chan string, 16)
	br := NewBrain(pipeWriter{lines}, &blockingEngine{}, Options{})
	go br.Serve(context.Background(), pr)
	fmt.Fprint(pw, "START 15\nINFO timeout_turn 30000\nINFO timeout_match 100000\nINFO time_left 0\nBEGIN\n")
	deadline := time.After(10 * time.Second)
	for {
		select {
		case l := <-lines:
			if l == "OK" {
				continue
			}
			if _, err := ParsePoint(l, 15); err != nil {
				t.Fatalf("answer %q", l)
			}
			return
		case <-deadline:
			t.Fatal("no answer 10 s after BEGIN with time_left 0 (the turn is 30 s)")
		}
	}
}

// pipeWriter passes each line written to a channel.
type pipeWriter struct{ lines chan string }

func (w pipeWriter) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		w.lines <- l
	}
	return len(p), nil
}

// infoEngine reports two completed depths through req.Info, then answers
// as fakeEngine does.
type infoEngine struct{ fakeEngine }

func (e *infoEngine) Think(ctx context.Context, req Request) (Reply, error) {
	if req.Info != nil {
		for d := 1; d <= 2; d++ {
			req.Info(Info{Depth: d, Nodes: int64(100 * d), Value: 0.6, PV: []engine.Point{engine.PointAt(7, 7), engine.PointAt(8, 8)}})
		}
	}
	return e.fakeEngine.Think(ctx, req)
}

// TestMessagesWhileThinking: the search's reports reach the manager as
// MESSAGE lines before the move (depth, value, nodes, principal variation
// in Piskvork's x,y), as Rapfi sends them for Yixin-Board (issue 57).
func TestMessagesWhileThinking(t *testing.T) {
	var out strings.Builder
	br := NewBrain(&out, &infoEngine{}, Options{TurnTime: 200 * time.Millisecond})
	if err := br.Serve(context.Background(), strings.NewReader("START 15\nBEGIN\n")); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{"OK", "MESSAGE depth 1 ev 0.60 nodes 100", "MESSAGE depth 2 ev 0.60 nodes 200"}
	if len(lines) < 4 {
		t.Fatalf("output %q", out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want %q...", i+1, lines[i], w)
		}
	}
	if !strings.HasSuffix(lines[1], "pv 7,7 8,6") {
		t.Errorf("the principal variation in Piskvork points: %q", lines[1])
	}
	if _, err := ParsePoint(lines[len(lines)-1], 15); err != nil {
		t.Errorf("the last line is not the move: %q", lines[len(lines)-1])
	}
}
