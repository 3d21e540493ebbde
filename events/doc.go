// Package events is OpenJury's event log and what delivers it: the
// outbox every state change writes its event into (in its own
// transaction), the sequencer that gives committed events their delivery
// order, the log's pages and retention, the per-replica fan-out behind
// the live stream, and signed webhooks (endpoints, deliveries with
// retries and backoff, the address rules that keep them off private
// networks).
//
// Order and completeness (docs/rules.md#events). PostgreSQL commits
// transactions in an order other than the one in which they wrote: a
// transaction that wrote its event first may commit last. So an event
// gets no delivery position when it is written. Writers append to the
// outbox; the sequencer, run by one replica at a time (its turn is a row
// lock that other replicas skip), moves the events that have committed
// from the outbox into the log and numbers them, after the last number
// given, in one transaction. Since passes are serialised and each commits
// before the next begins, an event numbered later was numbered by a pass
// that committed later: a reader that saw number N has seen every event
// numbered before it, and any event it has not seen yet gets a number
// above N. Resuming after N therefore misses nothing and repeats nothing.
// An event's id is its number in a fixed-width form, so ids sort in
// delivery order.
//
// An event created in the future (CreatedAt after now) is a timer: the
// sequencer leaves it in the outbox until then (jury.reveal_opened,
// final_vote.opened).
//
// Audience. An event with an Audience (jury.drawn) is delivered only to
// those addresses: to webhooks they own and to reads filtered by one of
// them (address=...); never to anyone else's filters.
package events
