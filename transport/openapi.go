package transport

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"sigs.k8s.io/yaml"
)

// openAPISource is the OpenAPI 3.0.3 document of the service, written by
// hand once: the YAML served at /openapi.yaml and, converted, at
// /openapi.json.
//
//go:embed openapi.yaml
var openAPISource []byte

// OpenAPIDocument returns the service's OpenAPI 3.0.3 document as JSON, the
// body of GET /openapi.json, with baseURL as the URL of its servers entry
// ("" gives "/", the URL the document was fetched from). Tests and
// embedders use it to validate traffic or generate clients.
func OpenAPIDocument(baseURL string) []byte {
	doc, err := openAPIJSONFor(baseURL)
	if err != nil {
		panic(err) // the embedded document is checked by the tests
	}
	return doc
}

// openAPIPlaceholder is the servers URL written in openapi.yaml; it
// appears nowhere else in the document (a test checks).
const openAPIPlaceholder = "http://localhost:8080"

// openAPIServerLine is the servers entry of openapi.yaml; its URL is
// replaced by the handler's base URL when the document is served.
const openAPIServerLine = "\nservers:\n  - url: " + openAPIPlaceholder + "\n"

// baseOpenAPIJSON is the embedded document converted to JSON once per
// process; the YAML-to-JSON conversion is the costly part.
var baseOpenAPIJSON = sync.OnceValues(func() ([]byte, error) { return openAPIJSON(openAPISource) })

// openAPIJSONFor returns the JSON document with baseURL in its servers
// entry.
func openAPIJSONFor(baseURL string) ([]byte, error) {
	base, err := baseOpenAPIJSON()
	if err != nil {
		return nil, err
	}
	if baseURL == "" {
		baseURL = "/"
	}
	quoted, _ := json.Marshal(baseURL)
	return bytes.Replace(base, []byte(`"`+openAPIPlaceholder+`"`), quoted, 1), nil
}

// openAPIYAML returns the embedded document with baseURL in its servers
// entry.
func openAPIYAML(baseURL string) []byte {
	if baseURL == "" {
		baseURL = "/"
	}
	// A JSON string is a valid YAML double-quoted scalar, so any URL is
	// safely quoted.
	quoted, _ := json.Marshal(baseURL)
	line := "\nservers:\n  - url: " + string(quoted) + "\n"
	if !bytes.Contains(openAPISource, []byte(openAPIServerLine)) {
		panic("transport: openapi.yaml lost its servers entry " + strconv.Quote(openAPIServerLine))
	}
	return bytes.Replace(openAPISource, []byte(openAPIServerLine), []byte(line), 1)
}

// openAPIJSON converts the YAML document to indented JSON.
func openAPIJSON(y []byte) ([]byte, error) {
	raw, err := yaml.YAMLToJSON(y)
	if err != nil {
		return nil, fmt.Errorf("transport: openapi.yaml: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("transport: openapi.yaml: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// openAPIRoutes serves the document as YAML (the text as written) and as
// JSON (the same content), both built once here with the handler's base
// URL.
func (s *server) openAPIRoutes() []route {
	y := openAPIYAML(s.opts.BaseURL)
	j, err := openAPIJSONFor(s.opts.BaseURL)
	if err != nil {
		panic(err)
	}
	return []route{
		{pattern: "GET /openapi.yaml", op: "getOpenAPIYAML", rate: rateExempt, h: openAPIBody("application/yaml", y)},
		{pattern: "GET /openapi.json", op: "getOpenAPIJSON", rate: rateExempt, h: openAPIBody("application/json", j)},
	}
}

// openAPIBody answers with a fixed body of the given content type.
func openAPIBody(contentType string, body []byte) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Cache-Control", "public, max-age=300")
		writeBody(w, r, contentType, body)
		return nil
	}
}
