package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

func (s *suite) juryTests() []test {
	return []test{
		{name: "IndexFollowsStakeAndReputation", run: testJurorIndexFollows},
		{name: "IndexVersionsAreFrozen", run: testJurorIndexVersions},
		{name: "IndexRuleChange", run: testJurorIndexRule},
		{name: "JurorAtWalksAddressOrder", run: testJurorAt},
		{name: "ConcurrentChangesKeepIndex", run: testJurorIndexConcurrent},
		{name: "ScoreChangesSkipTheIndex", run: testJurorIndexScoreSkips},
		{name: "ScoreCrossingsRaceRuleChanges", run: testJurorIndexRuleRace},
		{name: "RacingScoreChangesCross", run: testJurorIndexScoreRace},
		{name: "ScoreChangeDuringRuleChange", run: testJurorIndexRuleOpen},
		{name: "DrawsAndPanels", run: testDraws},
		{name: "Duties", run: testDuties},
		{name: "Commitments", run: testCommitments},
		{name: "ConcurrentCommitmentsOneRow", run: testConcurrentCommitments},
		{name: "CreditCoherentOnce", run: testCreditCoherent},
		{name: "PenalizeNoShows", run: testPenalizeNoShows},
	}
}

// Thresholds of the index in these tests: 10 USDC and a score of 10.
const (
	juryMinStake = 10 * openjury.MicroPerUSDC
	juryMinRep   = 10
)

// juror returns a distinct address whose hex starts with prefix (up to 8
// hex digits) and ends with n.
func juror(prefix string, n int) openjury.Address {
	s := fmt.Sprintf("%-8s%032x", prefix, n)
	for i := range 8 {
		if s[i] == ' ' {
			s = s[:i] + "0" + s[i+1:]
		}
	}
	return openjury.MustAddress("0x" + s)
}

// setJuror gives addr a stake in micro-USDC and a score.
func setJuror(t *testing.T, s marketplace.Stores, addr openjury.Address, micro int64, score int64) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, s.Stake().PutStake(ctx, stake.Stake{Address: addr, Staked: openjury.MicroUSDC(micro), UpdatedAt: base}))
	require.NoError(t, s.Reputation().SetScore(ctx, addr, score, base))
}

// juryVersion configures the index with the test thresholds and returns
// the current version.
func juryVersion(t *testing.T, b Backend) int64 {
	t.Helper()
	v, err := b.Jurors().JuryVersion(context.Background(), juryMinStake, juryMinRep)
	require.NoError(t, err)
	return v
}

// eligibleAt lists the eligible set at version.
func eligibleAt(t *testing.T, b Backend, version int64) []marketplace.Juror {
	t.Helper()
	var out []marketplace.Juror
	var after openjury.Address
	for {
		n := 0
		require.NoError(t, b.Jurors().ScanEligible(context.Background(), version, after, 7, func(j marketplace.Juror) bool {
			out = append(out, j)
			after = j.Address
			n++
			return true
		}))
		if n < 7 {
			return out
		}
	}
}

// requireSet checks the eligible set at version against want (any order)
// and the index's totals.
func requireSet(t *testing.T, b Backend, version int64, want map[openjury.Address]int64) {
	t.Helper()
	got := eligibleAt(t, b, version)
	require.True(t, slices.IsSortedFunc(got, func(a, b marketplace.Juror) int { return compareAddr(a.Address, b.Address) }), "address order")
	m := map[openjury.Address]int64{}
	var total int64
	for _, j := range got {
		m[j.Address] = int64(j.Stake)
		total += int64(j.Stake)
	}
	require.Equal(t, want, m, "eligible set at version %d", version)
	count, sum, err := b.Jurors().EligibleTotal(context.Background(), version)
	require.NoError(t, err)
	require.Equal(t, int64(len(want)), count)
	require.Equal(t, openjury.MicroUSDC(total), sum)
	for a, st := range want {
		got, err := b.Jurors().JurorStake(context.Background(), version, a)
		require.NoError(t, err)
		require.Equal(t, openjury.MicroUSDC(st), got)
	}
}

