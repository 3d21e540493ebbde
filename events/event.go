package events

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openjury/openjury"
)

// Type names a kind of event (docs/rules.md#events).
type Type string

// The event types. The set is the one the rules list; an event of a type
// not listed here is never written.
const (
	JobCreated        Type = "job.created"
	JobBoosted        Type = "job.boosted"
	JobClosed         Type = "job.closed"
	SubmissionCreated Type = "submission.created"
	// VoteCast is an open-mode jury vote, with its choice.
	VoteCast Type = "vote.cast"
	// VoteCommitted is a commit-reveal commitment: never its choice.
	VoteCommitted    Type = "vote.committed"
	VoteRevealed     Type = "vote.revealed"
	FinalVoteCast    Type = "final_vote.cast"
	CommentCreated   Type = "comment.created"
	CommentDeleted   Type = "comment.deleted"
	PostCreated      Type = "post.created"
	AnchorRecorded   Type = "anchor.recorded"
	StakeChanged     Type = "stake.changed"
	SlashRecorded    Type = "slash.recorded"
	EscrowFunded     Type = "escrow.funded"
	EscrowSettled    Type = "escrow.settled"
	PayoutClaimable  Type = "payout.claimable"
	PayoutClaimed    Type = "payout.claimed"
	EscrowRefunded   Type = "escrow.refunded"
	JuryDrawn        Type = "jury.drawn"
	JuryRevealOpened Type = "jury.reveal_opened"
	FinalVoteOpened  Type = "final_vote.opened"
)

// Types lists every event type, in the order the rules list them.
var Types = []Type{
	JobCreated, JobBoosted, JobClosed, SubmissionCreated, VoteCast, VoteCommitted, VoteRevealed,
	FinalVoteCast, CommentCreated, CommentDeleted, PostCreated, AnchorRecorded, StakeChanged,
	SlashRecorded, EscrowFunded, EscrowSettled, PayoutClaimable, PayoutClaimed, EscrowRefunded,
	JuryDrawn, JuryRevealOpened, FinalVoteOpened,
}

// Known reports whether t is one of Types.
func Known(t Type) bool { return slices.Contains(Types, t) }

// Data is an event's payload: the ids of what it is about and a few of
// their fields, named as the HTTP API names them (job_id, submission_id,
// ...). Values are strings, numbers, booleans, nil, or slices and maps of
// them.
type Data map[string]any

// Event is one entry of the log.
type Event struct {
	// Seq is the event's delivery position, given by the sequencer; 0
	// while it waits in the outbox. ID is its string form.
	Seq int64
	// Type is what happened.
	Type Type
	// CreatedAt is when it happened (or, for a timer, will happen: the
	// sequencer holds an event back until then).
	CreatedAt time.Time
	// JobID is the job the event belongs to, or "". The log adds the job's
	// tags to Tags and its sponsor to Subjects when it sequences the
	// event.
	JobID string
	// Actor is the address whose request caused the event; zero for
	// events of the chain or of the clock.
	Actor openjury.Address
	// Subjects are the addresses the event concerns besides the actor
	// (the sponsor, the winner, the agent of a voted submission...).
	Subjects []openjury.Address
	// Audience, when not empty, restricts the event to these addresses:
	// their webhooks, and reads filtered by one of them. It is a subset of
	// Subjects.
	Audience []openjury.Address
	// Tags are the tags of the event's job or post, as written.
	Tags []string
	// Data is the payload.
	Data Data
}

// ID returns the event's id: FormatID(e.Seq).
func (e *Event) ID() string { return FormatID(e.Seq) }

// Restricted reports whether the event has an audience.
func (e *Event) Restricted() bool { return len(e.Audience) > 0 }

// Concerns reports whether addr is the event's actor or one of its
// subjects.
func (e *Event) Concerns(addr openjury.Address) bool {
	return !addr.IsZero() && (e.Actor == addr || slices.Contains(e.Subjects, addr))
}

