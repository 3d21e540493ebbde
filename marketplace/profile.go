package marketplace

import (
	"context"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
	"github.com/openjury/openjury/stake"
)

// Limits of a profile's lists (docs/interface.md#the-companion-web-app):
// the pages of an address's jobs, submissions, jury votes and final votes.
const (
	DefaultProfileLimit = 20
	MaxProfileLimit     = 200
	// HeadChars is how many characters of a submission's content a
	// SubmissionHead carries.
	HeadChars = 200
)

// JobHead names a job in a list of other things: its id, title, status
// and winner (empty while open).
type JobHead struct {
	ID                 string
	Title              string
	Status             Status
	WinnerSubmissionID string
	// RevealEndsAt ends a commit-reveal job's reveal window (nil in open
	// mode): until then a vote's choice is not shown.
	RevealEndsAt *time.Time
}

// SubmissionHead names a submission in a list of other things: its id,
// job, agent and time and the first HeadChars characters of its content
// (never its evidence), so a list can show what was submitted without
// reading whole submissions.
type SubmissionHead struct {
	ID        string
	JobID     string
	Agent     openjury.Address
	Head      string
	CreatedAt time.Time
}

// Activity is one entry of an address's history: a submission it made, or
// a jury or final vote it cast (ID is the submission's or the vote's),
// with the job it concerns and the submission (for a vote: the one voted
// for). Weight is a jury vote's weight, 0 otherwise.
type Activity struct {
	ID         string
	Job        JobHead
	Submission SubmissionHead
	Weight     int64
	CreatedAt  time.Time
}

// ProfileStore reads an address's history, newest first: every list is in
// the order (created_at, id) descending, up to limit entries, after the
// cursor when it is not nil, walking an index on (address, created_at,
// id) so a page costs the same at any depth.
type ProfileStore interface {
	// JobsBySponsor lists the jobs sponsor posted with the fields a list
	// of jobs shows (ListedJob): a page reads a few columns of each row,
	// not the prompt, anchor, close and escrow references.
	JobsBySponsor(ctx context.Context, sponsor openjury.Address, limit int, after *Cursor) ([]*Job, error)
	// SubmissionsByAgent lists the submissions agent made, each with its
	// job.
	SubmissionsByAgent(ctx context.Context, agent openjury.Address, limit int, after *Cursor) ([]*Activity, error)
	// VotesByVoter lists voter's current jury votes (one per job), each
	// with its job and the submission voted for.
	VotesByVoter(ctx context.Context, voter openjury.Address, limit int, after *Cursor) ([]*Activity, error)
	// FinalVotesByVoter lists voter's current final votes like
	// VotesByVoter (Weight 0).
	FinalVotesByVoter(ctx context.Context, voter openjury.Address, limit int, after *Cursor) ([]*Activity, error)
	// Profile reads addr's reputation (zeros with Address set when it has
	// none) and a page of each of its four lists in one read: its jobs
	// (with the fields of ProfiledJob), submissions, jury votes and final
	// votes, each like the method of its list. A list whose Limit is 0 is
	// empty. When pages.Ledger is set, the same read also takes addr's
	// account (ProfileRead.Account).
	Profile(ctx context.Context, addr openjury.Address, pages ProfilePages) (*ProfileRead, error)
}

// ProfileList is the page of a profile's list to read: up to Limit
// entries after After (nil for the first page).
type ProfileList struct {
	Limit int
	After *Cursor
}

// ProfilePages are the pages ProfileStore.Profile reads of each list.
type ProfilePages struct {
	Jobs, Submissions, Votes, FinalVotes ProfileList
	// Ledger, when not nil, is the page of the address's AGR ledger to
	// read, with its stake and AGR balance, in the profile's one read
	// (ProfileRead.Account); nil reads none of them.
	Ledger *ProfileList
}

