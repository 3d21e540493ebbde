package wire

// HealthStatus is the answer of /healthz and /readyz.
type HealthStatus struct {
	Status string `json:"status"`
}