func compareAddr(a, b openjury.Address) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// testJurorIndexFollows: the eligible set is every address with stake and
// score at the thresholds, whatever wrote them (PutStake, SetScore,
// AddReputation, AddReputations, RecordSlash, a job's outcome), and a
// rolled-back change leaves it as it was.
func testJurorIndexFollows(t *testing.T, b Backend) {
	ctx := context.Background()
	a, c, d, e, f := juror("a", 1), juror("c", 2), juror("d", 3), juror("e", 4), juror("f", 5)
	setJuror(t, b, a, 10_000_000, 10)
	setJuror(t, b, c, 25_000_000, 50)
	setJuror(t, b, d, 9_999_999, 50) // stake short
	setJuror(t, b, e, 50_000_000, 9) // score short
	v1 := juryVersion(t, b)          // first use: the index is built
	requireSet(t, b, v1, map[openjury.Address]int64{a: 10_000_000, c: 25_000_000})

	// Every writer of stakes and scores keeps it.
	require.NoError(t, b.Reputation().AddReputation(ctx, e, marketplace.ReputationDelta{Score: 1}, base)) // e reaches 10
	require.NoError(t, b.Reputation().AddReputations(ctx, []marketplace.ReputationChange{
		{Address: a, Delta: marketplace.ReputationDelta{Score: -1}}, // a drops out
		{Address: c, Delta: marketplace.ReputationDelta{JuryVotes: 1}},
	}, base))
	_, err := b.Stake().RecordSlash(ctx, stake.SlashEvent{ID: id(900), Agent: c, Amount: 5_000_000, CreatedAt: base})
	require.NoError(t, err)
	require.NoError(t, b.Stake().PutStake(ctx, stake.Stake{Address: d, Staked: 10_000_000, UpdatedAt: base}))
	create(t, b, newJob(1, base))
	submit(t, b, newSubmission(101, id(1), f, base))
	require.NoError(t, b.Stake().PutStake(ctx, stake.Stake{Address: f, Staked: 30_000_000, UpdatedAt: base}))
	require.NoError(t, b.Reputation().AddJobOutcome(ctx, id(1), f, marketplace.ReputationDelta{Score: 10, Wins: 1}, marketplace.ReputationDelta{Losses: 1}, base))
	v2 := juryVersion(t, b)
	require.Greater(t, v2, v1)
	want := map[openjury.Address]int64{c: 20_000_000, d: 10_000_000, e: 50_000_000, f: 30_000_000}
	requireSet(t, b, v2, want)

	// A change of a score that keeps the stake changes nothing.
	require.NoError(t, b.Reputation().SetScore(ctx, c, 70, base))
	require.Equal(t, v2, juryVersion(t, b), "no juror stake changed")

	// Every score writer, crossing the minimum either way, in one
	// transaction: AddReputations (a back in, c stays), a job's outcome
	// (the winner d stays, the loser f drops out), SetScore (e drops out).
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		if err := tx.Reputation().AddReputations(ctx, []marketplace.ReputationChange{
			{Address: c, Delta: marketplace.ReputationDelta{Score: -5}},
			{Address: a, Delta: marketplace.ReputationDelta{Score: 1}},
		}, base); err != nil {
			return err
		}
		return nil
	}))
	create(t, b, newJob(2, base))
	submit(t, b, newSubmission(201, id(2), d, base))
	submit(t, b, newSubmission(202, id(2), f, base))
	require.NoError(t, b.Reputation().AddJobOutcome(ctx, id(2), d, marketplace.ReputationDelta{Score: 3, Wins: 1}, marketplace.ReputationDelta{Score: -1, Losses: 1}, base))
	require.NoError(t, b.Reputation().SetScore(ctx, e, 9, base))
	v3 := juryVersion(t, b)
	require.Greater(t, v3, v2)
	want = map[openjury.Address]int64{a: 10_000_000, c: 20_000_000, d: 10_000_000}
	requireSet(t, b, v3, want)
	v2 = v3

	// Rolled back: nothing.
	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		setJuror(t, tx, a, 99_000_000, 99)
		return errBoom
	}))
	require.Equal(t, v2, juryVersion(t, b))
	requireSet(t, b, v2, want)
}

