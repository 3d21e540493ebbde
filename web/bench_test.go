package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
)

// benchJobs is how many jobs BenchmarkPageFirstByte seeds.
const benchJobs = 3000

// firstByte gets url and returns the time to the response's first byte;
// the body is read to the end (the connection is kept alive).
func firstByte(b *testing.B, client *http.Client, url string) time.Duration {
	var first time.Time
	trace := &httptrace.ClientTrace{GotFirstResponseByte: func() { first = time.Now() }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodGet, url, nil)
	require.NoError(b, err)
	start := time.Now()
	resp, err := client.Do(req)
	require.NoError(b, err)
	_, err = io.Copy(io.Discard, resp.Body)
	require.NoError(b, err)
	resp.Body.Close()
	require.Equal(b, http.StatusOK, resp.StatusCode, url)
	return first.Sub(start)
}

// measure runs GETs of url for the benchmark and reports the median time to
// first byte in ms (p50-ms) and returns it.
func measure(b *testing.B, client *http.Client, url string) time.Duration {
	var ttfb []time.Duration
	for b.Loop() {
		ttfb = append(ttfb, firstByte(b, client, url))
	}
	slices.Sort(ttfb)
	p50 := ttfb[len(ttfb)/2]
	b.ReportMetric(float64(p50)/float64(time.Millisecond), "p50-ms")
	return p50
}

// BenchmarkPageFirstByte serves the web app and the API composed as the
// host composes them, over loopback, on a SQLite database with benchJobs
// jobs (its events sequenced and its search documents indexed first), and
// measures the time to first byte of the job list, a job page,
// the leaderboard and a profile. Each page has a ceiling beside it: bare
// net/http answering a pre-encoded body of the same size on the same
// machine; x-ceiling is the page's median over the ceiling's.
//
//	go test -run x -bench PageFirstByte -benchtime 2s ./web/
func BenchmarkPageFirstByte(b *testing.B) {
	srv := openjurytest.NewServer(b, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	ctx := context.Background()
	sponsor := openjury.MustAddress("0x1111111111111111111111111111111111111111")
	var job *marketplace.Job
	for i := range benchJobs {
		j, err := srv.Market.CreateJob(ctx, sponsor, marketplace.CreateJobInput{
			Title: fmt.Sprintf("Job %d: summarise the report", i), Prompt: strings.Repeat("Read the report and summarise it. ", 20),
			Tags: []string{"tag" + fmt.Sprint(i%20)},
		})
		require.NoError(b, err)
		job = j
	}
	for i := range 10 {
		agent := openjury.MustAddress(fmt.Sprintf("0x%040x", 0x1000+i))
		srv.SetStake(b, agent, 10)
		srv.SetReputation(b, agent, int64(10*i))
		_, err := srv.Market.Submit(ctx, agent, marketplace.SubmitInput{JobID: job.ID, Content: strings.Repeat("Findings. ", 50),
			Evidence: []marketplace.EvidenceInput{{Type: "web", SourceURL: "https://example.com/" + fmt.Sprint(i), Quote: "quoted", Claim: "claimed"}}})
		require.NoError(b, err)
		_, err = srv.Market.AddComment(ctx, agent, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "A comment on the job."})
		require.NoError(b, err)
	}
	srv.MintAGR(b, sponsor, 100)
	// The seeding's events and search documents are worked off before
	// measuring, so the background loops do not run beside the pages.
	srv.FlushEvents(b)
	if srv.SearchIndexer != nil {
		srv.FlushSearch(b)
	}

	pages := web.NewHandler(web.Services{Market: srv.Market, Auth: srv.Auth, Stake: srv.Stake, AGR: srv.AGR})
	api := srv.HTTP.Config.Handler
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		pages.ServeHTTP(w, r)
	}))
	b.Cleanup(front.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	b.Cleanup(client.CloseIdleConnections)

	for _, p := range []struct{ name, path string }{
		{"jobs", "/"}, {"job", "/jobs/" + job.ID}, {"leaderboard", "/leaderboard"}, {"profile", "/agents/" + sponsor.String()},
	} {
		// The ceiling answers a body of the page's size.
		resp, err := client.Get(front.URL + p.path)
		require.NoError(b, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(b, err)
		resp.Body.Close()
		bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(body)
		}))
		var ceiling time.Duration
		b.Run(p.name+"/ceiling", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			ceiling = measure(b, client, bare.URL+"/")
		})
		b.Run(p.name+"/app", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			p50 := measure(b, client, front.URL+p.path)
			if ceiling > 0 {
				b.ReportMetric(float64(p50)/float64(ceiling), "x-ceiling")
			}
		})
		bare.Close()
	}
}
