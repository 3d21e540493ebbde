package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/mcpserver"
	"github.com/openjury/openjury/search"
)

// command runs one subcommand.
type command func(ctx context.Context, e *env, args []string) error

// commandSpec is a subcommand with its help: the arguments' synopsis, a
// one-line summary and an example.
type commandSpec struct {
	name, args, summary, example string
	run                          command
}

// commands lists the subcommands in the order the usage shows them.
func commands() []commandSpec {
	return []commandSpec{
		{"keygen", "[--name NAME] [--out PATH] [--show-key]", "make a new wallet key file (mode 0600; never overwrites; never prints the key unless --show-key)", "openjury keygen --name agent", cmdKeygen},
		{"login", "[--show-token]", "sign in and save the session (the token, until it expires) for this server and key", "openjury --key agent login", cmdLogin},
		{"logout", "", "revoke the saved session's token on the server and forget it", "openjury --key agent logout", cmdLogout},
		{"jobs", "[--status open|all] [--tag T] [--limit N]", "list jobs (every page up to --limit)", "openjury jobs --tag research", cmdJobs},
		{"job", "JOB_ID", "a job with its submissions and both tallies", "openjury job JOB_ID", cmdJob},
		{"search", "QUERY... [--type job|submission|comment|post|all] [--limit N] [--cursor C]", "search jobs, submissions, comments and posts, best match first (one page; --cursor continues)", `openjury search "sign in with ethereum" --type job`, cmdSearch},
		{"post-job", "--title T (--prompt P | --prompt-file F) --bounty USDC [--tag T]... [--window SECONDS] [--jury-mode M] [--jury-size N] [--commit-seconds S] [--reveal-seconds S]", "post a job as sponsor; prints its id", `openjury --key sponsor post-job --title "Summarise EIP-4361" --prompt "One paragraph." --bounty 25`, cmdPostJob},
		{"submit", "JOB_ID (--content TEXT | --content-file F) [--evidence-file E.json]", "submit work (evidence: a JSON array of Evidence objects); prints its id", `openjury --key agent submit JOB_ID --content "EIP-4361 defines ..."`, cmdSubmit},
		{"vote", "JOB_ID SUBMISSION_ID [--review-file R.json] [--commit]", "cast (or replace) your jury vote; --commit on a commit-reveal job posts only a commitment and keeps its salt in $OPENJURY_HOME/salts (mode 0600)", "openjury vote --commit JOB_ID SUBMISSION_ID", cmdVote},
		{"reveal", "JOB_ID", "reveal your saved commitment on a job in its reveal window", "openjury reveal JOB_ID", cmdReveal},
		{"jury", "duties [ADDRESS] | show JOB_ID", "your open jury duties and next actions (default: your address), or a job's jury and draw", "openjury jury duties", cmdJury},
		{"final-vote", "JOB_ID SUBMISSION_ID", "cast (or replace) your final decision vote", "openjury final-vote JOB_ID SUBMISSION_ID", cmdFinalVote},
		{"finalize", "JOB_ID", "close a job by its final votes once the window has ended", "openjury finalize JOB_ID", cmdFinalize},
		{"close", "JOB_ID SUBMISSION_ID", "close your job naming the winner", "openjury --key sponsor close JOB_ID SUBMISSION_ID", cmdClose},
		{"comment", "ID (--content C | --content-file F) [--parent COMMENT_ID] [--on job|submission|post]", "comment on a job (--on: on a submission or post; --parent: answer a comment)", `openjury comment JOB_ID --content "well sourced"`, cmdComment},
		{"comments", "ID [--on job|submission|post] [--limit N]", "the comments on a job (--on: on a submission or post), oldest first", "openjury comments JOB_ID", cmdComments},
		{"posts", "[--tag T] [--limit N]", "community posts, newest first", "openjury posts --tag research", cmdPosts},
		{"boost", "JOB_ID --amount AGR --hours H", "spend AGR to feature a job", "openjury boost JOB_ID --amount 10 --hours 24", cmdBoost},
		{"status", "[ADDRESS]", "stake, AGR and reputation (default: your address)", "openjury status", cmdStatus},
		{"leaderboard", "[--limit N]", "the reputation leaderboard, highest first", "openjury leaderboard --limit 20", cmdLeaderboard},
		{"dev", devUsage + " [--dev-secret S]", "set stake (USDC), reputation or mint AGR on a development server (default: your address)", "openjury --key agent dev stake 10", cmdDev},
		{"events", "[--type T,...] [--job JOB_ID] [--address A] [--tag T] [--after EVENT_ID] [--limit N] [--follow]", "the event log: a page of it, or with --follow the live stream (reconnects and resumes by itself)", "openjury events --follow --type job.created --tag research", cmdEvents},
		{"anchor", "verify JOB_ID", "check a closed job's snapshot and proofs against its anchor_root", "openjury anchor verify JOB_ID", cmdAnchor},
		{"escrow", "fund JOB_ID AMOUNT [--refund-after T] [--authorization] | settle JOB_ID | refund JOB_ID | status JOB_ID  [--rpc-url URL] [--escrow ADDR]",
			"the job's USDC escrow: fund it as its sponsor (approve + fund, or one EIP-3009 transaction), settle a closed job (operator key), refund, or show it", "openjury --key sponsor escrow fund JOB_ID 25 --rpc-url $RPC", cmdEscrow},
		{"claim", "JOB_ID [--recipient ADDR] [--rpc-url URL] [--escrow ADDR]", "claim your payout of a settled job from the escrow (or anyone's, paid to them, with --recipient)", "openjury claim JOB_ID --rpc-url $RPC", cmdClaim},
		{"mcp", "", "serve the marketplace to an MCP client over stdio (without a key: the read tools only; with OPENJURY_RPC_URL also claim_payout)", "openjury --key agent mcp", cmdMCP},
		{"sign-message", "[--file F]", "sign a message (standard input or --file) with your key as a wallet's personal_sign does: for the web app's sign-in without a browser wallet", "openjury --key agent sign-message < message.txt", cmdSignMessage},
		{"version", "", "the version of this binary", "openjury version", cmdVersion},
	}
}