// testJurorIndexVersions: a version names one set forever: later changes
// take new versions and leave the sets of older ones as they were.
func testJurorIndexVersions(t *testing.T, b Backend) {
	ctx := context.Background()
	juryVersion(t, b)
	a, c := juror("1", 1), juror("2", 2)
	setJuror(t, b, a, 10_000_000, 10)
	v1 := juryVersion(t, b)
	setJuror(t, b, c, 20_000_000, 10)
	v2 := juryVersion(t, b)
	require.NoError(t, b.Stake().PutStake(ctx, stake.Stake{Address: a, Staked: 40_000_000, UpdatedAt: base}))
	v3 := juryVersion(t, b)
	require.NoError(t, b.Stake().PutStake(ctx, stake.Stake{Address: c, Staked: 0, UpdatedAt: base}))
	v4 := juryVersion(t, b)
	require.True(t, v1 < v2 && v2 < v3 && v3 < v4)
	requireSet(t, b, v1, map[openjury.Address]int64{a: 10_000_000})
	requireSet(t, b, v2, map[openjury.Address]int64{a: 10_000_000, c: 20_000_000})
	requireSet(t, b, v3, map[openjury.Address]int64{a: 40_000_000, c: 20_000_000})
	requireSet(t, b, v4, map[openjury.Address]int64{a: 40_000_000})
	requireSet(t, b, 0, map[openjury.Address]int64{})
}

// testJurorIndexRule: another eligibility rule recomputes every address
// at a new version; the old versions keep their sets.
func testJurorIndexRule(t *testing.T, b Backend) {
	ctx := context.Background()
	a, c := juror("a", 1), juror("c", 2)
	setJuror(t, b, a, 10_000_000, 10)
	setJuror(t, b, c, 30_000_000, 30)
	v1 := juryVersion(t, b)
	requireSet(t, b, v1, map[openjury.Address]int64{a: 10_000_000, c: 30_000_000})
	v2, err := b.Jurors().JuryVersion(ctx, 20*openjury.MicroPerUSDC, 20)
	require.NoError(t, err)
	require.Greater(t, v2, v1)
	requireSet(t, b, v2, map[openjury.Address]int64{c: 30_000_000})
	requireSet(t, b, v1, map[openjury.Address]int64{a: 10_000_000, c: 30_000_000})
	again, err := b.Jurors().JuryVersion(ctx, 20*openjury.MicroPerUSDC, 20)
	require.NoError(t, err)
	require.Equal(t, v2, again, "the same rule changes nothing")
}

