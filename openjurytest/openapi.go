package openjurytest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/openjury/openjury/transport"
)

// ValidateResponse checks one response of the service against the OpenAPI
// document the service serves (transport.OpenAPIDocument) and fails the
// test with tb.Errorf, naming the route, the status and the validator's
// message, when it does not match: a path or method the document does not
// have, a status the operation does not declare, a missing declared
// header, a content type or body that does not match the schema (missing
// required field, null where not nullable, wrong type, a limit exceeded).
//
// It is stricter than the document in two ways, both from
// docs/rules.md#conventions: an object schema with properties and no
// additionalProperties of its own must not carry undeclared fields (every
// field the server sends is documented), and every one of its declared
// properties must be present (optional response fields are sent as null,
// never omitted).
//
// A request to a route the document does not have passes only when the
// server answered it as one: 404 for an unknown path, 405 for an unknown
// method of a known path, with an Error body. A HEAD request only needs a
// documented GET. An unclean path ("/api//v1/jobs") may get ServeMux's
// redirect to its clean form.
//
// Server.Do calls it for every response; transport's tests call it too.
func ValidateResponse(tb testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	tb.Helper()
	if err := CheckResponse(req, status, header, body); err != nil {
		tb.Errorf("openjurytest: %s %s -> %d does not match the OpenAPI document: %v", req.Method, req.URL.RequestURI(), status, err)
	}
}

// CheckResponse is ValidateResponse returning the mismatch as an error
// (nil when the response matches the document).
func CheckResponse(req *http.Request, status int, header http.Header, body []byte) error {
	v, err := loadValidator()
	if err != nil {
		return err
	}
	return v.check(req, status, header, body)
}

// validator holds the document made strict and its routers.
type validator struct {
	doc *openapi3.T
	// router finds any path of the document; byMethod[m] only the paths
	// with an m operation. ServeMux picks a route by path and method
	// together (GET /api/v1/reputation/dev_set is GET
	// /api/v1/reputation/{address}, since dev_set has only POST), while a
	// router stops at the first path that matches.
	router   routers.Router
	byMethod map[string]routers.Router
	opts     *openapi3filter.Options
}

var (
	validatorOnce sync.Once
	theValidator  *validator
	validatorErr  error
)

func loadValidator() (*validator, error) {
	validatorOnce.Do(func() {
		theValidator, validatorErr = newValidator(transport.OpenAPIDocument(""))
		if validatorErr != nil {
			validatorErr = fmt.Errorf("openjurytest: the OpenAPI document: %w", validatorErr)
		}
	})
	return theValidator, validatorErr
}

