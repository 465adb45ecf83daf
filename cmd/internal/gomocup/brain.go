// Package gomocup speaks the Gomocup/Piskvork brain protocol
// (https://plastovicka.github.io/protocl2en.htm) with Yixin-Board's
// extensions, on the brain's side: it reads the manager's commands, keeps
// the game, keeps time, and answers. It knows no search: it asks an Engine,
// the small interface it defines (after CounterGo's UCI package), and
// cmd/gomoku wires the best-move analysis (package play) into it.
//
// What is implemented, and where:
//   - brain.go: Brain, the command loop: START, RECTSTART (square boards),
//     RESTART, BEGIN, TURN, BOARD ... DONE, TAKEBACK, INFO, END, ABOUT, and
//     YXSHOWFORBID, YXNBEST, YXBOARD; the turn's time and the rule that an
//     answer is never late.
//   - engine.go: Engine, Request, Reply and Settings, what the loop needs
//     of a search.
package gomocup

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gomoku/engine"
)

// Brain is the state of a protocol session: the game, the manager's
// settings and the engine asked for moves. Serve runs it.
type Brain struct {
	outMu    sync.Mutex // say's: a search reports from its own goroutine
	out      *bufio.Writer
	eng      Engine
	opts     Options
	settings Settings

	size  int
	rule  engine.Rule
	b     *engine.Board // nil until START
	moves []brainMove   // stones in the order given, for TAKEBACK and rebuilding
	// ownBlack says the brain plays black: it moved first (BEGIN), or a
	// BOARD left it to move with as many stones as the opponent.
	ownBlack bool

	timeoutTurn  time.Duration // per move; 0: as fast as possible
	timeoutMatch time.Duration // 0: no match limit
	timeLeft     time.Duration
	timeLeftSet  bool // INFO time_left was given

	boardCmd string // BOARD, YXBOARD or SWAP2BOARD while reading a board, else ""
	// lastValue is the brain's win rate after its last move (haveValue:
	// there was one), for the clock's critical-position test
	lastValue, prevValue float64
	haveValue, haveSwing bool
	boardOwn             []brainMove
	// pending is closed when a search that outlived its turn ends.
	pending chan struct{}
	// thinkGen numbers the turns, so that a search's reports are said
	// only during its own turn
	thinkGen atomic.Int64
	// received is when the command being handled was read; lastTurn the
	// turn the last think was given; slip the lateness of recent answers
	// past their deadline (a loaded machine runs the brain late), taken
	// off the next turns until it decays (see think)
	received       time.Time
	lastTurn, slip time.Duration
}

// Options are a Brain's fixed settings.
type Options struct {
	// TurnTime is the time per move until INFO timeout_turn says
	// otherwise (0: as fast as possible).
	TurnTime time.Duration
	// About is the ABOUT answer's key="value" list, e.g.
	// name="gomoku", version="1".
	About string
	// Settings are the memory and threads until INFO max_memory and
	// thread_num say otherwise.
	Settings Settings
}

// brainMove is a stone of the session: its point and whether it is the
// brain's own.
type brainMove struct {
	p   engine.Point
	own bool
}

// brainSafety is kept back from every time limit for the answer to reach
// the manager: a search gets its turn less brainSafety (Best then uses
// nearly all of it: at 300 ms a move about 250 ms, where a share of 85% of
// the turn used about 205 ms), is cancelled at the turn minus brainSafety,
// and the brain answers by the turn minus half of it whatever the search
// is doing (see think).
const brainSafety = 40 * time.Millisecond

// endGrace is how long a search cancelled by END or the end of the input
// is waited for, for what it has found (a book move, the best move so
// far), before the brain answers without it.
const endGrace = 25 * time.Millisecond

// ManagerTolerance is how late (50 ms) a move may reach the manager after
// its time before it loses on time: `gomoku match`'s default --tolerance,
// room for the pipe and the scheduler as Piskvork and c-gomoku-cli allow.
// A brain aims to answer brainSafety/2 before the limit, inside it.
const ManagerTolerance = 50 * time.Millisecond

