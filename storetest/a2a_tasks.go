package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/a2atask"
)

// A2ATaskBackend is a Backend that also keeps A2A tasks. The A2ATasks
// tests skip backends without it.
type A2ATaskBackend interface {
	a2atask.Store
}

func (s *suite) a2aTaskTests() []test {
	return []test{{name: "CreateOnceAndRead", run: testA2ATaskCreate}}
}

// testA2ATaskCreate: a task round-trips; creating it again keeps the
// first (a retried message makes one task); an unknown id is NotFound.
func testA2ATaskCreate(t *testing.T, b Backend) {
	ts, ok := b.(A2ATaskBackend)
	if !ok {
		t.Skip("the backend has no A2A task store")
	}
	ctx := context.Background()
	create(t, b, newJob(1, base))
	task := &a2atask.Task{ID: "task-1", ContextID: "ctx", Owner: alice, Kind: a2atask.KindSubmission, JobID: id(1), SubmissionID: id(9), CreatedAt: base}
	got, err := ts.CreateTask(ctx, task)
	require.NoError(t, err)
	require.Equal(t, task, got)
	second := *task
	second.Owner, second.ContextID = other, "other"
	got, err = ts.CreateTask(ctx, &second)
	require.NoError(t, err)
	require.Equal(t, task, got, "the first stays")
	_, err = ts.Task(ctx, "task-2")
	requireKind(t, openjury.NotFound, err)
}