// uuidPattern is the canonical text form of a UUID, lowercase.
const uuidPattern = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`

// newValidator loads and validates a JSON or YAML document, makes its
// object schemas strict and builds a router that ignores the servers (the
// host of a test server is not known in advance).
func newValidator(raw []byte) (*validator, error) {
	ctx := context.Background()
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("invalid: %w", err)
	}
	makeStrict(doc)
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("router: %w", err)
	}
	byMethod := map[string]routers.Router{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if byMethod[method] != nil {
				continue
			}
			sub := *doc
			sub.Paths = openapi3.NewPaths()
			for p, it := range doc.Paths.Map() {
				if it.GetOperation(method) != nil {
					sub.Paths.Set(p, it)
				}
			}
			if byMethod[method], err = gorillamux.NewRouter(&sub); err != nil {
				return nil, fmt.Errorf("router for %s (%s): %w", method, path, err)
			}
		}
	}
	// Text bodies the stock decoders do not know.
	registerDecoders.Do(func() {
		openapi3filter.RegisterBodyDecoder("text/markdown", openapi3filter.PlainBodyDecoder)
		openapi3filter.RegisterBodyDecoder("application/openmetrics-text", openapi3filter.PlainBodyDecoder)
		openapi3filter.RegisterBodyDecoder("text/event-stream", openapi3filter.PlainBodyDecoder)
	})
	return &validator{
		doc:      doc,
		router:   router,
		byMethod: byMethod,
		opts: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
			AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
			ExcludeRequestBody:    true,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{
				openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(uuidPattern)),
			},
		},
	}, nil
}

var registerDecoders sync.Once

func (v *validator) check(req *http.Request, status int, header http.Header, body []byte) error {
	if cleaned := cleanPath(req.URL.Path); cleaned != req.URL.Path {
		// ServeMux redirects an unclean path ("/api//v1/jobs") to its clean
		// form before any route sees it.
		switch status {
		case http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			if loc, err := url.Parse(header.Get("Location")); err != nil || loc.Path != cleaned {
				return fmt.Errorf("redirect of an unclean path to %q, want %q", header.Get("Location"), cleaned)
			}
			return nil
		}
	}
	find := req
	if req.Method == http.MethodHead {
		find = req.Clone(context.Background())
		find.Method = http.MethodGet
	}
	var (
		route  *routers.Route
		params map[string]string
		err    = routers.ErrPathNotFound
	)
	if r := v.byMethod[find.Method]; r != nil {
		route, params, err = r.FindRoute(find)
	}
	if errors.Is(err, routers.ErrPathNotFound) {
		// Not served with this method: is the path known at all?
		if _, _, err = v.router.FindRoute(find); err == nil {
			err = routers.ErrMethodNotAllowed
		}
	}
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		return v.checkUnknownRoute(http.StatusNotFound, "path", status, header, body)
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return v.checkUnknownRoute(http.StatusMethodNotAllowed, "method", status, header, body)
	case err != nil:
		return fmt.Errorf("find the route: %w", err)
	}
	if req.Method == http.MethodHead {
		return nil // no body; the GET's responses apply
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    req,
			PathParams: params,
			Route:      route,
			Options:    v.opts,
		},
		Status:  status,
		Header:  header,
		Options: v.opts,
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("operation %s %s: %w", route.Method, route.Path, err)
	}
	return nil
}

// cleanPath is path.Clean as ServeMux applies it: rooted, keeping a
// trailing slash.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}

// checkUnknownRoute accepts the server's answer to a route the document
// does not have: want (404 or 405) with a JSON Error body.
func (v *validator) checkUnknownRoute(want int, what string, status int, header http.Header, body []byte) error {
	if status != want {
		return fmt.Errorf("the %s is not in the document, yet the server answered %d (not %d): document the route", what, status, want)
	}
	if mt, _, _ := mime.ParseMediaType(header.Get("Content-Type")); mt != "application/json" {
		return fmt.Errorf("%d answer has Content-Type %q, want application/json", status, header.Get("Content-Type"))
	}
	var value any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&value); err != nil {
		return fmt.Errorf("%d answer is not JSON: %w", status, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%d answer has data after the JSON value", status)
	}
	value, err := normalizeJSON(value)
	if err != nil {
		return err
	}
	schema := v.doc.Components.Schemas["Error"]
	if schema == nil || schema.Value == nil {
		return errors.New("components.schemas.Error is missing")
	}
	if err := schema.Value.VisitJSON(value, openapi3.VisitAsResponse(), openapi3.MultiErrors()); err != nil {
		return fmt.Errorf("%d answer does not match Error: %w", status, err)
	}
	return nil
}

// normalizeJSON turns json.Numbers into float64, the form VisitJSON takes.
func normalizeJSON(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Float64()
	case map[string]any:
		for k, e := range x {
			n, err := normalizeJSON(e)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
	case []any:
		for i, e := range x {
			n, err := normalizeJSON(e)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
	}
	return v, nil
}

// makeStrict walks every schema of doc. An object schema that declares
// properties and says nothing about additionalProperties gets
// additionalProperties false and all its properties required.
func makeStrict(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			s.AdditionalProperties.Has = openapi3.Ptr(false)
			required := make([]string, 0, len(s.Properties))
			for name := range s.Properties {
				required = append(required, name)
			}
			slices.Sort(required)
			s.Required = required
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		walk(s.AdditionalProperties.Schema)
		walk(s.Not)
		for _, l := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, r := range l {
				walk(r)
			}
		}
	}
	if doc.Components != nil {
		for _, s := range doc.Components.Schemas {
			walk(s)
		}
		for _, r := range doc.Components.Responses {
			if r.Value != nil {
				for _, mt := range r.Value.Content {
					walk(mt.Schema)
				}
			}
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				if r.Value != nil {
					for _, mt := range r.Value.Content {
						walk(mt.Schema)
					}
				}
			}
		}
	}
}
