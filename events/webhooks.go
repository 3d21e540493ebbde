package events

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
	"github.com/openjury/openjury/internal/whsig"
)

// Limits of webhooks (docs/rules.md#events).
const (
	// MaxWebhooksPerAddress bounds the webhooks one address keeps.
	MaxWebhooksPerAddress = 20
	// DefaultDeliveryLimit and MaxDeliveryLimit bound a page of a
	// webhook's deliveries.
	DefaultDeliveryLimit = 50
	MaxDeliveryLimit     = 200
	// RotationGrace is how long a rotated-out secret still signs
	// deliveries (beside the new one), so receivers can switch.
	RotationGrace = 24 * time.Hour
	// DisableAfter is how long an endpoint may fail every delivery before
	// it is disabled.
	DisableAfter = 24 * time.Hour
	// DeliveryTimeout is how long a receiver has to answer 2xx.
	DeliveryTimeout = 10 * time.Second
)

// Retries is the schedule of a failed delivery's attempts, after the
// first: about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h later (each
// jittered). A delivery whose last attempt fails is failed.
var Retries = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour}

// Kinds of endpoints: a webhook registered through the API, or the push
// notification config of an A2A task.
const (
	KindWebhook = "webhook"
	KindA2A     = "a2a"
)

// Webhook is an endpoint that receives events.
type Webhook struct {
	ID    string
	Kind  string
	Owner openjury.Address
	URL   string
	// Types, JobID and Tag filter the events it receives (empty: all).
	Types []Type
	JobID string
	Tag   string
	// Secret signs deliveries; PreviousSecret, until PreviousUntil, too
	// (after a rotation). A2A push configs have none.
	Secret         string
	PreviousSecret string
	PreviousUntil  *time.Time
	CreatedAt      time.Time
	// FailingSince is when the endpoint began failing every delivery;
	// nil while the last delivery succeeded.
	FailingSince *time.Time
	// DisabledAt and DisabledReason tell why deliveries stopped.
	DisabledAt     *time.Time
	DisabledReason string
	// Push is set for an A2A push notification config.
	Push *PushConfig
}

// PushConfig is what an A2A push notification config adds to an
// endpoint: its task, its id in the task, the token echoed in
// X-A2A-Notification-Token, how to authenticate to the receiver, and the
// protocol version the config was set with (the payload's shape).
type PushConfig struct {
	TaskID      string
	ConfigID    string
	Token       string
	AuthScheme  string
	Credentials string
	Protocol    string
}

// Wants reports whether w receives e: its filters select it and, for an
// event with an audience, its owner is in the audience.
func (w *Webhook) Wants(e *Event) bool {
	if e.Restricted() && !slices.Contains(e.Audience, w.Owner) {
		return false
	}
	f := Filter{Types: w.Types, JobID: w.JobID, Tag: w.Tag}
	if e.Restricted() {
		f.Address = w.Owner // the audience check above; Match needs it
	}
	return f.Match(e)
}

// Secrets returns the secrets that sign a delivery at now.
func (w *Webhook) Secrets(now time.Time) []string {
	out := []string{w.Secret}
	if w.PreviousSecret != "" && w.PreviousUntil != nil && now.Before(*w.PreviousUntil) {
		out = append(out, w.PreviousSecret)
	}
	return out
}

// DeliveryStatus is where a delivery stands.
type DeliveryStatus string

// Delivery states.
const (
	DeliveryPending   DeliveryStatus = "pending"
	DeliveryDelivered DeliveryStatus = "delivered"
	DeliveryFailed    DeliveryStatus = "failed"
)

// Delivery is one event sent (or to send) to one webhook, with its
// attempts.
type Delivery struct {
	ID        string
	WebhookID string
	EventSeq  int64
	EventType Type
	Status    DeliveryStatus
	// Attempts made so far.
	Attempts int
	// NextAttemptAt is when the next attempt is due (pending only).
	NextAttemptAt *time.Time
	LastAttemptAt *time.Time
	// ResponseStatus is the HTTP status of the last attempt (0: none, or
	// no answer); Error why it failed.
	ResponseStatus int
	Error          string
	CreatedAt      time.Time
	DeliveredAt    *time.Time
	// Redelivery marks a delivery its owner asked for again.
	Redelivery bool
}

