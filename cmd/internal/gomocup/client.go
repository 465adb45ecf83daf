package gomocup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"gomoku/engine"
)

// Client drives a brain from the manager's side: it starts the brain's
// process, writes commands to its standard input and reads its answers,
// skipping MESSAGE and DEBUG lines (kept for the log). Rapfi's quirk is
// met for every brain: a command is written no sooner than QuietGap after
// the brain's last answer (Rapfi polls its "thinking" flag without a lock
// and can lose the first word of a command that follows its move at once).
// A Client is safe for one goroutine.
type Client struct {
	// Name labels the brain in errors and logs.
	Name string
	// QuietGap is the least time between an answer and the next command
	// (30 ms by default).
	QuietGap time.Duration

	cmd      *exec.Cmd
	in       io.WriteCloser
	lines    chan string
	exited   chan struct{}
	waitErr  error
	mu       sync.Mutex
	messages []string
	lastRead time.Time
}

// ErrCrashed: the brain's process ended, or closed its output, while an
// answer was awaited.
var ErrCrashed = errors.New("the brain exited")

// ErrTimeout: the brain did not answer by the deadline.
var ErrTimeout = errors.New("no answer in time")

// Start runs the brain argv[0] with arguments argv[1:] in directory dir
// ("" for the current one), its standard error discarded. Errors: those of
// exec (the file does not exist, is not executable).
func Start(name string, argv []string, dir string) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	ownGroup(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := &Client{Name: name, QuietGap: 30 * time.Millisecond, cmd: cmd, in: in, lines: make(chan string, 64),
		exited: make(chan struct{})}
	go func() {
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			line, err := readLine(r, MaxLine)
			if err == nil || (line != "" && errors.Is(err, io.EOF)) {
				c.lines <- line
			}
			if err != nil && !errors.Is(err, errLongLine) {
				break
			}
		}
		close(c.lines)
	}()
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// Send writes one command line, after the quiet gap. Errors: ErrCrashed
// when the brain's input is closed.
func (c *Client) Send(format string, args ...any) error {
	if wait := c.QuietGap - time.Since(c.lastRead); !c.lastRead.IsZero() && wait > 0 {
		time.Sleep(wait)
	}
	if _, err := fmt.Fprintf(c.in, format+"\n", args...); err != nil {
		return fmt.Errorf("%s: %w (%v)", c.Name, ErrCrashed, err)
	}
	return nil
}

// Answer returns the brain's next line that is not MESSAGE or DEBUG, by
// the deadline. Errors: ErrTimeout, ErrCrashed.
func (c *Client) Answer(deadline time.Time) (string, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("%s: %w", c.Name, ErrCrashed)
			}
			c.lastRead = time.Now()
			line = strings.TrimSpace(line)
			up := strings.ToUpper(line)
			if strings.HasPrefix(up, "MESSAGE") || strings.HasPrefix(up, "DEBUG") {
				c.mu.Lock()
				if len(c.messages) < 1000 {
					c.messages = append(c.messages, line)
				}
				c.mu.Unlock()
				continue
			}
			if line == "" {
				continue
			}
			return line, nil
		case <-timer.C:
			return "", fmt.Errorf("%s: %w", c.Name, ErrTimeout)
		}
	}
}

// Messages returns and clears the MESSAGE and DEBUG lines read so far.
func (c *Client) Messages() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.messages
	c.messages = nil
	return m
}

// Move reads the brain's answer to a move request by the deadline and
// parses it as a point "x,y" on a size×size board. Errors: ErrTimeout,
// ErrCrashed, and *BadAnswer for anything that is not a point on the board
// (ERROR and UNKNOWN answers included).
func (c *Client) Move(deadline time.Time, size int) (engine.Point, error) {
	line, err := c.Answer(deadline)
	if err != nil {
		return engine.NoPoint, err
	}
	p, err := ParsePoint(line, size)
	if err != nil {
		return engine.NoPoint, &BadAnswer{Brain: c.Name, Line: line, Err: err}
	}
	return p, nil
}

// Moves reads an answer of one or more points "x,y x,y ..." (a SWAP2BOARD
// answer); "SWAP" comes back as swap true. Errors as Move's.
func (c *Client) Moves(deadline time.Time, size int) (pts []engine.Point, swap bool, err error) {
	line, err := c.Answer(deadline)
	if err != nil {
		return nil, false, err
	}
	if strings.EqualFold(strings.TrimSpace(line), "SWAP") {
		return nil, true, nil
	}
	for _, f := range strings.Fields(line) {
		p, err := ParsePoint(f, size)
		if err != nil {
			return nil, false, &BadAnswer{Brain: c.Name, Line: line, Err: err}
		}
		pts = append(pts, p)
	}
	if len(pts) == 0 {
		return nil, false, &BadAnswer{Brain: c.Name, Line: line, Err: errors.New("no move")}
	}
	return pts, false, nil
}

// BadAnswer is an answer to a move request that is not a move.
type BadAnswer struct {
	Brain string
	Line  string
	Err   error
}

// Error quotes the answer.
func (e *BadAnswer) Error() string {
	return fmt.Sprintf("%s answered %q: %v", e.Brain, clipLine(e.Line), e.Err)
}

// Unwrap returns the parse error.
func (e *BadAnswer) Unwrap() error { return e.Err }

func clipLine(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// Close sends END, waits up to grace for the process to exit, then kills
// it; either way every process left in its process group (what a wrapper
// script or a forking brain started) is killed too. It returns the
// process's exit error, if any, after END.
func (c *Client) Close(grace time.Duration) error {
	_ = c.Send("END")
	c.in.Close()
	select {
	case <-c.exited:
		killGroup(c.cmd)
	case <-time.After(grace):
		c.Kill()
	}
	return c.waitErr
}

// Kill ends the process and its process group at once.
func (c *Client) Kill() {
	killGroup(c.cmd)
	<-c.exited
}

// Exited reports whether the process has ended.
func (c *Client) Exited() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// ParsePoint reads a protocol point "x,y" on a size×size board: it is
// engine.ParsePiskvork, where the project's points are parsed.
func ParsePoint(s string, size int) (engine.Point, error) { return engine.ParsePiskvork(s, size) }

// FormatPoint writes p as a protocol point "x,y" on a size×size board.
func FormatPoint(p engine.Point, size int) string { return p.Piskvork(size) }

// RuleCode is the INFO rule value of a rule: 0 freestyle, 1 standard
// (exactly five), 4 renju.
func RuleCode(r engine.Rule) int {
	switch r {
	case engine.Standard:
		return 1
	case engine.Renju:
		return 4
	}
	return 0
}