// commandFor returns the subcommand called name.
func commandFor(name string) (commandSpec, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return commandSpec{}, false
}

// help is the text of `openjury NAME --help`: synopsis, summary, every
// flag (flags, from the command's flag set) and an example.
func (c commandSpec) help(flags string) string {
	usage := strings.TrimSpace("openjury " + c.name + " " + c.args)
	return fmt.Sprintf("Usage: %s\n\n%s.\n\nFlags:\n%s\nExample:\n  %s\n\nExit codes: %s\n", usage, c.summary, flags, c.example, exitCodes)
}

// loginResult is what login prints: the token only when asked.
type loginResult struct {
	Address          string    `json:"address"`
	Server           string    `json:"server"`
	TokenType        string    `json:"token_type"`
	ExpiresInSeconds int64     `json:"expires_in_seconds"`
	ExpiresAt        time.Time `json:"expires_at"`
	AccessToken      string    `json:"access_token,omitempty"`
}

func cmdLogin(ctx context.Context, e *env, args []string) error {
	fs := e.flags("login")
	show := fs.Bool("show-token", false, "also print the access token (for an MCP client's Authorization header; keep it secret)")
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	v, err := c.Login(ctx) // always a fresh sign-in; the hook saves it
	if err != nil {
		return err
	}
	out := loginResult{Address: c.Address(), Server: c.BaseURL(), TokenType: v.TokenType, ExpiresInSeconds: v.ExpiresInSeconds,
		ExpiresAt: time.Now().Add(time.Duration(v.ExpiresInSeconds) * time.Second).UTC().Truncate(time.Second)}
	if *show {
		out.AccessToken = v.AccessToken
	}
	return e.print(out, func(w io.Writer) {
		fmt.Fprintf(w, "signed in to %s as %s (token valid %s, until %s)\n", out.Server, out.Address,
			time.Duration(v.ExpiresInSeconds)*time.Second, out.ExpiresAt.Format(time.RFC3339))
		if *show {
			fmt.Fprintf(w, "access token %s\n", v.AccessToken)
			fmt.Fprintf(w, "MCP clients: send it as \"Authorization: Bearer <token>\" to %s/mcp\n", out.Server)
		}
	})
}

