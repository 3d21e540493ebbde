package stake

import (
	"encoding/json"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

// ChangedEvent is the stake.changed event of a stake written at
// st.UpdatedAt (docs/rules.md#events): it concerns the staker. A Store
// appends it with every stake it writes.
func ChangedEvent(st Stake) *events.Event {
	d := events.Data{"address": st.Address.String(), "staked_amount": usdc(st.Staked), "updated_at": openjury.FormatTime(st.UpdatedAt)}
	refData(d, "stake_", st.Ref)
	return &events.Event{Type: events.StakeChanged, CreatedAt: st.UpdatedAt, Subjects: []openjury.Address{st.Address}, Data: d}
}

// SlashedEvent is the slash.recorded event of e: it concerns the slashed
// agent and the recipient. A Store appends it with every slash it
// records.
func SlashedEvent(e SlashEvent) *events.Event {
	d := events.Data{"slash_id": e.ID, "agent_address": e.Agent.String(), "amount_usdc": usdc(e.Amount),
		"recipient_address": nil, "job_id": nil}
	if !e.Recipient.IsZero() {
		d["recipient_address"] = e.Recipient.String()
	}
	if e.JobID != "" {
		d["job_id"] = e.JobID
	}
	refData(d, "", e.Ref)
	ev := &events.Event{Type: events.SlashRecorded, CreatedAt: e.CreatedAt, JobID: e.JobID, Subjects: []openjury.Address{e.Agent}, Data: d}
	if !e.Recipient.IsZero() && e.Recipient != e.Agent {
		ev.Subjects = append(ev.Subjects, e.Recipient)
	}
	return ev
}

// usdc is an amount as the API writes USDC: a JSON number, exactly.
func usdc(m openjury.MicroUSDC) json.Number { return json.Number(m.String()) }

// refData adds an onchain reference's parts to d, named as the API names
// them with prefix (null when unset).
func refData(d events.Data, prefix string, r openjury.ChainRef) {
	d[prefix+"tx_hash"], d[prefix+"chain_id"], d[prefix+"contract_address"] = nil, nil, nil
	d[prefix+"block_number"], d[prefix+"log_index"] = nil, nil
	if r.TxHash != "" {
		d[prefix+"tx_hash"] = r.TxHash.String()
	}
	if r.ChainID != nil {
		d[prefix+"chain_id"] = *r.ChainID
	}
	if !r.Contract.IsZero() {
		d[prefix+"contract_address"] = r.Contract.String()
	}
	if r.BlockNumber != nil {
		d[prefix+"block_number"] = *r.BlockNumber
	}
	if r.LogIndex != nil {
		d[prefix+"log_index"] = *r.LogIndex
	}
}
