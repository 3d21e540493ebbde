package transport

import (
	"net/http"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/wire"
)

// settlementAsset is the asset of bounties and stakes.
const settlementAsset = "USDC"

func (s *server) stakeRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/stake/requirements", op: "getStakeRequirements", service: "stake_requirements", h: s.stakeRequirements},
		{pattern: "GET /api/v1/stake/status", op: "getStakeStatus", service: "stake_status", h: s.stakeStatus},
		{pattern: "POST /api/v1/stake/dev_set", op: "devSetStake", auth: authDev, h: s.stakeDevSet},
		{pattern: "GET /api/v1/slashing/events", op: "listSlashingEvents", service: "slashing_events", h: s.slashingEvents},
		{pattern: "POST /api/v1/slashing/dev_record", op: "devRecordSlash", auth: authDev, h: s.slashingDevRecord},
	}
}

func newStakeRequirementsJSON(c stake.Config) wire.StakeRequirements {
	return wire.StakeRequirements{
		Network:              c.Network,
		ChainID:              c.ChainID,
		SettlementAsset:      settlementAsset,
		USDCAddress:          optAddress(c.USDCAddress),
		MinStake:             usdcJSON(c.MinStake),
		SlashingPolicy:       c.SlashingPolicy,
		OnchainStakeEnabled:  c.OnchainEnabled,
		RPCURL:               nil,
		StakeContractAddress: optAddress(c.StakeContract),
	}
}

func newStakeStatusJSON(st stake.Status) wire.StakeStatus {
	ref := newChainRefFields(st.Ref)
	return wire.StakeStatus{
		Address:              st.Address.String(),
		IsEligible:           st.Eligible,
		StakedAmount:         usdcJSON(st.Staked),
		StakeTxHash:          ref.TxHash,
		StakeChainID:         ref.ChainID,
		StakeContractAddress: ref.Contract,
		StakeBlockNumber:     ref.BlockNumber,
		StakeLogIndex:        ref.LogIndex,
	}
}

func newSlashingEventJSON(e stake.SlashEvent) wire.SlashingEvent {
	ref := newChainRefFields(e.Ref)
	return wire.SlashingEvent{
		ID:               e.ID,
		AgentAddress:     e.Agent.String(),
		AmountUSDC:       usdcJSON(e.Amount),
		CreatedAt:        wire.NewTime(e.CreatedAt),
		RecipientAddress: optAddress(e.Recipient),
		JobID:            optString(e.JobID),
		TxHash:           ref.TxHash,
		ContractAddress:  ref.Contract,
		ChainID:          ref.ChainID,
		BlockNumber:      ref.BlockNumber,
		LogIndex:         ref.LogIndex,
	}
}

func (s *server) stakeRequirements(w http.ResponseWriter, r *http.Request) error {
	return respond(w, newStakeRequirementsJSON(s.svc.Stake.Requirements()))
}

func (s *server) stakeStatus(w http.ResponseWriter, r *http.Request) error {
	addr, err := queryRequired(r, "address")
	if err != nil {
		return err
	}
	st, err := s.svc.Stake.Status(r.Context(), addr)
	if err != nil {
		return err
	}
	return respond(w, newStakeStatusJSON(st))
}

func (s *server) stakeDevSet(w http.ResponseWriter, r *http.Request) error {
	var req wire.DevSetStakeRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("address", "staked_amount"); err != nil {
		return err
	}
	addr, err := parseAddress("address", req.Address)
	if err != nil {
		return err
	}
	amount, err := openjury.ParseUSDC("staked_amount", string(req.StakedAmount))
	if err != nil {
		return err
	}
	ref, err := chainRefFields{
		TxHash: req.StakeTxHash, ChainID: req.StakeChainID, Contract: req.StakeContractAddress,
		BlockNumber: req.StakeBlockNumber, LogIndex: req.StakeLogIndex,
	}.parse("stake_")
	if err != nil {
		return err
	}
	st, err := s.svc.Stake.DevSet(r.Context(), stake.SetInput{Address: addr, Staked: amount, Ref: ref})
	if err != nil {
		return err
	}
	return respond(w, newStakeStatusJSON(st))
}

func (s *server) slashingDevRecord(w http.ResponseWriter, r *http.Request) error {
	var req wire.DevRecordSlashRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("agent_address", "amount_usdc"); err != nil {
		return err
	}
	in := stake.SlashInput{}
	if in.Agent, err = parseAddress("agent_address", req.AgentAddress); err != nil {
		return err
	}
	if in.Amount, err = openjury.ParseUSDC("amount_usdc", string(req.AmountUSDC)); err != nil {
		return err
	}
	if req.RecipientAddress != nil {
		if in.Recipient, err = parseAddress("recipient_address", *req.RecipientAddress); err != nil {
			return err
		}
	}
	if req.JobID != nil {
		in.JobID = strings.TrimSpace(*req.JobID)
		if in.JobID == "" {
			return openjury.E(openjury.Invalid, opDecode, "job_id: must be an id")
		}
	}
	in.Ref, err = chainRefFields{
		TxHash: req.TxHash, ChainID: req.ChainID, Contract: req.ContractAddress,
		BlockNumber: req.BlockNumber, LogIndex: req.LogIndex,
	}.parse("")
	if err != nil {
		return err
	}
	e, err := s.svc.Stake.DevRecordSlash(r.Context(), in)
	if err != nil {
		return err
	}
	return respond(w, newSlashingEventJSON(e))
}

func (s *server) slashingEvents(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	limit, err := queryInt(r, "limit", stake.DefaultListLimit, 1, stake.MaxListLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Stake.Slashes(r.Context(), stake.ListInput{
		Address: q.Get("address"),
		JobID:   q.Get("job_id"),
		Limit:   limit,
		Cursor:  q.Get("cursor"),
	})
	if err != nil {
		return err
	}
	return respond(w, wire.ListSlashingEventsResponse{Events: mapEach(page.Events, newSlashingEventJSON), NextCursor: optString(page.NextCursor)})
}
