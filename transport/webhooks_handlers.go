package transport

import (
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

func (s *server) webhookRoutes() []route {
	return []route{
		{pattern: "POST /api/v1/webhooks", op: "createWebhook", service: "create_webhook", auth: authBearer, h: s.createWebhook},
		{pattern: "GET /api/v1/webhooks", op: "listWebhooks", service: "list_webhooks", auth: authBearer, h: s.listWebhooks},
		{pattern: "DELETE /api/v1/webhooks/{webhook_id}", op: "deleteWebhook", service: "delete_webhook", auth: authBearer, h: s.deleteWebhook},
		{pattern: "POST /api/v1/webhooks/{webhook_id}/rotate", op: "rotateWebhookSecret", service: "rotate_webhook_secret", auth: authBearer, h: s.rotateWebhook},
		{pattern: "GET /api/v1/webhooks/{webhook_id}/deliveries", op: "listWebhookDeliveries", service: "webhook_deliveries", auth: authBearer, h: s.listDeliveries},
		{pattern: "POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", op: "redeliverWebhookDelivery", service: "redeliver_webhook_delivery", auth: authBearer, h: s.redeliver},
	}
}

// createWebhookRequest is CreateWebhookRequest.
type createWebhookRequest struct {
	URL   *string  `json:"url"`
	Types []string `json:"types"`
	JobID *string  `json:"job_id"`
	Tag   *string  `json:"tag"`
}

// webhookJSON is Webhook; Secret is set only on create and rotate.
type webhookJSON struct {
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	Types          []string `json:"types"`
	JobID          *string  `json:"job_id"`
	Tag            *string  `json:"tag"`
	CreatedAt      string   `json:"created_at"`
	FailingSince   *string  `json:"failing_since"`
	Disabled       bool     `json:"disabled"`
	DisabledAt     *string  `json:"disabled_at"`
	DisabledReason *string  `json:"disabled_reason"`
}

// webhookWithSecretJSON is WebhookWithSecret.
type webhookWithSecretJSON struct {
	webhookJSON
	Secret string `json:"secret"`
}

func newWebhookJSON(w *events.Webhook) webhookJSON {
	out := webhookJSON{ID: w.ID, URL: w.URL, Types: make([]string, len(w.Types)), JobID: optString(w.JobID), Tag: optString(w.Tag),
		CreatedAt: openjury.FormatTime(w.CreatedAt), FailingSince: optTimePtr(w.FailingSince), Disabled: w.DisabledAt != nil,
		DisabledAt: optTimePtr(w.DisabledAt), DisabledReason: optString(w.DisabledReason)}
	for i, t := range w.Types {
		out.Types[i] = string(t)
	}
	return out
}

// deliveryJSON is WebhookDelivery.
type deliveryJSON struct {
	ID             string  `json:"id"`
	WebhookID      string  `json:"webhook_id"`
	EventID        string  `json:"event_id"`
	EventType      string  `json:"event_type"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	NextAttemptAt  *string `json:"next_attempt_at"`
	LastAttemptAt  *string `json:"last_attempt_at"`
	ResponseStatus *int    `json:"response_status"`
	Error          *string `json:"error"`
	CreatedAt      string  `json:"created_at"`
	DeliveredAt    *string `json:"delivered_at"`
	Redelivery     bool    `json:"redelivery"`
}

func newDeliveryJSON(d *events.Delivery) deliveryJSON {
	out := deliveryJSON{ID: d.ID, WebhookID: d.WebhookID, EventID: events.FormatID(d.EventSeq), EventType: string(d.EventType),
		Status: string(d.Status), Attempts: d.Attempts, NextAttemptAt: optTimePtr(d.NextAttemptAt), LastAttemptAt: optTimePtr(d.LastAttemptAt),
		Error: optString(d.Error), CreatedAt: openjury.FormatTime(d.CreatedAt), DeliveredAt: optTimePtr(d.DeliveredAt), Redelivery: d.Redelivery}
	if d.ResponseStatus != 0 {
		out.ResponseStatus = &d.ResponseStatus
	}
	return out
}

// listWebhooksResponse is ListWebhooksResponse.
type listWebhooksResponse struct {
	Webhooks   []webhookJSON `json:"webhooks"`
	NextCursor *string       `json:"next_cursor"`
}

// listDeliveriesResponse is ListWebhookDeliveriesResponse.
type listDeliveriesResponse struct {
	Deliveries []deliveryJSON `json:"deliveries"`
	NextCursor *string        `json:"next_cursor"`
}

// errWebhooksOff answers the webhook routes of a handler without
// webhooks.
var errWebhooksOff = openjury.E(openjury.NotImplemented, "transport.webhooks", "webhooks are not enabled on this server")

func (s *server) createWebhook(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	var req createWebhookRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if req.URL == nil {
		return required("url")
	}
	in := events.CreateWebhookInput{URL: *req.URL, Types: req.Types}
	if req.JobID != nil {
		in.JobID = *req.JobID
	}
	if req.Tag != nil {
		in.Tag = *req.Tag
	}
	hook, err := s.svc.Webhooks.Create(r.Context(), callerFrom(r.Context()).addr, in)
	if err != nil {
		return err
	}
	return respond(w, webhookWithSecretJSON{webhookJSON: newWebhookJSON(hook), Secret: hook.Secret})
}

func (s *server) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	hooks, err := s.svc.Webhooks.List(r.Context(), callerFrom(r.Context()).addr)
	if err != nil {
		return err
	}
	return respond(w, listWebhooksResponse{Webhooks: mapEach(hooks, newWebhookJSON)})
}

func (s *server) deleteWebhook(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	hook, err := s.svc.Webhooks.Delete(r.Context(), callerFrom(r.Context()).addr, r.PathValue("webhook_id"))
	if err != nil {
		return err
	}
	return respond(w, newWebhookJSON(hook))
}

func (s *server) rotateWebhook(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	hook, err := s.svc.Webhooks.Rotate(r.Context(), callerFrom(r.Context()).addr, r.PathValue("webhook_id"))
	if err != nil {
		return err
	}
	return respond(w, webhookWithSecretJSON{webhookJSON: newWebhookJSON(hook), Secret: hook.Secret})
}

func (s *server) listDeliveries(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	limit, err := queryInt(r, "limit", events.DefaultDeliveryLimit, 1, events.MaxDeliveryLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Webhooks.Deliveries(r.Context(), callerFrom(r.Context()).addr, r.PathValue("webhook_id"), limit, r.URL.Query().Get("cursor"))
	if err != nil {
		return err
	}
	return respond(w, listDeliveriesResponse{Deliveries: mapEach(page.Deliveries, newDeliveryJSON), NextCursor: optString(page.NextCursor)})
}

func (s *server) redeliver(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	d, err := s.svc.Webhooks.Redeliver(r.Context(), callerFrom(r.Context()).addr, r.PathValue("webhook_id"), r.PathValue("delivery_id"))
	if err != nil {
		return err
	}
	return respond(w, newDeliveryJSON(d))
}
