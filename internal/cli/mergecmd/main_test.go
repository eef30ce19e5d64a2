package mergecmd_test

import (
	"testing"

	"github.com/queens-dev/queens/internal/cli"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestMain lets the test binary stand in for the queens command (see
// clitest.Main).
func TestMain(m *testing.M) { clitest.Main(m, cli.Run, nil) }
