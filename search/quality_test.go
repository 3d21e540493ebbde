package search_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/search"
)

// The quality test: the labelled queries of quality_topics_test.go over
// their topics plus a few thousand background documents written from
// templates, ranked three ways:
//
//   - vector: what search did before hybrid ranking, exact float32 cosine
//     similarity of Local embeddings over every document, no floor;
//   - lexical: the database's full-text ranking alone (Texts.Match);
//   - hybrid: the Service as the API answers (reciprocal rank fusion of
//     both, relevance floor, quantised vectors).
//
// It reports nDCG@10 (graded gains 2^g - 1) and recall@20 (documents of
// grade 1 or more) for each, and requires hybrid to beat vector by at
// least 0.10 nDCG@10. SEARCH_QUALITY_SWEEP=1 also logs the figures of
// other fusion settings (how the defaults were chosen).
// Run: go test -run TestSearchQuality -v ./search/

// qualityDoc is a document of the quality corpus.
type qualityDoc struct {
	name string
	key  search.Key
	text string
}

// backgroundSubjects and the templates below write the background
// documents: everyday freelance work that shares the marketplace's
// common words (write, review, audit, data, guide, test, report) with the
// topics without being about them.
var backgroundSubjects = []string{
	"sourdough baking", "marathon training", "budget travel in Portugal", "home office ergonomics",
	"houseplant care", "vintage camera repair", "small business bookkeeping", "beekeeping",
	"urban cycling", "chess openings", "board game design", "wedding photography", "pet nutrition",
	"electric bike batteries", "solar panels for homes", "3D printing", "woodworking joints",
	"podcast microphones", "remote team rituals", "newsletter growth", "job interview preparation",
	"personal finance for students", "climbing gear", "coffee roasting", "aquarium setup",
	"knitting patterns", "meal planning", "sleep habits", "running shoes", "home composting",
	"birthday party planning", "used car buying", "guitar practice", "camping stoves",
	"public speaking", "spreadsheet budgeting", "tenant rights", "museum audio tours",
	"street food markets", "hiking trails in Scotland", "yoga for beginners", "watercolour painting",
	"vegetable gardening", "kids' science experiments", "second-hand furniture restoration", "wine tasting",
	"bird feeders", "family history research", "ceramics glazes", "van life conversions", "sailing lessons",
	"frugal grocery shopping", "piano teachers", "dog training", "thrift store fashion", "bread machines",
	"local history walks", "home brewing beer", "skateboard maintenance", "charity fundraising events",
	"apartment soundproofing", "tea blending",
}

var (
	bgJobs = []string{
		"Write a beginner's guide to %s", "Create a comparison table of %s options", "Review the draft article on %s",
		"Research the market for %s", "Make a checklist for %s", "Summarise customer feedback about %s",
		"Record a short video about %s", "Plan a workshop on %s", "Collect price data on %s", "Audit our blog posts about %s",
	}
	bgPrompts = []string{
		"We need about %d words on %s for %s. Include %s and cite at least three sources.",
		"Our readers keep asking about %[2]s. Write %[1]d words for %[3]s with %[4]s.",
		"Deliver a short report on %[2]s for %[3]s: %[4]s, in about %[1]d words.",
	}
	bgAudiences = []string{"beginners", "our newsletter readers", "small shop owners", "students", "retirees", "busy parents"}
	bgAspects   = []string{"common mistakes", "the costs", "safety tips", "a short checklist", "recent trends", "a glossary", "three examples"}
	bgSubs      = []string{
		"Draft attached: %d words on %s, covering %s. Sources are listed at the end.",
		"Here is the report on %[2]s; I interviewed five people and summarised %[3]s in a table of about %[1]d words.",
		"Finished the piece on %[2]s with %[3]s; it is %[1]d words and ready for review.",
	}
	bgComments = []string{
		"Could you add more about %[2]s to the part on %[1]s?", "Looks good, but the section on %s is too long.",
		"Please check the numbers in the table on %s.", "Thanks, this is useful for our readers interested in %s.",
		"I would move %[2]s to the top of the %[1]s piece.",
	}
	bgPosts = []string{"Community update: %s", "Notes from our meetup on %s", "Ask the community: %s", "Five links about %s"}
)