// NewBrain returns a brain that writes its answers to w and asks eng for
// moves. eng.Configure is called with opts.Settings at once.
func NewBrain(w io.Writer, eng Engine, opts Options) *Brain {
	eng.Configure(opts.Settings)
	return &Brain{out: bufio.NewWriter(w), eng: eng, opts: opts, settings: opts.Settings,
		timeoutTurn: opts.TurnTime, rule: engine.Freestyle}
}

// say writes one line to the manager, at once. It is safe from the
// search's goroutine too (info's MESSAGE lines).
func (br *Brain) say(format string, args ...any) {
	br.outMu.Lock()
	defer br.outMu.Unlock()
	fmt.Fprintf(br.out, format+"\n", args...)
	br.out.Flush()
}

// Serve answers the commands read from in until END, the end of the input,
// or ctx's end (then it returns ctx's error). A malformed command is
// answered with ERROR and an unknown one with UNKNOWN; the loop goes on.
// Input is read while a command runs, and END or the end of the input
// stops the search under way at once (the manager is done with the brain):
// the brain then answers with a quick move, or not at all, within a few
// milliseconds, rather than at the end of its turn. Commands still queued
// after the end of the input run without a search.
func (br *Brain) Serve(ctx context.Context, in io.Reader) error {
	// commands queue up while one runs; a manager sends one at a time, so
	// the queue holds a few at most, and a full one makes the reader wait
	lines := make(chan stampedLine, 256)
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		defer close(lines)
		defer stop() // the end of the input ends any search
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r, MaxLine)
			if errors.Is(err, errLongLine) {
				line = longLine
			} else if err != nil && line == "" {
				return
			}
			if strings.EqualFold(strings.TrimSpace(line), "END") {
				stop()
			}
			select {
			case lines <- stampedLine{line, time.Now()}:
			case <-ctx.Done():
				return
			}
			if err != nil && !errors.Is(err, errLongLine) {
				return
			}
		}
	}()
	for {
		var sl stampedLine
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case sl, ok = <-lines:
		}
		if !ok {
			return nil
		}
		line := sl.text
		br.received = sl.at
		if line == longLine {
			br.say("ERROR a line longer than %d bytes was dropped", MaxLine)
			continue
		}
		if br.command(sctx, strings.TrimSpace(line)) {
			return nil
		}
	}
}

// stampedLine is a command line and when it was read: a turn's clock
// starts then, not when the brain gets to it.
type stampedLine struct {
	text string
	at   time.Time
}

// MaxLine is the longest command line read, in bytes; a longer one is
// dropped whole (up to its line end) and answered with ERROR.
const MaxLine = 1 << 20

// errLongLine: a line longer than the limit; longLine stands for it on the
// channel (a NUL never reaches a command).
var errLongLine = errors.New("line too long")

const longLine = "\x00long"

// readLine reads one line without its line end, at most limit bytes: a
// longer line is read to its end and dropped, with errLongLine. At the end
// of the input it returns the last line (if any) with io.EOF.
func readLine(r *bufio.Reader, limit int) (string, error) {
	var buf []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			if len(buf)+len(chunk) > limit+2 { // room for "\r\n"
				long, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case long:
			if err == nil {
				return "", errLongLine
			}
			return "", err
		case err != nil:
			return strings.TrimRight(string(buf), "\r\n"), err
		}
		return strings.TrimRight(string(buf), "\r\n"), nil
	}
}

