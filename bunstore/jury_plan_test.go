package bunstore_test

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
)

// juryBenchJurors is how many eligible jurors BenchmarkJuryDraw seeds.
var juryBenchJurors = flag.Int("bench.jurors", 100_000, "eligible jurors of BenchmarkJuryDraw")

// seededJuror is a juror of seedJurors.
type seededJuror struct {
	addr  string
	stake int64
}

// juryVersionSeeded is the version seedJurors leaves the index at.
const juryVersionSeeded = 2

// seedJurors fills the juror index with n eligible jurors, as the
// triggers would have written it but in bulk: addresses spread like
// hashes, stakes of 10 to 10,000 USDC, every address at version 1 and
// every tenth one again at version 2 (another stake; every hundredth
// leaves the set), and the sums of every prefix at version 2. It returns
// the set at version 2.
func seedJurors(tb testing.TB, db *bunstore.DB, n int) []seededJuror {
	tb.Helper()
	ctx := context.Background()
	type row struct {
		bun.BaseModel `bun:"table:juror_versions"`
		Address       string `bun:"address"`
		Version       int64  `bun:"version"`
		Stake         int64  `bun:"stake_micro"`
	}
	var set []seededJuror
	require.NoError(tb, db.Bun().RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		rows := make([]row, 0, 1000)
		flush := func() error {
			if len(rows) == 0 {
				return nil
			}
			_, err := tx.NewInsert().Model(&rows).Exec(ctx)
			rows = rows[:0]
			return err
		}
		for i := range n {
			var b [8]byte
			binary.BigEndian.PutUint64(b[:], uint64(i))
			addr := "0x" + fmt.Sprintf("%x", crypto.Keccak256(b[:])[:20])
			stake := int64(10+(i*7919)%9991) * openjury.MicroPerUSDC
			rows = append(rows, row{Address: addr, Version: 1, Stake: stake})
			if i%10 == 0 {
				stake += 1_234_567
				if i%100 == 0 {
					stake = 0
				}
				rows = append(rows, row{Address: addr, Version: juryVersionSeeded, Stake: stake})
			}
			if stake > 0 {
				set = append(set, seededJuror{addr, stake})
			}
			if len(rows) >= 990 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
		latest := `SELECT v.address, v.stake_micro FROM juror_versions AS v WHERE v.stake_micro > 0
AND v.version = (SELECT MAX(x.version) FROM juror_versions AS x WHERE x.address = v.address)`
		for k := 0; k <= bunstore.JuryPrefixDepth; k++ {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO jury_sums (prefix, version, total_micro, jurors)
SELECT substr(l.address, 3, %d), %d, SUM(l.stake_micro), COUNT(*) FROM (%s) AS l GROUP BY substr(l.address, 3, %d)`,
				k, juryVersionSeeded, latest, k)); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf(`UPDATE jury_state SET version = %d`, juryVersionSeeded))
		return err
	}))
	analyze := "ANALYZE"
	if db.Dialect() == bunstore.DialectPostgres {
		analyze = "VACUUM ANALYZE"
	}
	_, err := db.Bun().ExecContext(ctx, analyze)
	require.NoError(tb, err)
	sort.Slice(set, func(i, k int) bool { return set[i].addr < set[k].addr })
	return set
}

// refDraw is the draw rule over a seeded set, for the seeding's check.
func refDraw(seed [32]byte, set []seededJuror, size int, skip string) []string {
	left := make([]seededJuror, 0, len(set))
	for _, j := range set {
		if j.addr != skip {
			left = append(left, j)
		}
	}
	var out []string
	for i := 0; i < size && len(left) > 0; i++ {
		var total int64
		for _, j := range left {
			total += j.stake
		}
		var word [32]byte
		binary.BigEndian.PutUint64(word[24:], uint64(i))
		r := new(big.Int).SetBytes(crypto.Keccak256(seed[:], word[:]))
		off := r.Mod(r, big.NewInt(total)).Int64()
		for k, j := range left {
			if off < j.stake {
				out = append(out, j.addr)
				left = append(left[:k:k], left[k+1:]...)
				break
			}
			off -= j.stake
		}
	}
	return out
}

// TestJuryDrawPlan: on both engines, with 10,000 eligible jurors (and
// history), a panel of 21 is drawn in 2 + 21 x (depth + 1) statements,
// whatever the size of the set (O(N log M) reads: each level reads 16
// primary-key entries, the last its prefix's few addresses), and every
// one walks a primary key: no full scan, no sort. The panel is the
// rule's. Then the checker fails without the index.
func TestJuryDrawPlan(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			set := seedJurors(t, db, planRows)
			ctx := context.Background()
			log := &queryLog{}
			bunstore.AddQueryHook(db, log)
			runs := bunstore.HotRuns(db)
			seed := [32]byte{7, 7, 7}
			sponsor := openjury.Address(set[len(set)/3].addr)
			panel, count, total, err := marketplace.DrawPanel(ctx, db.Jurors(), juryVersionSeeded, seed, 21, sponsor)
			require.NoError(t, err)
			statements := int64(len(log.take())) + bunstore.HotRuns(db) - runs
			require.Equal(t, int64(2+21*(bunstore.JuryPrefixDepth+1)), statements, "statements of a draw of 21")
			require.Equal(t, int64(len(set)-1), count)
			var sum int64
			for _, j := range set {
				sum += j.stake
			}
			require.Equal(t, sum-set[len(set)/3].stake, int64(total))
			got := make([]string, len(panel))
			for i, j := range panel {
				got[i] = j.Address.String()
			}
			require.Equal(t, refDraw(seed, set, 21, string(sponsor)), got)

			// The eligible set read back in pages of 777 (the walk crosses
			// chunks of history rows, some splitting an address's rows):
			// exactly the set, at version 2 and at version 1.
			for _, v := range []int64{1, juryVersionSeeded} {
				var got []seededJuror
				var after openjury.Address
				for {
					n := 0
					require.NoError(t, db.Jurors().ScanEligible(ctx, v, after, 777, func(j marketplace.Juror) bool {
						got = append(got, seededJuror{j.Address.String(), int64(j.Stake)})
						after, n = j.Address, n+1
						return true
					}))
					if n < 777 {
						break
					}
				}
				want := set
				if v == 1 {
					want = nil
					for i := range planRows {
						var b [8]byte
						binary.BigEndian.PutUint64(b[:], uint64(i))
						want = append(want, seededJuror{"0x" + fmt.Sprintf("%x", crypto.Keccak256(b[:])[:20]), int64(10+(i*7919)%9991) * openjury.MicroPerUSDC})
					}
					sort.Slice(want, func(i, k int) bool { return want[i].addr < want[k].addr })
				}
				require.Equal(t, want, got, "version %d", v)
			}

			children, leaf, scan := bunstore.JurySQL()
			childArgs := make([]any, 0, 32)
			for _, c := range "0123456789abcdef" {
				childArgs = append(childArgs, "a"+string(c), juryVersionSeeded)
			}
			pk := map[string]string{
				bunstore.DialectSQLite:   "USING PRIMARY KEY (", // WITHOUT ROWID tables
				bunstore.DialectPostgres: "jury_sums_pkey|juror_versions_pkey",
			}[db.Dialect()]
			for _, c := range []struct {
				name string
				q    string
				args []any
			}{
				{"children", children, childArgs},
				{"leaf", leaf, []any{"0x" + set[5].addr[2:6], "0x" + set[5].addr[2:6] + "g", juryVersionSeeded}},
				{"scan", scan, []any{set[100].addr, int64(1) << 62, 500}},
			} {
				plan := explain(t, db, c.q, c.args...)
				require.Empty(t, checkPlan(db.Dialect(), plan, pk, false), "%s:\n%s", c.name, strings.Join(plan, "\n"))
				t.Logf("%s plan:\n%s", c.name, strings.Join(plan, "\n"))
			}
			_, err = db.Bun().ExecContext(ctx, "DROP TABLE jury_sums")
			require.NoError(t, err)
			_, err = db.Bun().ExecContext(ctx, `CREATE TABLE jury_sums (prefix TEXT, version BIGINT, total_micro BIGINT, jurors BIGINT)`)
			require.NoError(t, err)
			plan := explain(t, db, children, childArgs...)
			require.NotEmpty(t, checkPlan(db.Dialect(), plan, pk, false), "without its primary key the checker fails")
		})
	}
}

// BenchmarkJuryDraw draws a panel of 21 from -bench.jurors eligible
// jurors (100,000 by default) on SQLite, a new seed each time, and
// reports the statements a draw runs (BENCHMARKS.md, "Jury draws"). With
// -bench.pg, on PostgreSQL too.
func BenchmarkJuryDraw(b *testing.B) {
	engines := []struct {
		name string
		dsn  func(testing.TB) string
	}{{"sqlite", sqliteDSN}}
	if *benchPG {
		engines = append(engines, struct {
			name string
			dsn  func(testing.TB) string
		}{"postgres", backends[1].dsn})
	}
	for _, e := range engines {
		b.Run(e.name, func(b *testing.B) {
			db := open(b, e.dsn(b))
			set := seedJurors(b, db, *juryBenchJurors)
			log := &queryLog{}
			bunstore.AddQueryHook(db, log)
			runs := bunstore.HotRuns(db)
			ctx := context.Background()
			b.ResetTimer()
			var seed [32]byte
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				binary.BigEndian.PutUint64(seed[:], uint64(i))
				panel, _, _, err := marketplace.DrawPanel(ctx, db.Jurors(), juryVersionSeeded, seed, 21, openjury.Address(set[0].addr))
				if err != nil || len(panel) != 21 {
					b.Fatal(err, len(panel))
				}
			}
			b.ReportMetric(float64(int64(len(log.take()))+bunstore.HotRuns(db)-runs)/float64(b.N), "statements/op")
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/draw")
		})
	}
}

// benchPG adds PostgreSQL to BenchmarkJuryDraw.
var benchPG = flag.Bool("bench.pg", false, "BenchmarkJuryDraw on PostgreSQL too")