// writeQualityCorpus stores the topics and the background documents
// through the marketplace stores and queues each for the indexer (whose
// lexical step fills search_text), and returns them.
func writeQualityCorpus(t *testing.T, db *bunstore.DB) []qualityDoc {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	sponsor := openjurytest.NewWallet(t).Address()
	agent := openjurytest.NewWallet(t).Address()
	var docs []qualityDoc
	var pending []func(tx marketplace.Tx) error
	next := func() time.Time { at = at.Add(time.Millisecond); return at }
	job := func(name, title, prompt string) string {
		j := &marketplace.Job{ID: openjury.NewID(), Title: title, Prompt: prompt, Bounty: openjury.MicroPerUSDC, Tags: []string{},
			Status: marketplace.StatusOpen, Sponsor: sponsor, CreatedAt: next()}
		j.FinalVoteStartsAt, j.FinalVoteEndsAt = j.CreatedAt, j.CreatedAt.Add(time.Hour)
		docs = append(docs, qualityDoc{name, search.Key{Kind: search.KindJob, ID: j.ID}, title + "\n" + prompt})
		pending = append(pending, func(tx marketplace.Tx) error { return tx.Jobs().CreateJob(ctx, j) })
		return j.ID
	}
	sub := func(name, jobID, content string) {
		s := &marketplace.Submission{ID: openjury.NewID(), JobID: jobID, Agent: agent, Content: content, Evidence: []marketplace.Evidence{}, CreatedAt: next()}
		docs = append(docs, qualityDoc{name, search.Key{Kind: search.KindSubmission, ID: s.ID}, content})
		pending = append(pending, func(tx marketplace.Tx) error { return tx.Submissions().CreateSubmission(ctx, s) })
	}
	comment := func(name, jobID, content string) {
		c := &marketplace.Comment{ID: openjury.NewID(), Target: marketplace.TargetJob, TargetID: jobID, Author: agent, Content: content, CreatedAt: next()}
		docs = append(docs, qualityDoc{name, search.Key{Kind: search.KindComment, ID: c.ID}, content})
		pending = append(pending, func(tx marketplace.Tx) error { return tx.Comments().CreateComment(ctx, c) })
	}
	post := func(name, title, content string) {
		p := &marketplace.Post{ID: openjury.NewID(), Title: title, Content: content, Author: agent, Tags: []string{}, CreatedAt: next()}
		docs = append(docs, qualityDoc{name, search.Key{Kind: search.KindPost, ID: p.ID}, title + "\n" + content})
		pending = append(pending, func(tx marketplace.Tx) error { return tx.Posts().CreatePost(ctx, p) })
	}

	for _, tp := range qualityTopics {
		id := job(tp.name+"/job", tp.title, tp.prompt)
		for i, s := range tp.submissions {
			sub(fmt.Sprintf("%s/s%d", tp.name, i+1), id, s)
		}
		for i, c := range tp.comments {
			comment(fmt.Sprintf("%s/c%d", tp.name, i+1), id, c)
		}
		if tp.postTitle != "" {
			post(tp.name+"/post", tp.postTitle, tp.postBody)
		}
	}
	rng := rand.New(rand.NewPCG(28, 28))
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	for si, subject := range backgroundSubjects {
		for ji, tmpl := range bgJobs {
			name := fmt.Sprintf("bg/%d/%d", si, ji)
			id := job(name+"/job", fmt.Sprintf(tmpl, subject),
				fmt.Sprintf(pick(bgPrompts), 300+100*rng.IntN(20), subject, pick(bgAudiences), pick(bgAspects)))
			for k := range 1 + rng.IntN(3) {
				sub(fmt.Sprintf("%s/s%d", name, k), id, fmt.Sprintf(pick(bgSubs), 300+100*rng.IntN(20), subject, pick(bgAspects)))
			}
			for k := range rng.IntN(3) {
				comment(fmt.Sprintf("%s/c%d", name, k), id, fmt.Sprintf(pick(bgComments), subject, pick(bgAspects)))
			}
		}
		for pi, tmpl := range bgPosts {
			post(fmt.Sprintf("bg/%d/post%d", si, pi), fmt.Sprintf(tmpl, subject),
				fmt.Sprintf("A few notes on %s for %s, with %s.", subject, pick(bgAudiences), pick(bgAspects)))
		}
	}
	// Written in transactions of 200 documents, each queued for indexing
	// as the marketplace's writes queue them.
	for start := 0; start < len(pending); start += 200 {
		end := min(len(pending), start+200)
		require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			for i := start; i < end; i++ {
				if err := pending[i](tx); err != nil {
					return err
				}
				if err := tx.Search().Enqueue(ctx, string(docs[i].key.Kind), docs[i].key.ID, at); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	return docs
}

// qualitySetup is a database with the quality corpus indexed.
type qualitySetup struct {
	db    *bunstore.DB
	docs  []qualityDoc
	byKey map[search.Key]string
	index *search.Index
	local *search.Local
	// vectors are the exact float32 embeddings of docs.
	vectors [][]float32
}

func newQualitySetup(t *testing.T, db *bunstore.DB) *qualitySetup {
	t.Helper()
	ctx := context.Background()
	s := &qualitySetup{db: db, docs: writeQualityCorpus(t, db), byKey: map[search.Key]string{}, local: search.NewLocal()}
	for _, d := range s.docs {
		s.byKey[d.key] = d.name
		s.vectors = append(s.vectors, s.local.Vector(d.text))
	}
	w := search.NewIndexer(db.SearchIndex(), s.local, openjury.SystemClock{}, search.IndexerConfig{Batch: 500}, nil, nil)
	for {
		n, err := w.Step(ctx)
		require.NoError(t, err)
		if n == 0 {
			break
		}
	}
	s.index = search.NewIndex(search.LocalDim)
	require.NoError(t, search.NewFollower(db.SearchIndex(), s.index, s.local.Model(), nil, nil).Sync(ctx))
	require.Equal(t, len(s.docs), s.index.Len())
	if db.Dialect() == bunstore.DialectPostgres {
		// The statistics a production database keeps by autovacuum.
		_, err := db.Bun().ExecContext(ctx, "ANALYZE search_text")
		require.NoError(t, err)
	}
	return s
}

// vectorRanking is search before hybrid ranking: exact cosine over every
// document, best first (ties by kind, then id), no floor.
func (s *qualitySetup) vectorRanking(q string, n int) []string {
	qv := s.local.Vector(q)
	type scored struct {
		i   int
		cos float64
	}
	all := make([]scored, len(s.docs))
	for i, v := range s.vectors {
		var dot float64
		for d := range v {
			dot += float64(v[d]) * float64(qv[d])
		}
		all[i] = scored{i, dot}
	}
	slices.SortFunc(all, func(a, b scored) int {
		if c := cmp.Compare(b.cos, a.cos); c != 0 {
			return c
		}
		return cmp.Compare(s.docs[a.i].key.ID, s.docs[b.i].key.ID)
	})
	out := make([]string, 0, n)
	for _, x := range all[:min(n, len(all))] {
		out = append(out, s.docs[x.i].name)
	}
	return out
}

func (s *qualitySetup) lexicalRanking(t *testing.T, q string, n int) []string {
	return s.lexicalRankingOf(t, s.db.SearchTexts(), q, n)
}

// lexicalRankingOf is lexicalRanking with texts.
func (s *qualitySetup) lexicalRankingOf(t *testing.T, texts search.Texts, q string, n int) []string {
	ms, err := texts.Match(context.Background(), search.QueryTerms(q), "", n)
	require.NoError(t, err)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = s.byKey[m.Key]
	}
	return out
}

func (s *qualitySetup) hybridRanking(t *testing.T, svc *search.Service, q string, n int) []string {
	res, err := svc.Search(context.Background(), search.Request{Q: q, Limit: n})
	require.NoError(t, err)
	out := make([]string, len(res.Results))
	for i, r := range res.Results {
		out[i] = s.byKey[search.Key{Kind: r.Kind, ID: r.ID}]
	}
	return out
}

// ndcg is nDCG@k of ranking against grades.
func ndcg(ranking []string, grades map[string]int, k int) float64 {
	dcg := 0.0
	for i, name := range ranking[:min(k, len(ranking))] {
		dcg += (math.Pow(2, float64(grades[name])) - 1) / math.Log2(float64(i+2))
	}
	ideal := make([]int, 0, len(grades))
	for _, g := range grades {
		ideal = append(ideal, g)
	}
	slices.SortFunc(ideal, func(a, b int) int { return b - a })
	idcg := 0.0
	for i, g := range ideal[:min(k, len(ideal))] {
		idcg += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i+2))
	}
	return dcg / idcg
}

