package transport

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/a2atask"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

// A2A tasks. A job posted (post_job) or work submitted (submit_work)
// through A2A is an A2A task whose state follows the job: working while
// the job is open, completed once it is closed (for work submitted, the
// artifact says whether it won). message/send answers such a skill with
// the task; tasks/get (GetTask) reads it again, for its creator only; and
// push notification configs set on it (tasks/pushNotificationConfig/*,
// the 1.0 *TaskPushNotificationConfig* methods) are webhooks of the
// task's job whose deliveries carry the task (A2A 0.3: the Task; 1.0: a
// StreamResponse holding it), with the retries, SSRF rules and disable
// rule of every webhook (docs/rules.md#events).

// a2aTaskSkills are the skills whose run makes a task, by kind.
var a2aTaskSkills = map[string]a2atask.Kind{"post_job": a2atask.KindJob, "submit_work": a2atask.KindSubmission}

// The task states of both protocol versions.
const (
	a2aWorking03   = "working"
	a2aCompleted03 = "completed"
	a2aWorking1    = "TASK_STATE_WORKING"
	a2aCompleted1  = "TASK_STATE_COMPLETED"
)

// a2aTaskStatus is a TaskStatus of either version.
type a2aTaskStatus struct {
	State     string      `json:"state"`
	Message   *a2aMessage `json:"message,omitempty"`
	Timestamp string      `json:"timestamp"`
}

// a2aArtifact is an Artifact of either version.
type a2aArtifact struct {
	ArtifactID string    `json:"artifactId"`
	Name       string    `json:"name,omitempty"`
	Parts      []a2aPart `json:"parts"`
}

// a2aTaskJSON is a Task of either version: 0.3 has kind "task".
type a2aTaskJSON struct {
	Kind      string        `json:"kind,omitempty"`
	ID        string        `json:"id"`
	ContextID string        `json:"contextId"`
	Status    a2aTaskStatus `json:"status"`
	Artifacts []a2aArtifact `json:"artifacts"`
}

// a2aDataPart is a data part of the version.
func a2aDataPart(v1 bool, data json.RawMessage) a2aPart {
	p := a2aPart{Data: data}
	if !v1 {
		p.Kind = "data"
	}
	return p
}

// a2aTextPart is a text part of the version.
func a2aTextPart(v1 bool, text string) a2aPart {
	p := a2aPart{Text: &text}
	if !v1 {
		p.Kind = "text"
	}
	return p
}

// a2aTaskView renders a task of the version from its job's current state;
// result, when not nil, is the HTTP API's answer of the skill that made
// it (message/send's reply adds it as an artifact).
func (s *server) a2aTaskView(ctx context.Context, v1 bool, t *a2atask.Task, result json.RawMessage) (a2aTaskJSON, error) {
	job, err := s.svc.Market.Job(ctx, t.JobID)
	if err != nil {
		return a2aTaskJSON{}, err
	}
	closed := job.Status == marketplace.StatusClosed
	at := t.CreatedAt
	state, text := a2aWorking03, "The job is open: submissions, jury votes and final votes are being collected."
	if v1 {
		state = a2aWorking1
	}
	if closed {
		state, text = a2aCompleted03, "The job is closed; the winner is submission "+job.WinnerSubmissionID+"."
		if v1 {
			state = a2aCompleted1
		}
		if job.ClosedAt != nil {
			at = *job.ClosedAt
		}
	}
	var data any = newJobJSON(job)
	if t.Kind == a2atask.KindSubmission {
		var won *bool
		if closed {
			w := job.WinnerSubmissionID == t.SubmissionID
			won = &w
		}
		data = struct {
			SubmissionID string   `json:"submission_id"`
			Won          *bool    `json:"won"`
			Job          wire.Job `json:"job"`
		}{t.SubmissionID, won, newJobJSON(job)}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return a2aTaskJSON{}, err
	}
	msg := &a2aMessage{MessageID: t.ID + "-" + string(state), ContextID: t.ContextID, Parts: []a2aPart{a2aTextPart(v1, text)}}
	out := a2aTaskJSON{ID: t.ID, ContextID: t.ContextID, Status: a2aTaskStatus{State: state, Message: msg, Timestamp: openjury.FormatTime(at)},
		Artifacts: []a2aArtifact{{ArtifactID: string(t.Kind), Name: string(t.Kind), Parts: []a2aPart{a2aDataPart(v1, raw)}}}}
	if result != nil {
		out.Artifacts = append(out.Artifacts, a2aArtifact{ArtifactID: "result", Name: "result", Parts: []a2aPart{a2aDataPart(v1, result)}})
	}
	if v1 {
		msg.Role = "ROLE_AGENT"
	} else {
		out.Kind, msg.Kind, msg.Role = "task", "message", "agent"
	}
	return out, nil
}

