package openjurytest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/openjurytest"
)

// delivery is one POST a receiver got.
type delivery struct {
	header http.Header
	body   []byte
	event  client.Event
}

// receiver is a webhook endpoint written for the tests: it records every
// POST per path and answers the status set for its path (200 unless set).
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    map[string][]delivery
	status map[string]int
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{got: map[string][]delivery{}, status: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		d := delivery{header: req.Header.Clone(), body: body}
		_ = json.Unmarshal(body, &d.event)
		r.mu.Lock()
		r.got[req.URL.Path] = append(r.got[req.URL.Path], d)
		status, ok := r.status[req.URL.Path]
		r.mu.Unlock()
		if !ok {
			status = http.StatusOK
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// url is the receiver's URL of path.
func (r *receiver) url(path string) string { return r.srv.URL + path }

// port is the receiver's port.
func (r *receiver) port() string {
	u, _ := url.Parse(r.srv.URL)
	return u.Port()
}

func (r *receiver) setStatus(path string, status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status[path] = status
}

func (r *receiver) all(path string) []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got[path]...)
}

// wait waits until path got at least n deliveries and returns them.
func (r *receiver) wait(t *testing.T, path string, n int) []delivery {
	t.Helper()
	require.Eventually(t, func() bool { return len(r.all(path)) >= n }, 15*time.Second, 10*time.Millisecond,
		"%s: want %d deliveries, got %d", path, n, len(r.all(path)))
	return r.all(path)
}

// dns is a scripted resolver for webhook hosts.
type dns struct {
	mu    sync.Mutex
	names map[string]netip.Addr
}

func (d *dns) set(name, addr string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.names == nil {
		d.names = map[string]netip.Addr{}
	}
	d.names[name] = netip.MustParseAddr(addr)
}

func (d *dns) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if a, ok := d.names[host]; ok {
		return []netip.Addr{a}, nil
	}
	return nil, errors.New("no such host")
}

