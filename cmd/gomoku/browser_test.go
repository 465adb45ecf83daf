package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	_ "image/jpeg" // screenshots
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"gomoku/analysis"
	"gomoku/positions/datatest"
)

// The browser tests of issue 33: the HTML report and the SVG diagrams in a
// real Chromium, driven by chromedp.

// chromium finds Debian's Chromium. Outside CI a test without it skips;
// under CI it fails (.ci/run installs it).
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("GOMOKU_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium: .ci/run installs Debian's chromium")
	}
	t.Skip("no Chromium here (apt-get install chromium)")
	return ""
}

// browser starts a headless Chromium with the flags this machine needs (no
// sandbox as root, no GPU, no network chatter) and returns its context.
// Console errors and uncaught exceptions are collected in errs.
func browser(t *testing.T) (context.Context, *[]string) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("allow-file-access-from-files", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900),
		// Chromium's singleton socket goes to TMPDIR: a directory the test
		// removes, not /tmp
		chromedp.Env("TMPDIR="+t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	// the first action starts the browser, on a context without a timeout
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	var mu sync.Mutex
	errs := &[]string{}
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			*errs = append(*errs, fmt.Sprintf("exception: %s at %d:%d", e.ExceptionDetails.Text, e.ExceptionDetails.LineNumber, e.ExceptionDetails.ColumnNumber))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value))
				}
				*errs = append(*errs, "console error: "+strings.Join(parts, " "))
			}
		}
	})
	if err != nil {
		t.Fatalf("listening to the page: %v", err)
	}
	tctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	return tctx, errs
}

// boardPixels counts the pixels of a screenshot in the board's colour
// (#e8c37e, within a small tolerance).
func boardPixels(t *testing.T, shot []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, 0xe8) && near(g>>8, 0xc3) && near(bl>>8, 0x7e) {
				n++
			}
		}
	}
	return n
}

func near(a uint32, b int) bool { return int(a) >= b-12 && int(a) <= b+12 }