// DeliveryCursor is a position in a webhook's deliveries, newest first.
type DeliveryCursor struct {
	At time.Time
	ID string
}

// Claim is a due delivery leased to one worker, with its endpoint and its
// event (nil when retention deleted it).
type Claim struct {
	Delivery *Delivery
	Webhook  *Webhook
	Event    *Event
}

// Attempt is the outcome of one attempt of a delivery.
type Attempt struct {
	DeliveryID string
	WebhookID  string
	At         time.Time
	// OK is a 2xx answer.
	OK     bool
	Status int
	Error  string
	// Next is when to try again; nil fails the delivery for good.
	Next *time.Time
	// DisableAfter disables the webhook when, with this failure, it has
	// failed every delivery for at least this long.
	DisableAfter time.Duration
	// DisableReason is the reason shown when it does.
	DisableReason string
}

// WebhookStore keeps webhooks and their deliveries.
type WebhookStore interface {
	// CreateWebhook inserts w unless its owner (for an A2A push config:
	// its task) has max endpoints of its kind already, counted so that
	// racing creates never pass max. Errors: Conflict at max.
	CreateWebhook(ctx context.Context, w *Webhook, max int) error
	// Webhook returns one endpoint. Errors: NotFound.
	Webhook(ctx context.Context, id string) (*Webhook, error)
	// Webhooks lists the endpoints of kind an owner keeps, oldest first
	// (for KindA2A: those of the task taskID).
	Webhooks(ctx context.Context, owner openjury.Address, kind, taskID string) ([]*Webhook, error)
	// DeleteWebhook deletes an endpoint and its deliveries. Errors:
	// NotFound.
	DeleteWebhook(ctx context.Context, id string) error
	// RotateSecret replaces an endpoint's secret, keeping the old one as
	// PreviousSecret until previousUntil, and returns the endpoint.
	// Errors: NotFound.
	RotateSecret(ctx context.Context, id, secret string, previousUntil time.Time) (*Webhook, error)
	// JobExists reports whether a job exists.
	JobExists(ctx context.Context, jobID string) (bool, error)
	// Deliveries lists a webhook's deliveries newest first (created_at,
	// id), up to limit, after the cursor when not nil.
	Deliveries(ctx context.Context, webhookID string, limit int, after *DeliveryCursor) ([]*Delivery, error)
	// Delivery returns one delivery. Errors: NotFound.
	Delivery(ctx context.Context, id string) (*Delivery, error)
	// AddDelivery inserts d (a redelivery).
	AddDelivery(ctx context.Context, d *Delivery) error
	// Dispatch runs one step of the dispatcher in one transaction: unless
	// another replica's step holds the dispatcher's turn (then it returns
	// 0 at once), it reads up to limit sequenced events after the
	// dispatcher's position, the enabled endpoints that may want them
	// (catch-all ones, and those filtered on their jobs or tags), inserts
	// the deliveries plan returns and moves the position past the events
	// read. It returns how many events it read.
	Dispatch(ctx context.Context, limit int, plan func(evs []*Event, hooks []*Webhook) []*Delivery) (int, error)
	// DispatchBehind reports whether the dispatcher's position is behind
	// the log's head.
	DispatchBehind(ctx context.Context) (bool, error)
	// ClaimDeliveries leases up to n pending deliveries due at now, of
	// enabled endpoints, oldest due first, until now+lease: a delivery
	// another worker leased is skipped.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, n int) ([]Claim, error)
	// RecordAttempt stores an attempt: the delivery delivered, pending
	// again at a.Next, or failed; the endpoint's failure streak cleared
	// on success, else started (if not yet) and, past a.DisableAfter,
	// the endpoint disabled with a.DisableReason and its pending
	// deliveries failed. A failed attempt on an endpoint already disabled
	// (one under way when another attempt disabled it) fails its delivery
	// the same way instead of scheduling a retry.
	RecordAttempt(ctx context.Context, a Attempt) error
	// ExpireDeliveries deletes up to limit finished deliveries created
	// before `before` and returns how many.
	ExpireDeliveries(ctx context.Context, before time.Time, limit int) (int64, error)
}