// deliveriesOf lists a webhook's deliveries through the API.
func deliveriesOf(t *testing.T, srv *openjurytest.Server, token, hookID string) []client.WebhookDelivery {
	t.Helper()
	r := srv.Do(t, http.MethodGet, "/api/v1/webhooks/"+hookID+"/deliveries?limit=200", token, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var p client.ListWebhookDeliveriesResponse
	r.JSON(t, &p)
	return p.Deliveries
}

// TestWebhooks: signed deliveries to a receiver written in the test, the
// retry schedule, the disable rule, redelivery, rotation, ownership and
// the limit; on both engines.
func TestWebhooks(t *testing.T) {
	t.Parallel()
	rec := newReceiver(t)
	resolver := &dns{}
	resolver.set("hooks.test", "127.0.0.1")
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		owner, stranger := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		ot, stt := srv.SignIn(t, owner), srv.SignIn(t, stranger)
		path := "/" + strings.ToLower(owner.Address().String()) // the engines share the receiver
		hook := post(t, srv, "/api/v1/webhooks", ot, map[string]any{"url": "http://hooks.test:" + rec.port() + path + "/ok", "types": []string{"job.created", "post.created"}})
		secret := hook["secret"].(string)
		hookID := hook["id"].(string)
		require.True(t, strings.HasPrefix(secret, "whsec_"))

		// A delivery, signed: client.VerifyWebhook and the scheme's own
		// library accept it; its webhook-id is the event's id; its body
		// is the event as the API serves it.
		jobID := post(t, srv, "/api/v1/jobs", ot, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1})["id"].(string)
		got := rec.wait(t, path+"/ok", 1)[0]
		require.Equal(t, "job.created", got.event.Type)
		require.Equal(t, jobID, *got.event.JobID)
		require.Equal(t, got.event.ID, got.header.Get("webhook-id"))
		require.NoError(t, client.VerifyWebhook(secret, got.header, got.body, srv.Clock.Now()))
		wh, err := standardwebhooks.NewWebhook(secret)
		require.NoError(t, err)
		require.NoError(t, wh.VerifyIgnoringTimestamp(got.body, got.header), "the Standard Webhooks library verifies it (its clock is not the test's)")
		require.ErrorIs(t, client.VerifyWebhook(secret, got.header, append([]byte(" "), got.body...), srv.Clock.Now()), client.ErrWebhookSignature)
		require.ErrorIs(t, client.VerifyWebhook(secret, got.header, got.body, srv.Clock.Now().Add(10*time.Minute)), client.ErrWebhookTooOld)
		page := listEvents(t, srv, "type=job.created&job_id="+jobID)
		want, err := json.Marshal(page.Events[0])
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(got.body))
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(got.body)))
		req.Header = got.header
		ev, err := client.ReadWebhook(req, secret, srv.Clock.Now())
		require.NoError(t, err)
		require.Equal(t, got.event.ID, ev.ID)
		require.Eventually(t, func() bool {
			ds := deliveriesOf(t, srv, ot, hookID)
			return len(ds) == 1 && ds[0].Status == "delivered"
		}, 10*time.Second, 10*time.Millisecond)

		// Ownership: another address sees none of it.
		for _, r := range []*openjurytest.Response{
			srv.Do(t, http.MethodGet, "/api/v1/webhooks/"+hookID+"/deliveries", stt, nil),
			srv.Do(t, http.MethodPost, "/api/v1/webhooks/"+hookID+"/rotate", stt, nil),
			srv.Do(t, http.MethodDelete, "/api/v1/webhooks/"+hookID, stt, nil),
			srv.Do(t, http.MethodPost, "/api/v1/webhooks/"+hookID+"/deliveries/"+deliveriesOf(t, srv, ot, hookID)[0].ID+"/redeliver", stt, nil),
		} {
			require.Equal(t, http.StatusNotFound, r.Status, "%s", r.Body)
		}
		r := srv.Do(t, http.MethodGet, "/api/v1/webhooks", stt, nil)
		require.Equal(t, http.StatusOK, r.Status)
		require.Empty(t, r.Map(t)["webhooks"])
		require.Equal(t, http.StatusUnauthorized, srv.Do(t, http.MethodGet, "/api/v1/webhooks", "", nil).Status)

		// Rotation: for a day, two signatures, each secret verifies.
		rot := post(t, srv, "/api/v1/webhooks/"+hookID+"/rotate", ot, nil)
		newSecret := rot["secret"].(string)
		require.NotEqual(t, secret, newSecret)
		post(t, srv, "/api/v1/posts", ot, map[string]any{"title": "p", "content": "c"})
		got = rec.wait(t, path+"/ok", 2)[1]
		require.Equal(t, "post.created", got.event.Type)
		require.Len(t, strings.Fields(got.header.Get("webhook-signature")), 2)
		require.NoError(t, client.VerifyWebhook(newSecret, got.header, got.body, srv.Clock.Now()))
		require.NoError(t, client.VerifyWebhook(secret, got.header, got.body, srv.Clock.Now()))

		// A failing endpoint: the retries follow the schedule (jittered
		// within 20%), then the delivery fails for good.
		failing := post(t, srv, "/api/v1/webhooks", ot, map[string]any{"url": rec.url(path + "/fail"), "types": []string{"post.created"}})
		failID := failing["id"].(string)
		rec.setStatus(path+"/fail", http.StatusInternalServerError)
		post(t, srv, "/api/v1/posts", ot, map[string]any{"title": "p2", "content": "c"})
		srv.FlushEvents(t)
		attempt := func(n int) client.WebhookDelivery {
			t.Helper()
			var d client.WebhookDelivery
			require.Eventually(t, func() bool {
				ds := deliveriesOf(t, srv, ot, failID)
				if len(ds) != 1 {
					return false
				}
				d = ds[0]
				return d.Attempts == n
			}, 15*time.Second, 10*time.Millisecond, "attempt %d", n)
			return d
		}
		first := srv.Clock.Now()
		for i, wait := range events.Retries {
			d := attempt(i + 1)
			require.Equal(t, "pending", d.Status)
			require.Equal(t, http.StatusInternalServerError, *d.ResponseStatus)
			require.Equal(t, "HTTP 500", *d.Error)
			last, next := d.LastAttemptAt.Time, d.NextAttemptAt.Time
			require.InDelta(t, wait.Seconds(), next.Sub(last).Seconds(), 0.2*wait.Seconds()+0.002, "retry %d after about %s", i+1, wait)
			srv.Clock.Set(next)
		}
		d := attempt(len(events.Retries) + 1)
		require.Equal(t, "failed", d.Status)
		require.Nil(t, d.NextAttemptAt)
		require.Len(t, rec.all(path+"/fail"), len(events.Retries)+1, "at least once: every attempt reached the receiver")
		r = srv.Do(t, http.MethodGet, "/api/v1/webhooks", ot, nil)
		var list client.ListWebhooksResponse
		r.JSON(t, &list)
		require.NotNil(t, list.Webhooks[1].FailingSince)
		require.False(t, list.Webhooks[1].Disabled, "not yet a day of failures")

		// Redelivery: the same event (same webhook-id), sent again once
		// the receiver works.
		rec.setStatus(path+"/fail", http.StatusNoContent)
		re := post(t, srv, "/api/v1/webhooks/"+failID+"/deliveries/"+d.ID+"/redeliver", ot, nil)
		require.Equal(t, d.EventID, re["event_id"])
		require.Equal(t, true, re["redelivery"])
		gotFail := rec.wait(t, path+"/fail", len(events.Retries)+2)
		require.Equal(t, gotFail[0].header.Get("webhook-id"), gotFail[len(gotFail)-1].header.Get("webhook-id"))
		require.Eventually(t, func() bool {
			for _, x := range deliveriesOf(t, srv, ot, failID) {
				if x.ID == re["id"] {
					return x.Status == "delivered"
				}
			}
			return false
		}, 10*time.Second, 10*time.Millisecond)
		r = srv.Do(t, http.MethodGet, "/api/v1/webhooks", ot, nil)
		r.JSON(t, &list)
		require.Nil(t, list.Webhooks[1].FailingSince, "a success ends the streak")

		// Disable: failing again for more than a day disables the
		// endpoint, with the reason; it gets nothing more.
		ot = srv.SignIn(t, owner) // the fake clock went past the token's life
		rec.setStatus(path+"/fail", http.StatusBadGateway)
		post(t, srv, "/api/v1/posts", ot, map[string]any{"title": "p3", "content": "c"})
		require.Eventually(t, func() bool { // the failure recorded: the streak starts
			r := srv.Do(t, http.MethodGet, "/api/v1/webhooks", ot, nil)
			r.JSON(t, &list)
			return list.Webhooks[1].FailingSince != nil
		}, 15*time.Second, 10*time.Millisecond)
		srv.Clock.Set(first.Add(events.DisableAfter + 48*time.Hour))
		ot = srv.SignIn(t, owner)
		post(t, srv, "/api/v1/posts", ot, map[string]any{"title": "p4", "content": "c"})
		require.Eventually(t, func() bool {
			r := srv.Do(t, http.MethodGet, "/api/v1/webhooks", ot, nil)
			r.JSON(t, &list)
			return list.Webhooks[1].Disabled
		}, 15*time.Second, 10*time.Millisecond)
		require.Contains(t, *list.Webhooks[1].DisabledReason, "HTTP 502")
		require.False(t, list.Webhooks[0].Disabled, "the healthy webhook goes on")
		// An attempt that was under way when the endpoint was disabled
		// (the same batch as the one that disabled it) may still arrive,
		// so the check is on a post written after the disable.
		p6, _ := post(t, srv, "/api/v1/posts", ot, map[string]any{"title": "p6", "content": "c"})["id"].(string)
		require.NotEmpty(t, p6)
		carries := func(path string) bool {
			for _, d := range rec.all(path) {
				if bytes.Contains(d.body, []byte(p6)) {
					return true
				}
			}
			return false
		}
		require.Eventually(t, func() bool { return carries(path + "/ok") }, 15*time.Second, 10*time.Millisecond, "the healthy one got it...")
		srv.FlushEvents(t)
		require.False(t, carries(path+"/fail"), "...the disabled one did not")
		r = srv.Do(t, http.MethodPost, "/api/v1/webhooks/"+failID+"/deliveries/"+d.ID+"/redeliver", ot, nil)
		require.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)

		// Delete; the limit of 20 per address.
		r = srv.Do(t, http.MethodDelete, "/api/v1/webhooks/"+failID, ot, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, http.StatusNotFound, srv.Do(t, http.MethodDelete, "/api/v1/webhooks/"+failID, ot, nil).Status)
		for i := 1; i < events.MaxWebhooksPerAddress; i++ {
			post(t, srv, "/api/v1/webhooks", ot, map[string]any{"url": rec.url(path + "/many")})
		}
		r = srv.Do(t, http.MethodPost, "/api/v1/webhooks", ot, map[string]any{"url": rec.url(path + "/many")})
		require.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)
		_ = ctx
	}, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.WebhookAllowPrivate = true
		c.WebhookResolver = resolver
	}))
}