// analyzeReport runs `analyze --rule freestyle --report DIR` with args on
// standard input in, and returns the report's pages (the games' and
// index.html, sorted), which must number want.
func analyzeReport(t *testing.T, in string, want int, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	code, _, errOut := gomoku(t, in, append([]string{"analyze", "--rule", "freestyle", "--report", dir}, args...)...)
	if code != exitOK {
		t.Fatalf("analyze: exit %d %s", code, errOut)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(pages) != want {
		t.Fatalf("report pages %v, want %d", pages, want)
	}
	return pages
}

// TestReportInBrowser analyses two shared games into a report, opens a
// game's page in Chromium, steps it with the arrow keys and the buttons,
// clicks the graph, and reads back the ply and the stones shown from the
// DOM; no script error may appear on the console, and a screenshot must
// show the board.
func TestReportInBrowser(t *testing.T) {
	games := filepath.Join(datatest.Shared(t), "games", "freestyle")
	pages := analyzeReport(t, "", 3, "--per-position-nodes", "20000",
		filepath.Join(games, "004.psq"), filepath.Join(games, "005.psq"))
	dir := filepath.Dir(pages[0])
	ctx, errs := browser(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf("document.querySelector(%q).textContent", sel)))
		must(err)
		return v
	}
	count := func(sel string) int {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
		must(err)
		return v
	}
	must(chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(dir, "index.html")), chromedp.WaitReady(chromedp.CSS("body"))))
	if idx := text("body"); !strings.Contains(idx, "004.psq#0") || !strings.Contains(idx, "005.psq#0") {
		t.Errorf("the index lacks the games: %q", idx)
	}
	must(chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(dir, "001-004-0.html")),
		chromedp.WaitVisible(chromedp.CSS("#board"))))
	state := func() (string, int) { return text("#ply"), count("#stones circle.stone") }
	if ply, stones := state(); ply != "0" || stones != 0 || text("#plies") != "28" || count("#marks circle.pv") == 0 {
		t.Errorf("at the start: ply %q of %q, %d stones, %d variation stones", ply, text("#plies"), stones, count("#marks circle.pv"))
	}
	// five steps by the keyboard, one back by the button
	for range 5 {
		must(chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)))
	}
	if ply, stones := state(); ply != "5" || stones != 5 {
		t.Errorf("after five steps right: ply %q, %d stones", ply, stones)
	}
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#prev"))))
	if ply, stones := state(); ply != "4" || stones != 4 {
		t.Errorf("after a step back: ply %q, %d stones", ply, stones)
	}
	must(chromedp.Do(ctx, chromedp.KeyEvent(kb.End)))
	if ply, stones := state(); ply != "28" || stones != 28 {
		t.Errorf("after End: ply %q, %d stones", ply, stones)
	}
	// a click on the graph's first mistake marker jumps to its ply
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS("#graph circle.mistake"), "data-ply"))
	must(err)
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#graph circle.mistake"))))
	if ply, stones := state(); !attr.Exists || ply != attr.Value || fmt.Sprint(stones) != attr.Value {
		t.Errorf("after a click on the mistake of ply %q: ply %q, %d stones", attr.Value, ply, stones)
	}
	// issue 57: numbered stones with a toggle, the winning five, the
	// graph's legend and move axis, the list of mistakes, a link to a move
	must(chromedp.Do(ctx, chromedp.KeyEvent(kb.End)))
	if n, s := count("#stones text.stone-number"), count("#stones circle.stone"); n != s || text("#stones text.stone-number") != "1" {
		t.Errorf("%d move numbers on %d stones, the first %q", n, s, text("#stones text.stone-number"))
	}
	if count("#marks line.five") != 1 {
		t.Error("the winning five is not marked")
	}
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#numbers"))))
	if n := count("#stones text.stone-number"); n != 0 {
		t.Errorf("%d move numbers with the toggle off", n)
	}
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#numbers"))))
	if count("#graph #legend text") != 4 || count("#graph #axis text") < 3 {
		t.Errorf("the graph's legend has %d entries, its axis %d labels", count("#graph #legend text"), count("#graph #axis text"))
	}
	if m, k := count("#mistakes li a"), count("#graph circle.mistake"); m == 0 || m != k {
		t.Errorf("%d mistakes listed, %d marked on the graph", m, k)
	}
	first, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS("#mistakes li a"), "data-move"))
	must(err)
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#mistakes li a"))))
	// the link changes the page's hash, and the page follows in its
	// hashchange handler, after the click has returned: wait for it
	// (read at once, it raced under load: ply "28" with "3." shown)
	want := fmt.Sprint(atoi(first.Value) - 1)
	// a timeout is reported by the check below
	_, _ = chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf("document.querySelector('#ply').textContent === %q", want),
		chromedp.WithPollingTimeout(5*time.Second)))
	if ply, _ := state(); !first.Exists || want != ply || !strings.Contains(text("#move"), first.Value+". ") {
		t.Errorf("after a click on the mistake of move %q: after move %q, %q", first.Value, ply, text("#move"))
	}
	must(chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(dir, "001-004-0.html")+"#move=10"),
		chromedp.WaitVisible(chromedp.CSS("#board"))))
	if ply, stones := state(); ply != "9" || stones != 9 || !strings.HasPrefix(text("#move"), "to play: 10. ") {
		t.Errorf("#move=10: after move %q, %d stones, %q", ply, stones, text("#move"))
	}
	if dash, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.querySelector('#marks circle.pv').getAttribute('stroke-dasharray')")); err != nil || dash == "" {
		t.Errorf("the engine's line is drawn like the game's stones: %v", err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	must(err)
	if n := boardPixelsAny(t, shot); n < 5000 {
		t.Errorf("the screenshot shows %d pixels of the board's colour", n)
	}
	if d := os.Getenv("GOMOKU_DOCS"); d != "" { // the README's picture: GOMOKU_DOCS=docs go test -run ReportInBrowser (a PNG)
		must(os.WriteFile(filepath.Join(docsDir(t), "report.png"), shot, 0o644))
	}
	if len(*errs) > 0 {
		t.Errorf("script errors: %v", *errs)
	}
}

// TestReportLostInBrowser: the report of lostGame shows, in place of a
// forced win's line, white's winning quiet move at ply 15 and black's
// lost position at ply 16 (the lost-position check of analyze).
func TestReportLostInBrowser(t *testing.T) {
	pages := analyzeReport(t, lostGame, 2, "--per-position-nodes", "200000", "--eval=false", "-")
	ctx, errs := browser(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(chromedp.Do(ctx, chromedp.Navigate("file://"+pages[0]), chromedp.WaitVisible(chromedp.CSS("#board"))))
	for ply := 1; ply <= 16; ply++ {
		must(chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)))
		want := map[int]string{15: analysis.NoteWinningMove, 16: analysis.NoteLost}[ply]
		if want == "" {
			continue
		}
		line, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.querySelector('#line').textContent"))
		must(err)
		if line != want {
			t.Errorf("ply %d: %q, want %q", ply, line, want)
		}
	}
	if len(*errs) > 0 {
		t.Errorf("script errors: %v", *errs)
	}
}

