package transport

import (
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/wire"
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

func newWebhookJSON(w *events.Webhook) wire.Webhook {
	out := wire.Webhook{ID: w.ID, URL: w.URL, Types: make([]string, len(w.Types)), JobID: optString(w.JobID), Tag: optString(w.Tag),
		CreatedAt: wire.NewTime(w.CreatedAt), FailingSince: optTimePtr(w.FailingSince), Disabled: w.DisabledAt != nil,
		DisabledAt: optTimePtr(w.DisabledAt), DisabledReason: optString(w.DisabledReason)}
	for i, t := range w.Types {
		out.Types[i] = string(t)
	}
	return out
}

func newDeliveryJSON(d *events.Delivery) wire.WebhookDelivery {
	out := wire.WebhookDelivery{ID: d.ID, WebhookID: d.WebhookID, EventID: events.FormatID(d.EventSeq), EventType: string(d.EventType),
		Status: string(d.Status), Attempts: d.Attempts, NextAttemptAt: optTimePtr(d.NextAttemptAt), LastAttemptAt: optTimePtr(d.LastAttemptAt),
		Error: optString(d.Error), CreatedAt: wire.NewTime(d.CreatedAt), DeliveredAt: optTimePtr(d.DeliveredAt), Redelivery: d.Redelivery}
	if d.ResponseStatus != 0 {
		out.ResponseStatus = &d.ResponseStatus
	}
	return out
}

// errWebhooksOff answers the webhook routes of a handler without
// webhooks.
var errWebhooksOff = openjury.E(openjury.NotImplemented, "transport.webhooks", "webhooks are not enabled on this server")

func (s *server) createWebhook(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	var req wire.CreateWebhookRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("url"); err != nil {
		return err
	}
	in := events.CreateWebhookInput{URL: req.URL, Types: req.Types}
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
	return respond(w, wire.WebhookWithSecret{Webhook: newWebhookJSON(hook), Secret: hook.Secret})
}

func (s *server) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Webhooks == nil {
		return errWebhooksOff
	}
	hooks, err := s.svc.Webhooks.List(r.Context(), callerFrom(r.Context()).addr)
	if err != nil {
		return err
	}
	return respond(w, wire.ListWebhooksResponse{Webhooks: mapEach(hooks, newWebhookJSON)})
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
	return respond(w, wire.WebhookWithSecret{Webhook: newWebhookJSON(hook), Secret: hook.Secret})
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
	return respond(w, wire.ListWebhookDeliveriesResponse{Deliveries: mapEach(page.Deliveries, newDeliveryJSON), NextCursor: optString(page.NextCursor)})
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