// WebhookConfig holds the webhook settings.
type WebhookConfig struct {
	// Policy is where webhooks may point.
	Policy URLPolicy
	// Secrets is where new secrets come from (nil: crypto/rand).
	Secrets io.Reader
}

// Webhooks manages webhooks for their owners.
type Webhooks struct {
	store WebhookStore
	log   *Service
	clock openjury.Clock
	cfg   WebhookConfig
}

// NewWebhooks returns the webhook service.
func NewWebhooks(store WebhookStore, log *Service, clock openjury.Clock, cfg WebhookConfig) *Webhooks {
	return &Webhooks{store: store, log: log, clock: clock, cfg: cfg}
}

// Policy returns where webhooks may point.
func (s *Webhooks) Policy() URLPolicy { return s.cfg.Policy }

// CreateWebhookInput is a new webhook.
type CreateWebhookInput struct {
	URL   string
	Types []string
	JobID string
	Tag   string
}

// Create registers a webhook for owner and returns it with its secret
// (shown only now and on rotation). Errors: Invalid (url, types, job_id,
// tag), NotFound (job), Conflict at MaxWebhooksPerAddress.
func (s *Webhooks) Create(ctx context.Context, owner openjury.Address, in CreateWebhookInput) (*Webhook, error) {
	const op = "events.CreateWebhook"
	if owner.IsZero() {
		return nil, openjury.E(openjury.Unauthenticated, op, "sign in to register a webhook")
	}
	for _, f := range [][2]string{{"url", in.URL}, {"job_id", in.JobID}, {"tag", in.Tag}} {
		if err := valid.Text(op, f[0], f[1]); err != nil {
			return nil, err
		}
	}
	w := &Webhook{ID: openjury.NewID(), Kind: KindWebhook, Owner: owner, Types: []Type{}, CreatedAt: openjury.Truncate(s.clock.Now())}
	for i, t := range in.Types {
		if err := valid.Text(op, "types", t); err != nil {
			return nil, err
		}
		if !Known(Type(t)) {
			return nil, openjury.Errorf(openjury.Invalid, op, "types[%d]: unknown event type %q", i, t)
		}
		if !slices.Contains(w.Types, Type(t)) {
			w.Types = append(w.Types, Type(t))
		}
	}
	if in.JobID = strings.TrimSpace(in.JobID); in.JobID != "" {
		if !openjury.ValidID(in.JobID) {
			return nil, openjury.E(openjury.Invalid, op, "job_id: must be a job id")
		}
		ok, err := s.store.JobExists(ctx, in.JobID)
		if err != nil {
			return nil, openjury.Wrap(op, err)
		}
		if !ok {
			return nil, openjury.E(openjury.NotFound, op, "job not found")
		}
		w.JobID = in.JobID
	}
	if tag := strings.ToLower(strings.TrimSpace(in.Tag)); tag != "" {
		if len([]rune(tag)) > MaxTagChars {
			return nil, openjury.Errorf(openjury.Invalid, op, "tag: must be at most %d characters", MaxTagChars)
		}
		w.Tag = tag
	}
	if strings.TrimSpace(in.URL) == "" {
		return nil, openjury.E(openjury.Invalid, op, "url: is required")
	}
	var err error
	if w.URL, err = s.cfg.Policy.CheckURL(ctx, "url", in.URL); err != nil {
		return nil, err
	}
	if w.Secret, err = whsig.NewSecret(s.cfg.Secrets); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if err := s.store.CreateWebhook(ctx, w, MaxWebhooksPerAddress); err != nil {
		if openjury.IsKind(err, openjury.Conflict) {
			return nil, openjury.Errorf(openjury.Conflict, op, "at most %d webhooks per address", MaxWebhooksPerAddress)
		}
		return nil, openjury.Wrap(op, err)
	}
	return w, nil
}

// List returns owner's webhooks, oldest first, without their secrets.
func (s *Webhooks) List(ctx context.Context, owner openjury.Address) ([]*Webhook, error) {
	ws, err := s.store.Webhooks(ctx, owner, KindWebhook, "")
	if err != nil {
		return nil, openjury.Wrap("events.ListWebhooks", err)
	}
	for _, w := range ws {
		w.Secret, w.PreviousSecret = "", ""
	}
	return ws, nil
}

