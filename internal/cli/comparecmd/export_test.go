package comparecmd

// Strategies are the strategies of compare --strategies, for
// comparecmd_test.
var Strategies = compareStrategies