// testJurorIndexConcurrent: racing stake and score changes, several on
// one address and some in one transaction, leave an index that says what
// the rows say: every address's juror stake follows its stake and score,
// and the totals are the sums of the set.
func testJurorIndexConcurrent(t *testing.T, b Backend) {
	ctx := context.Background()
	juryVersion(t, b)
	addrs := []openjury.Address{juror("a", 1), juror("a", 2), juror("b", 3), juror("c", 4)}
	errs := raceN(24, func(i int) error {
		a := addrs[i%len(addrs)]
		if i%3 == 0 {
			return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				for k, x := range addrs {
					if err := tx.Stake().PutStake(ctx, stake.Stake{Address: x, Staked: openjury.MicroUSDC(10_000_000 + i*1000 + k), UpdatedAt: base}); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if i%2 == 0 {
			return b.Stake().PutStake(ctx, stake.Stake{Address: a, Staked: openjury.MicroUSDC(5_000_000 * (i % 5)), UpdatedAt: base})
		}
		return b.Reputation().SetScore(ctx, a, int64(5*(i%4)), base)
	})
	for i, err := range errs {
		require.NoError(t, err, "writer %d", i)
	}
	want := map[openjury.Address]int64{}
	for _, a := range addrs {
		st, err := b.Stake().Stake(ctx, a)
		require.NoError(t, err)
		if st.Staked >= juryMinStake && getReputation(t, b, a).Score >= juryMinRep {
			want[a] = int64(st.Staked)
		}
	}
	requireSet(t, b, juryVersion(t, b), want)
}

// testJurorIndexScoreSkips: a score change that stays on one side of the
// threshold takes no version; one that crosses it (either way, from a
// missing row too) takes one and moves the address in or out.
func testJurorIndexScoreSkips(t *testing.T, b Backend) {
	ctx := context.Background()
	a, c := juror("a", 1), juror("c", 2)
	require.NoError(t, b.Stake().PutStake(ctx, stake.Stake{Address: a, Staked: 20_000_000, UpdatedAt: base}))
	require.NoError(t, b.Stake().PutStake(ctx, stake.Stake{Address: c, Staked: 30_000_000, UpdatedAt: base}))
	v := juryVersion(t, b)
	add := func(addr openjury.Address, d int64) {
		t.Helper()
		require.NoError(t, b.Reputation().AddReputation(ctx, addr, marketplace.ReputationDelta{Score: d, Submissions: 1}, base))
	}
	add(a, 3) // a new row below the threshold
	add(a, 6)
	require.Equal(t, v, juryVersion(t, b), "9 is below 10: nothing to touch")
	add(a, 1) // crosses up
	v2 := juryVersion(t, b)
	require.Greater(t, v2, v)
	requireSet(t, b, v2, map[openjury.Address]int64{a: 20_000_000})
	add(a, 5)
	add(c, 12) // a new row above the threshold
	v3 := juryVersion(t, b)
	require.Equal(t, v2+1, v3, "only c's first row took a version")
	add(a, -5)
	add(c, 1)
	require.Equal(t, v3, juryVersion(t, b))
	add(a, -1) // crosses down: 9
	v4 := juryVersion(t, b)
	require.Greater(t, v4, v3)
	requireSet(t, b, v4, map[openjury.Address]int64{c: 30_000_000})
	requireSet(t, b, v3, map[openjury.Address]int64{a: 20_000_000, c: 30_000_000})
}

// testJurorIndexRuleRace: score changes around the threshold race changes
// of the rule itself (another minimum score, then back); every rule
// changer ends on the test rule, so the final rule is the test rule and
// the index must say what the rows say under it without a recompute.
func testJurorIndexRuleRace(t *testing.T, b Backend) {
	ctx := context.Background()
	juryVersion(t, b)
	addrs := []openjury.Address{juror("a", 1), juror("b", 2), juror("c", 3), juror("d", 4)}
	for _, a := range addrs {
		setJuror(t, b, a, 20_000_000, 11)
	}
	errs := raceN(40, func(i int) error {
		if i%5 == 0 {
			for _, rep := range []int64{12, 11, juryMinRep} {
				if _, err := b.Jurors().JuryVersion(ctx, juryMinStake, rep); err != nil {
					return err
				}
			}
			return nil
		}
		d := int64(1)
		if i%2 == 0 {
			d = -1
		}
		for range 3 {
			if err := b.Reputation().AddReputation(ctx, addrs[i%len(addrs)], marketplace.ReputationDelta{Score: d}, base); err != nil {
				return err
			}
		}
		return nil
	})
	for i, err := range errs {
		require.NoError(t, err, "writer %d", i)
	}
	var version int64
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		var err error
		version, err = tx.Jurors().JuryVersion(ctx, juryMinStake, juryMinRep)
		return err
	}))
	want := map[openjury.Address]int64{}
	for _, a := range addrs {
		if getReputation(t, b, a).Score >= juryMinRep {
			want[a] = 20_000_000
		}
	}
	requireSet(t, b, version, want)
}

// testJurorIndexScoreRace: racing score changes of one address, each
// its own call, where only the first to commit crosses the minimum score
// (down from it, then up from below it): the index follows the last
// score. A store that checks the crossing apart from the score write it
// belongs to sees the later scores and misses it.
func testJurorIndexScoreRace(t *testing.T, b Backend) {
	ctx := context.Background()
	juryVersion(t, b)
	a := juror("a", 1)
	for range 4 {
		for _, dir := range []int64{-1, 1} {
			start := int64(juryMinRep)
			if dir > 0 {
				start = juryMinRep - 1
			}
			setJuror(t, b, a, 20_000_000, start)
			errs := raceN(12, func(int) error {
				return b.Reputation().AddReputation(ctx, a, marketplace.ReputationDelta{Score: dir}, base)
			})
			for i, err := range errs {
				require.NoError(t, err, "writer %d", i)
			}
			want := map[openjury.Address]int64{}
			if dir > 0 {
				want[a] = 20_000_000
			}
			require.Equal(t, start+12*dir, getReputation(t, b, a).Score)
			requireSet(t, b, juryVersion(t, b), want)
		}
	}
}