// own returns owner's webhook id. Errors: NotFound (also for another
// owner's: nobody learns that it exists).
func (s *Webhooks) own(ctx context.Context, op string, owner openjury.Address, id string) (*Webhook, error) {
	if err := valid.Text(op, "webhook_id", id); err != nil {
		return nil, err
	}
	notFound := openjury.E(openjury.NotFound, op, "webhook not found")
	if !openjury.ValidID(id) {
		return nil, notFound
	}
	w, err := s.store.Webhook(ctx, id)
	if openjury.IsKind(err, openjury.NotFound) || (err == nil && (w.Owner != owner || w.Kind != KindWebhook)) {
		return nil, notFound
	}
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return w, nil
}

// Delete deletes owner's webhook and its deliveries, and returns it
// (without its secret). Errors: NotFound.
func (s *Webhooks) Delete(ctx context.Context, owner openjury.Address, id string) (*Webhook, error) {
	const op = "events.DeleteWebhook"
	w, err := s.own(ctx, op, owner, id)
	if err != nil {
		return nil, err
	}
	if err := s.store.DeleteWebhook(ctx, w.ID); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	w.Secret, w.PreviousSecret = "", ""
	return w, nil
}

// Rotate gives owner's webhook a new secret and returns the webhook with
// it; the old secret keeps signing (beside the new one) for
// RotationGrace. Errors: NotFound.
func (s *Webhooks) Rotate(ctx context.Context, owner openjury.Address, id string) (*Webhook, error) {
	const op = "events.RotateWebhook"
	w, err := s.own(ctx, op, owner, id)
	if err != nil {
		return nil, err
	}
	secret, err := whsig.NewSecret(s.cfg.Secrets)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	w, err = s.store.RotateSecret(ctx, w.ID, secret, openjury.Truncate(s.clock.Now()).Add(RotationGrace))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	w.PreviousSecret = ""
	return w, nil
}

// MaxPushConfigsPerTask bounds the push notification configs of one A2A
// task.
const MaxPushConfigsPerTask = 10

// PushInput is an A2A push notification config to set on a task.
type PushInput struct {
	// TaskID and JobID are the task's and its job's.
	TaskID, JobID string
	// ConfigID names the config in the task ("": a new id); setting an
	// existing one replaces it.
	ConfigID string
	// URL receives the notifications; Token is echoed in
	// X-A2A-Notification-Token; AuthScheme and Credentials make the
	// Authorization header; Protocol is the A2A version of the request
	// ("0.3" or "1.0"): the payload's shape.
	URL, Token, AuthScheme, Credentials, Protocol string
}

// pushTypes are the events an A2A push config receives: the changes of
// its task's state (the job's close).
var pushTypes = []Type{JobClosed}

// SetPush sets a push notification config on owner's task: a webhook of
// kind KindA2A on the task's job, for the events that change the task's
// state, delivered (with the retries of every delivery) as the task.
// Errors: Invalid (url), Conflict at MaxPushConfigsPerTask.
func (s *Webhooks) SetPush(ctx context.Context, owner openjury.Address, in PushInput) (*Webhook, error) {
	const op = "events.SetPush"
	if err := valid.Text(op, "url", in.URL); err != nil {
		return nil, err
	}
	url, err := s.cfg.Policy.CheckURL(ctx, "url", in.URL)
	if err != nil {
		return nil, err
	}
	if in.ConfigID == "" {
		in.ConfigID = openjury.NewID()
	}
	old, err := s.Pushes(ctx, owner, in.TaskID)
	if err != nil {
		return nil, err
	}
	for _, w := range old {
		if w.Push.ConfigID == in.ConfigID {
			if err := s.store.DeleteWebhook(ctx, w.ID); err != nil && !openjury.IsKind(err, openjury.NotFound) {
				return nil, openjury.Wrap(op, err)
			}
		}
	}
	w := &Webhook{ID: openjury.NewID(), Kind: KindA2A, Owner: owner, URL: url, Types: pushTypes, JobID: in.JobID,
		CreatedAt: openjury.Truncate(s.clock.Now()),
		Push:      &PushConfig{TaskID: in.TaskID, ConfigID: in.ConfigID, Token: in.Token, AuthScheme: in.AuthScheme, Credentials: in.Credentials, Protocol: in.Protocol}}
	if err := s.store.CreateWebhook(ctx, w, MaxPushConfigsPerTask); err != nil {
		if openjury.IsKind(err, openjury.Conflict) {
			return nil, openjury.Errorf(openjury.Conflict, op, "at most %d push notification configs per task", MaxPushConfigsPerTask)
		}
		return nil, openjury.Wrap(op, err)
	}
	return w, nil
}

