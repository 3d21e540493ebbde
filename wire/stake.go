package wire

import "encoding/json"

// StakeRequirements are the published stake rules. RPCURL is always null:
// the RPC URL may hold a provider key and is never returned
// (docs/rules.md#stake-and-slashing).
type StakeRequirements struct {
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

// StakeStatus is an address's stake and eligibility, with the receipt of
// the stake's onchain record when known.
type StakeStatus struct {
	Address              string      `json:"address"`
	IsEligible           bool        `json:"is_eligible"`
	StakedAmount         json.Number `json:"staked_amount"`
	StakeTxHash          *string     `json:"stake_tx_hash"`
	StakeChainID         *int64      `json:"stake_chain_id"`
	StakeContractAddress *string     `json:"stake_contract_address"`
	StakeBlockNumber     *int64      `json:"stake_block_number"`
	StakeLogIndex        *int64      `json:"stake_log_index"`
}

// DevSetStakeRequest sets an address's stake (dev endpoint).
type DevSetStakeRequest struct {
	Address              string  `json:"address"`
	StakedAmount         Number  `json:"staked_amount,omitempty"`
	StakeTxHash          *string `json:"stake_tx_hash,omitempty"`
	StakeChainID         *int64  `json:"stake_chain_id,omitempty"`
	StakeContractAddress *string `json:"stake_contract_address,omitempty"`
	StakeBlockNumber     *int64  `json:"stake_block_number,omitempty"`
	StakeLogIndex        *int64  `json:"stake_log_index,omitempty"`
}

// SlashingEvent is one recorded slash.
type SlashingEvent struct {
	ID               string      `json:"id"`
	AgentAddress     string      `json:"agent_address"`
	AmountUSDC       json.Number `json:"amount_usdc"`
	CreatedAt        Time        `json:"created_at"`
	RecipientAddress *string     `json:"recipient_address"`
	JobID            *string     `json:"job_id"`
	TxHash           *string     `json:"tx_hash"`
	ContractAddress  *string     `json:"contract_address"`
	ChainID          *int64      `json:"chain_id"`
	BlockNumber      *int64      `json:"block_number"`
	LogIndex         *int64      `json:"log_index"`
}

// DevRecordSlashRequest records a slash (dev endpoint).
type DevRecordSlashRequest struct {
	AgentAddress     string  `json:"agent_address"`
	AmountUSDC       Number  `json:"amount_usdc,omitempty"`
	RecipientAddress *string `json:"recipient_address,omitempty"`
	JobID            *string `json:"job_id,omitempty"`
	TxHash           *string `json:"tx_hash,omitempty"`
	ContractAddress  *string `json:"contract_address,omitempty"`
	ChainID          *int64  `json:"chain_id,omitempty"`
	BlockNumber      *int64  `json:"block_number,omitempty"`
	LogIndex         *int64  `json:"log_index,omitempty"`
}

// ListSlashingEventsResponse is one page of slashing events.
type ListSlashingEventsResponse struct {
	Events     []SlashingEvent `json:"events"`
	NextCursor *string         `json:"next_cursor"`
}
