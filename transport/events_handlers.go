package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/wire"
)

// DefaultEventHeartbeat is how often an idle event stream sends a comment
// line (docs/rules.md#events).
const DefaultEventHeartbeat = 15 * time.Second

// eventStaleAfter is how many heartbeats of silence tell a client its
// stream is dead (the discovery documents quote it).
const eventStaleAfter = 3

// eventHeartbeat is the stream heartbeat of the handler.
func (s *server) eventHeartbeat() time.Duration {
	if s.opts.EventHeartbeat > 0 {
		return s.opts.EventHeartbeat
	}
	return DefaultEventHeartbeat
}

// eventRetention is the event log's retention (its default without one).
func (s *server) eventRetention() time.Duration {
	if s.svc.Events != nil {
		return s.svc.Events.Config().Retention
	}
	return events.DefaultRetention
}

// eventStreamWrite bounds each write of an event stream: a client that
// stops reading for this long is dropped.
const eventStreamWrite = 30 * time.Second

// eventStreamBatch bounds the events one write of a stream carries.
const eventStreamBatch = 64

// eventStreamRetry is the reconnection delay an event stream asks of
// EventSource clients, in milliseconds.
const eventStreamRetry = 2000

func (s *server) eventRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/events", op: "listEvents", service: "events", h: s.listEvents},
		{pattern: "GET /api/v1/events/stream", op: "streamEvents", service: "events_stream", h: s.streamEvents},
	}
}

func newEventJSON(e *events.Event) wire.Event {
	out := wire.Event{ID: e.ID(), Type: string(e.Type), CreatedAt: wire.NewTime(e.CreatedAt),
		JobID: optString(e.JobID), Address: optAddress(e.Actor), Subjects: make([]string, len(e.Subjects)),
		Tags: e.Tags, Data: eventData(e.Data)}
	for i, a := range e.Subjects {
		out.Subjects[i] = a.String()
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	return out
}

// eventData is an event's data as JSON, {} when it has none (or, never
// expected, when it holds a value JSON cannot encode).
func eventData(d events.Data) json.RawMessage {
	if d == nil {
		return json.RawMessage(`{}`)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return json.RawMessage(`{}`)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// EventJSON renders an event as the API serves it (GET /api/v1/events,
// the stream's data lines, the body of a webhook delivery): one line of
// JSON without a newline.
func EventJSON(e *events.Event) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(newEventJSON(e)) // every part is plain JSON
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// EventFrame renders an event as one Server-Sent Events frame: its id,
// its type as the event name and its JSON as the data line
// (events.HubConfig.Frame).
func EventFrame(e *events.Event) []byte {
	body := EventJSON(e)
	b := make([]byte, 0, len(body)+64)
	b = append(b, "id: "...)
	b = append(b, e.ID()...)
	b = append(b, "\nevent: "...)
	b = append(b, e.Type...)
	b = append(b, "\ndata: "...)
	b = append(b, body...)
	return append(b, "\n\n"...)
}

// listEventsResponse is ListEventsResponse.
type listEventsResponse struct {
	Events     []json.RawMessage `json:"events"`
	NextCursor *string           `json:"next_cursor"`
}

// eventFilter reads the filter parameters of an events request.
func eventFilter(r *http.Request) (events.Filter, error) {
	q := r.URL.Query()
	return events.ParseFilter("transport.events", events.FilterInput{
		Types: q.Get("type"), JobID: q.Get("job_id"), Address: q.Get("address"), Tag: q.Get("tag"),
	})
}

// errEventsOff answers the event routes of a handler without an event log.
var errEventsOff = openjury.E(openjury.NotImplemented, "transport.events", "the event log is not enabled on this server")

func (s *server) listEvents(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Events == nil {
		return errEventsOff
	}
	q := r.URL.Query()
	limit, err := queryInt(r, "limit", events.DefaultListLimit, 1, events.MaxListLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Events.List(r.Context(), events.ListInput{
		After: q.Get("after"), Limit: limit,
		Filter: events.FilterInput{Types: q.Get("type"), JobID: q.Get("job_id"), Address: q.Get("address"), Tag: q.Get("tag")},
	})
	if err != nil {
		return err
	}
	out := listEventsResponse{Events: make([]json.RawMessage, len(page.Events)), NextCursor: optString(page.NextCursor)}
	for i, e := range page.Events {
		out.Events[i] = EventJSON(e)
	}
	return respond(w, out)
}

// streamEvents serves the log as Server-Sent Events from the replica's
// hub: the events after Last-Event-ID (or ?after=), or only new ones
// without either, that the filter selects; a comment line every
// heartbeat while idle. Any replica serves any client: positions are
// the log's.
func (s *server) streamEvents(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Events == nil || s.svc.EventHub == nil {
		return errEventsOff
	}
	ctx := r.Context()
	f, err := eventFilter(r)
	if err != nil {
		return err
	}
	after := r.Header.Get("Last-Event-ID")
	if after == "" {
		after = r.URL.Query().Get("after")
	}
	var pos int64 = -1
	if after != "" {
		if pos, err = s.svc.Events.StreamStart(ctx, after); err != nil {
			return err
		}
	}
	sub, err := s.svc.EventHub.Subscribe(ctx, f, pos)
	if err != nil {
		return err
	}
	defer sub.Close()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // tell reverse proxies not to buffer
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	// write sends frames (the shared, pre-rendered bytes of the hub: no
	// copy of ours; the server's buffered writer cuts them into chunks)
	// and flushes them.
	write := func(frames ...[]byte) error {
		_ = rc.SetWriteDeadline(time.Now().Add(eventStreamWrite))
		for _, f := range frames {
			if _, err := w.Write(f); err != nil {
				return err
			}
		}
		return rc.Flush()
	}
	// The preamble and each heartbeat carry the stream's position as an
	// id without data: a client that reconnects with it as Last-Event-ID
	// misses nothing, even before its first event and with a rare filter.
	if err := write([]byte("retry: " + strconv.Itoa(eventStreamRetry) + "\nid: " + events.FormatID(sub.Position()) + "\n\n")); err != nil {
		return nil
	}
	heartbeat := s.eventHeartbeat()
	for {
		frames, err := sub.Next(ctx, heartbeat, eventStreamBatch)
		switch {
		case openjury.IsKind(err, openjury.Gone):
			// Too late for a status: the stream says why it ends.
			msg, _ := json.Marshal(wire.Error{Detail: openjury.DetailOf(err)})
			_ = write([]byte("event: error\ndata: "), msg, []byte("\n\n"))
			return nil
		case err != nil:
			if ctx.Err() == nil && !errors.Is(err, events.ErrHubStopped) {
				s.logCause(r, slog.LevelWarn, "event stream ended", err)
			}
			return nil
		}
		if len(frames) == 0 {
			frames = [][]byte{[]byte(": heartbeat\nid: " + events.FormatID(sub.Position()) + "\n\n")}
		}
		if err := write(frames...); err != nil {
			return nil // the client went away
		}
	}
}

// NewRenderer returns the renderer of webhook deliveries
// (events.DelivererConfig.Render): a webhook receives the event as the
// API serves it (EventJSON); an A2A push config receives its task.
func NewRenderer(s Services) events.Renderer {
	return func(ctx context.Context, w *events.Webhook, e *events.Event) ([]byte, string, error) {
		if w.Push != nil {
			return renderPush(ctx, s, w)
		}
		return EventJSON(e), contentTypeJSON, nil
	}
}