// command handles one line; it returns true on END.
func (br *Brain) command(ctx context.Context, line string) bool {
	if line == "" {
		return false
	}
	if br.boardCmd != "" {
		if strings.EqualFold(line, "END") {
			return true // END ends, even inside a BOARD
		}
		br.boardLine(ctx, line)
		return false
	}
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToUpper(name) {
	case "START":
		n, err := strconv.Atoi(arg)
		if err != nil || n < engine.MinSize || n > engine.MaxSize {
			br.say("ERROR unsupported board size %q: want %d to %d", arg, engine.MinSize, engine.MaxSize)
			return false
		}
		br.start(n)
	case "RECTSTART":
		w, h, ok := strings.Cut(arg, ",")
		wi, err1 := strconv.Atoi(strings.TrimSpace(w))
		hi, err2 := strconv.Atoi(strings.TrimSpace(h))
		switch {
		case !ok || err1 != nil || err2 != nil:
			br.say("ERROR RECTSTART wants width,height")
		case wi != hi:
			br.say("ERROR rectangular boards are not supported")
		case wi < engine.MinSize || wi > engine.MaxSize:
			br.say("ERROR unsupported board size %d", wi)
		default:
			br.start(wi)
		}
	case "RESTART":
		if br.b == nil {
			br.say("ERROR RESTART before START")
			return false
		}
		br.start(br.size)
	case "BEGIN":
		if !br.ready() {
			return false
		}
		if len(br.moves) > 0 {
			br.say("ERROR BEGIN on a board that is not empty")
			return false
		}
		br.ownBlack = true
		br.play(ctx)
	case "TURN":
		if !br.ready() {
			return false
		}
		p, err := br.point(arg)
		if err == nil {
			if len(br.moves) == 0 {
				br.ownBlack = false // the opponent moved first
			}
			err = br.put(p, false)
		}
		if err != nil {
			br.say("ERROR TURN %s: %v", arg, err)
			return false
		}
		br.play(ctx)
	case "BOARD", "YXBOARD", "SWAP2BOARD":
		if !br.ready() {
			return false
		}
		br.boardCmd, br.boardOwn = strings.ToUpper(name), br.boardOwn[:0]
	case "TAKEBACK":
		if !br.ready() {
			return false
		}
		p, err := br.point(arg)
		if err == nil {
			err = br.takeback(p)
		}
		if err != nil {
			br.say("ERROR TAKEBACK %s: %v", arg, err)
			return false
		}
		br.say("OK")
	case "INFO":
		br.info(arg)
	case "END":
		return true
	case "ABOUT":
		br.say("%s", br.opts.About)
	case "YXSHOWFORBID":
		if !br.ready() {
			return false
		}
		var s strings.Builder
		s.WriteString("FORBID ")
		if br.rule == engine.Renju {
			for _, f := range br.b.ForbiddenPoints() {
				fmt.Fprintf(&s, "%02d%02d", f.Point.X(), br.size-1-f.Point.Y())
			}
		}
		s.WriteString(".")
		br.say("%s", s.String())
	case "YXNBEST":
		if !br.ready() {
			return false
		}
		k, err := strconv.Atoi(arg)
		if err != nil || k < 1 {
			br.say("ERROR YXNBEST wants a count of moves")
			return false
		}
		br.nbest(ctx, k)
	default:
		br.say("UNKNOWN command %s", name)
	}
	return false
}

// ready reports whether a game has started, and says ERROR if not.
func (br *Brain) ready() bool {
	if br.b == nil {
		br.say("ERROR no game: send START first")
		return false
	}
	return true
}

// start sets up an empty board of size n and answers OK.
func (br *Brain) start(n int) {
	b, err := engine.NewBoard(n, br.rule)
	if err != nil {
		br.say("ERROR %v", err)
		return
	}
	br.size, br.b, br.moves, br.ownBlack = n, b, br.moves[:0], false
	br.haveValue, br.haveSwing = false, false
	br.say("OK")
}

// point reads a protocol "x,y" (0-based, y from the top).
func (br *Brain) point(s string) (engine.Point, error) {
	return engine.ParsePoint(strings.TrimSpace(s), br.size)
}

// colour returns the brain's colour.
func (br *Brain) colour() engine.Color {
	if br.ownBlack {
		return engine.Black
	}
	return engine.White
}

// rebuild makes the board from br.moves, the brain's stones black when
// ownBlack. Stones are placed in the order given; a list in which the sides
// do not alternate is still accepted (a BOARD may list stones in any order).
func (br *Brain) rebuild() error {
	b, err := engine.NewBoard(br.size, br.rule)
	if err != nil {
		return err
	}
	for _, m := range br.moves {
		c := engine.White
		if m.own == br.ownBlack {
			c = engine.Black
		}
		if err := b.Put(m.p, c); err != nil {
			return err
		}
	}
	br.b = b
	return nil
}

// put adds a stone, own or the opponent's, and rebuilds the board.
func (br *Brain) put(p engine.Point, own bool) error {
	if !p.In(br.size) {
		return engine.ErrOffBoard
	}
	for _, m := range br.moves {
		if m.p == p {
			return fmt.Errorf("%v is occupied", p.Piskvork(br.size))
		}
	}
	br.moves = append(br.moves, brainMove{p, own})
	if err := br.rebuild(); err != nil {
		br.moves = br.moves[:len(br.moves)-1]
		_ = br.rebuild()
		return err
	}
	return nil
}

