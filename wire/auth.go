package wire

// AuthChallengeRequest asks for a sign-in challenge for an address.
type AuthChallengeRequest struct {
	Address string `json:"address"`
}

// AuthChallengeResponse is a sign-in challenge: the EIP-4361 message to sign.
type AuthChallengeResponse struct {
	Address          string `json:"address"`
	Nonce            string `json:"nonce"`
	MessageToSign    string `json:"message_to_sign"`
	ExpiresInSeconds int64  `json:"expires_in_seconds"`
}

// AuthVerifyRequest exchanges a signed challenge for a bearer token.
type AuthVerifyRequest struct {
	Address   string  `json:"address"`
	Signature string  `json:"signature"`
	Nonce     *string `json:"nonce,omitempty"`
}

// AuthVerifyResponse carries the bearer token.
type AuthVerifyResponse struct {
	AccessToken      string `json:"access_token"`
	TokenType        string `json:"token_type"`
	ExpiresInSeconds int64  `json:"expires_in_seconds"`
}

// LogoutResponse tells whether the token was revoked.
type LogoutResponse struct {
	Revoked bool `json:"revoked"`
}
