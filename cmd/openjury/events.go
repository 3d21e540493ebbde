package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/events"
)

// eventFlags reads the filter flags of the events command.
type eventFlags struct {
	types, job, address, tag *string
}

func (f eventFlags) filter() client.EventFilter {
	var types []string
	for t := range strings.SplitSeq(*f.types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			types = append(types, t)
		}
	}
	return client.EventFilter{Types: types, JobID: *f.job, Address: *f.address, Tag: *f.tag}
}

// cmdEvents prints a page of the event log or, with --follow, the live
// stream until interrupted (reconnecting and resuming by itself). With
// --json each event is one line of JSON (NDJSON).
func cmdEvents(ctx context.Context, e *env, args []string) error {
	fs := e.flags("events")
	f := eventFlags{
		types:   fs.String("type", "", "only these event types, comma-separated (job.created, submission.created, ...)"),
		job:     fs.String("job", "", "only the events of this job"),
		address: fs.String("address", "", "only the events whose actor or subjects include this address"),
		tag:     fs.String("tag", "", "only the events of jobs and posts with this tag"),
	}
	after := fs.String("after", "", "start after this event id (default: the oldest kept; with --follow: now)")
	limit := fs.Int("limit", events.DefaultListLimit, fmt.Sprintf("at most this many events (1..%d; without --follow)", events.MaxListLimit))
	follow := fs.Bool("follow", false, "follow the live stream until interrupted")
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	c, err := e.client(false)
	if err != nil {
		return err
	}
	if !*follow {
		page, err := c.ListEvents(ctx, f.filter(), *after, *limit)
		if err != nil {
			return err
		}
		return e.print(page, func(w io.Writer) {
			for _, ev := range page.Events {
				printEvent(w, ev)
			}
			if page.NextCursor != nil {
				fmt.Fprintf(w, "next: --after %s\n", *page.NextCursor)
			}
		})
	}
	enc := json.NewEncoder(e.stdout)
	for ev, err := range c.StreamEvents(ctx, f.filter(), *after) {
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil // interrupted
			}
			return err
		}
		if e.json {
			if err := enc.Encode(ev); err != nil {
				return err
			}
			continue
		}
		printEvent(e.stdout, ev)
	}
	return nil
}

// printEvent writes one event as a line: id, time, type, job, actor, data.
func printEvent(w io.Writer, ev client.Event) {
	job, actor := "-", "-"
	if ev.JobID != nil {
		job = *ev.JobID
	}
	if ev.Address != nil {
		actor = *ev.Address
	}
	fmt.Fprintf(w, "%s  %s  %-18s  job %s  by %s  %s\n", ev.ID, ev.CreatedAt, ev.Type, job, actor, ev.Data)
}