// takeback removes the stone at p.
func (br *Brain) takeback(p engine.Point) error {
	for i, m := range br.moves {
		if m.p == p {
			br.moves = append(br.moves[:i], br.moves[i+1:]...)
			return br.rebuild()
		}
	}
	return fmt.Errorf("no stone at %s", p.Piskvork(br.size))
}

// boardLine reads one line of a BOARD or YXBOARD block.
func (br *Brain) boardLine(ctx context.Context, line string) {
	if br.boardCmd == "SWAP2BOARD" {
		if strings.EqualFold(line, "DONE") {
			br.boardCmd = ""
			stones := make([]engine.Point, len(br.boardOwn))
			for i, m := range br.boardOwn {
				stones[i] = m.p
			}
			br.swap2(ctx, stones)
			return
		}
		if err := br.swap2Line(line); err != nil {
			br.say("ERROR SWAP2BOARD line %q: %v", line, err)
		}
		return
	}
	if strings.EqualFold(line, "DONE") {
		cmd := br.boardCmd
		br.boardCmd = ""
		br.moves = br.moves[:0]
		br.moves = append(br.moves, br.boardOwn...)
		own := 0
		for _, m := range br.moves {
			if m.own {
				own++
			}
		}
		// the brain is to move: black when the counts are equal
		br.ownBlack = 2*own >= len(br.moves)
		if err := br.rebuild(); err != nil {
			br.moves = br.moves[:0]
			_ = br.rebuild()
			br.say("ERROR %s: %v", cmd, err)
			return
		}
		if cmd == "BOARD" {
			br.play(ctx)
		}
		return
	}
	f := strings.Split(line, ",")
	if len(f) != 3 {
		br.say("ERROR %s line %q: want x,y,field", br.boardCmd, line)
		return
	}
	p, err := br.point(f[0] + "," + f[1])
	field, ferr := strconv.Atoi(strings.TrimSpace(f[2]))
	switch {
	case err != nil:
		br.say("ERROR %s line %q: %v", br.boardCmd, line, err)
	case ferr != nil || field < 1 || field > 3:
		br.say("ERROR %s line %q: field must be 1 (own), 2 (opponent) or 3", br.boardCmd, line)
	default:
		for _, m := range br.boardOwn {
			if m.p == p {
				br.say("ERROR %s line %q: the point is given twice", br.boardCmd, line)
				return
			}
		}
		br.boardOwn = append(br.boardOwn, brainMove{p, field == 1})
	}
}

// info applies an INFO key value line.
func (br *Brain) info(arg string) {
	key, val, _ := strings.Cut(arg, " ")
	val = strings.TrimSpace(val)
	n, err := strconv.ParseInt(val, 10, 64)
	switch strings.ToLower(key) {
	case "timeout_turn":
		if err == nil && n >= 0 {
			br.timeoutTurn = time.Duration(n) * time.Millisecond
		}
	case "timeout_match":
		if err == nil && n >= 0 {
			br.timeoutMatch = time.Duration(n) * time.Millisecond
		}
	case "time_left":
		if err == nil {
			br.timeLeft, br.timeLeftSet = time.Duration(n)*time.Millisecond, true
		}
	case "max_memory":
		if err == nil && n > 0 {
			br.settings.MemoryMiB = max(16, int(n>>20)*3/4)
			br.eng.Configure(br.settings)
		}
	case "rule":
		if err == nil {
			r := RuleOf(n)
			if r != br.rule {
				br.rule = r
				if br.b != nil {
					_ = br.rebuild()
				}
			}
		}
	case "thread_num":
		if err == nil && n > 0 {
			br.settings.Threads = int(n)
			br.eng.Configure(br.settings)
		}
	}
	// game_type, folder, evaluate and unknown keys need nothing
}

// RuleOf maps INFO rule's value to a rule, as Gomocup managers and Rapfi
// read it: 0 freestyle, 1 standard (exactly five), 2 (Yixin-Board) and 4
// renju, 5 and 6 freestyle with swap1 and swap2 (the opening comes by
// SWAP2BOARD; the rule of five is freestyle's); other values as the
// protocol's bit mask (4 renju, else 1 exactly five, else freestyle).
func RuleOf(n int64) engine.Rule {
	switch n {
	case 0, 5, 6:
		return engine.Freestyle
	case 1:
		return engine.Standard
	case 2, 4:
		return engine.Renju
	}
	switch {
	case n&4 != 0:
		return engine.Renju
	case n&1 != 0:
		return engine.Standard
	}
	return engine.Freestyle
}

