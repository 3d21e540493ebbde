package server

import (
	"net/url"
	"strings"

	"github.com/openjury/openjury/web"
)

// webServices completes the web app's services from the configuration:
// the session cookie is Secure when the app's public URL is https, and
// when the app's origin is not the API's (SERVICE_APP_URL on another
// origin) its pages call the API at SERVICE_BASE_URL through CORS.
func webServices(cfg Config, s web.Services) web.Services {
	app, errA := url.Parse(cfg.PublicAppURL())
	base, errB := url.Parse(cfg.BaseURL)
	if errA != nil || errB != nil { // Validate checked both
		return s
	}
	s.SecureCookie = strings.EqualFold(app.Scheme, "https")
	if !strings.EqualFold(app.Scheme+"://"+app.Host, base.Scheme+"://"+base.Host) {
		s.APIURL = strings.TrimRight(cfg.BaseURL, "/")
	}
	return s
}