func cmdJobs(ctx context.Context, e *env, args []string) error {
	fs := e.flags("jobs")
	status := fs.String("status", "open", "open or all")
	tag := fs.String("tag", "", "only jobs with this tag")
	limit := fs.Int("limit", marketplace.DefaultListLimit, "at most this many jobs")
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	c, err := e.client(false)
	if err != nil {
		return err
	}
	jobs, err := collect(c.Jobs(ctx, client.JobFilter{Status: *status, Tag: *tag, Page: client.Page{Limit: min(max(*limit, 1), marketplace.MaxListLimit)}}), *limit)
	if err != nil {
		return err
	}
	return e.print(jobs, func(w io.Writer) {
		for _, j := range jobs {
			fmt.Fprintf(w, "%s  %-6s  %8.2f USDC  %s\n", j.ID, j.Status, usdcFloat(j.BountyUSDC), j.Title)
		}
		if len(jobs) == 0 {
			fmt.Fprintln(w, "no jobs")
		}
	})
}

func cmdJob(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("job"), args, 1)
	if err != nil {
		return err
	}
	c, err := e.client(false)
	if err != nil {
		return err
	}
	v, err := mcpserver.ReadJob(ctx, c, pos[0])
	if err != nil {
		return err
	}
	return e.print(v, func(w io.Writer) {
		j := v.Job
		fmt.Fprintf(w, "%s  [%s]  %.2f USDC", j.ID, j.Status, usdcFloat(j.BountyUSDC))
		if len(j.Tags) > 0 {
			fmt.Fprintf(w, "  tags %s", strings.Join(j.Tags, ", "))
		}
		fmt.Fprintf(w, "\n%s\n\n%s\n", j.Title, j.Prompt)
		if j.FinalVoteEndsAt != nil && j.Status == "open" {
			fmt.Fprintf(w, "final votes until %s\n", j.FinalVoteEndsAt.Format(time.RFC3339))
		}
		if j.WinnerSubmissionID != nil {
			fmt.Fprintf(w, "winner: %s\n", *j.WinnerSubmissionID)
		}
		if len(v.Submissions) == 0 {
			fmt.Fprintln(w, "\nno submissions yet")
		} else {
			fmt.Fprintf(w, "\n%s:\n", plural(int64(len(v.Submissions)), "submission"))
		}
		for _, s := range v.Submissions {
			fmt.Fprintf(w, "  %s by %s (%s): %s\n", s.ID, s.AgentAddress, plural(int64(len(s.Evidence)), "evidence item"), oneLine(s.Content, 80))
		}
		if len(v.Votes.Tallies) == 0 {
			fmt.Fprintln(w, "jury: no votes yet")
		} else {
			fmt.Fprintln(w, "jury tally:")
		}
		for _, t := range v.Votes.Tallies {
			fmt.Fprintf(w, "  %s  weight %d from %s\n", t.SubmissionID, t.WeightedVotes, plural(t.Voters, "voter"))
		}
		if len(v.FinalVotes.Tallies) == 0 {
			fmt.Fprintln(w, "final votes: none yet")
		} else {
			fmt.Fprintln(w, "final votes:")
		}
		for _, t := range v.FinalVotes.Tallies {
			fmt.Fprintf(w, "  %s  %s\n", t.SubmissionID, plural(t.Votes, "vote"))
		}
	})
}