// TestWebhookSSRF: without SERVICE_WEBHOOK_ALLOW_PRIVATE, loopback,
// private, link-local and metadata targets are refused at creation (400),
// including a name that resolves to loopback; a name that resolved to a
// public address at creation and to loopback later is refused when the
// delivery connects (DNS rebinding): the receiver gets nothing.
func TestWebhookSSRF(t *testing.T) {
	t.Parallel()
	rec := newReceiver(t)
	resolver := &dns{}
	resolver.set("evil.test", "127.0.0.1")
	resolver.set("inside.test", "10.0.0.7")
	resolver.set("rebind.test", "93.184.216.34")
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.WebhookResolver = resolver }))
	tok := srv.SignIn(t, openjurytest.NewWallet(t))
	for _, u := range []string{
		"http://169.254.169.254/latest/meta-data", "https://169.254.169.254/", "https://[fd00:ec2::254]/", "https://[fe80::1]/",
		"https://127.0.0.1:" + rec.port() + "/x", "https://localhost/x", "https://evil.test/x", "https://inside.test/x",
		"http://rebind.test/x", "https://nowhere.test/x", "https://user:pw@rebind.test/x", "ftp://rebind.test/x",
	} {
		r := srv.Do(t, http.MethodPost, "/api/v1/webhooks", tok, map[string]any{"url": u})
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", u, r.Body)
		require.Contains(t, r.Map(t)["detail"], "url: ", u)
	}
	hook := post(t, srv, "/api/v1/webhooks", tok, map[string]any{"url": "https://rebind.test:" + rec.port() + "/x"})
	resolver.set("rebind.test", "127.0.0.1")
	post(t, srv, "/api/v1/posts", tok, map[string]any{"title": "p", "content": "c"})
	srv.FlushEvents(t)
	var ds []client.WebhookDelivery
	require.Eventually(t, func() bool {
		ds = deliveriesOf(t, srv, tok, hook["id"].(string))
		return len(ds) == 1 && ds[0].Attempts == 1
	}, 15*time.Second, 10*time.Millisecond)
	require.Contains(t, *ds[0].Error, "refused to connect to 127.0.0.1")
	require.Nil(t, ds[0].ResponseStatus)
	require.Empty(t, rec.all("/x"), "the receiver on loopback got nothing")
}

