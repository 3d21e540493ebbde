package transport

import (
	"net/http"
	"time"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

func (s *server) closingRoutes() []route {
	return []route{
		{pattern: "POST /api/v1/jobs/{job_id}/close", op: "closeJob", service: "close_job", auth: authBearer, count: countSponsorClose, h: s.closeJob},
		{pattern: "POST /api/v1/jobs/{job_id}/finalize", op: "finalizeJob", service: "finalize_job", auth: authBearer, count: countFinalize, h: s.finalizeJob},
	}
}

// closeWriteTimeout is how long a close or finalize may take to answer:
// the build of a large job's snapshot outlasts the server's usual write
// timeout, and its answer must still reach the caller.
const closeWriteTimeout = 15 * time.Minute

// allowLongWrite moves the connection's write deadline to d from now (a
// no-op where the writer has none, as in tests).
func allowLongWrite(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
}

func (s *server) newCloseJobResponse(res *marketplace.CloseResult) wire.CloseJobResponse {
	return wire.CloseJobResponse{
		Job:                s.jobJSON(res.Job),
		WinnerSubmissionID: res.WinnerSubmissionID,
		VotingSummary:      newVotingSummaryJSON(res.Job.ID, res.Tally),
	}
}

func (s *server) closeJob(w http.ResponseWriter, r *http.Request) error {
	var req wire.CloseJobRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("winner_submission_id"); err != nil {
		return err
	}
	ref, err := chainRefFields{
		TxHash: req.CloseTxHash, ChainID: req.CloseChainID, Contract: req.CloseContractAddress,
		BlockNumber: req.CloseBlockNumber, LogIndex: req.CloseLogIndex,
	}.parse("close_")
	if err != nil {
		return err
	}
	allowLongWrite(w, closeWriteTimeout)
	res, err := s.svc.Market.CloseJob(r.Context(), callerFrom(r.Context()).addr, r.PathValue("job_id"), marketplace.CloseInput{
		WinnerSubmissionID: req.WinnerSubmissionID,
		Ref:                ref,
	})
	if err != nil {
		return err
	}
	return respond(w, s.newCloseJobResponse(res))
}

// finalizeJob takes no body; one sent anyway is ignored, unread.
func (s *server) finalizeJob(w http.ResponseWriter, r *http.Request) error {
	allowLongWrite(w, closeWriteTimeout)
	res, err := s.svc.Market.FinalizeJob(r.Context(), callerFrom(r.Context()).addr, r.PathValue("job_id"))
	if err != nil {
		return err
	}
	return respond(w, s.newCloseJobResponse(res))
}