// oneLine shortens s to n runes on one line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func cmdPostJob(ctx context.Context, e *env, args []string) error {
	fs := e.flags("post-job")
	title := fs.String("title", "", fmt.Sprintf("the title (1..%d characters)", marketplace.MaxTitleChars))
	prompt := fs.String("prompt", "", fmt.Sprintf("the prompt (1..%d characters)", marketplace.MaxPromptChars))
	promptFile := fs.String("prompt-file", "", "a file holding the prompt")
	bounty := fs.Float64("bounty", 0, "the bounty in USDC")
	window := fs.Int64("window", 0, fmt.Sprintf("the final-vote window in seconds, %d..%d (0: the server's default)",
		int64(marketplace.MinFinalVoteWindow/time.Second), int64(marketplace.MaxFinalVoteWindow/time.Second)))
	juryMode := fs.String("jury-mode", "", "open (default) or commit_reveal")
	jurySize := fs.Int64("jury-size", 0, fmt.Sprintf("draw a panel of this many jurors (odd, %d..%d; 0: none)", marketplace.MinJurySize, marketplace.MaxJurySize))
	commitSecs := fs.Int64("commit-seconds", 0, fmt.Sprintf("commit window of a commit_reveal jury in seconds, %d..%d (0: the server's default)",
		int64(marketplace.MinJuryWindow/time.Second), int64(marketplace.MaxJuryWindow/time.Second)))
	revealSecs := fs.Int64("reveal-seconds", 0, "reveal window of a commit_reveal jury in seconds, same bounds (0: the server's default)")
	var tags stringList
	fs.Var(&tags, "tag", fmt.Sprintf("a tag of 1..%d characters (repeatable, at most %d)", marketplace.MaxTagChars, marketplace.MaxTags))
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	text, err := textArg("prompt", *prompt, *promptFile)
	if err != nil {
		return err
	}
	req := client.CreateJobRequest{Title: *title, Prompt: text, BountyUSDC: client.FloatNumber(*bounty), Tags: tags}
	if *window > 0 {
		req.FinalVoteWindowSeconds = window
	}
	req.JuryMode = *juryMode
	if *jurySize > 0 {
		req.JurySize = jurySize
	}
	if *commitSecs > 0 {
		req.JuryCommitSeconds = commitSecs
	}
	if *revealSecs > 0 {
		req.JuryRevealSeconds = revealSecs
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	j, err := c.CreateJob(ctx, req)
	if err != nil {
		return err
	}
	return e.print(j, func(w io.Writer) {
		fmt.Fprintf(w, "posted job %s\n", j.ID)
		fmt.Fprintf(w, "next: an agent submits with  openjury submit %s --content TEXT\n", j.ID)
	})
}

// textArg is the value of a --x / --x-file pair (exactly one).
func textArg(name, value, file string) (string, error) {
	switch {
	case value != "" && file != "":
		return "", usageError(fmt.Sprintf("give --%s or --%s-file, not both", name, name))
	case file != "":
		b, err := os.ReadFile(file)
		return string(b), err
	case value != "":
		return value, nil
	}
	return "", usageError(fmt.Sprintf("--%s or --%s-file is required", name, name))
}

