package transport

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *server) juryRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/jobs/{job_id}/jury", op: "getJobJury", service: "job_jury", cached: true, h: s.getJury},
		{pattern: "GET /api/v1/jobs/{job_id}/jury/eligible", op: "listJuryEligible", service: "jury_eligible", h: s.listJuryEligible},
		{pattern: "GET /api/v1/jury/duties", op: "listJuryDuties", service: "jury_duties", h: s.listJuryDuties},
	}
}

// juryDrawJSON is JuryDraw: the inputs of a panel's draw, for anyone to
// re-derive it.
type juryDrawJSON struct {
	Status               string       `json:"status"`
	Algorithm            string       `json:"algorithm"`
	AlgorithmDescription string       `json:"algorithm_description"`
	Seed                 *string      `json:"seed"`
	SeedSource           string       `json:"seed_source"`
	SeedBlock            *int64       `json:"seed_block"`
	EligibleVersion      int64        `json:"eligible_version"`
	EligibleCount        *int64       `json:"eligible_count"`
	EligibleStakeUSDC    *json.Number `json:"eligible_stake_usdc"`
	EligibleSetHash      *string      `json:"eligible_set_hash"`
	EligibleSetURL       string       `json:"eligible_set_url"`
	DrawnAt              *string      `json:"drawn_at"`
}

// panelMemberJSON is JuryPanelMember.
type panelMemberJSON struct {
	Address   string      `json:"address"`
	StakeUSDC json.Number `json:"stake_usdc"`
	Committed bool        `json:"committed"`
	Revealed  bool        `json:"revealed"`
}

// juryJSON is JobJury.
type juryJSON struct {
	JobID            string            `json:"job_id"`
	JuryMode         string            `json:"jury_mode"`
	JurySize         *int64            `json:"jury_size"`
	JuryCommitEndsAt *string           `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *string           `json:"jury_reveal_ends_at"`
	Commitments      *int64            `json:"commitments"`
	Draw             *juryDrawJSON     `json:"draw"`
	Panel            []panelMemberJSON `json:"panel"`
}

func (s *server) getJury(w http.ResponseWriter, r *http.Request) error {
	jury, err := s.svc.Market.Jury(r.Context(), r.PathValue("job_id"))
	if err != nil {
		return err
	}
	j := jury.Job
	out := juryJSON{
		JobID: j.ID, JuryMode: j.JuryMode.Name(), JurySize: optSize(j.JurySize),
		JuryCommitEndsAt: optTimePtr(j.JuryCommitEndsAt), JuryRevealEndsAt: optTimePtr(j.JuryRevealEndsAt),
		Panel: mapEach(jury.Panel, func(m marketplace.PanelMember) panelMemberJSON {
			return panelMemberJSON{Address: m.Address.String(), StakeUSDC: usdcJSON(m.Stake), Committed: m.Committed, Revealed: m.Revealed}
		}),
	}
	if j.JuryMode == marketplace.JuryCommitReveal {
		out.Commitments = &jury.Commitments
	}
	if d := jury.Draw; d != nil {
		dj := &juryDrawJSON{
			Status: "pending", Algorithm: marketplace.DrawAlgorithm, AlgorithmDescription: marketplace.DrawAlgorithmText,
			SeedSource: d.SeedSource, EligibleVersion: d.Version,
			EligibleSetURL: s.opts.BaseURL + "/api/v1/jobs/" + j.ID + "/jury/eligible",
		}
		if d.SeedBlock > 0 {
			dj.SeedBlock = &d.SeedBlock
		}
		if d.Drawn() {
			stake := usdcJSON(d.EligibleStake)
			dj.Status, dj.Seed, dj.DrawnAt = "drawn", optString(d.Seed.String()), optTimePtr(d.DrawnAt)
			dj.EligibleCount, dj.EligibleStakeUSDC, dj.EligibleSetHash = &d.EligibleCount, &stake, optString(d.EligibleHash.String())
		}
		out.Draw = dj
	}
	return respond(w, out)
}

// eligibleJurorJSON is JuryEligibleJuror.
type eligibleJurorJSON struct {
	Address        string      `json:"address"`
	StakeUSDC      json.Number `json:"stake_usdc"`
	StakeMicroUSDC string      `json:"stake_micro_usdc"`
}

// juryEligibleJSON is ListJuryEligibleResponse.
type juryEligibleJSON struct {
	JobID           string              `json:"job_id"`
	EligibleVersion int64               `json:"eligible_version"`
	Jurors          []eligibleJurorJSON `json:"jurors"`
	NextCursor      *string             `json:"next_cursor"`
}

func (s *server) listJuryEligible(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", marketplace.DefaultEligibleLimit, 1, marketplace.MaxEligibleLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Market.EligibleSet(r.Context(), r.PathValue("job_id"), marketplace.ListInput{Limit: limit, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		return err
	}
	return respond(w, juryEligibleJSON{
		JobID: page.Draw.JobID, EligibleVersion: page.Draw.Version, NextCursor: optString(page.NextCursor),
		Jurors: mapEach(page.Jurors, func(j marketplace.Juror) eligibleJurorJSON {
			return eligibleJurorJSON{Address: j.Address.String(), StakeUSDC: usdcJSON(j.Stake), StakeMicroUSDC: strconv.FormatInt(int64(j.Stake), 10)}
		}),
	})
}

// dutyJSON is JuryDuty.
type dutyJSON struct {
	JobID            string  `json:"job_id"`
	Title            string  `json:"title"`
	JuryMode         string  `json:"jury_mode"`
	JuryCommitEndsAt *string `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *string `json:"jury_reveal_ends_at"`
	FinalVoteEndsAt  *string `json:"final_vote_ends_at"`
	Committed        bool    `json:"committed"`
	Revealed         bool    `json:"revealed"`
	NextAction       string  `json:"next_action"`
}

// dutiesJSON is ListJuryDutiesResponse.
type dutiesJSON struct {
	Address    string     `json:"address"`
	Duties     []dutyJSON `json:"duties"`
	NextCursor *string    `json:"next_cursor"`
}

func (s *server) listJuryDuties(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", marketplace.DefaultDutiesLimit, 1, marketplace.MaxDutiesLimit)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if !q.Has("address") {
		return required("address")
	}
	page, err := s.svc.Market.Duties(r.Context(), q.Get("address"), marketplace.ListInput{Limit: limit, Cursor: q.Get("cursor")})
	if err != nil {
		return err
	}
	addr, _ := openjury.ParseAddress("address", q.Get("address")) // Duties checked it
	now := openjury.Truncate(s.clock.Now())
	return respond(w, dutiesJSON{Address: addr.String(), NextCursor: optString(page.NextCursor),
		Duties: mapEach(page.Duties, func(d marketplace.Duty) dutyJSON {
			return dutyJSON{
				JobID: d.Job.ID, Title: d.Job.Title, JuryMode: d.Job.JuryMode.Name(),
				JuryCommitEndsAt: optTimePtr(d.Job.JuryCommitEndsAt), JuryRevealEndsAt: optTimePtr(d.Job.JuryRevealEndsAt),
				FinalVoteEndsAt: optTime(d.Job.FinalVoteEndsAt), Committed: d.Member.Committed, Revealed: d.Member.Revealed,
				NextAction: d.NextAction(now),
			}
		})})
}
