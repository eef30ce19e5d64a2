package satcmd_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/internal/cli"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/testutil"
)

// TestMain lets the test binary stand in for the queens command (see
// clitest.Main), and with QUEENS_TEST_TO_LRAT=1 for the converter of
// fakeCaDiCaL2: CNF DRAT OUT writes to OUT the DRAT proof of CNF as
// binary LRAT, or with a fourth argument "text" as text LRAT (without its
// last step with QUEENS_TEST_LRAT_BREAK=1).
func TestMain(m *testing.M) {
	if os.Getenv("QUEENS_TEST_TO_LRAT") == "1" {
		if err := toLRAT(os.Args[1], os.Args[2], os.Args[3], len(os.Args) > 4 && os.Args[4] == "text"); err != nil {
			fmt.Fprintln(os.Stderr, "c to LRAT:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	clitest.Main(m, cli.Run, nil)
}

// toLRAT converts the DRAT proof at dratPath of the CNF at cnfPath to
// LRAT at out (drat.ConvertDRAT), binary unless text (testutil.BinaryLRAT).
func toLRAT(cnfPath, dratPath, out string, text bool) error {
	cnf, err := os.Open(cnfPath)
	if err != nil {
		return err
	}
	defer cnf.Close()
	f, err := drat.ReadCNF(cnf)
	if err != nil {
		return err
	}
	proof, err := os.Open(dratPath)
	if err != nil {
		return err
	}
	defer proof.Close()
	var buf bytes.Buffer
	if _, err := drat.ConvertDRAT(context.Background(), f, proof, &buf); err != nil {
		return err
	}
	lrat := buf.String()
	if os.Getenv("QUEENS_TEST_LRAT_BREAK") == "1" {
		// The empty clause, the proof's last step, left out.
		lrat = lrat[:strings.LastIndex(strings.TrimSuffix(lrat, "\n"), "\n")+1]
	}
	if text {
		return os.WriteFile(out, []byte(lrat), 0o644)
	}
	return os.WriteFile(out, testutil.BinaryLRAT(lrat), 0o644)
}