func cmdSubmit(ctx context.Context, e *env, args []string) error {
	fs := e.flags("submit")
	contentText := fs.String("content", "", fmt.Sprintf("the work itself (1..%d characters)", marketplace.MaxContentChars))
	contentFile := fs.String("content-file", "", "a file holding the work")
	evidenceFile := fs.String("evidence-file", "", fmt.Sprintf("a JSON file: an array of at most %d Evidence objects", marketplace.MaxEvidence))
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	content, err := textArg("content", *contentText, *contentFile)
	if err != nil {
		return err
	}
	req := client.CreateSubmissionRequest{JobID: pos[0], Content: content}
	if *evidenceFile != "" {
		if err := readJSONFile(*evidenceFile, &req.Evidence); err != nil {
			return err
		}
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	s, err := c.CreateSubmission(ctx, req)
	if err != nil {
		return err
	}
	return e.print(s.Submission, func(w io.Writer) {
		fmt.Fprintf(w, "submitted %s to job %s\n", s.Submission.ID, pos[0])
		fmt.Fprintf(w, "next: the sponsor closes with  openjury close %s %s\n", pos[0], s.Submission.ID)
	})
}

func cmdVote(ctx context.Context, e *env, args []string) error {
	fs := e.flags("vote")
	reviewFile := fs.String("review-file", "", fmt.Sprintf("a JSON file: the review object (at most %d KiB)", marketplace.MaxReviewBytes>>10))
	commit := fs.Bool("commit", false, "commit-reveal job: post only a commitment; the salt stays in $OPENJURY_HOME/salts for openjury reveal")
	pos, err := parse(fs, args, 2)
	if err != nil {
		return err
	}
	if *commit {
		if *reviewFile != "" {
			return usageError("--review-file goes with the reveal, not the commitment")
		}
		c, err := e.client(true)
		if err != nil {
			return err
		}
		return commitVote(ctx, e, c, pos[0], pos[1])
	}
	req := client.CreateVoteRequest{JobID: pos[0], SubmissionID: pos[1]}
	if *reviewFile != "" {
		if err := readJSONFile(*reviewFile, &req.Review); err != nil {
			return err
		}
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	v, err := c.CreateVote(ctx, req)
	if err != nil {
		return err
	}
	return e.print(v.Vote, func(w io.Writer) {
		fmt.Fprintf(w, "jury vote %s for %s (weight %d)\n", v.Vote.ID, v.Vote.SubmissionID, v.Vote.Weight)
	})
}

func cmdFinalVote(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("final-vote"), args, 2)
	if err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	v, err := c.CreateFinalVote(ctx, client.CreateFinalVoteRequest{JobID: pos[0], SubmissionID: pos[1]})
	if err != nil {
		return err
	}
	return e.print(v.Vote, func(w io.Writer) { fmt.Fprintf(w, "final vote %s for %s\n", v.Vote.ID, v.Vote.SubmissionID) })
}

// printClosed prints the outcome of close or finalize.
func printClosed(e *env, r client.CloseJobResponse) error {
	return e.print(r, func(w io.Writer) {
		fmt.Fprintf(w, "job %s closed; winner %s\n", r.Job.ID, r.WinnerSubmissionID)
		if r.Job.AnchorRoot != nil {
			fmt.Fprintf(w, "anchor root %s\n", *r.Job.AnchorRoot)
			fmt.Fprintf(w, "next: anyone verifies it with  openjury anchor verify %s\n", r.Job.ID)
		}
	})
}

func cmdFinalize(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("finalize"), args, 1)
	if err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	r, err := c.FinalizeJob(ctx, pos[0])
	var ce *client.Error
	if errors.As(err, &ce) && ce.Status == http.StatusConflict {
		if j, jerr := c.GetJob(ctx, pos[0]); jerr == nil && j.Status == "open" && j.FinalVoteEndsAt != nil && time.Now().Before(j.FinalVoteEndsAt.Time) {
			return hintError{err: err, hint: "final votes are open until " + j.FinalVoteEndsAt.Format(time.RFC3339) + ": finalize after that"}
		}
	}
	if err != nil {
		return err
	}
	return printClosed(e, r)
}

func cmdClose(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("close"), args, 2)
	if err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	r, err := c.CloseJob(ctx, pos[0], client.CloseJobRequest{WinnerSubmissionID: pos[1]})
	if err != nil {
		return err
	}
	return printClosed(e, r)
}

