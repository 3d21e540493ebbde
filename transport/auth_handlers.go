package transport

import (
	"math"
	"net/http"

	"github.com/openjury/openjury/auth"
)

func (s *server) authRoutes() []route {
	return []route{
		{pattern: "POST /api/v1/agents/auth/challenge", op: "createAuthChallenge", service: "auth_challenge", rate: rateSignIn, h: s.authChallenge},
		{pattern: "POST /api/v1/agents/auth/verify", op: "verifyAuthChallenge", service: "auth_verify", rate: rateSignIn, count: countSignIn, h: s.authVerify},
		{pattern: "POST /api/v1/agents/auth/logout", op: "logout", service: "auth_logout", auth: authBearer, h: s.authLogout},
	}
}

// challengeRequest is AuthChallengeRequest.
type challengeRequest struct {
	Address *string `json:"address"`
}

// challengeResponse is AuthChallengeResponse.
type challengeResponse struct {
	Address          string `json:"address"`
	Nonce            string `json:"nonce"`
	MessageToSign    string `json:"message_to_sign"`
	ExpiresInSeconds int64  `json:"expires_in_seconds"`
}

// verifyRequest is AuthVerifyRequest plus the optional nonce
// (docs/rules.md#sign-in).
type verifyRequest struct {
	Address   *string `json:"address"`
	Signature *string `json:"signature"`
	Nonce     *string `json:"nonce"`
}

// verifyResponse is AuthVerifyResponse plus the additive
// expires_in_seconds.
type verifyResponse struct {
	AccessToken      string `json:"access_token"`
	TokenType        string `json:"token_type"`
	ExpiresInSeconds int64  `json:"expires_in_seconds"`
}

// logoutResponse answers a logout.
type logoutResponse struct {
	Revoked bool `json:"revoked"`
}

func (s *server) authChallenge(w http.ResponseWriter, r *http.Request) error {
	var req challengeRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if req.Address == nil {
		return required("address")
	}
	c, err := s.svc.Auth.Challenge(r.Context(), *req.Address)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return respond(w, challengeResponse{
		Address:       c.Address.String(),
		Nonce:         c.Nonce,
		MessageToSign: c.Message,
		// A returned earlier challenge has less than the whole TTL left.
		ExpiresInSeconds: int64(math.Ceil(c.ExpiresAt.Sub(s.clock.Now()).Seconds())),
	})
}

func (s *server) authVerify(w http.ResponseWriter, r *http.Request) error {
	var req verifyRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if req.Address == nil {
		return required("address")
	}
	if req.Signature == nil {
		return required("signature")
	}
	token, err := s.svc.Auth.Verify(r.Context(), auth.VerifyInput{Address: *req.Address, Signature: *req.Signature, Nonce: deref(req.Nonce)})
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return respond(w, verifyResponse{
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
	return respond(w, logoutResponse{Revoked: true})
}