// testJurorIndexRuleOpen: a score change that commits while a change of
// the rule is open (it has recomputed the address from the old score)
// counts under the new rule: 11 -> 12 crosses a minimum of 12, though not
// the old minimum of 10.
func testJurorIndexRuleOpen(t *testing.T, b Backend) {
	ctx := context.Background()
	juryVersion(t, b)
	a := juror("a", 1)
	setJuror(t, b, a, 20_000_000, 11)
	done := make(chan error, 1)
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		if _, err := tx.Jurors().JuryVersion(ctx, juryMinStake, 12); err != nil {
			return err
		}
		go func() {
			done <- b.Reputation().AddReputation(context.Background(), a, marketplace.ReputationDelta{Score: 1}, base)
		}()
		// The score change commits now unless the rule change holds it
		// back; either way the rule change commits after.
		select {
		case err := <-done:
			done <- err
		case <-time.After(300 * time.Millisecond):
		}
		return nil
	}))
	require.NoError(t, <-done)
	require.Equal(t, int64(12), getReputation(t, b, a).Score)
	v, err := b.Jurors().JuryVersion(ctx, juryMinStake, 12) // the same rule: no recompute
	require.NoError(t, err)
	requireSet(t, b, v, map[openjury.Address]int64{a: 20_000_000})
}

// walkRef is the reference of JurorAt: the juror at offset in set (in
// address order) without exclude.
func walkRef(set []marketplace.Juror, offset int64, exclude []marketplace.Juror) (marketplace.Juror, bool) {
	for _, j := range set {
		if slices.ContainsFunc(exclude, func(x marketplace.Juror) bool { return x.Address == j.Address }) {
			continue
		}
		if offset < int64(j.Stake) {
			return j, true
		}
		offset -= int64(j.Stake)
	}
	return marketplace.Juror{}, false
}

// testJurorAt: JurorAt gives the reference walk's juror at every boundary
// offset, with and without excluded jurors, over addresses that share
// prefixes of every length the index keeps.
func testJurorAt(t *testing.T, b Backend) {
	ctx := context.Background()
	juryVersion(t, b)
	var addrs []openjury.Address
	for i, p := range []string{"0", "00", "000", "0000", "00000", "0001", "01", "1", "7", "7f", "7ff", "7fff", "8", "a", "ab", "abc", "abcd", "abcde", "f", "ff", "fff", "ffff", "fffff"} {
		for k := range 3 {
			addrs = append(addrs, juror(p, 10*i+k))
		}
	}
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		for i, a := range addrs {
			setJuror(t, tx, a, int64(10_000_000+i*1_000_003), 10)
		}
		return nil
	}))
	v := juryVersion(t, b)
	set := eligibleAt(t, b, v)
	require.Len(t, set, len(addrs))
	for _, exclude := range [][]marketplace.Juror{nil, {set[0], set[5], set[len(set)-1]}, set[1 : len(set)/2]} {
		var total int64
		for _, j := range set {
			total += int64(j.Stake)
		}
		for _, x := range exclude {
			total -= int64(x.Stake)
		}
		var cum int64
		for _, j := range set {
			if slices.Contains(exclude, j) {
				continue
			}
			for _, off := range []int64{cum, cum + int64(j.Stake) - 1} {
				got, err := b.Jurors().JurorAt(ctx, v, openjury.MicroUSDC(off), exclude)
				require.NoError(t, err)
				want, ok := walkRef(set, off, exclude)
				require.True(t, ok)
				require.Equal(t, want, got, "offset %d", off)
			}
			cum += int64(j.Stake)
		}
		require.Equal(t, total, cum)
		_, err := b.Jurors().JurorAt(ctx, v, openjury.MicroUSDC(total), exclude)
		requireKind(t, openjury.Internal, err)
	}
}