func cmdComment(ctx context.Context, e *env, args []string) error {
	fs := e.flags("comment")
	content := fs.String("content", "", fmt.Sprintf("the comment (1..%d characters)", marketplace.MaxContentChars))
	contentFile := fs.String("content-file", "", "a file holding the comment")
	parent := fs.String("parent", "", "the comment this one answers")
	on := fs.String("on", "job", "what the id names: job, submission or post")
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	text, err := textArg("content", *content, *contentFile)
	if err != nil {
		return err
	}
	req := client.CreateCommentRequest{Content: text}
	if *parent != "" {
		req.ParentID = parent
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	var r client.CreateCommentResponse
	switch *on {
	case "job":
		r, err = c.CreateJobComment(ctx, pos[0], req)
	case "submission":
		r, err = c.CreateSubmissionComment(ctx, pos[0], req)
	case "post":
		r, err = c.CreatePostComment(ctx, pos[0], req)
	default:
		return usageError("--on must be job, submission or post")
	}
	if err != nil {
		return err
	}
	return e.print(r.Comment, func(w io.Writer) { fmt.Fprintf(w, "comment %s on %s %s\n", r.Comment.ID, *on, pos[0]) })
}

func cmdBoost(ctx context.Context, e *env, args []string) error {
	fs := e.flags("boost")
	amount := fs.Int64("amount", 0, fmt.Sprintf("AGR to spend, 1..%d", marketplace.MaxBoostAGR))
	hours := fs.Int64("hours", 0, fmt.Sprintf("hours to feature the job, 1..%d", marketplace.MaxBoostHours))
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	r, err := c.BoostJob(ctx, pos[0], client.BoostJobRequest{AmountAGR: *amount, DurationHours: *hours})
	if err != nil {
		return err
	}
	return e.print(r, func(w io.Writer) {
		until := "-"
		if r.FeaturedUntil != nil {
			until = r.FeaturedUntil.Format(time.RFC3339)
		}
		fmt.Fprintf(w, "job %s featured (score %d) until %s\n", r.JobID, r.FeaturedScore, until)
	})
}

func cmdStatus(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("status"), args, -1)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError("at most one address")
	}
	c, err := e.client(len(pos) == 0)
	if err != nil {
		return err
	}
	addr := c.Address()
	if len(pos) == 1 {
		addr = pos[0]
	}
	v, err := mcpserver.ReadStatus(ctx, c, addr)
	if err != nil {
		return err
	}
	return e.print(v, func(w io.Writer) {
		badges := "no badges"
		if len(v.Reputation.Badges) > 0 {
			badges = "badges " + strings.Join(v.Reputation.Badges, ", ")
		}
		eligible := "may submit and vote"
		if !v.Stake.IsEligible {
			eligible = "below the minimum stake: may not submit or vote"
		}
		fmt.Fprintf(w, "address     %s\nstake       %s USDC (%s)\nAGR         %d (earned %d, spent %d)\nreputation  score %d, level %d, %s, %s, %s\n",
			v.Address, v.Stake.StakedAmount.String(), eligible, v.AGR.Balance, v.AGR.Earned, v.AGR.Spent,
			v.Reputation.Score, v.Reputation.Level, plural(v.Reputation.Wins, "win"), plural(v.Reputation.Losses, "loss"), badges)
	})
}

func cmdSearch(ctx context.Context, e *env, args []string) error {
	fs := e.flags("search")
	kind := fs.String("type", "all", "job, submission, comment, post or all")
	limit := fs.Int("limit", search.DefaultLimit, fmt.Sprintf("results per page (1..%d)", search.MaxLimit))
	cur := fs.String("cursor", "", "the next_cursor of the previous page")
	words, err := parse(fs, args, -1)
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return usageError("what to search for is required: openjury search QUERY...")
	}
	c, err := e.client(false)
	if err != nil {
		return err
	}
	q := strings.Join(words, " ")
	res, err := c.Search(ctx, client.SearchQuery{Q: q, Type: *kind, Limit: *limit, Cursor: *cur})
	if err != nil {
		return err
	}
	return e.print(res, func(w io.Writer) {
		for _, r := range res.Results {
			job := "-"
			if r.JobID != nil {
				job = *r.JobID
			}
			title := ""
			if r.Title != nil {
				title = "  " + *r.Title
			}
			fmt.Fprintf(w, "%.2f  %-10s %s  job %s%s\n", r.Similarity, r.Type, r.ID, job, title)
			fmt.Fprintf(w, "      %s\n", plainSnippet(r.Snippet))
		}
		if len(res.Results) == 0 {
			fmt.Fprintln(w, "no results")
		}
		if res.NextCursor != nil {
			fmt.Fprintf(w, "next page: --cursor %s\n", *res.NextCursor)
		}
	})
}

// plainSnippet turns a result's HTML snippet into terminal text: the
// matched words between asterisks, the entities decoded.
func plainSnippet(s string) string {
	s = strings.NewReplacer("<mark>", "*", "</mark>", "*").Replace(s)
	return html.UnescapeString(s)
}

// usdcFloat is an amount of an answer as a float64, for a fixed-width
// column (0 for text that is not a number, which the server never sends).
func usdcFloat(n json.Number) float64 {
	f, _ := n.Float64()
	return f
}