// turnTime is the time this move may take: the turn limit, and, with a
// match clock, a share of the time left. timeout_turn 0 means no limit per
// move when the match has a clock (Gomocup's freestyle), else as fast as
// possible (200 ms). The share (clockShare) grows in critical positions
// and shrinks for forced replies.
func (br *Brain) turnTime() time.Duration {
	t := br.timeoutTurn
	if br.timeoutMatch > 0 && br.timeLeftSet && br.timeLeft <= 0 {
		return 0 // the clock has run out: answer at once
	}
	clock := br.timeoutMatch > 0 && br.timeLeft > 0
	switch {
	case t <= 0 && clock:
		t = br.timeLeft
	case t <= 0:
		t = 200 * time.Millisecond // "as fast as possible"
	}
	if clock {
		t = min(t, br.clockShare())
	}
	return t
}

// clockShare is the next move's share of the match clock: the time left
// over the moves the brain still expects to play (at least 12; 45 less a
// third of the stones), then a quarter of that for a forced reply (the
// opponent has a five-point, the brain none), twice it in a critical
// position (either side has two or more four-points: an open three or a
// double threat, where a search finds the most), and half as much again
// when the brain's win rate moved by more than 0.15 between its last two
// moves; never more than a fifth of the time left, and brainSafety is
// kept back. Measured in timed matches (docs/measurements.md).
func (br *Brain) clockShare() time.Duration {
	me := br.colour()
	opp := me.Opponent()
	expected := max(12, 45-len(br.moves)/3)
	t := float64(br.timeLeft) / float64(expected)
	switch {
	case br.b != nil && br.b.Count(opp, engine.FivePoints) > 0 && br.b.Count(me, engine.FivePoints) == 0:
		t /= 4
	case br.b != nil && (br.b.Count(opp, engine.FourPoints) >= 2 || br.b.Count(me, engine.FourPoints) >= 2):
		t *= 2
	}
	if br.haveValue && br.haveSwing && abs(br.lastValue-br.prevValue) > 0.15 {
		t *= 1.5
	}
	t = min(t, float64(br.timeLeft)/5)
	return max(time.Duration(t)-brainSafety, 20*time.Millisecond)
}

// think asks the engine for side me's multipv best moves within the turn's
// time, on a copy of the board, and returns its reply. The search is cancelled at the turn limit minus
// brainSafety, and think returns by the turn limit minus brainSafety/2
// whatever the search is doing: a search that has not ended by then goes
// on in the background (its result unused, its report the zero one, ok
// false), and the next think waits for it before it uses the tables again.
func (br *Brain) think(ctx context.Context, me engine.Color, multipv int) (Reply, bool) {
	turn := br.turnTime()
	br.lastTurn = turn
	if !br.received.IsZero() {
		// the time gone since the command was read (the brain was busy,
		// or starved of CPU) and the recent lateness come off the turn
		turn -= time.Since(br.received) + br.slip
	}
	if turn <= 0 {
		return Reply{}, false // no time: the caller's quick move
	}
	rep, ok := br.thinkOn(ctx, br.b, me, multipv, turn)
	if ok {
		br.prevValue, br.haveSwing = br.lastValue, br.haveValue
		br.lastValue, br.haveValue = rep.Moves[0].Value, true
	}
	return rep, ok
}

