package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"gomoku/solver"
	"gomoku/solver/store"
)

func ttCommand() *cli.Command {
	dir := &cli.StringFlag{Name: "tt", EnvVars: []string{"GOMOKU_TT"}, Required: true,
		Usage: "badger store `DIR` (as solve --tt)"}
	// stats reads (also a store whose files are read-only); compact writes;
	// neither creates a store that is not there
	open := func(c *cli.Context, write bool) (*solver.Store, error) {
		return solver.OpenStore(c.String("tt"), store.Options{ReadOnly: !write, MustExist: true})
	}
	// stats reads the store read-only: its counts and Open's check of its
	// tables
	stats := func(c *cli.Context) (solver.StoreStats, store.FileReport, error) {
		st, err := open(c, false)
		if err != nil {
			return solver.StoreStats{}, store.FileReport{}, err
		}
		defer st.Close()
		s, err := st.Stats()
		return s, st.Files(), err
	}
	return &cli.Command{
		Name:  "tt",
		Usage: "inspect, merge, export, import, check or compact the store of solved results",
		Subcommands: []*cli.Command{
			{
				Name:  "stats",
				Usage: "count the stored results by mode and verdict, and the store's size",
				Flags: []cli.Flag{dir},
				Action: func(c *cli.Context) error {
					s, _, err := stats(c)
					if err != nil {
						return err
					}
					out := c.App.Writer
					fmt.Fprintf(out, "store %s: %d results\n", c.String("tt"), s.Total)
					keys := make([]string, 0, len(s.Entries))
					for k := range s.Entries {
						keys = append(keys, k)
					}
					slices.Sort(keys)
					for _, k := range keys {
						fmt.Fprintf(out, "  %-12s %d\n", k, s.Entries[k])
					}
					if s.Corrupt > 0 {
						fmt.Fprintf(out, "  corrupt      %d\n", s.Corrupt)
					}
					fmt.Fprintf(out, "files: %.1f MiB LSM, %.1f MiB value log\n", float64(s.LSMBytes)/(1<<20), float64(s.VLogBytes)/(1<<20))
					return nil
				},
			},
			{
				Name:      "merge",
				Usage:     "add the results of other stores (the shards of a sharded run) to the store, keeping per position the best win and the strongest no-win",
				ArgsUsage: "SRC-DIR...",
				Flags:     []cli.Flag{dir},
				Action: func(c *cli.Context) error {
					if c.NArg() == 0 {
						return usagef("name the stores to merge in")
					}
					for _, src := range c.Args().Slice() {
						if sameFile(src, c.String("tt")) {
							return usagef("%s is the store merged into: a store cannot be merged into itself", src)
						}
					}
					st, err := solver.OpenStore(c.String("tt"), store.Options{})
					if err != nil {
						return err
					}
					defer st.Close()
					var total solver.MergeStats
					for _, name := range c.Args().Slice() {
						src, err := solver.OpenStore(name, store.Options{ReadOnly: true})
						if err != nil {
							return err
						}
						ms, err := st.Merge(c.Context, src)
						src.Close()
						if err != nil {
							return fmt.Errorf("%s: %w", name, err)
						}
						total.Read += ms.Read
						total.Kept += ms.Kept
						total.Corrupt += ms.Corrupt
					}
					if err := st.Close(); err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "store %s: %d results read from %d stores, %d kept (new or stronger), %d corrupt\n",
						c.String("tt"), total.Read, c.NArg(), total.Kept, total.Corrupt)
					return nil
				},
			},
			{
				Name:  "check",
				Usage: "verify every table's checksums and decode every result; exit 1 when the store is damaged",
				Flags: []cli.Flag{dir},
				Action: func(c *cli.Context) error {
					s, files, err := stats(c)
					if err != nil {
						return err
					}
					return writeCheck(c, "store", c.String("tt"), files, "results", s.Total, s.Corrupt)
				},
			},
			{
				Name:      "export",
				Usage:     "write every entry of the store to FILE (JSON Lines, gzip-compressed when FILE ends in .gz; - for standard output), the copy that tt import reads back",
				ArgsUsage: "FILE",
				Description: "An export holds each entry as the store does (key in hex, value in base64 with its checksum), so that a store can travel\n" +
					"where a badger directory cannot: into a repository, onto another machine. prove's stores of whole-board proofs are kept\n" +
					"this way (proofs/ in the repository); tt import adds them to a store, and prove --tt resumes from there.",
				Flags: []cli.Flag{dir, &cli.BoolFlag{Name: "checkpoints", Value: true,
					Usage: "write the checkpoints of searches left unknown (--checkpoint: up to 6 MiB each, what a rerun resumes from); --checkpoints=false writes the results only"}},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("name one FILE to write (- for standard output)")
					}
					st, err := open(c, false)
					if err != nil {
						return err
					}
					defer st.Close()
					path := c.Args().First()
					var w io.Writer = c.App.Writer
					var of *outputFile
					if path != "-" {
						if of, err = createOutput(path, nil); err != nil {
							return err
						}
						w = of
					}
					var zw *gzip.Writer
					if strings.HasSuffix(path, ".gz") {
						zw = gzip.NewWriter(w)
						w = zw
					}
					n, err := st.Export(c.Context, w, solver.ExportOptions{NoCheckpoints: !c.Bool("checkpoints")})
					if err == nil && zw != nil {
						err = zw.Close()
					}
					if of != nil {
						if err != nil {
							of.Abort() // the target is left as it was
						} else {
							err = of.Commit()
						}
					}
					if err != nil {
						return err
					}
					if path != "-" {
						fmt.Fprintf(c.App.Writer, "store %s: %d entries written to %s\n", c.String("tt"), n, path)
					}
					return nil
				},
			},
			{
				Name:      "import",
				Usage:     "add the entries of exports (tt export's files, gzip-compressed or not) to the store, keeping per position the best win and the strongest no-win, as merge does",
				ArgsUsage: "FILE... (- for standard input)",
				Flags:     []cli.Flag{dir},
				Action: func(c *cli.Context) error {
					if c.NArg() == 0 {
						return usagef("name the exports to import")
					}
					st, err := solver.OpenStore(c.String("tt"), store.Options{})
					if err != nil {
						return err
					}
					defer st.Close()
					bad := 0
					for _, name := range c.Args().Slice() {
						data, err := readSource(name, c.App.Reader)
						if err == nil {
							data, err = gunzipIfGzip(name, data)
						}
						if err != nil {
							return err
						}
						is, err := st.Import(c.Context, bytes.NewReader(data), name)
						for _, e := range is.Errors {
							fmt.Fprintf(c.App.ErrWriter, "gomoku: %v\n", e)
						}
						if err != nil {
							return err
						}
						bad += is.Bad + is.Corrupt
						fmt.Fprintf(c.App.Writer, "store %s: %d entries read from %s, %d kept (new or stronger), %d corrupt, %d bad lines\n",
							c.String("tt"), is.Read, name, is.Kept, is.Corrupt, is.Bad)
					}
					if err := st.Close(); err != nil {
						return err
					}
					if bad > 0 {
						return fmt.Errorf("%d entries left out: %w", bad, errRecords)
					}
					return nil
				},
			},
			{
				Name:  "compact",
				Usage: "flatten the LSM tree and garbage-collect the value log",
				Flags: []cli.Flag{dir},
				Action: func(c *cli.Context) error {
					st, err := open(c, true)
					if err != nil {
						return err
					}
					defer st.Close()
					if err := st.Compact(); err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "store %s compacted\n", c.String("tt"))
					return nil
				},
			},
		},
	}
}

// writeCheck prints the report of tt check or book check and returns an
// error (exit 1) when entries failed to decode.
func writeCheck(c *cli.Context, kind, dir string, f store.FileReport, what string, good, corrupt int) error {
	w := c.App.Writer
	fmt.Fprintf(w, "%s %s: %d tables verified (%.1f MiB), %d %s read, %d corrupt\n", kind, dir, f.Tables,
		float64(f.TableBytes)/(1<<20), good, what, corrupt)
	if len(f.Orphans) > 0 {
		fmt.Fprintf(w, "set aside: %s (table files its MANIFEST does not list, left by a crash or a damaged MANIFEST; "+
			"not read; delete them once the %s reads whole)\n", strings.Join(f.Orphans, ", "), kind)
	}
	if corrupt > 0 {
		return fmt.Errorf("the %s %s: %d %s fail their checksums or do not decode", kind, dir, corrupt, what)
	}
	return nil
}
