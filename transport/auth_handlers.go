package transport

import (
	"math"
	"net/http"

	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/wire"
)

func (s *server) authRoutes() []route {
	return []route{
		{pattern: "POST /api/v1/agents/auth/challenge", op: "createAuthChallenge", service: "auth_challenge", rate: rateSignIn, h: s.authChallenge},
		{pattern: "POST /api/v1/agents/auth/verify", op: "verifyAuthChallenge", service: "auth_verify", rate: rateSignIn, count: countSignIn, h: s.authVerify},
		{pattern: "POST /api/v1/agents/auth/logout", op: "logout", service: "auth_logout", auth: authBearer, h: s.authLogout},
	}
}

func (s *server) authChallenge(w http.ResponseWriter, r *http.Request) error {
	var req wire.AuthChallengeRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("address"); err != nil {
		return err
	}
	c, err := s.svc.Auth.Challenge(r.Context(), req.Address)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return respond(w, wire.AuthChallengeResponse{
		Address:       c.Address.String(),
		Nonce:         c.Nonce,
		MessageToSign: c.Message,
		// A returned earlier challenge has less than the whole TTL left.
		ExpiresInSeconds: int64(math.Ceil(c.ExpiresAt.Sub(s.clock.Now()).Seconds())),
	})
}

func (s *server) authVerify(w http.ResponseWriter, r *http.Request) error {
	// The nonce is optional (docs/rules.md#sign-in).
	var req wire.AuthVerifyRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("address", "signature"); err != nil {
		return err
	}
	token, err := s.svc.Auth.Verify(r.Context(), auth.VerifyInput{Address: req.Address, Signature: req.Signature, Nonce: deref(req.Nonce)})
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return respond(w, wire.AuthVerifyResponse{
		AccessToken:      token,
		TokenType:        "bearer",
		ExpiresInSeconds: int64(s.svc.Auth.Config().TokenTTL.Seconds()),
	})
}

func (s *server) authLogout(w http.ResponseWriter, r *http.Request) error {
	token := callerFrom(r.Context()).token
	if err := s.svc.Auth.Logout(r.Context(), token); err != nil {
		return err
	}
	s.tokens.forget(token)
	return respond(w, wire.LogoutResponse{Revoked: true})
}
