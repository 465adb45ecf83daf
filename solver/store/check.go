package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// orphanSuffix is appended to a table file that the MANIFEST does not list
// when a read-write Open sets it aside (checkFiles): badger would delete
// it, and its keys may be the only copy when the MANIFEST lost its tail.
const orphanSuffix = ".orphaned"

// FileReport is what checkFiles found in a database's directory.
type FileReport struct {
	// Tables is the number of table files (.sst) the MANIFEST lists, all
	// opened and their checksums verified.
	Tables int
	// TableBytes is their size, in bytes.
	TableBytes int64
	// Orphans are table files the MANIFEST does not list (left by a crash
	// between writing a table and recording it, or by a damaged MANIFEST),
	// and files set aside as such by an earlier read-write Open.
	Orphans []string
}

// checkFiles is Open's check of an existing database's files before badger
// opens them: it reads the MANIFEST and opens every table it lists,
// verifying each block's checksum, in the calling goroutine. badger opens
// tables in goroutines of its own, where a damaged table (a flipped byte, a
// truncation, zeros) panics past any recover (badger 4.9: a nil block in
// Table.VerifyChecksum, a bad index in initBiggestAndSmallest), which ended
// the process; here the panic is caught and reported as ErrDamaged. After
// this check Open has badger verify blocks as they are read instead of at
// open, so no table is read twice.
//
// Table files the MANIFEST does not list are orphans, which badger deletes
// at every Open, read-only ones included (Open runs this under the
// directory lock, so that a table a live writer has written but not yet
// recorded is never one). A read-only Open (readOnly)
// refuses them with ErrDamaged and changes nothing; a read-write Open
// renames them with orphanSuffix, out of badger's sight, so that no key is
// lost if the MANIFEST was what failed. Errors: ErrDamaged, or the file
// system's.
func (d *DB) checkFiles(readOnly bool) (FileReport, error) {
	var rep FileReport
	mf, err := os.Open(filepath.Join(d.dir, badger.ManifestFilename))
	if err != nil {
		return rep, d.wrap(err)
	}
	manifest, _, err := d.replayManifest(mf)
	mf.Close()
	if err != nil {
		return rep, err
	}
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return rep, d.wrap(err)
	}
	onDisk := map[uint64]string{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".sst"+orphanSuffix) {
			rep.Orphans = append(rep.Orphans, name)
			continue
		}
		id, ok := table.ParseFileID(name)
		if !ok || !strings.HasSuffix(name, ".sst") {
			continue
		}
		onDisk[id] = name
		if _, listed := manifest.Tables[id]; !listed {
			if readOnly {
				return rep, d.damaged(fmt.Errorf("table %s is not listed in its MANIFEST (a read-write open sets it aside)", name))
			}
			from := filepath.Join(d.dir, name)
			if err := os.Rename(from, from+orphanSuffix); err != nil {
				return rep, d.wrap(err)
			}
			rep.Orphans = append(rep.Orphans, name+orphanSuffix)
		}
	}
	ids := make([]uint64, 0, len(manifest.Tables))
	for id := range manifest.Tables {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		name, ok := onDisk[id]
		if !ok {
			return rep, d.damaged(fmt.Errorf("table %s, listed in its MANIFEST, is missing", table.IDToFilename(id)))
		}
		n, err := d.checkTable(filepath.Join(d.dir, name), manifest.Tables[id].Compression)
		if err != nil {
			return rep, err
		}
		rep.Tables++
		rep.TableBytes += n
	}
	sort.Strings(rep.Orphans)
	return rep, nil
}

// replayManifest reads the MANIFEST, turning badger's errors and panics
// into ErrDamaged.
func (d *DB) replayManifest(f *os.File) (m badger.Manifest, off int64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = d.damaged(fmt.Errorf("MANIFEST: %v", r))
		}
	}()
	m, off, err = badger.ReplayManifestFile(f, 0, badger.DefaultOptions(d.dir))
	if err != nil {
		err = d.damaged(fmt.Errorf("MANIFEST: %w", err))
	}
	return m, off, err
}

// checkTable opens one table file read-only and verifies every block's
// checksum, returning its size in bytes. The file is never written: it is
// mapped read-only and closed without badger's reference counting, whose
// last release deletes the file.
func (d *DB) checkTable(path string, compression options.CompressionType) (size int64, err error) {
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if err != nil {
		return 0, d.damaged(fmt.Errorf("table %s: %w", filepath.Base(path), err))
	}
	defer func() {
		if r := recover(); r != nil {
			// the mapping is left as it is (a damaged table's, once): which
			// of OpenTable's paths closed it is not known
			err = d.damaged(fmt.Errorf("table %s: %s", filepath.Base(path), panicCause(r)))
			return
		}
		if mf != nil {
			_ = mf.Close(-1)
		}
	}()
	opt := badger.DefaultOptions(d.dir)
	t, err := table.OpenTable(mf, table.Options{ReadOnly: true, BlockSize: opt.BlockSize,
		BloomFalsePositive: opt.BloomFalsePositive, ChkMode: options.OnTableAndBlockRead,
		Compression: compression})
	if err != nil {
		mf = nil // OpenTable closed it on some paths: never unmap twice
		return 0, d.damaged(fmt.Errorf("table %s: %w", filepath.Base(path), err))
	}
	return int64(t.Size()), nil
}

// panicCause describes a panic badger raised reading a table, on one line.
func panicCause(r any) string {
	msg := fmt.Sprint(r)
	if strings.Contains(msg, "initIndex crash") {
		return "its index does not decode"
	}
	return "a block fails its checksum or does not decode (badger: " + strings.Join(strings.Fields(msg), " ") + ")"
}