// testDraws: a pending draw is found by PendingDraws (open jobs only),
// completed once (a second completion is Conflict), its panel read in
// draw order; the eligible set hash is set once.
func testDraws(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base), newJob(3, base))
	p1, p2, p3 := juror("1", 1), juror("2", 2), juror("3", 3)
	pending := &marketplace.JuryDraw{JobID: id(1), Size: 3, Sponsor: sponsor, Version: 7, SeedSource: marketplace.SeedBlock, SeedBlock: 1234, CreatedAt: base}
	require.NoError(t, b.Juries().PutDraw(ctx, pending, nil))
	requireKind(t, openjury.Conflict, b.Juries().PutDraw(ctx, pending, nil))
	got, err := b.Juries().Draw(ctx, id(1))
	require.NoError(t, err)
	require.Equal(t, pending, got)
	_, err = b.Juries().Draw(ctx, id(9))
	requireKind(t, openjury.NotFound, err)

	drawnAt := at(5)
	now := drawnAt
	drawn := &marketplace.JuryDraw{JobID: id(2), Size: 1, Sponsor: sponsor, Version: 7, SeedSource: marketplace.SeedServer,
		Seed: hash(2), DrawnAt: &now, EligibleCount: 4, EligibleStake: 55_000_000, CreatedAt: base}
	require.NoError(t, b.Juries().PutDraw(ctx, drawn, []marketplace.Juror{{Address: p2, Stake: 20_000_000}}))
	closed := &marketplace.JuryDraw{JobID: id(3), Size: 1, Sponsor: sponsor, Version: 7, SeedSource: marketplace.SeedBlock, SeedBlock: 1, CreatedAt: at(1)}
	require.NoError(t, b.Juries().PutDraw(ctx, closed, nil))
	j3 := getJob(t, b, id(3))
	j3.Status = marketplace.StatusClosed
	require.NoError(t, b.Jobs().UpdateJob(ctx, j3))

	q, err := b.JuryQueue().PendingDraws(ctx, 10)
	require.NoError(t, err)
	require.Equal(t, []*marketplace.JuryDraw{pending}, q, "a closed job's pending draw is not drawn any more")
	q, err = b.JuryQueue().UnhashedDraws(ctx, 10)
	require.NoError(t, err)
	require.Equal(t, []*marketplace.JuryDraw{drawn}, q)

	pending.Seed, pending.DrawnAt, pending.EligibleCount, pending.EligibleStake = hash(1), &drawnAt, 3, 60_000_000
	panel := []marketplace.Juror{{Address: p3, Stake: 30_000_000}, {Address: p1, Stake: 10_000_000}, {Address: p2, Stake: 20_000_000}}
	require.NoError(t, b.Juries().CompleteDraw(ctx, pending, panel))
	err = b.Juries().CompleteDraw(ctx, pending, panel)
	requireKind(t, openjury.Conflict, err)
	require.Equal(t, marketplace.DetailAlreadyDrawn, openjury.DetailOf(err))
	requireKind(t, openjury.NotFound, b.Juries().CompleteDraw(ctx, &marketplace.JuryDraw{JobID: id(9), Seed: hash(1), DrawnAt: &drawnAt}, nil))
	got, err = b.Juries().Draw(ctx, id(1))
	require.NoError(t, err)
	require.Equal(t, pending, got)
	members, err := b.Juries().Panel(ctx, id(1))
	require.NoError(t, err)
	require.Len(t, members, 3)
	for i, m := range members {
		require.Equal(t, panel[i], m.Juror)
		require.Equal(t, i, m.Ord)
		require.False(t, m.Committed || m.Revealed)
	}
	for _, c := range []struct {
		addr openjury.Address
		want bool
	}{{p1, true}, {p3, true}, {sponsor, false}} {
		in, err := b.Juries().IsDrawn(ctx, id(1), c.addr)
		require.NoError(t, err)
		require.Equal(t, c.want, in, "%s", c.addr)
	}
	in, err := b.Juries().IsDrawn(ctx, id(2), p1)
	require.NoError(t, err)
	require.False(t, in, "another job's panel")

	require.NoError(t, b.Juries().SetEligibleHash(ctx, id(2), hash(42)))
	require.NoError(t, b.Juries().SetEligibleHash(ctx, id(2), hash(43)))
	got, err = b.Juries().Draw(ctx, id(2))
	require.NoError(t, err)
	require.Equal(t, hash(42), got.EligibleHash, "set once")
	q, err = b.JuryQueue().UnhashedDraws(ctx, 10)
	require.NoError(t, err)
	require.Equal(t, []string{id(1)}, drawIDs(q))
}

func drawIDs(ds []*marketplace.JuryDraw) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.JobID
	}
	return out
}