// recall is the share of the documents of grade 1 or more within the
// first k of ranking.
func recall(ranking []string, grades map[string]int, k int) float64 {
	found, total := 0, 0
	for _, g := range grades {
		if g > 0 {
			total++
		}
	}
	for _, name := range ranking[:min(k, len(ranking))] {
		if grades[name] > 0 {
			found++
		}
	}
	return float64(found) / float64(total)
}

// qualityFigures are the mean figures of one ranking over the queries.
type qualityFigures struct{ ndcg10, recall20 float64 }

func measure(queries []qualityQuery, rank func(q string) []string) qualityFigures {
	var f qualityFigures
	for _, qq := range queries {
		r := rank(qq.q)
		f.ndcg10 += ndcg(r, qq.grades, 10)
		f.recall20 += recall(r, qq.grades, 20)
	}
	n := float64(len(queries))
	return qualityFigures{f.ndcg10 / n, f.recall20 / n}
}

func TestSearchQuality(t *testing.T) {
	t.Parallel()
	require.GreaterOrEqual(t, len(qualityQueries), 60)
	backends := map[string]func(testing.TB) string{"sqlite": func(testing.TB) string { return "" }, "postgres": pgtest.NewDatabase}
	for name, dsn := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var db *bunstore.DB
			if d := dsn(t); d != "" {
				db = openjurytest.OpenDB(t, d)
			} else {
				db = openjurytest.NewDB(t)
			}
			s := newQualitySetup(t, db)
			names := map[string]bool{}
			for _, d := range s.docs {
				names[d.name] = true
			}
			for _, qq := range qualityQueries {
				for n := range qq.grades {
					require.True(t, names[n], "query %q labels an unknown document %s", qq.q, n)
				}
			}
			svc := search.NewService(s.index, s.local, db.SearchTexts(), openjury.SystemClock{}, nil, search.Config{})
			vector := measure(qualityQueries, func(q string) []string { return s.vectorRanking(q, 20) })
			lexical := measure(qualityQueries, func(q string) []string { return s.lexicalRanking(t, q, 20) })
			hybrid := measure(qualityQueries, func(q string) []string { return s.hybridRanking(t, svc, q, 20) })
			t.Logf("%s: %d documents, %d queries", name, len(s.docs), len(qualityQueries))
			t.Logf("%-8s nDCG@10 %.3f  recall@20 %.3f", "vector", vector.ndcg10, vector.recall20)
			t.Logf("%-8s nDCG@10 %.3f  recall@20 %.3f", "lexical", lexical.ndcg10, lexical.recall20)
			t.Logf("%-8s nDCG@10 %.3f  recall@20 %.3f (%+v)", "hybrid", hybrid.ndcg10, hybrid.recall20, svc.Config())
			if os.Getenv("SEARCH_QUALITY_VERBOSE") != "" {
				for _, qq := range qualityQueries {
					h := s.hybridRanking(t, svc, qq.q, 10)
					t.Logf("%.2f %-45q %v", ndcg(h, qq.grades, 10), qq.q, h[:min(4, len(h))])
				}
			}
			require.GreaterOrEqual(t, hybrid.ndcg10, vector.ndcg10+0.10, "hybrid must beat the vector ranking clearly")
			require.GreaterOrEqual(t, hybrid.recall20, vector.recall20)

			// The lexical budget (bunstore.LexicalBudget documents a
			// query) never binds on this corpus; scaled down to the
			// corpus as it is to 100,000 and to 1,000,000 documents, it
			// shows what it costs there (rare terms are then a larger
			// share of a query's matches than on a real index that size,
			// whose words are as common as here: an upper bound on the
			// loss).
			for _, at := range []int{100_000, 1_000_000} {
				budget := bunstore.LexicalBudget * len(s.docs) / at
				texts := db.SearchTextsBudget(budget)
				lex := measure(qualityQueries, func(q string) []string { return s.lexicalRankingOf(t, texts, q, 20) })
				alt := search.NewService(s.index, s.local, texts, openjury.SystemClock{}, nil, search.Config{})
				hyb := measure(qualityQueries, func(q string) []string { return s.hybridRanking(t, alt, q, 20) })
				t.Logf("budget %d (as at %d documents): lexical nDCG@10 %.3f recall@20 %.3f, hybrid nDCG@10 %.3f recall@20 %.3f",
					budget, at, lex.ndcg10, lex.recall20, hyb.ndcg10, hyb.recall20)
			}

			if os.Getenv("SEARCH_QUALITY_SWEEP") != "" {
				for _, k := range []float64{10, 30, 60} {
					for _, wv := range []float64{0.25, 0.5, 0.75, 1} {
						for _, floor := range []float64{0.1, 0.15, 0.2, 0.25, 0.3} {
							cfg := search.Config{MinSimilarity: floor, Fusion: search.Fusion{K: k, Lexical: 1, Vector: wv}}
							alt := search.NewService(s.index, s.local, db.SearchTexts(), openjury.SystemClock{}, nil, cfg)
							f := measure(qualityQueries, func(q string) []string { return s.hybridRanking(t, alt, q, 20) })
							t.Logf("sweep K=%-3.0f vector=%.2f floor=%.2f: nDCG@10 %.3f  recall@20 %.3f", k, wv, floor, f.ndcg10, f.recall20)
						}
					}
				}
			}

			// The int8 index finds the same top 10 as exact float32 cosine
			// for these Local embeddings: the labelled queries and 400
			// document titles as queries, recall@10 at least 0.98.
			queries := make([]string, 0, len(qualityQueries)+400)
			for _, qq := range qualityQueries {
				queries = append(queries, qq.q)
			}
			rng := rand.New(rand.NewPCG(4, 10))
			for range 400 {
				queries = append(queries, strings.SplitN(s.docs[rng.IntN(len(s.docs))].text, "\n", 2)[0])
			}
			r := quantisedRecall(s, queries)
			t.Logf("recall@10 of the int8 index against exact float32: %.4f over %d queries", r, len(queries))
			require.GreaterOrEqual(t, r, 0.98)

			// Nonsense finds nothing: no word in common, and no vector
			// above the floor.
			for _, q := range []string{"florb zanquix wibblethorp", "qwxz vlorpt", "xyzzy plugh frobozz"} {
				res, err := svc.Search(context.Background(), search.Request{Q: q, Limit: search.MaxLimit})
				require.NoError(t, err)
				require.Empty(t, res.Results, "%q: %+v", q, res.Results)
			}
		})
	}
}

// quantisedRecall is the mean share of the exact top 10 the index finds.
func quantisedRecall(s *qualitySetup, queries []string) float64 {
	total := 0.0
	for _, q := range queries {
		exact := s.vectorRanking(q, 10)
		want := map[string]bool{}
		for _, n := range exact {
			want[n] = true
		}
		found := 0
		for _, h := range s.index.Query(s.local.Vector(q), "", 10) {
			if want[s.byKey[search.Key{Kind: h.Kind, ID: h.ID}]] {
				found++
			}
		}
		total += float64(found) / float64(len(exact))
	}
	return total / float64(len(queries))
}
