package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/openjury/openjury/internal/whsig"
	"github.com/openjury/openjury/wire"
)

// The event log's and the webhooks' wire types under the names of the
// document's schemas.
type (
	// Event is wire.Event.
	Event = wire.Event
	// ListEventsResponse is wire.ListEventsResponse.
	ListEventsResponse = wire.ListEventsResponse
	// CreateWebhookRequest is wire.CreateWebhookRequest.
	CreateWebhookRequest = wire.CreateWebhookRequest
	// Webhook is wire.Webhook.
	Webhook = wire.Webhook
	// WebhookWithSecret is wire.WebhookWithSecret.
	WebhookWithSecret = wire.WebhookWithSecret
	// ListWebhooksResponse is wire.ListWebhooksResponse.
	ListWebhooksResponse = wire.ListWebhooksResponse
	// WebhookDelivery is wire.WebhookDelivery.
	WebhookDelivery = wire.WebhookDelivery
	// ListWebhookDeliveriesResponse is wire.ListWebhookDeliveriesResponse.
	ListWebhookDeliveriesResponse = wire.ListWebhookDeliveriesResponse
)

// EventFilter selects events; its zero value selects every event.
type EventFilter struct {
	// Types keeps events of these types (job.created, submission.created...).
	Types []string
	// JobID keeps the events of one job.
	JobID string
	// Address keeps the events whose actor or subjects include it (and
	// the events whose audience holds it, such as jury.drawn).
	Address string
	// Tag keeps the events of jobs and posts with this tag.
	Tag string
}

func (f EventFilter) values() url.Values {
	q := url.Values{}
	if len(f.Types) > 0 {
		q.Set("type", strings.Join(f.Types, ","))
	}
	for k, v := range map[string]string{"job_id": f.JobID, "address": f.Address, "tag": f.Tag} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q
}

// ListEvents returns a page of the log after the event id after ("": from
// the oldest event kept), at most limit (0: the server's default). Pass
// NextCursor as after for the next page; an empty page means up to date.
func (c *Client) ListEvents(ctx context.Context, f EventFilter, after string, limit int) (ListEventsResponse, error) {
	q := f.values()
	if after != "" {
		q.Set("after", after)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out ListEventsResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/events", query: q}, &out)
	return out, err
}

// Stream defaults.
const (
	// streamIdle is how long a stream may stay silent (the server sends a
	// heartbeat every 15 s) before the client takes it for dead and
	// reconnects.
	streamIdle = 45 * time.Second
	// streamMaxWait caps the pause before a reconnection.
	streamMaxWait = 30 * time.Second
	// maxStreamLine bounds one line of a stream.
	maxStreamLine = 1 << 20
)

// StreamEvents follows the live event stream (GET /api/v1/events/stream)
// and yields each event f selects, in order, for as long as the caller
// keeps ranging and ctx lasts: after the event id after, or from now when
// after is "". A dropped or silent connection is reopened by itself, with
// a growing pause, resuming after the last id the server sent (an event's
// or a heartbeat's), so no event is missed or repeated. It yields an error
// and stops when the server refuses the request (a bad filter: 400; a
// resume point older than the retention: 410) or ctx ends.
func (c *Client) StreamEvents(ctx context.Context, f EventFilter, after string) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		last := after
		failures := 0
		for {
			gotSome := false
			err := c.streamOnce(ctx, f, last, func(id string, ev *Event) bool {
				last, gotSome = id, true
				if ev == nil {
					return true
				}
				return yield(*ev, nil)
			})
			var stop errStop
			switch {
			case errors.As(err, &stop):
				return
			case ctx.Err() != nil:
				yield(Event{}, ctx.Err())
				return
			}
			var apiErr *Error
			if errors.As(err, &apiErr) && apiErr.Status != http.StatusTooManyRequests && apiErr.Status < 500 {
				yield(Event{}, err)
				return
			}
			if gotSome {
				failures = 0
			}
			failures++
			wait := min(streamMaxWait, backoff(failures))
			if apiErr != nil && apiErr.retryAfter > 0 {
				wait = min(streamMaxWait, apiErr.retryAfter)
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				yield(Event{}, ctx.Err())
				return
			case <-t.C:
			}
		}
	}
}

// errStop is streamOnce's error when the caller stopped ranging.
type errStop struct{}

func (errStop) Error() string { return "stopped" }

// streamOnce reads one connection of the stream, calling got for each id
// the server sends (with its event, or nil for an id without data) until
// the connection ends or got returns false.
func (c *Client) streamOnce(ctx context.Context, f EventFilter, after string, got func(id string, ev *Event) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	u := c.base + "/api/v1/events/stream"
	if q := f.values().Encode(); q != "" {
		u += "?" + q
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("User-Agent", c.userAgent)
	if after != "" {
		req.Header.Set("Last-Event-ID", after)
	}
	hc := *c.http
	hc.Timeout = 0 // a stream lasts; silence is watched below
	res, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("client: event stream: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		e := errorOf(&response{status: res.StatusCode, header: res.Header, body: data})
		e.retryAfter = retryAfter(res.Header, 0)
		return e
	}
	// A silent connection (no heartbeat for streamIdle) is dead.
	idle := time.AfterFunc(streamIdle, cancel)
	defer idle.Stop()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), maxStreamLine)
	var id, event string
	var data bytes.Buffer
	for sc.Scan() {
		idle.Reset(streamIdle)
		line := sc.Text()
		if line != "" {
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "id":
				id = value
			case "event":
				event = value
			case "data":
				if data.Len() > 0 {
					data.WriteByte('\n')
				}
				data.WriteString(value)
			}
			continue
		}
		// A blank line ends a frame.
		switch {
		case event == "error":
			var e Error
			_ = json.Unmarshal(data.Bytes(), &e)
			e.Status = http.StatusGone
			return &e
		case data.Len() > 0:
			var ev Event
			if err := json.Unmarshal(data.Bytes(), &ev); err != nil {
				return fmt.Errorf("client: event stream: decode: %w", err)
			}
			if !got(ev.ID, &ev) {
				return errStop{}
			}
		case id != "":
			if !got(id, nil) {
				return errStop{}
			}
		}
		id, event = "", ""
		data.Reset()
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("client: event stream: %w", err)
	}
	return errors.New("client: event stream: the server closed it")
}

