package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// maxInputBytes is the most read from one input (a file, a device, a pipe
// or standard input): 1 GiB. An endless input (/dev/zero) is refused at
// that size rather than read until memory runs out.
const maxInputBytes = 1 << 30

// errInputTooLarge: an input is larger than maxInputBytes.
var errInputTooLarge = errors.New("larger than the input limit: not a position file")

// inputLimit is the most read from one input, in bytes: maxInputBytes, or
// a quarter of what the process may have (limitMiB) when that is less, so
// that an endless input is refused before it exhausts the memory or the
// address space (reading a stream of unknown size doubles its buffer).
func inputLimit() int64 {
	n := int64(maxInputBytes)
	if limit := limitMiB(); limit > 0 {
		n = min(n, int64(limit)<<20/4)
	}
	return n
}

// readSource reads a named input: the file, or standard input for "-", at
// most inputLimit bytes. Reading a directory is an error naming it.
func readSource(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	limit := inputLimit()
	size := int64(-1) // a regular file's, known before it is read
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err == nil && st.IsDir() {
			return nil, fmt.Errorf("%s: a directory (this command reads files)", name)
		}
		if err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		r = f
	}
	if size > limit {
		return nil, fmt.Errorf("%s: %w (%d MiB here)", name, errInputTooLarge, limit>>20)
	}
	// io.ReadAll grows its buffer geometrically with few large reads
	// (bytes.Buffer.ReadFrom took 41 s to refuse /dev/zero, ReadAll 1 s)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w (%d MiB here)", name, errInputTooLarge, limit>>20)
	}
	return data, nil
}

// checkArgs refuses a flag written after the file arguments, which the
// command line would otherwise read as a file name: an argument that
// starts with "-" (not "-" alone) and names no file is a usage error.
func checkArgs(args []string) error {
	for _, a := range args {
		if len(a) > 1 && strings.HasPrefix(a, "-") {
			if _, err := os.Stat(a); err != nil {
				return usagef("%q after the file arguments: flags go before the files (gomoku COMMAND [flags] FILE...)", a)
			}
		}
	}
	return nil
}

// sameFile reports whether paths a and b name the same file: the same
// file when both exist (os.SameFile, so links and ./x count), else the
// same cleaned absolute path.
func sameFile(a, b string) bool {
	sa, ea := os.Stat(a)
	sb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(sa, sb)
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ab
}

// outputFile is a file written whole or not at all: the data goes to a
// temporary file beside it, renamed over the target by Commit. Abort (or a
// crash) leaves the target as it was. A target that exists and is not a
// regular file (a device such as /dev/stdout, a FIFO) is written directly:
// it cannot be replaced. It is safe for one goroutine.
type outputFile struct {
	path   string
	tmp    *os.File
	direct bool  // tmp is the target itself
	err    error // the first write error
}

// createOutput starts writing path. It refuses a path that is also one of
// inputs (writing it would destroy what is still to be read). A symbolic
// link is followed, so the file it points to is written and the link is
// kept. The file gets the mode of the file it replaces, or a new file's
// (0666 less the umask): the temporary file's 0600 is not kept. Errors: the
// refusal (a usage error), the temporary file's.
func createOutput(path string, inputs []string) (*outputFile, error) {
	for _, in := range inputs {
		if in != "-" && sameFile(path, in) {
			return nil, usagef("%s is also an input: write the output elsewhere", path)
		}
	}
	path, err := followLinks(path)
	if err != nil {
		return nil, err
	}
	mode := newFileMode()
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm()
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, usagef("%s is a directory: name a file", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &outputFile{path: path, tmp: f, direct: true}, nil
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if len(base) > 100 {
		base = base[:100] // the temporary name must stay within the name limit
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &outputFile{path: path, tmp: f}, nil
}

// followLinks returns the file that path names after following symbolic
// links, a dangling link's target included (it is then created); path
// itself when it is not a link. Errors: a loop of links.
func followLinks(path string) (string, error) {
	for range 40 {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// Write writes to the temporary file; after the first error it writes
// nothing and returns that error.
func (o *outputFile) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.tmp.Write(p)
	if err != nil {
		o.err = fmt.Errorf("writing %s: %w", o.path, err)
	}
	return n, o.err
}

// Commit syncs and closes the temporary file and renames it over the
// target. On any error (a write's, the sync's, the close's, the rename's)
// the temporary file is removed, the target is left as it was, and the
// error is returned.
func (o *outputFile) Commit() error {
	err := o.err
	if err == nil && !o.direct {
		err = o.tmp.Sync()
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if o.direct {
		if err != nil && o.err == nil {
			err = fmt.Errorf("writing %s: %w", o.path, err)
		}
		return err
	}
	if err == nil {
		err = os.Rename(o.tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		if o.err == nil {
			err = fmt.Errorf("writing %s: %w", o.path, err)
		}
	}
	return err
}

// Abort drops what was written; the target is left as it was (a device
// or FIFO target has had its writes).
func (o *outputFile) Abort() {
	o.tmp.Close()
	if !o.direct {
		os.Remove(o.tmp.Name())
	}
}

// checkedWriter passes writes through and keeps the first error, so that
// text output to a full device is an error even where the writers ignore
// errors (fmt.Fprintf to standard output). It is safe for concurrent use.
type checkedWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// Write writes p; after an error it keeps failing with that error.
func (c *checkedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// Err returns the first write error, or nil.
func (c *checkedWriter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// errOutput wraps a failed write of the standard output.
var errOutput = errors.New("writing the output")
