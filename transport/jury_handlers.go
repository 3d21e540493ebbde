package transport

import (
	"net/http"
	"strconv"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

func (s *server) juryRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/jobs/{job_id}/jury", op: "getJobJury", service: "job_jury", cached: true, h: s.getJury},
		{pattern: "GET /api/v1/jobs/{job_id}/jury/eligible", op: "listJuryEligible", service: "jury_eligible", h: s.listJuryEligible},
		{pattern: "GET /api/v1/jury/duties", op: "listJuryDuties", service: "jury_duties", h: s.listJuryDuties},
	}
}

func (s *server) getJury(w http.ResponseWriter, r *http.Request) error {
	jury, err := s.svc.Market.Jury(r.Context(), r.PathValue("job_id"))
	if err != nil {
		return err
	}
	j := jury.Job
	out := wire.JobJury{
		JobID: j.ID, JuryMode: j.JuryMode.Name(), JurySize: optSize(j.JurySize),
		JuryCommitEndsAt: optTimePtr(j.JuryCommitEndsAt), JuryRevealEndsAt: optTimePtr(j.JuryRevealEndsAt),
		Panel: mapEach(jury.Panel, func(m marketplace.PanelMember) wire.JuryPanelMember {
			return wire.JuryPanelMember{Address: m.Address.String(), StakeUSDC: usdcJSON(m.Stake), Committed: m.Committed, Revealed: m.Revealed}
		}),
	}
	if j.JuryMode == marketplace.JuryCommitReveal {
		out.Commitments = &jury.Commitments
	}
	if d := jury.Draw; d != nil {
		dj := &wire.JuryDraw{
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

func (s *server) listJuryEligible(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", marketplace.DefaultEligibleLimit, 1, marketplace.MaxEligibleLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Market.EligibleSet(r.Context(), r.PathValue("job_id"), marketplace.ListInput{Limit: limit, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		return err
	}
	return respond(w, wire.ListJuryEligibleResponse{
		JobID: page.Draw.JobID, EligibleVersion: page.Draw.Version, NextCursor: optString(page.NextCursor),
		Jurors: mapEach(page.Jurors, func(j marketplace.Juror) wire.JuryEligibleJuror {
			return wire.JuryEligibleJuror{Address: j.Address.String(), StakeUSDC: usdcJSON(j.Stake), StakeMicroUSDC: strconv.FormatInt(int64(j.Stake), 10)}
		}),
	})
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
	return respond(w, wire.ListJuryDutiesResponse{Address: addr.String(), NextCursor: optString(page.NextCursor),
		Duties: mapEach(page.Duties, func(d marketplace.Duty) wire.JuryDuty {
			return wire.JuryDuty{
				JobID: d.Job.ID, Title: d.Job.Title, JuryMode: d.Job.JuryMode.Name(),
				JuryCommitEndsAt: optTimePtr(d.Job.JuryCommitEndsAt), JuryRevealEndsAt: optTimePtr(d.Job.JuryRevealEndsAt),
				FinalVoteEndsAt: optTime(d.Job.FinalVoteEndsAt), Committed: d.Member.Committed, Revealed: d.Member.Revealed,
				NextAction: d.NextAction(now),
			}
		})})
}
