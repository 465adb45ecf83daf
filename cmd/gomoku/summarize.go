package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"gomoku/analysis"
)

// summarizeCommand is `gomoku analyze summarize`: the batch totals of the
// JSON Lines that shards of an analysis wrote, as one run would print them.
func summarizeCommand() *cli.Command {
	return &cli.Command{
		Name:      "summarize",
		Usage:     "print the batch totals of analyze --format json outputs (the shards of a sharded analysis), as one run would",
		ArgsUsage: "FILES... (analyze --format json output, - for standard input)",
		Description: "Reads every game record and batch line of the files and prints the totals: games, positions (solved,\n" +
			"unknown, from the store), missed wins, blunders, bad records and time (the shards' times added). The game\n" +
			"records themselves are the concatenation of the files. A game is counted once (by source, index and id):\n" +
			"a shard given twice, a copy of one, or a run with one of its shards is reported and not counted again.\n" +
			"An analysis that was interrupted is flagged PARTIAL.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text or json (the batch line)"},
		},
		Action: runSummarize,
	}
}

func runSummarize(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("name the analyses to summarize")
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return usagef("--format %q: want text or json", format)
	}
	var total analysis.Batch
	t := &total.Batch
	failed := 0
	// games are counted once by source, index and id: a shard given twice,
	// a copy of one, or a run with one of its shards repeats them
	seen := map[string]bool{}
	seenBatch := map[string]bool{}
	repeatedFiles, partial := 0, 0
	for _, name := range c.Args().Slice() {
		data, err := readSource(name, c.App.Reader)
		if err != nil {
			return err
		}
		var batches []analysis.Batch
		repeated := 0
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for line := 1; sc.Scan(); line++ {
			raw := bytes.TrimSpace(sc.Bytes())
			if len(raw) == 0 {
				continue
			}
			if bytes.HasPrefix(raw, []byte(`{"batch"`)) {
				var b analysis.Batch
				if err := json.Unmarshal(raw, &b); err != nil {
					failed++
					fmt.Fprintf(c.App.ErrWriter, "gomoku: %s:%d: %v\n", name, line, err)
					continue
				}
				if seenBatch[string(raw)] {
					repeated++ // the same shard's batch line again
					continue
				}
				seenBatch[string(raw)] = true
				batches = append(batches, b)
				continue
			}
			var rec analysis.Record
			if err := json.Unmarshal(raw, &rec); err != nil || rec.Plies == nil {
				if err == nil {
					err = fmt.Errorf("not an analyze record")
				}
				failed++
				fmt.Fprintf(c.App.ErrWriter, "gomoku: %s:%d: %v\n", name, line, err)
				continue
			}
			id := fmt.Sprintf("%s\x00%d\x00%s", rec.Source, rec.Index, rec.ID)
			if seen[id] {
				repeated++
				continue
			}
			seen[id] = true
			total.Add(rec)
		}
		if repeated > 0 {
			// its batch line describes games already counted: left out
			repeatedFiles++
			fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: %d game(s) or batch line(s) already counted from the files before it "+
				"(a shard given twice, a copy, or a run with one of its shards): counted once\n", name, repeated)
			continue
		}
		for _, b := range batches {
			t.FromStore += b.Batch.FromStore
			t.Failed += b.Batch.Failed
			t.TimeMS += b.Batch.TimeMS
			if b.Batch.Partial {
				partial++
				t.Partial = true
				t.GamesRead += b.Batch.GamesRead
				fmt.Fprintf(c.App.ErrWriter, "gomoku: %s: PARTIAL: its run was interrupted after %d of %d games\n",
					name, b.Batch.Games, b.Batch.GamesRead)
			} else {
				t.GamesRead += b.Batch.Games
			}
		}
	}
	if !t.Partial {
		t.GamesRead = 0
	}
	out := c.App.Writer
	if format == "json" {
		if err := writeJSON(out, total); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(out, "batch: %d games, %d positions (%d solved, %d unknown, %d from the store), %d missed wins, %d blunders, %d bad records, %.1f s\n",
			t.Games, t.Plies, t.Solved, t.Unknown, t.FromStore, t.MissedWins, t.Blunders, t.Failed,
			(time.Duration(t.TimeMS) * time.Millisecond).Seconds())
		if t.Partial {
			fmt.Fprintf(out, "PARTIAL: %d of the analyses were interrupted; they hold %d games of %d read\n", partial, t.Games, t.GamesRead)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d line(s) unreadable: %w", failed, errRecords)
	}
	return nil
}