// ProfileRead is what ProfileStore.Profile reads: the reputation and the
// entries of each list's page.
type ProfileRead struct {
	Reputation                     Reputation
	Jobs                           []*Job
	Submissions, Votes, FinalVotes []*Activity
	// Account is the address's account when ProfilePages.Ledger asked for
	// it, nil otherwise.
	Account *AccountRead
}

// AccountRead is an address's account as ProfileStore.Profile reads it,
// each part with Address set and zeros when the address has none: its
// stake as ProfiledStake gives it, its AGR balance and the entries of the
// ledger's page (like agr.Store.Ledger).
type AccountRead struct {
	Stake  stake.Stake
	AGR    agr.Status
	Ledger []agr.Entry
}

// ProfiledStake is st as a profile reads it (ProfileStore.Profile): its
// address, amount and update time; its onchain reference, which a profile
// does not show, is zero.
func ProfiledStake(st stake.Stake) stake.Stake {
	return stake.Stake{Address: st.Address, Staked: st.Staked, UpdatedAt: st.UpdatedAt}
}

// ProfiledJob is j as a profile lists it (ProfileStore.Profile): its id,
// title, bounty, status, sponsor, creation time, winner, boost end and
// escrow status and amount; the other fields are zero.
func ProfiledJob(j *Job) *Job {
	out := &Job{ID: j.ID, Title: j.Title, Bounty: j.Bounty, Status: j.Status, Sponsor: j.Sponsor, CreatedAt: j.CreatedAt,
		WinnerSubmissionID: j.WinnerSubmissionID, FeaturedUntil: j.FeaturedUntil}
	if j.Escrow != nil {
		out.Escrow = &JobEscrow{Status: j.Escrow.Status, Amount: j.Escrow.Amount}
	}
	return out
}

// ProfileInput are the pages of a profile's lists (each ListInput as
// SponsoredJobs takes it).
type ProfileInput struct {
	Jobs, Submissions, Votes, FinalVotes ListInput
	// Ledger, when not nil, asks for the address's account in the same
	// read (Profile.Account) with this page of its AGR ledger, limited like
	// agr.Service.Ledger: a profile page shows them beside the lists, and
	// one read costs less than four.
	Ledger *ListInput
}

// Profile is an address's reputation and a page of each of its lists.
type Profile struct {
	Reputation Reputation
	// Jobs are the jobs posted, with the fields of ProfiledJob.
	Jobs                           JobPage
	Submissions, Votes, FinalVotes ActivityPage
	// Account is the address's stake and AGR when ProfileInput.Ledger
	// asked for them, nil otherwise.
	Account *Account
}

// Account is an address's stake and AGR as its profile shows them.
type Account struct {
	// Stake is the stake as ProfiledStake gives it, Eligible under the
	// service's Config.MinStake (stake.Eligible).
	Stake stake.Status
	AGR   agr.Status
	// Ledger is a page of the AGR ledger, newest first, with the cursor
	// of agr.Service.Ledger.
	Ledger agr.LedgerPage
}

// ActivityPage is a page of an address's history, newest first;
// NextCursor is "" on the last page.
type ActivityPage struct {
	Items      []*Activity
	NextCursor string
}

// profileList validates a profile list's address, limit and cursor.
func profileList(op, address string, in ListInput) (openjury.Address, int, *Cursor, error) {
	addr, err := openjury.ParseAddress("address", address)
	if err != nil {
		return "", 0, nil, openjury.Wrap(op, err)
	}
	limit, err := valid.Limit(op, in.Limit, DefaultProfileLimit, MaxProfileLimit)
	if err != nil {
		return "", 0, nil, err
	}
	after, err := cursor.After[Cursor](op, in.Cursor)
	if err != nil {
		return "", 0, nil, err
	}
	return addr, limit, after, nil
}

