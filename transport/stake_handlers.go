package transport

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/stake"
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

// stakeRequirementsJSON is StakeRequirements. rpc_url is always null: the
// RPC URL may hold a provider key and is never returned
// (docs/rules.md#stake-and-slashing).
type stakeRequirementsJSON struct {
	Network              string      `json:"network"`
	ChainID              int64       `json:"chain_id"`
	SettlementAsset      string      `json:"settlement_asset"`
	USDCAddress          *string     `json:"usdc_address"`
	MinStake             json.Number `json:"min_stake"`
	SlashingPolicy       string      `json:"slashing_policy"`
	OnchainStakeEnabled  bool        `json:"onchain_stake_enabled"`
	RPCURL               *string     `json:"rpc_url"`
	StakeContractAddress *string     `json:"stake_contract_address"`
}

func newStakeRequirementsJSON(c stake.Config) stakeRequirementsJSON {
	return stakeRequirementsJSON{
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

// stakeStatusJSON is StakeStatus.
type stakeStatusJSON struct {
	Address              string      `json:"address"`
	IsEligible           bool        `json:"is_eligible"`
	StakedAmount         json.Number `json:"staked_amount"`
	StakeTxHash          *string     `json:"stake_tx_hash"`
	StakeChainID         *int64      `json:"stake_chain_id"`
	StakeContractAddress *string     `json:"stake_contract_address"`
	StakeBlockNumber     *int64      `json:"stake_block_number"`
	StakeLogIndex        *int64      `json:"stake_log_index"`
}

func newStakeStatusJSON(st stake.Status) stakeStatusJSON {
	ref := newChainRefFields(st.Ref)
	return stakeStatusJSON{
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

// devSetStakeRequest is the body of POST /api/v1/stake/dev_set.
type devSetStakeRequest struct {
	Address              *string `json:"address"`
	StakedAmount         *number `json:"staked_amount"`
	StakeTxHash          *string `json:"stake_tx_hash"`
	StakeChainID         *int64  `json:"stake_chain_id"`
	StakeContractAddress *string `json:"stake_contract_address"`
	StakeBlockNumber     *int64  `json:"stake_block_number"`
	StakeLogIndex        *int64  `json:"stake_log_index"`
}

// slashingEventJSON is SlashingEvent.
type slashingEventJSON struct {
	ID               string      `json:"id"`
	AgentAddress     string      `json:"agent_address"`
	AmountUSDC       json.Number `json:"amount_usdc"`
	CreatedAt        string      `json:"created_at"`
	RecipientAddress *string     `json:"recipient_address"`
	JobID            *string     `json:"job_id"`
	TxHash           *string     `json:"tx_hash"`
	ContractAddress  *string     `json:"contract_address"`
	ChainID          *int64      `json:"chain_id"`
	BlockNumber      *int64      `json:"block_number"`
	LogIndex         *int64      `json:"log_index"`
}

func newSlashingEventJSON(e stake.SlashEvent) slashingEventJSON {
	ref := newChainRefFields(e.Ref)
	return slashingEventJSON{
		ID:               e.ID,
		AgentAddress:     e.Agent.String(),
		AmountUSDC:       usdcJSON(e.Amount),
		CreatedAt:        openjury.FormatTime(e.CreatedAt),
		RecipientAddress: optAddress(e.Recipient),
		JobID:            optString(e.JobID),
		TxHash:           ref.TxHash,
		ContractAddress:  ref.Contract,
		ChainID:          ref.ChainID,
		BlockNumber:      ref.BlockNumber,
		LogIndex:         ref.LogIndex,
	}
}

// devRecordSlashRequest is DevRecordSlashRequest.
type devRecordSlashRequest struct {
	AgentAddress     *string `json:"agent_address"`
	AmountUSDC       *number `json:"amount_usdc"`
	RecipientAddress *string `json:"recipient_address"`
	JobID            *string `json:"job_id"`
	TxHash           *string `json:"tx_hash"`
	ContractAddress  *string `json:"contract_address"`
	ChainID          *int64  `json:"chain_id"`
	BlockNumber      *int64  `json:"block_number"`
	LogIndex         *int64  `json:"log_index"`
}

// listSlashingEventsResponse is ListSlashingEventsResponse plus the cursor
// of the next page.
type listSlashingEventsResponse struct {
	Events     []slashingEventJSON `json:"events"`
	NextCursor *string             `json:"next_cursor"`
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
	var req devSetStakeRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	switch {
	case req.Address == nil:
		return required("address")
	case req.StakedAmount == nil:
		return required("staked_amount")
	}
	addr, err := parseAddress("address", *req.Address)
	if err != nil {
		return err
	}
	amount, err := openjury.ParseUSDC("staked_amount", string(*req.StakedAmount))
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
	var req devRecordSlashRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	switch {
	case req.AgentAddress == nil:
		return required("agent_address")
	case req.AmountUSDC == nil:
		return required("amount_usdc")
	}
	in := stake.SlashInput{}
	var err error
	if in.Agent, err = parseAddress("agent_address", *req.AgentAddress); err != nil {
		return err
	}
	if in.Amount, err = openjury.ParseUSDC("amount_usdc", string(*req.AmountUSDC)); err != nil {
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
	return respond(w, listSlashingEventsResponse{Events: mapEach(page.Events, newSlashingEventJSON), NextCursor: optString(page.NextCursor)})
}