func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	return at
}

// rpc posts one A2A JSON-RPC request and returns its result or error.
func rpc(t *testing.T, srv *openjurytest.Server, token, method string, params any) (map[string]any, map[string]any) {
	t.Helper()
	r := srv.Do(t, http.MethodPost, "/a2a", token, map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	r.JSON(t, &out)
	return out.Result, out.Error
}

// TestA2ATaskOwnership: a task is its creator's: another address (or no
// token) cannot read it or set push configs on it; a push URL obeys the
// webhook address rules; a message sent again names the same task.
func TestA2ATaskOwnership(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	owner, other := srv.SignIn(t, openjurytest.NewWallet(t)), srv.SignIn(t, openjurytest.NewWallet(t))
	msg := map[string]any{"message": map[string]any{"kind": "message", "role": "user", "messageId": "post-1",
		"parts": []any{map[string]any{"kind": "data", "data": map[string]any{"skill": "post_job", "arguments": map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1}}}}}}
	task, rerr := rpc(t, srv, owner, "message/send", msg)
	require.Nil(t, rerr)
	require.Equal(t, "task", task["kind"])
	again, _ := rpc(t, srv, owner, "message/send", msg)
	require.Equal(t, task["id"], again["id"], "the same message names the same task")

	for _, tok := range []string{other, ""} {
		_, rerr = rpc(t, srv, tok, "tasks/get", map[string]any{"id": task["id"]})
		require.NotNil(t, rerr)
		if tok != "" {
			require.EqualValues(t, -32001, rerr["code"], "another address: task not found")
		}
		_, rerr = rpc(t, srv, tok, "tasks/pushNotificationConfig/set", map[string]any{"taskId": task["id"],
			"pushNotificationConfig": map[string]any{"url": "https://hooks.example.com/x"}})
		require.NotNil(t, rerr)
	}
	for _, u := range []string{"http://169.254.169.254/", "https://127.0.0.1/x", "http://example.com/x"} {
		_, rerr = rpc(t, srv, owner, "tasks/pushNotificationConfig/set", map[string]any{"taskId": task["id"],
			"pushNotificationConfig": map[string]any{"url": u}})
		require.NotNil(t, rerr, u)
		require.EqualValues(t, -32602, rerr["code"], u)
		require.Contains(t, rerr["message"], "url: ", u)
	}
	got, rerr := rpc(t, srv, owner, "GetTask", map[string]any{"id": task["id"]})
	require.Nil(t, rerr)
	require.Equal(t, "TASK_STATE_WORKING", got["status"].(map[string]any)["state"])
}