// ListedJob is j as ProfileStore.JobsBySponsor returns it: its id, title,
// bounty, tags, status, sponsor, times, winner, boost, final vote window,
// payout total, jury settings and escrow status and amount; the other
// fields (prompt, anchor, close reference, closing lease, records
// revision, the escrow's refund time, reference and settle) are zero.
func ListedJob(j *Job) *Job {
	out := &Job{ID: j.ID, Title: j.Title, Bounty: j.Bounty, Tags: j.Tags, Status: j.Status, Sponsor: j.Sponsor, CreatedAt: j.CreatedAt,
		WinnerSubmissionID: j.WinnerSubmissionID, ClosedAt: j.ClosedAt, FeaturedScore: j.FeaturedScore, FeaturedUntil: j.FeaturedUntil,
		FinalVoteStartsAt: j.FinalVoteStartsAt, FinalVoteEndsAt: j.FinalVoteEndsAt, PayoutTotal: j.PayoutTotal,
		JuryMode: j.JuryMode, JurySize: j.JurySize, JuryCommitEndsAt: j.JuryCommitEndsAt, JuryRevealEndsAt: j.JuryRevealEndsAt}
	if j.Escrow != nil {
		out.Escrow = &JobEscrow{Status: j.Escrow.Status, Amount: j.Escrow.Amount}
	}
	return out
}

// SponsoredJobs lists the jobs an address posted, newest first, a page at
// a time (in.Limit 0 means DefaultProfileLimit, else 1..MaxProfileLimit);
// the jobs' Prompt is empty. Errors: Invalid (address, limit, cursor).
func (s *Service) SponsoredJobs(ctx context.Context, address string, in ListInput) (JobPage, error) {
	const op = "marketplace.SponsoredJobs"
	addr, limit, after, err := profileList(op, address, in)
	if err != nil {
		return JobPage{}, err
	}
	jobs, err := s.db.Profiles().JobsBySponsor(ctx, addr, limit+1, after)
	if err != nil {
		return JobPage{}, openjury.Wrap(op, err)
	}
	var p JobPage
	p.Jobs, p.NextCursor = cursor.Cut(jobs, limit, jobCursor)
	return p, nil
}

// AgentSubmissions lists the submissions an address made, newest first,
// paged like SponsoredJobs. Errors: Invalid.
func (s *Service) AgentSubmissions(ctx context.Context, address string, in ListInput) (ActivityPage, error) {
	return s.activity(ctx, "marketplace.AgentSubmissions", address, in, ProfileStore.SubmissionsByAgent)
}

// VoterVotes lists an address's current jury votes, newest first, paged
// like SponsoredJobs. Errors: Invalid.
func (s *Service) VoterVotes(ctx context.Context, address string, in ListInput) (ActivityPage, error) {
	p, err := s.activity(ctx, "marketplace.VoterVotes", address, in, ProfileStore.VotesByVoter)
	hideChoices(p.Items, s.clock.Now())
	return p, err
}

// hideChoices hides the choice of each revealed vote on a job whose
// tallies are still hidden at now (docs/rules.md, "Jury integrity").
func hideChoices(votes []*Activity, now time.Time) {
	for _, a := range votes {
		if a.ChoiceHidden(now) {
			a.Submission = SubmissionHead{JobID: a.Job.ID}
		}
	}
}

// ChoiceHidden reports whether a's jury vote is on an open commit-reveal
// job before the end of its reveal window, when no vote names its
// submission.
func (a *Activity) ChoiceHidden(now time.Time) bool {
	return a.Job.Status == StatusOpen && a.Job.RevealEndsAt != nil && now.Before(*a.Job.RevealEndsAt)
}

// VoterFinalVotes lists an address's current final votes, newest first,
// paged like SponsoredJobs. Errors: Invalid.
func (s *Service) VoterFinalVotes(ctx context.Context, address string, in ListInput) (ActivityPage, error) {
	return s.activity(ctx, "marketplace.VoterFinalVotes", address, in, ProfileStore.FinalVotesByVoter)
}