// a2aNewTask records the task a skill's run makes and returns it: its id
// follows from the caller and the message's Idempotency-Key, so a message
// sent again names the same task.
func (s *server) a2aNewTask(r *http.Request, kind a2atask.Kind, contextID, idemKey string, result json.RawMessage) (*a2atask.Task, error) {
	caller, err := s.a2aBearer(r)
	if err != nil {
		return nil, err
	}
	var ids struct {
		ID         string `json:"id"`
		JobID      string `json:"job_id"`
		Submission struct {
			ID    string `json:"id"`
			JobID string `json:"job_id"`
		} `json:"submission"`
	}
	if err := json.Unmarshal(result, &ids); err != nil {
		return nil, err
	}
	t := &a2atask.Task{ID: uuid.NewString(), ContextID: contextID, Owner: caller, Kind: kind, JobID: ids.ID, CreatedAt: openjury.Truncate(s.clock.Now())}
	if kind == a2atask.KindSubmission {
		t.JobID, t.SubmissionID = ids.Submission.JobID, ids.Submission.ID
	}
	if idemKey != "" {
		t.ID = uuid.NewSHA1(uuid.NameSpaceURL, []byte("openjury:a2a-task:"+caller.String()+":"+idemKey)).String()
	}
	if t.ContextID == "" {
		t.ContextID = uuid.NewString()
	}
	return s.svc.A2ATasks.CreateTask(r.Context(), t)
}

// a2aBearer resolves the bearer of r (a JSON-RPC error when it fails).
func (s *server) a2aBearer(r *http.Request) (openjury.Address, error) {
	addr, err := s.a2aCaller(r)
	if err != nil {
		return "", err
	}
	return openjury.Address(addr), nil
}

// errTaskNotFound is the answer for a task that does not exist or is
// someone else's.
var errTaskNotFound = &rpcError{Code: a2aTaskNotFound, Message: "task not found"}

// a2aOwnTask loads the task id of the caller of r.
func (s *server) a2aOwnTask(r *http.Request, id string) (*a2atask.Task, error) {
	if s.svc.A2ATasks == nil {
		return nil, errTaskNotFound
	}
	caller, err := s.a2aBearer(r)
	if err != nil {
		return nil, err
	}
	t, err := s.svc.A2ATasks.Task(r.Context(), id)
	if openjury.IsKind(err, openjury.NotFound) || (err == nil && t.Owner != caller) {
		return nil, errTaskNotFound
	}
	return t, err
}

// a2aGetTask answers tasks/get and GetTask.
func (s *server) a2aGetTask(r *http.Request, v1 bool, params json.RawMessage) (any, error) {
	var p struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.ID == "" {
		return nil, invalidParams("params.id is required: a task id")
	}
	t, err := s.a2aOwnTask(r, p.ID)
	if err != nil {
		return nil, err
	}
	return s.a2aTaskView(r.Context(), v1, t, nil)
}

// a2aPushConfig is a push notification config as either version sends it:
// 0.3 {taskId, pushNotificationConfig: {id, url, token, authentication:
// {schemes, credentials}}}; 1.0 {taskId, id, url, token, authentication:
// {scheme, credentials}}.
type a2aPushConfig struct {
	TaskID string `json:"taskId"`
	// 0.3
	PushNotificationConfig *a2aPushConfig03 `json:"pushNotificationConfig,omitempty"`
	// 1.0
	ID             string   `json:"id,omitempty"`
	URL            string   `json:"url,omitempty"`
	Token          string   `json:"token,omitempty"`
	Authentication *a2aAuth `json:"authentication,omitempty"`
}

type a2aPushConfig03 struct {
	ID             string     `json:"id,omitempty"`
	URL            string     `json:"url"`
	Token          string     `json:"token,omitempty"`
	Authentication *a2aAuth03 `json:"authentication,omitempty"`
}

type a2aAuth struct {
	Scheme      string `json:"scheme"`
	Credentials string `json:"credentials,omitempty"`
}

type a2aAuth03 struct {
	Schemes     []string `json:"schemes"`
	Credentials string   `json:"credentials,omitempty"`
}

// a2aPushView renders a stored push config of the version.
func a2aPushView(v1 bool, w *events.Webhook) a2aPushConfig {
	p := w.Push
	if v1 {
		out := a2aPushConfig{TaskID: p.TaskID, ID: p.ConfigID, URL: w.URL, Token: p.Token}
		if p.AuthScheme != "" {
			out.Authentication = &a2aAuth{Scheme: p.AuthScheme, Credentials: p.Credentials}
		}
		return out
	}
	cfg := &a2aPushConfig03{ID: p.ConfigID, URL: w.URL, Token: p.Token}
	if p.AuthScheme != "" {
		cfg.Authentication = &a2aAuth03{Schemes: []string{p.AuthScheme}, Credentials: p.Credentials}
	}
	return a2aPushConfig{TaskID: p.TaskID, PushNotificationConfig: cfg}
}

