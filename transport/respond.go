package transport

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
)

// writeJSON writes v as a JSON response with the given status. The body is
// encoded before anything is sent, so an encoding failure still yields a
// clean 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"detail":"internal error"}` + "\n")
	}
	setBodyHeaders(w, "application/json", buf.Len())
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// jsonBuffers recycles the buffers answers are encoded into.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer bounds the buffers kept for reuse, so one large answer
// does not pin its memory.
const maxPooledBuffer = 256 << 10

func putJSONBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	jsonBuffers.Put(b)
}

// writeBody answers 200 with body, a fixed document of the given content
// type; a HEAD request gets the headers only.
func writeBody(w http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	setBodyHeaders(w, contentType, len(body))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// setBodyHeaders sets the headers of every response with a body.
func setBodyHeaders(w http.ResponseWriter, contentType string, length int) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(length))
}

// respond writes a 200 JSON response and returns nil, for handlers to end with.
func respond(w http.ResponseWriter, v any) error {
	writeJSON(w, http.StatusOK, v)
	return nil
}