// testDuties: a juror's duties are its open jobs in job order, paged,
// with what it did on each; a closed panel leaves them.
func testDuties(t *testing.T, b Backend) {
	ctx := context.Background()
	j := juror("5", 5)
	now := base
	for n := 1; n <= 4; n++ {
		create(t, b, newJob(n, base))
		d := &marketplace.JuryDraw{JobID: id(n), Size: 1, Sponsor: sponsor, SeedSource: marketplace.SeedServer, Seed: hash(n), DrawnAt: &now, CreatedAt: base}
		require.NoError(t, b.Juries().PutDraw(ctx, d, []marketplace.Juror{{Address: j, Stake: 10_000_000}}))
	}
	submit(t, b, newSubmission(301, id(3), carol, base))
	require.NoError(t, b.Commitments().PutCommitment(ctx, &marketplace.Commitment{ID: id(500), JobID: id(2), Voter: j, Commitment: hash(7), CreatedAt: base}))
	require.NoError(t, b.Commitments().PutCommitment(ctx, &marketplace.Commitment{ID: id(501), JobID: id(3), Voter: j, Commitment: hash(8), CreatedAt: base}))
	putVotes(t, b, newVote(600, id(3), 301, j, 2, base))
	require.NoError(t, b.JuryOutcomes().ClosePanel(ctx, id(4)))

	page, err := b.Juries().Duties(ctx, j, nil, 2)
	require.NoError(t, err)
	require.Len(t, page, 2)
	require.Equal(t, id(1), page[0].Job.ID)
	require.Equal(t, getJob(t, b, id(1)), page[0].Job)
	require.False(t, page[0].Member.Committed)
	require.Equal(t, id(2), page[1].Job.ID)
	require.True(t, page[1].Member.Committed)
	require.False(t, page[1].Member.Revealed)
	page, err = b.Juries().Duties(ctx, j, &marketplace.DutyCursor{JobID: id(2)}, 2)
	require.NoError(t, err)
	require.Len(t, page, 1, "job 4's panel is closed")
	require.Equal(t, id(3), page[0].Job.ID)
	require.True(t, page[0].Member.Committed && page[0].Member.Revealed)
	none, err := b.Juries().Duties(ctx, sponsor, nil, 10)
	require.NoError(t, err)
	require.Empty(t, none)
}

// testCommitments: a replaced commitment keeps its id; a reveal is marked
// once.
func testCommitments(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	c := &marketplace.Commitment{ID: id(10), JobID: id(1), Voter: alice, Commitment: hash(1), CreatedAt: at(1)}
	require.NoError(t, b.Commitments().PutCommitment(ctx, c))
	again := &marketplace.Commitment{ID: id(11), JobID: id(1), Voter: alice, Commitment: hash(2), CreatedAt: at(2)}
	require.NoError(t, b.Commitments().PutCommitment(ctx, again))
	require.Equal(t, id(10), again.ID, "the stored id")
	got, err := b.Commitments().Commitment(ctx, id(1), alice)
	require.NoError(t, err)
	require.Equal(t, &marketplace.Commitment{ID: id(10), JobID: id(1), Voter: alice, Commitment: hash(2), CreatedAt: at(2)}, got)
	_, err = b.Commitments().Commitment(ctx, id(1), bob)
	requireKind(t, openjury.NotFound, err)
	requireKind(t, openjury.NotFound, b.Commitments().PutCommitment(ctx, &marketplace.Commitment{JobID: id(9), Voter: bob, Commitment: hash(1), CreatedAt: at(1)}))
	require.NoError(t, b.Commitments().PutCommitment(ctx, &marketplace.Commitment{ID: id(12), JobID: id(1), Voter: bob, Commitment: hash(3), CreatedAt: at(3)}))
	n, err := b.Commitments().CountCommitments(ctx, id(1))
	require.NoError(t, err)
	require.Equal(t, int64(2), n)

	require.NoError(t, b.Commitments().MarkRevealed(ctx, id(1), alice, at(9)))
	requireKind(t, openjury.Conflict, b.Commitments().MarkRevealed(ctx, id(1), alice, at(10)))
	requireKind(t, openjury.NotFound, b.Commitments().MarkRevealed(ctx, id(1), dave, at(10)))
	got, err = b.Commitments().Commitment(ctx, id(1), alice)
	require.NoError(t, err)
	require.Equal(t, at(9), *got.RevealedAt)
}

