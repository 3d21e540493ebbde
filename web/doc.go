// Package web is the companion web app for people: server-rendered
// html/template pages over the same domain services as the JSON API (never
// HTTP to itself), with templates, CSS and JavaScript embedded so that
// `go run ./host` needs no build step. Every page and every action works
// without JavaScript except signing in with a browser wallet.
//
// Pages: the job list (open, closed or all; tag; semantic search; a
// funded job's badge; pages both ways), a job (summary with its escrow,
// prompt, its jury's panel and windows, both tallies naming submissions
// by their first line and author (the jury's hidden until a commit-reveal
// job's reveal window ends), submissions with evidence and their first
// comments, a funded closed job's payouts with a claim button, the
// threaded discussion, the viewer's forms), a submission's whole
// discussion, the search of every kind with highlighted snippets, posts,
// profiles (reputation, badges, stake, AGR and its ledger, the address's
// jobs, submissions, jury and final votes), the leaderboard and sign-in
// (docs/interface.md#the-companion-web-app).
//
// Sign-in, two ways, both on /signin. A browser wallet found through
// EIP-6963 (the page lists every wallet that announces itself, or
// window.ethereum) signs the API's sign-in message and the script hands
// the bearer token to POST /app/session, which keeps it in an HttpOnly,
// SameSite=Strict cookie. Without a browser wallet, the page shows the
// message for an address (POST /app/signin/message), the person signs it
// with any tool and pastes the signature (POST /app/signin/verify); those
// two forms are bound to the browser by a SameSite=Strict cookie and a
// token derived from it, and spend the server's shared sign-in budget.
//
// The signed-in actions are HTML form posts under /app/ carrying a CSRF
// token bound to the session: post a job, submit work with evidence, jury
// votes (on a commit-reveal job: a commitment the page computes from the
// choice and a random salt it keeps in localStorage, then the reveal it
// fills from them), final votes, close (after a confirmation page), finalize, boost,
// comment, reply, delete one's comment (after a confirmation page), write
// a post, sign out. A refusal is shown on the form's own page, in words,
// next to the field it concerns, with what was typed kept, answering the
// refusal's status.
//
// Serve the handler as transport.Options.App, as the host does: the app then
// shares the API's per-IP rate limit, each signed-in action spends the
// caller's per-address budget (transport.LimitAddress), the sign-in forms
// the shared sign-in budget (transport.LimitSignIn), and its actions feed
// the API's domain counters (transport.CountEvent). Served on its own, the
// app is not rate limited or counted.
package web
