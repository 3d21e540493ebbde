package web_test

import (
	"os"
	"testing"

	"github.com/openjury/openjury/openjurytest/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