// testConcurrentCommitments: racing commitments of one voter (on the DB,
// inside InTx, or half and half) end as one row with one id.
func testConcurrentCommitments(t *testing.T, b Backend) {
	create(t, b, newJob(1, base))
	for mode, voter := range racingVoters {
		stored := concurrentUpserts(t, b, mode, func(ctx context.Context, s marketplace.Stores, i int) (string, error) {
			c := &marketplace.Commitment{ID: id(100*(mode+1) + i), JobID: id(1), Voter: voter, Commitment: hash(i + 1), CreatedAt: at(i)}
			err := s.Commitments().PutCommitment(ctx, c)
			return c.ID, err
		})
		got, err := b.Commitments().Commitment(context.Background(), id(1), voter)
		require.NoError(t, err)
		require.Equal(t, stored, got.ID, "mode %d", mode)
	}
	n, err := b.Commitments().CountCommitments(context.Background(), id(1))
	require.NoError(t, err)
	require.Equal(t, int64(len(racingVoters)), n)
}

// testCreditCoherent: every voter for the submission, over several
// chunks, gets the amount once (a second call credits nobody); voters for
// another submission get nothing.
func testCreditCoherent(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	submit(t, b, newSubmission(101, id(1), carol, base), newSubmission(102, id(1), carol, base))
	const voters = 1100 // more than two chunks
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		for i := range voters {
			sub := 101
			if i%10 == 0 {
				sub = 102
			}
			if err := tx.Votes().PutVote(ctx, newVote(1000+i, id(1), sub, juror("9", i), 1, base)); err != nil {
				return err
			}
		}
		return nil
	}))
	apply(t, b, entry(1, juror("9", 1), 7, agr.ReasonDevMint, "", base))
	n, err := b.JuryOutcomes().CreditCoherent(ctx, id(1), id(101), 5, at(1))
	require.NoError(t, err)
	require.Equal(t, int64(voters-voters/10), n)
	n, err = b.JuryOutcomes().CreditCoherent(ctx, id(1), id(101), 5, at(2))
	require.NoError(t, err)
	require.Zero(t, n, "once per job and address")
	require.Equal(t, agr.Status{Address: juror("9", 1), Balance: 12, Earned: 12}, status(t, b, juror("9", 1)))
	require.Equal(t, agr.Status{Address: juror("9", 0)}, status(t, b, juror("9", 0)), "voted for another submission")
	es := ledger(t, b, juror("9", 3), 10, nil)
	require.Len(t, es, 1)
	require.Equal(t, agr.ReasonJury, es[0].Reason)
	require.Equal(t, id(1), es[0].JobID)
	require.Equal(t, int64(5), es[0].Delta)
	require.True(t, openjury.ValidID(es[0].ID))
}

// testPenalizeNoShows: drawn jurors without a vote lose the penalty, not
// below 0; a juror without a record gets none; voters keep theirs.
func testPenalizeNoShows(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	submit(t, b, newSubmission(101, id(1), carol, base))
	voted, low, high, norecord := juror("1", 1), juror("2", 2), juror("3", 3), juror("4", 4)
	for addr, score := range map[openjury.Address]int64{voted: 30, low: 1, high: 30} {
		setJuror(t, b, addr, 20_000_000, score)
	}
	v1 := juryVersion(t, b)
	requireSet(t, b, v1, map[openjury.Address]int64{voted: 20_000_000, high: 20_000_000})
	now := base
	d := &marketplace.JuryDraw{JobID: id(1), Size: 5, Sponsor: sponsor, SeedSource: marketplace.SeedServer, Seed: hash(1), DrawnAt: &now, CreatedAt: base}
	require.NoError(t, b.Juries().PutDraw(ctx, d, []marketplace.Juror{{Address: voted, Stake: 1}, {Address: low, Stake: 1}, {Address: high, Stake: 1}, {Address: norecord, Stake: 1}}))
	putVotes(t, b, newVote(500, id(1), 101, voted, 3, base))
	n, err := b.JuryOutcomes().PenalizeNoShows(ctx, id(1), 21, at(7))
	require.NoError(t, err)
	require.Equal(t, int64(2), n)
	require.Equal(t, int64(30), getReputation(t, b, voted).Score)
	require.Equal(t, int64(0), getReputation(t, b, low).Score)
	require.Equal(t, int64(9), getReputation(t, b, high).Score)
	v2 := juryVersion(t, b)
	require.Greater(t, v2, v1)
	requireSet(t, b, v2, map[openjury.Address]int64{voted: 20_000_000}) // high fell below the minimum score
	require.Equal(t, at(7), getReputation(t, b, high).UpdatedAt)
	require.Equal(t, marketplace.Reputation{Address: norecord}, getReputation(t, b, norecord), "no record is made")
}