// CreateWebhook registers a webhook; the answer holds its secret, shown
// only now: keep it to verify deliveries (VerifyWebhook).
func (c *Client) CreateWebhook(ctx context.Context, req CreateWebhookRequest) (WebhookWithSecret, error) {
	var out WebhookWithSecret
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/webhooks", body: req, auth: bearer}, &out)
	return out, err
}

// ListWebhooks lists the caller's webhooks (without secrets).
func (c *Client) ListWebhooks(ctx context.Context) (ListWebhooksResponse, error) {
	var out ListWebhooksResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/webhooks", auth: bearer}, &out)
	return out, err
}

// DeleteWebhook deletes one of the caller's webhooks.
func (c *Client) DeleteWebhook(ctx context.Context, webhookID string) (Webhook, error) {
	var out Webhook
	_, err := c.do(ctx, call{method: http.MethodDelete, path: pathf("/api/v1/webhooks/%s", webhookID), auth: bearer}, &out)
	return out, err
}

// RotateWebhookSecret gives a webhook a new secret (in the answer); for a
// day deliveries are signed with both the new and the old one.
func (c *Client) RotateWebhookSecret(ctx context.Context, webhookID string) (WebhookWithSecret, error) {
	var out WebhookWithSecret
	_, err := c.do(ctx, call{method: http.MethodPost, path: pathf("/api/v1/webhooks/%s/rotate", webhookID), auth: bearer}, &out)
	return out, err
}

// ListWebhookDeliveries returns a page of a webhook's deliveries.
func (c *Client) ListWebhookDeliveries(ctx context.Context, webhookID string, p Page) (ListWebhookDeliveriesResponse, error) {
	var out ListWebhookDeliveriesResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/webhooks/%s/deliveries", webhookID), query: p.values(nil), auth: bearer}, &out)
	return out, err
}

// RedeliverWebhookDelivery sends a delivery's event again, as a new
// delivery with the same webhook-id.
func (c *Client) RedeliverWebhookDelivery(ctx context.Context, webhookID, deliveryID string) (WebhookDelivery, error) {
	var out WebhookDelivery
	_, err := c.do(ctx, call{method: http.MethodPost, path: pathf("/api/v1/webhooks/%s/deliveries/%s/redeliver", webhookID, deliveryID), auth: bearer}, &out)
	return out, err
}

// Errors of VerifyWebhook (wrapped).
var (
	ErrWebhookHeaders   = whsig.ErrMissingHeaders
	ErrWebhookTimestamp = whsig.ErrBadTimestamp
	ErrWebhookTooOld    = whsig.ErrTooOld
	ErrWebhookTooNew    = whsig.ErrTooNew
	ErrWebhookSignature = whsig.ErrNoSignature
)

// DefaultWebhookTolerance is how far a delivery's webhook-timestamp may be
// from the receiver's clock.
const DefaultWebhookTolerance = whsig.DefaultTolerance

// VerifyWebhook checks that a webhook delivery came from the server: its
// webhook-signature (Standard Webhooks: v1, HMAC-SHA256 of
// "<webhook-id>.<webhook-timestamp>.<body>" with the secret) matches,
// and its webhook-timestamp is within DefaultWebhookTolerance of now
// (replays of old deliveries fail). Pass the body exactly as received.
// Receivers should also drop a webhook-id they have seen: a delivery may
// come more than once (at-least-once).
func VerifyWebhook(secret string, header http.Header, body []byte, now time.Time) error {
	return whsig.Verify(secret, header.Get, body, now, 0)
}

// maxWebhookBody bounds what ReadWebhook reads of a delivery.
const maxWebhookBody = 1 << 20

// ReadWebhook reads a webhook delivery from an incoming request (at most
// 1 MiB), verifies it (VerifyWebhook at now) and decodes its event. A
// receiver answers 2xx when it returns no error.
func ReadWebhook(r *http.Request, secret string, now time.Time) (Event, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBody+1))
	if err != nil {
		return Event{}, fmt.Errorf("client: webhook body: %w", err)
	}
	if len(body) > maxWebhookBody {
		return Event{}, errors.New("client: webhook body over 1 MiB")
	}
	if err := VerifyWebhook(secret, r.Header, body, now); err != nil {
		return Event{}, err
	}
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		return Event{}, fmt.Errorf("client: webhook body: %w", err)
	}
	return ev, nil
}