// HasTag reports whether the event carries tag (lowercase), compared
// case-insensitively.
func (e *Event) HasTag(tag string) bool {
	return slices.ContainsFunc(e.Tags, func(t string) bool { return strings.ToLower(t) == tag })
}

// idPrefix starts every event id.
const idPrefix = "evt_"

// idDigits is the fixed width of an id's number, in hex digits: ids of
// one length sort as their numbers do.
const idDigits = 16

// FormatID returns the id of the event at position seq: "evt_" and seq
// in 16 lowercase hex digits. Ids sort in delivery order as strings.
func FormatID(seq int64) string {
	return fmt.Sprintf("%s%0*x", idPrefix, idDigits, seq)
}

// ParseID returns the position of an event id. Errors: Invalid naming
// field when s is not an event id.
func ParseID(field, s string) (int64, error) {
	hex, ok := strings.CutPrefix(s, idPrefix)
	if ok && len(hex) == idDigits && strings.ToLower(hex) == hex {
		if n, err := strconv.ParseInt(hex, 16, 64); err == nil && n >= 0 {
			return n, nil
		}
	}
	return 0, openjury.Errorf(openjury.Invalid, "events.ParseID", "%s: not an event id (evt_ and 16 hex digits)", field)
}

// Filter selects events. Its zero value selects every event without an
// audience.
type Filter struct {
	// Types keeps events of these types; empty keeps every type.
	Types []Type
	// JobID keeps the events of this job.
	JobID string
	// Address keeps the events whose actor or subjects include it. It is
	// also the only way to see an event with an audience: the filter's
	// Address must be in it.
	Address openjury.Address
	// Tag keeps the events carrying this tag (lowercase; compared
	// case-insensitively).
	Tag string
}

// Match reports whether f selects e.
func (f Filter) Match(e *Event) bool {
	if e.Restricted() && (f.Address.IsZero() || !slices.Contains(e.Audience, f.Address)) {
		return false
	}
	switch {
	case len(f.Types) > 0 && !slices.Contains(f.Types, e.Type):
		return false
	case f.JobID != "" && e.JobID != f.JobID:
		return false
	case !f.Address.IsZero() && !e.Concerns(f.Address):
		return false
	case f.Tag != "" && !e.HasTag(f.Tag):
		return false
	}
	return true
}

// Complete adds what an event of a job carries from its job: the job's
// tags (after the event's own, without repeats) and its sponsor as a
// subject. The log applies it when it sequences an event with a JobID.
func Complete(e *Event, sponsor openjury.Address, jobTags []string) {
	for _, t := range jobTags {
		if !e.HasTag(strings.ToLower(t)) {
			e.Tags = append(e.Tags, t)
		}
	}
	if !sponsor.IsZero() && !slices.Contains(e.Subjects, sponsor) {
		e.Subjects = append(e.Subjects, sponsor)
	}
}

// Keys returns the index keys a log keeps for e so that reads filtered by
// address or tag are index scans: "a:" and each address the event
// concerns (for an event with an audience: only its audience), and "t:"
// and each tag in lower case. Repeats are dropped. A log's retention
// finds an expired event's keys again with Keys (bunstore), so a change
// here needs the stored keys rewritten.
func Keys(e *Event) []string {
	var out []string
	add := func(k string) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if e.Restricted() {
		for _, a := range e.Audience {
			add(AddressKey(a))
		}
	} else {
		if !e.Actor.IsZero() {
			add(AddressKey(e.Actor))
		}
		for _, a := range e.Subjects {
			add(AddressKey(a))
		}
	}
	for _, t := range e.Tags {
		add(TagKey(t))
	}
	return out
}

// AddressKey is the index key of an address (see Keys).
func AddressKey(a openjury.Address) string { return "a:" + a.String() }

// TagKey is the index key of a tag (see Keys).
func TagKey(tag string) string { return "t:" + strings.ToLower(tag) }
