package wire

// CreateWebhookRequest registers a webhook.
type CreateWebhookRequest struct {
	URL   string   `json:"url"`
	Types []string `json:"types,omitempty"`
	JobID *string  `json:"job_id,omitempty"`
	Tag   *string  `json:"tag,omitempty"`
}

// Webhook is a registered webhook.
type Webhook struct {
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	Types          []string `json:"types"`
	JobID          *string  `json:"job_id"`
	Tag            *string  `json:"tag"`
	CreatedAt      Time     `json:"created_at"`
	FailingSince   *Time    `json:"failing_since"`
	Disabled       bool     `json:"disabled"`
	DisabledAt     *Time    `json:"disabled_at"`
	DisabledReason *string  `json:"disabled_reason"`
}

// WebhookWithSecret is a webhook with its secret: the answer of creating
// it and of rotating its secret, the only times the secret is shown.
type WebhookWithSecret struct {
	Webhook
	// Secret verifies the webhook's deliveries.
	Secret string `json:"secret"`
}

// ListWebhooksResponse lists the caller's webhooks.
type ListWebhooksResponse struct {
	Webhooks   []Webhook `json:"webhooks"`
	NextCursor *string   `json:"next_cursor"`
}

// WebhookDelivery is one event sent (or to send) to a webhook.
type WebhookDelivery struct {
	ID             string  `json:"id"`
	WebhookID      string  `json:"webhook_id"`
	EventID        string  `json:"event_id"`
	EventType      string  `json:"event_type"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	NextAttemptAt  *Time   `json:"next_attempt_at"`
	LastAttemptAt  *Time   `json:"last_attempt_at"`
	ResponseStatus *int    `json:"response_status"`
	Error          *string `json:"error"`
	CreatedAt      Time    `json:"created_at"`
	DeliveredAt    *Time   `json:"delivered_at"`
	Redelivery     bool    `json:"redelivery"`
}

// ListWebhookDeliveriesResponse is a page of deliveries, newest first.
type ListWebhookDeliveriesResponse struct {
	Deliveries []WebhookDelivery `json:"deliveries"`
	NextCursor *string           `json:"next_cursor"`
}
