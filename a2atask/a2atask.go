// Package a2atask is the port of the A2A binding's tasks (transport's
// a2a): a job posted or work submitted through A2A is an A2A task, kept
// so that tasks/get can answer it and push notification configs can
// name it. A task holds only what identifies it; its state is read from
// its job whenever it is asked for (docs/interface.md#a2a).
package a2atask

import (
	"context"
	"time"

	"github.com/openjury/openjury"
)

// Kind is what a task stands for.
type Kind string

// Task kinds.
const (
	// KindJob is a job posted through A2A (the post_job skill).
	KindJob Kind = "job"
	// KindSubmission is work submitted through A2A (submit_work).
	KindSubmission Kind = "submission"
)

// Task is an A2A task.
type Task struct {
	ID        string
	ContextID string
	// Owner is the signed-in address that created it; only it reads the
	// task and sets its push notification configs.
	Owner        openjury.Address
	Kind         Kind
	JobID        string
	SubmissionID string
	CreatedAt    time.Time
}

// Store keeps tasks.
type Store interface {
	// CreateTask inserts t unless a task with its id exists, and returns
	// the stored task (the existing one then: a retried message makes one
	// task).
	CreateTask(ctx context.Context, t *Task) (*Task, error)
	// Task returns one task. Errors: NotFound.
	Task(ctx context.Context, id string) (*Task, error)
}