// boardPixelsAny decodes a PNG or JPEG screenshot and counts board pixels.
func boardPixelsAny(t *testing.T, shot []byte) int {
	t.Helper()
	if bytes.HasPrefix(shot, []byte("\x89PNG")) {
		return boardPixels(t, shot)
	}
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return boardPixels(t, buf.Bytes())
}

// TestSVGDiagrams draws a diagram with every command that takes --format
// svg, parses each as XML (SVG 1.1: the root is svg in the SVG namespace),
// and renders each in Chromium, whose screenshot must show the board.
func TestSVGDiagrams(t *testing.T) {
	dir := t.TempDir()
	bk := filepath.Join(dir, "book")
	games := write(t, dir, "games.txt", "rule: freestyle\nh8 i9 i8 h9 j8 k8 g8 f8 j9 j10 k7\nh8 i9 g7\n")
	if code, _, errOut := gomoku(t, "", "book", "build", "--book", bk, games); code != exitOK {
		t.Fatalf("book build: %d %s", code, errOut)
	}
	outDirs := map[string]string{"solve": "solve", "show": "show", "best": "best", "forbidden": "forbidden", "book": "book-q"}
	runs := map[string][]string{
		"solve":     {"solve", "--format", "svg", "--out", filepath.Join(dir, "solve"), sample(t, "vcf_black.txt"), sample(t, "vcf_white.txt")},
		"show":      {"show", "--format", "svg", "--out", filepath.Join(dir, "show"), games},
		"best":      {"best", "--format", "svg", "--out", filepath.Join(dir, "best"), "--time", "300ms", "--rule", "freestyle", games},
		"forbidden": {"forbidden", "--format", "svg", "--out", filepath.Join(dir, "forbidden"), sample(t, "vct_black.txt")},
		"book":      {"book", "query", "--book", bk, "--rule", "freestyle", "--format", "svg", "--out", filepath.Join(dir, "book-q"), games},
	}
	var files []string
	for name, args := range runs {
		if code, _, errOut := gomoku(t, "", args...); code != exitOK {
			t.Fatalf("%s: exit %d %s", name, code, errOut)
		}
		got, _ := filepath.Glob(filepath.Join(dir, outDirs[name], "*.svg"))
		if len(got) == 0 {
			t.Fatalf("%s wrote no SVG", name)
		}
		files = append(files, got...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(data))
		root := ""
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not XML: %v", f, err)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Space + " " + se.Name.Local
			}
		}
		if root != "http://www.w3.org/2000/svg svg" {
			t.Errorf("%s: root element %q", f, root)
		}
		// librsvg, where installed, must render it too (it rejects what is not SVG)
		if rsvg, err := exec.LookPath("rsvg-convert"); err == nil {
			if out, err := exec.Command(rsvg, "-o", f+".png", f).CombinedOutput(); err != nil {
				t.Errorf("rsvg-convert %s: %v %s", f, err, out)
			} else if png, err := os.ReadFile(f + ".png"); err != nil || boardPixelsAny(t, png) < 5000 {
				t.Errorf("rsvg-convert %s: no board drawn (%v)", f, err)
			}
		}
	}
	// one SVG per command in Chromium
	ctx, errs := browser(t)
	seen := map[string]bool{}
	for _, f := range files {
		d := filepath.Base(filepath.Dir(f))
		if seen[d] {
			continue
		}
		seen[d] = true
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+f), chromedp.WaitVisible(chromedp.CSS("svg"))); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if n := boardPixelsAny(t, shot); n < 5000 {
			t.Errorf("%s renders %d board pixels", f, n)
		}
		if os.Getenv("GOMOKU_DOCS") != "" && d == "solve" {
			data, _ := os.ReadFile(f)
			if err := os.WriteFile(filepath.Join(docsDir(t), "solve-vcf.svg"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(*errs) > 0 {
		t.Errorf("errors: %v", *errs)
	}
}

// docsDir is GOMOKU_DOCS, relative to the module root unless absolute: where
// the tests write the README's pictures.
func docsDir(t testing.TB) string {
	d := os.Getenv("GOMOKU_DOCS")
	if filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(datatest.ModuleRoot(t), d)
}

// atoi is strconv.Atoi without the error (0 for a bad number).
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
