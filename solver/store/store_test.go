package store

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// TestStore writes through a Batch, reads back with Get and Each, in memory
// and on disk (badger takes different paths), compacts, and reopens.
func TestStore(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		d, err := Open(dir, "test")
		if err != nil {
			t.Fatal(err)
		}
		b := d.NewBatch()
		for i := range 100 {
			if err := b.Set(fmt.Appendf(nil, "k%03d", i), fmt.Appendf(nil, "v%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		if b.Pending() != 100 {
			t.Errorf("pending %d", b.Pending())
		}
		if v, ok, err := d.Get([]byte("k007")); ok || err != nil || v != nil {
			t.Errorf("before the flush: %q %v %v", v, ok, err)
		}
		if err := b.Flush(); err != nil || b.Pending() != 0 {
			t.Fatal(err, b.Pending())
		}
		b.Cancel()
		if v, ok, err := d.Get([]byte("k007")); !ok || err != nil || string(v) != "v7" {
			t.Errorf("k007: %q %v %v", v, ok, err)
		}
		n := 0
		if err := d.Each([]byte("k05"), func(k, v []byte) error {
			if !bytes.HasPrefix(k, []byte("k05")) {
				t.Errorf("key %q outside the prefix", k)
			}
			n++
			return nil
		}); err != nil || n != 10 {
			t.Errorf("prefix k05: %d keys, %v", n, err)
		}
		stop := errors.New("stop")
		if err := d.Each(nil, func(k, v []byte) error { return stop }); err != stop {
			t.Errorf("Each's error: %v", err)
		}
		if err := d.Compact(); err != nil {
			t.Errorf("compact: %v", err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Errorf("second close: %v", err)
		}
		if dir == "" {
			continue
		}
		d, err = Open(dir, "test")
		if err != nil {
			t.Fatal(err)
		}
		if v, ok, err := d.Get([]byte("k099")); !ok || err != nil || string(v) != "v99" {
			t.Errorf("after reopening: %q %v %v", v, ok, err)
		}
		if _, err := Open(dir, "test"); !errors.Is(err, ErrLocked) {
			t.Errorf("a second open: %v, want ErrLocked", err)
		}
		d.Close()
	}
}