// Pushes lists the push notification configs of owner's task.
func (s *Webhooks) Pushes(ctx context.Context, owner openjury.Address, taskID string) ([]*Webhook, error) {
	ws, err := s.store.Webhooks(ctx, owner, KindA2A, taskID)
	return ws, openjury.Wrap("events.Pushes", err)
}

// DeletePush deletes a push notification config of owner's task.
// Errors: NotFound.
func (s *Webhooks) DeletePush(ctx context.Context, owner openjury.Address, taskID, configID string) error {
	const op = "events.DeletePush"
	ws, err := s.Pushes(ctx, owner, taskID)
	if err != nil {
		return err
	}
	for _, w := range ws {
		if w.Push.ConfigID == configID {
			return openjury.Wrap(op, s.store.DeleteWebhook(ctx, w.ID))
		}
	}
	return openjury.E(openjury.NotFound, op, "push notification config not found")
}

// DeliveryPage is a page of deliveries, newest first.
type DeliveryPage struct {
	Deliveries []*Delivery
	NextCursor string
}

// Deliveries lists the deliveries of owner's webhook, newest first.
// Errors: NotFound, Invalid (limit, cursor).
func (s *Webhooks) Deliveries(ctx context.Context, owner openjury.Address, id string, limit int, cur string) (DeliveryPage, error) {
	const op = "events.Deliveries"
	limit, err := valid.Limit(op, limit, DefaultDeliveryLimit, MaxDeliveryLimit)
	if err != nil {
		return DeliveryPage{}, err
	}
	after, err := cursor.After[DeliveryCursor](op, cur)
	if err != nil {
		return DeliveryPage{}, err
	}
	w, err := s.own(ctx, op, owner, id)
	if err != nil {
		return DeliveryPage{}, err
	}
	ds, err := s.store.Deliveries(ctx, w.ID, limit+1, after)
	if err != nil {
		return DeliveryPage{}, openjury.Wrap(op, err)
	}
	var p DeliveryPage
	p.Deliveries, p.NextCursor = cursor.Cut(ds, limit, func(last *Delivery) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	return p, nil
}

// Redeliver sends a delivery's event to owner's webhook again, now, as a
// new delivery (its webhook-id, the event id, unchanged). Errors:
// NotFound (webhook, delivery), Conflict (webhook disabled), Gone (the
// event is older than the retention).
func (s *Webhooks) Redeliver(ctx context.Context, owner openjury.Address, id, deliveryID string) (*Delivery, error) {
	const op = "events.Redeliver"
	w, err := s.own(ctx, op, owner, id)
	if err != nil {
		return nil, err
	}
	if err := valid.Text(op, "delivery_id", deliveryID); err != nil {
		return nil, err
	}
	notFound := openjury.E(openjury.NotFound, op, "delivery not found")
	if !openjury.ValidID(deliveryID) {
		return nil, notFound
	}
	d, err := s.store.Delivery(ctx, deliveryID)
	if openjury.IsKind(err, openjury.NotFound) || (err == nil && d.WebhookID != w.ID) {
		return nil, notFound
	}
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if w.DisabledAt != nil {
		return nil, openjury.E(openjury.Conflict, op, "webhook is disabled ("+w.DisabledReason+"): delete it and register it again")
	}
	horizon, _, err := s.log.Bounds(ctx)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if d.EventSeq <= horizon {
		return nil, openjury.E(openjury.Gone, op, "the delivery's event is no longer kept (retention)")
	}
	now := openjury.Truncate(s.clock.Now())
	re := &Delivery{ID: openjury.NewID(), WebhookID: w.ID, EventSeq: d.EventSeq, EventType: d.EventType,
		Status: DeliveryPending, NextAttemptAt: &now, CreatedAt: now, Redelivery: true}
	if err := s.store.AddDelivery(ctx, re); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return re, nil
}