// activity reads a page of one of an address's histories with list.
func (s *Service) activity(ctx context.Context, op, address string, in ListInput,
	list func(ProfileStore, context.Context, openjury.Address, int, *Cursor) ([]*Activity, error)) (ActivityPage, error) {
	addr, limit, after, err := profileList(op, address, in)
	if err != nil {
		return ActivityPage{}, err
	}
	items, err := list(s.db.Profiles(), ctx, addr, limit+1, after)
	if err != nil {
		return ActivityPage{}, openjury.Wrap(op, err)
	}
	var p ActivityPage
	p.Items, p.NextCursor = cursor.Cut(items, limit, activityCursor)
	return p, nil
}

// Profile reads an address's reputation and a page of each of its lists
// (jobs posted, submissions, jury votes, final votes), each paged like
// SponsoredJobs, and with in.Ledger its stake, AGR balance and a page of
// its AGR ledger, in one read of the store: what a profile page shows.
// Errors: Invalid (address, a limit or a cursor).
func (s *Service) Profile(ctx context.Context, address string, in ProfileInput) (*Profile, error) {
	const op = "marketplace.Profile"
	var (
		pages ProfilePages
		addr  openjury.Address
	)
	for _, l := range []struct {
		in  ListInput
		out *ProfileList
	}{{in.Jobs, &pages.Jobs}, {in.Submissions, &pages.Submissions}, {in.Votes, &pages.Votes}, {in.FinalVotes, &pages.FinalVotes}} {
		a, limit, after, err := profileList(op, address, l.in)
		if err != nil {
			return nil, err
		}
		// One more than the page tells whether there is a next one.
		addr, *l.out = a, ProfileList{Limit: limit + 1, After: after}
	}
	if in.Ledger != nil {
		limit, err := valid.Limit(op, in.Ledger.Limit, agr.DefaultLedgerLimit, agr.MaxLedgerLimit)
		if err != nil {
			return nil, err
		}
		after, err := cursor.After[Cursor](op, in.Ledger.Cursor)
		if err != nil {
			return nil, err
		}
		pages.Ledger = &ProfileList{Limit: limit + 1, After: after}
	}
	r, err := s.db.Profiles().Profile(ctx, addr, pages)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	hideChoices(r.Votes, s.clock.Now())
	p := &Profile{Reputation: r.Reputation}
	p.Jobs.Jobs, p.Jobs.NextCursor = cursor.Cut(r.Jobs, pages.Jobs.Limit-1, jobCursor)
	for _, l := range []struct {
		items []*Activity
		limit int
		out   *ActivityPage
	}{{r.Submissions, pages.Submissions.Limit - 1, &p.Submissions}, {r.Votes, pages.Votes.Limit - 1, &p.Votes}, {r.FinalVotes, pages.FinalVotes.Limit - 1, &p.FinalVotes}} {
		l.out.Items, l.out.NextCursor = cursor.Cut(l.items, l.limit, activityCursor)
	}
	if a := r.Account; a != nil && pages.Ledger != nil {
		p.Account = &Account{Stake: stake.Status{Stake: a.Stake, Eligible: stake.Eligible(a.Stake, s.cfg.MinStake)}, AGR: a.AGR,
			Ledger: agr.LedgerPage{Address: addr}}
		p.Account.Ledger.Entries, p.Account.Ledger.NextCursor = cursor.Cut(a.Ledger, pages.Ledger.Limit-1, func(last agr.Entry) string {
			return cursor.EncodeTimeID(last.CreatedAt, last.ID)
		})
	}
	return p, nil
}

// jobCursor is the cursor after a job of a profile's list.
func jobCursor(last *Job) string { return cursor.EncodeTimeID(last.CreatedAt, last.ID) }

// activityCursor is the cursor after an entry of a profile's history.
func activityCursor(last *Activity) string { return cursor.EncodeTimeID(last.CreatedAt, last.ID) }