// thinkOn is think on board b (copied) within turn. A search of an earlier
// turn that outlived it (pending) is waited for within this turn's time
// only: if it still runs at the answer's deadline, no reply is given (the
// caller plays a quick move) and it stays pending.
func (br *Brain) thinkOn(ctx context.Context, b *engine.Board, me engine.Color, multipv int, turn time.Duration) (Reply, bool) {
	start := time.Now()
	answerBy := max(turn-brainSafety/2, 5*time.Millisecond)
	if br.pending != nil {
		wait := time.NewTimer(answerBy)
		select {
		case <-br.pending:
			wait.Stop()
			br.pending = nil
		case <-wait.C:
			return Reply{}, false
		}
	}
	waited := time.Since(start)
	sctx, cancel := context.WithTimeout(ctx, max(turn-brainSafety-waited, 10*time.Millisecond))
	req := Request{Board: b.Clone(), ToMove: me, MultiPV: multipv,
		Time: max(turn-brainSafety-waited, 5*time.Millisecond)}
	// the search's reports become MESSAGE lines while this turn lasts
	gen := br.thinkGen.Add(1)
	req.Info = func(in Info) {
		if br.thinkGen.Load() == gen && len(in.PV) > 0 {
			br.say("MESSAGE %s", in.message(br.size))
		}
	}
	defer br.thinkGen.Add(1) // a search that outlives its turn says no more
	result := make(chan Reply, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer cancel()
		r, err := br.eng.Think(sctx, req)
		if err != nil {
			r = Reply{}
		}
		result <- r
	}()
	timer := time.NewTimer(max(answerBy-time.Since(start), 5*time.Millisecond))
	defer timer.Stop()
	stopped := ctx.Done()
	for {
		select {
		case r := <-result:
			<-done
			return r, len(r.Moves) > 0
		case <-timer.C:
			br.pending = done
			return Reply{}, false
		case <-stopped:
			// END or the end of the input: the search is cancelled with
			// ctx; what it has by endGrace (a book move, the best so far)
			// is the answer, else it is not waited for
			stopped = nil
			timer.Reset(max(min(endGrace, answerBy-time.Since(start)), 0))
		}
	}
}

// play chooses and plays the brain's move and sends it.
func (br *Brain) play(ctx context.Context) {
	me := br.colour()
	rep, ok := br.think(ctx, me, 1)
	p := engine.NoPoint
	if ok {
		p = rep.Moves[0].Point
	}
	if p == engine.NoPoint || !br.b.Legal(me, p) {
		p = br.eng.Quick(br.b, me)
	}
	if p == engine.NoPoint {
		br.say("ERROR no legal move")
		return
	}
	if err := br.put(p, true); err != nil {
		br.say("ERROR %v", err)
		return
	}
	if ok && rep.Note != "" && rep.Moves[0].Point == p {
		br.say("MESSAGE %s", strings.ReplaceAll(rep.Note, "\n", " "))
	}
	br.say("%s", p.Piskvork(br.size))
	br.clocked()
}

// clocked updates slip after an answer: when it went out later than its
// deadline (the turn less brainSafety/2, counted from when the command was
// read), the next turns are cut by that lateness; an answer in time lets
// the cut decay by a quarter. On a machine whose other processes take the
// CPU, timers and the scheduler run late by tens to hundreds of
// milliseconds: the brain answers earlier rather than lose on time.
func (br *Brain) clocked() {
	if br.received.IsZero() || br.lastTurn <= 0 {
		return
	}
	late := time.Since(br.received) - (br.lastTurn - brainSafety/2)
	if late > 0 {
		br.slip = min(br.lastTurn/2, max(br.slip, late+late/2))
	} else {
		br.slip -= br.slip / 4
	}
}

// nbest reports the k best moves of the side to move (black when the
// stones are even) as MESSAGE lines and the best as the answer, without
// playing it (Yixin-Board's YXNBEST).
func (br *Brain) nbest(ctx context.Context, k int) {
	toMove := engine.Black
	if len(br.moves)%2 == 1 {
		toMove = engine.White
	}
	rep, ok := br.think(ctx, toMove, k)
	if !ok {
		p := br.eng.Quick(br.b, toMove)
		if p == engine.NoPoint {
			br.say("ERROR no legal move")
			return
		}
		br.say("%s", p.Piskvork(br.size))
		return
	}
	for i, m := range rep.Moves {
		if i >= k {
			break
		}
		pv := make([]string, len(m.PV))
		for j, q := range m.PV {
			pv[j] = q.Piskvork(br.size)
		}
		br.say("MESSAGE NBEST %d %s value %.3f visits %d depth %d pv %s", i+1, m.Point.Piskvork(br.size), m.Value,
			m.Visits, m.Depth, strings.Join(pv, " "))
	}
	br.say("%s", rep.Moves[0].Point.Piskvork(br.size))
}
