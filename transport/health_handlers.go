package transport

import (
	"context"
	"net/http"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/wire"
)

// readyTimeout bounds one readiness check.
const readyTimeout = 2 * time.Second

func (s *server) healthRoutes() []route {
	return []route{
		{pattern: "GET /healthz", op: "getHealth", service: "healthz", rate: rateExempt, h: s.healthz},
		{pattern: "GET /readyz", op: "getReadiness", service: "readyz", rate: rateExempt, h: s.readyz},
	}
}

// healthz answers 200 while the process serves requests.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) error {
	return respond(w, wire.HealthStatus{Status: "ok"})
}

// readyz answers 200 when Services.Ready succeeds, else 503.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if err := s.svc.Ready(ctx); err != nil {
			return &openjury.Error{Kind: openjury.Unavailable, Op: "transport.readyz", Detail: "database unavailable", Err: err}
		}
	}
	return respond(w, wire.HealthStatus{Status: "ready"})
}