// a2aPush answers the push notification config methods of both versions:
// set (Create), get, list and delete, for the task's creator.
func (s *server) a2aPush(r *http.Request, method string, params json.RawMessage) (any, error) {
	if s.svc.Webhooks == nil || s.svc.A2ATasks == nil {
		return nil, &rpcError{Code: a2aUnsupportedOperation, Message: "push notifications are not enabled on this server"}
	}
	v1 := method[0] >= 'A' && method[0] <= 'Z'
	var p struct {
		a2aPushConfig
		// get, list and delete: 0.3 names the task id, 1.0 taskId.
		PushNotificationConfigID string `json:"pushNotificationConfigId"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, invalidParams("params must be an object")
	}
	taskID, configID := p.TaskID, p.ID
	if !v1 && method != "tasks/pushNotificationConfig/set" {
		taskID, configID = p.ID, p.PushNotificationConfigID
	}
	if taskID == "" {
		return nil, invalidParams("the task id is required")
	}
	t, err := s.a2aOwnTask(r, taskID)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	switch method {
	case "tasks/pushNotificationConfig/set", "CreateTaskPushNotificationConfig":
		in := events.PushInput{TaskID: t.ID, JobID: t.JobID, ConfigID: p.ID, URL: p.URL, Token: p.Token, Protocol: A2A1ProtocolVersion}
		if a := p.Authentication; a != nil {
			in.AuthScheme, in.Credentials = a.Scheme, a.Credentials
		}
		if c := p.PushNotificationConfig; !v1 {
			if c == nil {
				return nil, invalidParams("params.pushNotificationConfig is required")
			}
			in.ConfigID, in.URL, in.Token, in.Protocol = c.ID, c.URL, c.Token, "0.3"
			if c.Authentication != nil && len(c.Authentication.Schemes) > 0 {
				in.AuthScheme, in.Credentials = c.Authentication.Schemes[0], c.Authentication.Credentials
			}
		}
		w, err := s.svc.Webhooks.SetPush(ctx, t.Owner, in)
		if err != nil {
			return nil, a2aError(err)
		}
		return a2aPushView(v1, w), nil
	}
	ws, err := s.svc.Webhooks.Pushes(ctx, t.Owner, t.ID)
	if err != nil {
		return nil, err
	}
	switch method {
	case "tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs":
		out := make([]a2aPushConfig, len(ws))
		for i, w := range ws {
			out[i] = a2aPushView(v1, w)
		}
		if v1 {
			return map[string]any{"configs": out}, nil
		}
		return out, nil
	case "tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig":
		for _, w := range ws {
			if configID == "" || w.Push.ConfigID == configID {
				return a2aPushView(v1, w), nil
			}
		}
		return nil, &rpcError{Code: a2aNotFound, Message: "push notification config not found"}
	default: // delete
		if err := s.svc.Webhooks.DeletePush(ctx, t.Owner, t.ID, configID); err != nil {
			return nil, a2aError(err)
		}
		if v1 {
			return map[string]any{}, nil
		}
		return nil, nil
	}
}

// a2aPushMethods are the push notification config methods of both
// versions.
var a2aPushMethods = []string{
	"tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/get",
	"tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete",
	"CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
	"ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig",
}

// a2aError turns a domain error into its JSON-RPC error (the HTTP API's
// status and detail in data); other errors go through as they are.
func a2aError(err error) error {
	var oe *openjury.Error
	if !errors.As(err, &oe) || oe.Kind == openjury.Internal {
		return err
	}
	status := StatusOf(oe.Kind)
	code, ok := a2aStatusCodes[status]
	if !ok {
		code = rpcInternalError
	}
	detail := openjury.DetailOf(err)
	return &rpcError{Code: code, Message: detail, Data: rpcErrorData{Status: status, Detail: detail}}
}

// renderPush renders a push notification of an A2A task: the task of its
// config's version (0.3: the Task, JSON; 1.0: a StreamResponse {"task":
// ...}, application/a2a+json).
func renderPush(ctx context.Context, s Services, w *events.Webhook) ([]byte, string, error) {
	if s.A2ATasks == nil {
		return nil, "", errors.New("no A2A task store")
	}
	t, err := s.A2ATasks.Task(ctx, w.Push.TaskID)
	if err != nil {
		return nil, "", err
	}
	srv := &server{svc: s, clock: openjury.SystemClock{}}
	v1 := w.Push.Protocol == A2A1ProtocolVersion
	view, err := srv.a2aTaskView(ctx, v1, t, nil)
	if err != nil {
		return nil, "", err
	}
	if v1 {
		b, err := json.Marshal(map[string]any{"task": view})
		return b, "application/a2a+json", err
	}
	b, err := json.Marshal(view)
	return b, contentTypeJSON, err
}
